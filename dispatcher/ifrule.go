package dispatcher

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/protocol/permrule"
)

// Claude Code handlers may carry "if": a permission rule (Bash(git *),
// Edit(src/**), WebFetch(domain:x.com) …) that filters which tool calls run
// the handler (permrule.ParseIfRule has the syntax). A rule is parsed once,
// when the config is loaded. On events that are not tool events the handler
// never runs, as in Claude Code. A rule that cannot be evaluated must not
// become a silently skipped guard: such a handler is selected, and on the
// gating event it blocks the call with the reason (elsewhere it is skipped
// and reported).

// IfAllows reports whether the entry's Claude `if` rule (if any) lets it
// run for the firing f (bound to this dispatcher here), as Dispatch selects: `hermes-hooks test` says which
// hooks it filtered out so (a rule that cannot be evaluated lets the entry
// through, to be blocked or reported).
func (d *Dispatcher) IfAllows(e *hookconfig.Entry, f *protocol.Firing) bool {
	d.bind(f)
	return d.ifAllows(f.Event, e, f, nil, ifStop())
}

// ifBound bounds the analysis of one firing's if rules. Past it, each
// rule still to be matched lets its entry through, as one whose command
// cannot be read does: the hook runs and decides. A command people write
// is analysed in microseconds, 64 KiB of one in a fifth of a second; a
// hostile one must not hold the dispatch until the agent stops waiting
// (it then reads no answer, which most agents take as no objection, so
// the other guards of the call would be lost with it). A var for tests.
var ifBound = time.Second

// ifStop is the stop of the if rules of a firing whose selection starts
// now (permrule.RuleContext.Stop).
func ifStop() func() bool {
	end := time.Now().Add(ifBound)
	// Not After: a clock that has not moved since (Windows') has reached
	// an end that is now.
	return func() bool { return !time.Now().Before(end) }
}

// ifAllows reports whether the entry's if rule (if any) lets it run for
// this firing. A rule that cannot be evaluated lets it through to be
// blocked or reported by Dispatch. memo (nil: none) is the firing's
// (permrule.Memo), stop its ifStop.
func (d *Dispatcher) ifAllows(ev *protocol.Event, e *hookconfig.Entry, f *protocol.Firing, memo *permrule.Memo, stop func() bool) bool {
	if e.If == "" {
		return true
	}
	if !ev.IfRule {
		return false
	}
	if e.IfRule() == nil {
		return true // broken: Dispatch blocks or reports it
	}
	input := f.ArgsMap()
	if input == nil {
		input = map[string]any{}
	}
	claudeTool := f.ClaudeTool
	input = protocol.ClaudeToolInput(claudeTool, input)
	ctx := permrule.RuleContext{Cwd: f.Cwd, ProjectDir: e.ProjectDir, Memo: memo, Stop: stop}
	if ctx.ProjectDir == "" {
		ctx.ProjectDir = ctx.Cwd
	}
	ctx.Home, _ = os.UserHomeDir()
	ok, _ := e.IfRule().Match(claudeTool, input, ctx)
	if ok || !e.IfRule().IsPathRule() {
		return ok
	}
	return matchesWhereItLeads(e.IfRule(), claudeTool, input, ctx) || isNamedFile(e.IfRule(), claudeTool, input, ctx)
}

// isNamedFile reports whether the call's file is, by device and inode, the
// file a wildcard-free path rule names (permrule.NamedFile): a hard link
// to .env reads and writes .env under another name, and no path — neither
// as written nor where symlinks lead — says so (issue 31). Hard links to
// the files a wildcard covers are not found: that would take a walk.
func isNamedFile(r *permrule.IfRule, tool string, input map[string]any, ctx permrule.RuleContext) bool {
	named, ok := r.NamedFile(tool, ctx)
	if !ok {
		return false
	}
	file, ok := permrule.CallFile(tool, input, ctx)
	if !ok {
		return false
	}
	fi, err := os.Stat(file)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	ni, err := os.Stat(named)
	return err == nil && os.SameFile(fi, ni)
}

// matchesWhereItLeads reports whether a path rule matches the file a call
// names once symlinks are followed (issue 23): a link inside the project
// to a protected path must run the guard on that path, so the rule is
// matched against the physical path, under both the anchors as given and
// the anchors' own physical paths. What cannot be resolved runs the hook.
func matchesWhereItLeads(r *permrule.IfRule, tool string, input map[string]any, ctx permrule.RuleContext) bool {
	file, ok := permrule.CallFile(tool, input, ctx)
	if !ok {
		return false // no file; unknown directories already matched
	}
	phys, err := physicalPath(file)
	if err != nil {
		return true
	}
	if phys != filepath.Clean(file) {
		if m, _ := r.MatchFile(tool, phys, ctx); m {
			return true
		}
	}
	pctx := ctx
	for _, d := range []*string{&pctx.Cwd, &pctx.ProjectDir, &pctx.Home} {
		if *d == "" {
			continue
		}
		if *d, err = physicalPath(*d); err != nil {
			return true
		}
	}
	same := pctx.Cwd == ctx.Cwd && pctx.ProjectDir == ctx.ProjectDir && pctx.Home == ctx.Home
	if same && phys == filepath.Clean(file) {
		return false
	}
	m, _ := r.MatchFile(tool, phys, pctx)
	return m
}

// maxSymlinkHops is Linux's bound (MAXSYMLINKS) on the links one lookup
// follows.
const maxSymlinkHops = 40

// physicalPath returns where an absolute path leads, as the kernel would
// open it: components followed one at a time from the root, each symlink
// replaced by its target, ".." applied to the directory reached rather than
// to the text. A tail that does not exist (yet) is kept as written: Write
// creates it, through a dangling link too. An error — a loop, a component
// that cannot be read, a relative path — means it cannot be told.
func physicalPath(p string) (string, error) {
	if filepath.Separator != '/' {
		return p, nil // Windows: the pure matcher compares slash paths only
	}
	if !strings.HasPrefix(p, "/") {
		return "", errors.New(p + " is not an absolute path")
	}
	todo := strings.Split(p, "/")
	cur, hops := "/", 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			return filepath.Join(append([]string{next}, todo...)...), nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > maxSymlinkHops {
			return "", errors.New(p + ": too many levels of symbolic links")
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if strings.HasPrefix(target, "/") {
			cur = "/"
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	return cur, nil
}
