package report

import (
	"context"
	"errors"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
)

// Problem is one finding of `hermes-hooks validate`: where (file, line,
// key path), how bad, and what.
type Problem struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	// Column is the character on Line (JSON syntax errors); 0: unknown.
	Column int `json:"column,omitempty"`
	// Key is the key path in the file ("hooks.pre_tool_call[1].matchr").
	Key string `json:"key,omitempty"`
	// Level is "error" (something written is ignored, changed, or cannot
	// run: validate exits 1) or "warning" (it means what it says, only
	// less).
	Level   string `json:"level"`
	Message string `json:"message"`
}

// Problem levels.
const (
	LevelError   = "error"
	LevelWarning = "warning"
)

// Validate lists every problem of a loaded configuration without running
// anything: the loader's warnings, then StartProblems, ordered by file and line.
// Rules are compiled, and the examples of those that may run are
// evaluated: the user's own, and a repository's approved in allow (nil:
// none is).
func Validate(cfg *hookconfig.Config, cwd string, allow *consent.File) []Problem {
	lines := lineFinder{}
	ps := append(configProblems(cfg, lines), warningProblems(cfg, cfg.Advice(), lines)...)
	ps = append(ps, ruleProblems(context.Background(), cfg, cwd, allow, lines)...)
	ps = append(ps, foreignProblems(cfg, lines)...)
	ps = append(ps, UnloadedRefusals(cfg, allow)...)
	ps = append(ps, unloadedMore(cfg)...)
	return managedFirst(cfg, sorted(append(ps, startProblems(cfg, cwd, lines)...)))
}

// DoctorConfigProblems are what doctor reports about the config files it
// reads: the loader's warnings and validate's advice (a
// matcher that never matches: the config loads and runs, and a guard
// written so never fires), ordered by file and line. counted is how many
// are doctor's problems: every warning of the loader, as doctor always
// counted them, and the advice validate fails on (its errors); a warning
// of the advice (a relative command in a user-level file) is shown only,
// as validate passes it.
func DoctorConfigProblems(cfg *hookconfig.Config) (ps []Problem, counted int) {
	lines := lineFinder{}
	ps = configProblems(cfg, lines)
	counted = len(ps)
	advice := warningProblems(cfg, cfg.Advice(), lines)
	counted += Errors(advice)
	return managedFirst(cfg, sorted(append(ps, advice...))), counted
}

// UnloadedRefusals are the repositories' hooks files that do not load
// while the repository has an approved hook (allow; nil: the allowlist
// could not be read, so nobody can tell): the dispatcher refuses every
// gating call meanwhile, as a guard may be missing (dispatcher's
// unloadedRefusal), and the loader's warning says only that the file was
// skipped. A repository nobody approved refuses nothing and is not listed.
func UnloadedRefusals(cfg *hookconfig.Config, allow *consent.File) []Problem {
	var out []Problem
	seen := map[string]bool{}
	for _, u := range cfg.Unloaded {
		if u.Managed || u.Bundle || u.File == "" || seen[u.File] || (allow != nil && !allow.HasProject(u.Project)) {
			continue
		}
		seen[u.File] = true
		out = append(out, Problem{File: u.File, Level: LevelError,
			Message: "tool calls are refused until this file loads (hooks of this repository are approved, so a guard may be missing): fix it, or check out a version that loads, then run 'hermes-hooks doctor'"})
	}
	return out
}

// unloadedMore are the further problems (ConfigError.More) of the
// repositories' hooks files that did not load (with the rule files they
// include), and the warnings of the file that failed: their warning names
// the first and says "validate lists them", so validate does, each at its
// file and line — else a repository's file was fixed one mistake per run.
func unloadedMore(cfg *hookconfig.Config) []Problem {
	var out []Problem
	lines := lineFinder{}
	for _, u := range cfg.Unloaded {
		var ce *hookconfig.ConfigError
		if u.Managed || u.Bundle || u.File == "" || !errors.As(u.Err, &ce) {
			continue
		}
		for _, m := range ce.More {
			out = append(out, LoadProblem(m))
		}
		out = append(out, warningProblems(&hookconfig.Config{Path: ce.Path}, ce.Warnings, lines)...)
	}
	return out
}

