package hookconfig

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	agenthooks "github.com/hermes-hooks/hermes-hooks/agent-hooks"
	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
)

// Built-in rule files: `rules: [builtin:force-push]` includes the
// ready-made rule file built into the binary (agent-hooks/rules, package
// agenthooks), so that a binary installed without a checkout has them.
// Such an include reads nothing from disk and resolves no path: its name
// is looked up among the built-in ones, and a name that is not one of
// them — a path, an empty name, anything else — is an error, never a
// read. Its entries' Source is "builtin:NAME", what a report shows where
// it names a rule's file (validate's builtin:force-push:12); each rule
// also has an id (force-push/push-force), its name wherever a rule is
// named (log, replay, export, a refusal), which no edit of its file
// above it moves (TestBuiltinRuleIDs). It counts against the bounds a file would
// (MaxRuleFiles; a repository's shared bytes and entries), and a
// repository's rules from it are approved as any of the repository's
// rules are: pinned to their text, which a binary upgrade may change.

// BuiltinPrefix begins a rules: include, and the Source of its entries,
// that names a rule file built into the binary.
const BuiltinPrefix = "builtin:"

// IsBuiltin says whether source (an Entry's Source, a rules: include)
// names a built-in rule file rather than a file on disk.
func IsBuiltin(source string) bool { return strings.HasPrefix(source, BuiltinPrefix) }

// SourceFile is the file on disk e was read from: its Source, "" when
// that is a built-in rule file (the binary's: no file to watch or to
// check settled) or nothing.
func (e *Entry) SourceFile() string {
	if IsBuiltin(e.Source) {
		return ""
	}
	return e.Source
}

// BuiltinRuleNames are the names of the built-in rule files, sorted.
func BuiltinRuleNames() []string { return agenthooks.Rules() }

// BuiltinRule is the text of the built-in rule file named name
// (force-push, force-push.yaml or builtin:force-push) and its Source
// (builtin:force-push); the error says why there is none and which
// there are.
func BuiltinRule(name string) (source string, data []byte, err error) {
	bare := strings.TrimSuffix(strings.TrimPrefix(name, BuiltinPrefix), ".yaml")
	if err := builtinNameProblem(bare); err != nil {
		return "", nil, err
	}
	data, ok := agenthooks.Rule(bare)
	if !ok {
		msg := "no built-in rule file is named " + bare
		if s := suggest.Closest(bare, agenthooks.Rules()); s != "" {
			msg += " (did you mean " + BuiltinPrefix + s + "?)"
		}
		return "", nil, errors.New(msg + "; " + knownBuiltins())
	}
	return BuiltinPrefix + bare, data, nil
}

// builtinNameProblem refuses a name that could only be meant as a path
// or is no name at all, before any lookup.
func builtinNameProblem(bare string) error {
	if bare == "" {
		return errors.New("builtin: names no rule file; " + knownBuiltins())
	}
	for _, r := range bare {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return fmt.Errorf("%s is not the name of a built-in rule file: they are named by lowercase letters, digits and -, not by a path (for a file of your own, name its path without builtin:); %s", shownInclude(bare), knownBuiltins())
		}
	}
	return nil
}

// knownBuiltins lists the built-in rule files for an error.
func knownBuiltins() string {
	return "the built-in ones are " + strings.Join(agenthooks.Rules(), ", ") + " (hermes-hooks rules lists them)"
}

// BuiltinRuleFile describes a built-in rule file for `hermes-hooks rules`.
type BuiltinRuleFile struct {
	// Name is what follows builtin: in a rules: include.
	Name string `json:"name"`
	// Title is the file's leading comment's first words, up to its ":".
	Title string `json:"title"`
	// Rules counts its rule entries.
	Rules int `json:"rules"`
	// IDs are its rules' ids in file order (every ready-made rule has
	// one: what log --hook, replay, export and a refusal name it by).
	IDs []string `json:"ids"`
}