func sorted(ps []Problem) []Problem {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		return ps[i].Line < ps[j].Line
	})
	return ps
}

func configProblems(cfg *hookconfig.Config, lines lineFinder) []Problem {
	return warningProblems(cfg, cfg.Warnings, lines)
}

// warningProblems are warnings (the loader's, or the config's Advice) as
// problems, each with its line.
func warningProblems(cfg *hookconfig.Config, warnings []hookconfig.Warning, lines lineFinder) []Problem {
	var out []Problem
	for _, w := range warnings {
		file := w.File
		if file == "" {
			file = cfg.Path
		}
		key := warningKey(w)
		level := LevelError
		if w.Minor {
			level = LevelWarning
		}
		// A settings file's warnings name it first, for stderr; here its
		// name is the problem's file already.
		msg := w.String()
		if w.File != "" {
			msg = strings.TrimPrefix(msg, w.File+": ")
		}
		line := w.Line
		if line == 0 {
			line = lines.find(file, key)
		}
		out = append(out, Problem{File: file, Line: line, Key: key, Level: level, Message: msg})
	}
	return out
}

// startProblems are the hooks whose command cannot start
// (cmdpin.Target.StartProblem), each located at its entry. cwd is where
// relative commands are resolved, as list and dispatch resolve them.
func startProblems(cfg *hookconfig.Config, cwd string, lines lineFinder) []Problem {
	var out []Problem
	listed := cfg.Listed
	if listed == nil {
		listed = cfg.Entries
	}
	for _, e := range listed {
		if e.Duplicate || !e.RunsCommand() {
			continue
		}
		t := consent.Inspect(dispatcher.ConsentRequest(e, cwd, nil), nil).Target
		key := entryKey(e)
		why := t.StartProblem()
		if why == "" && !e.ViaShell() {
			why = t.NoLauncher()
		}
		if why != "" {
			out = append(out, Problem{File: e.Source, Line: lines.find(e.Source, key), Key: key, Level: LevelError,
				Message: "[" + e.DeclaredAs + "] " + e.Text() + ": cannot start: " + why})
		}
		if t.Opaque != "" {
			msg := "[" + e.DeclaredAs + "] " + e.Text() + ": ⚠ approved by its text only (" + t.Opaque + "): the files it runs cannot be determined, so what it runs can change without a new approval"
			if consent.NeedsTextOnlyAck(e.FailClosed, &t) {
				msg += "; a fail_closed guard is approved so only with " + consent.ApproveTextOnlyHintFor(e.DeclaredAs, e.Text(), e.Scope)
			}
			out = append(out, Problem{File: e.Source, Line: lines.find(e.Source, key), Key: key, Level: LevelWarning, Message: msg})
		}
	}
	return out
}

// LoadProblem is the problem of a config that cannot be loaded at all.
func LoadProblem(err error) Problem {
	var ce *hookconfig.ConfigError
	if errors.As(err, &ce) {
		msg := ce.Err.Error()
		return Problem{File: ce.Path, Line: ce.Line, Column: ce.Column, Key: strings.TrimRight(loadErrorKey().FindString(msg), ":"), Level: LevelError, Message: msg}
	}
	return Problem{Level: LevelError, Message: err.Error()}
}

// loadErrorKey finds the key path a load error's message starts with
// ("hooks.pre_tool_call[0].decision must be …"), for Problem.Key as the
// other problems have it: dotted names and indexes, an event's name as
// written (pre_tool_call:terminal), at least one dot or index.
var loadErrorKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z_]+(\.[^\s.\[\]]+|\[[0-9]+\])+`)
})

// LoadProblems are LoadProblem, the further problems the load found
// (ConfigError.More), the failed file's warnings, and the rule problems
// (ruleProblems: a rule that does not compile, an example that fails) of
// the entries that did load (ConfigError.Partial), ordered by file and
// line: fixing what stops the load does not only show the next mistake.
// cwd is the folder examples are decided in, as for Validate.
func LoadProblems(err error, cwd string) []Problem {
	ps := []Problem{LoadProblem(err)}
	var ce *hookconfig.ConfigError
	if errors.As(err, &ce) {
		for _, m := range ce.More {
			ps = append(ps, LoadProblem(m))
		}
		lines := lineFinder{}
		ps = append(ps, warningProblems(&hookconfig.Config{Path: ce.Path}, ce.Warnings, lines)...)
		if ce.Partial != nil {
			// The user's own entries: none needs an approval (nil).
			ps = append(ps, ruleProblems(context.Background(), ce.Partial, cwd, nil, lines)...)
		}
	}
	return sorted(ps)
}

// Errors counts the problems of level error.
func Errors(ps []Problem) int {
	n := 0
	for _, p := range ps {
		if p.Level == LevelError {
			n++
		}
	}
	return n
}

// warningKey is the key path a warning is about: its Key, else its Path,
// with the key its message starts with (".timeout must be …"), without the
// file name a settings file's warnings put in front.
func warningKey(w hookconfig.Warning) string {
	if w.Key != "" {
		return w.Key
	}
	key := w.Path
	if w.File != "" {
		key = strings.TrimPrefix(key, w.File+": ")
	}
	if rest, ok := strings.CutPrefix(w.Message, "."); ok {
		if m := leadingKey().FindString(rest); m != "" {
			key += "." + m
		}
	}
	return key
}

// Compiled at first use, not at every start of the binary.
var leadingKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*`) })

// entryKey is the key path of an entry in its file.
func entryKey(e *hookconfig.Entry) string {
	return "hooks." + e.DeclaredAs + "[" + strconv.Itoa(e.Index) + "]"
}

// lineFinder finds the line of a key path in a YAML (or JSON) file, each
// file read and parsed once.
type lineFinder map[string]*yaml.Node

func (f lineFinder) find(file, key string) int {
	if file == "" || key == "" {
		return 0
	}
	root, seen := f[file]
	if !seen {
		data, err := hookconfig.ReadSource(file) // a built-in rule file's too
		if err == nil {
			var doc yaml.Node
			if yaml.Unmarshal(data, &doc) == nil && len(doc.Content) == 1 {
				root = doc.Content[0]
				// As the config was read: a merged key is found at
				// the line it is written on, in its anchor.
				_, _ = pyyaml.Flatten(root, 0)
			}
		}
		f[file] = root
	}
	n := root
	line := 0
	for _, seg := range splitKey(key) {
		if n == nil {
			break
		}
		n = child(n, seg)
		if n != nil {
			line = n.Line
		}
	}
	return line
}

// splitKey splits "hooks.pre_tool_call[1].matcher" into hooks,
// pre_tool_call, [1], matcher. Event names hold no dots.
func splitKey(key string) []string {
	var out []string
	for _, part := range strings.Split(key, ".") {
		for part != "" {
			i := strings.IndexByte(part, '[')
			if i < 0 {
				out = append(out, part)
				break
			}
			if i > 0 {
				out = append(out, part[:i])
			}
			j := strings.IndexByte(part[i:], ']')
			if j < 0 {
				out = append(out, part[i:])
				break
			}
			out = append(out, part[i:i+j+1])
			part = part[i+j+1:]
		}
	}
	return out
}

// child is the node under n named by one key segment: a mapping key's
// value (at the key's line) or a [index] of a sequence.
func child(n *yaml.Node, seg string) *yaml.Node {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if strings.HasPrefix(seg, "[") {
		i, err := strconv.Atoi(strings.Trim(seg, "[]"))
		if err != nil || n.Kind != yaml.SequenceNode || i < 0 || i >= len(n.Content) {
			return nil
		}
		return n.Content[i]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == seg {
			// The line of a key is the key's own, whatever its value: an
			// unknown event is reported where it is written, not at its
			// first entry.
			v := n.Content[i+1]
			return &yaml.Node{Kind: v.Kind, Line: n.Content[i].Line, Content: v.Content}
		}
	}
	return nil
}

// MissingConfig is the problem of a --config file that does not exist:
// the user named it on purpose, so it is an error, not "no hooks".
func MissingConfig(path string) (Problem, bool) {
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		return Problem{}, false
	}
	return Problem{File: path, Level: LevelError, Message: "no such file: the config named by --config does not exist"}, true
}