// BuiltinRuleFiles describes every built-in rule file, as Load reads it.
func BuiltinRuleFiles() ([]BuiltinRuleFile, error) {
	var out []BuiltinRuleFile
	for _, name := range agenthooks.Rules() {
		src, data, err := BuiltinRule(name)
		if err != nil {
			return nil, err
		}
		cfg, err := parseConfigWithin(data, src, 0, false, nil)
		if err != nil {
			return nil, err
		}
		ids := make([]string, 0, len(cfg.Entries))
		for _, e := range cfg.Entries {
			if r := e.Rule(); r != nil && r.ID != "" {
				ids = append(ids, r.ID)
			}
		}
		out = append(out, BuiltinRuleFile{Name: name, Title: builtinTitle(data), Rules: len(cfg.Entries), IDs: ids})
	}
	return out, nil
}

// builtinTitle is the first line of data's leading comment up to its
// first ": " (all of that line when it has none).
func builtinTitle(data []byte) string {
	line, _, _ := strings.Cut(string(data), "\n")
	line, ok := strings.CutPrefix(strings.TrimSpace(line), "#")
	if !ok {
		return ""
	}
	line = strings.TrimSpace(line)
	if t, _, ok := strings.Cut(line, ": "); ok {
		return t
	}
	return line
}

// ReadSource reads the file an entry's Source names, as the config was
// read: a built-in rule file's embedded text, else the file
// (ReadConfigFile). For what reports show of an entry (its line).
func ReadSource(source string) ([]byte, error) {
	if IsBuiltin(source) {
		_, data, err := BuiltinRule(source)
		return data, err
	}
	return ReadConfigFile(source)
}

// includeBuiltin is includeRules for inc, a builtin: include of cfg (or
// any include of a built-in file, which may name built-in ones only:
// relative to what would its path be read?). Nothing is read from disk.
func (rr *ruleReader) includeBuiltin(cfg *Config, inc ruleInclude, chain []string) error {
	at := func(err error) error {
		return &ConfigError{Path: cfg.Path, Line: inc.line, Err: fmt.Errorf("rules: %s: %w", shownInclude(inc.name), err)}
	}
	if !IsBuiltin(inc.name) {
		return at(errors.New("a built-in rule file may include built-in ones only"))
	}
	src, data, err := BuiltinRule(inc.name)
	if err != nil {
		return at(err)
	}
	if slices.Contains(chain, src) {
		return at(fmt.Errorf("includes itself (%s)", strings.Join(append(chain[slices.Index(chain, src):], src), " → ")))
	}
	if slices.Contains(rr.builtins, src) {
		return nil // included already: once is enough
	}
	if len(rr.read)+len(rr.builtins) >= MaxRuleFiles {
		return at(fmt.Errorf("more than %d rule files are included", MaxRuleFiles))
	}
	rr.builtins = append(rr.builtins, src)
	limit := 0
	if rr.root != "" {
		// A repository's (or bundle's): its bytes and entries count as
		// a file's would, whoever wrote them.
		if rr.total+projectBytes(len(data)) > MaxProjectFileBytes {
			return at(fmt.Errorf("a repository's or bundle's hooks file and the rule files it includes may hold %d bytes together; this one would pass that (%d read before it)", MaxProjectFileBytes, rr.total))
		}
		rr.total += projectBytes(len(data))
		limit = MaxProjectEntries
	}
	return rr.merge(cfg, src, data, limit, at, chain)
}

// builtinIn says whether p, a rule file rr included, is a built-in one
// (its Source, in builtins) rather than a file.
func (rr *ruleReader) builtinIn(p string) bool { return slices.Contains(rr.builtins, p) }

// shownInclude is a rules: include as an error shows it: quoted when it
// holds anything but printable ASCII.
func shownInclude(name string) string {
	if strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
		return strconv.QuoteToASCII(name)
	}
	return name
}
