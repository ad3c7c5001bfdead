package report

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// A line in the form install writes names the program it runs, and the
// form alone does not make it ours: a repository's hook file can name any
// program in it. doctor (checkInstall) and list and validate (ForeignLines)
// judge the program the one way, programOf.

// What a line of ours runs, by programOf.
const (
	programOurs    = iota // this hermes-hooks, the one on PATH, or no program of the folder's
	programForeign        // an existing file that is neither
	programMissing        // an absolute path that names nothing (yet)
)

// programOf is the program command, a line of ours run in the folder dir,
// runs, and what it is: programForeign when that is an existing file
// other than this hermes-hooks and the one on PATH; programMissing when
// an absolute form names nothing. The absolute forms match any path (a
// renamed copy is still ours to refresh or remove), so in a project's
// file, which the repository writes, '/bin/sh' hook claude PreToolUse
// reads as ours: run in the project's folder, sh would run the
// repository's file "hook". A path that names nothing runs nothing today
// (the prologue answers, or the shell says not found), but whoever can
// create it later runs in place of hermes-hooks.
// The PATH form runs what sh finds from dir: through an empty or relative
// entry of PATH, a file of the repository's; run by cmd.exe (cmd), a
// hermes-hooks of dir's own (cmdInFolder). ours gives this hermes-hooks
// and the one on PATH (ourPrograms), asked only for an existing file.
func programOf(command, dir string, cmd bool, ours func() []string) (exe string, verdict int) {
	exe, _, _ = lineForm(command)
	if exe == "" && cmd {
		exe = cmdInFolder(dir)
	} else if exe == "" {
		exe = relativeOnPath(dir)
	}
	if exe == "" {
		return "", programOurs
	}
	if fsutil.ViaProcess(exe) {
		// Whatever it names here, it names another program for the
		// agent's shell: never ours.
		return exe, programForeign
	}
	fi, err := os.Stat(filepath.FromSlash(exe))
	if err != nil && runtime.GOOS != "windows" && windowsPath(exe) {
		// A Windows form read elsewhere (a file written by an install on
		// Windows): no program of this system can ever be at that path.
		return "", programOurs
	}
	if err != nil {
		return exe, programMissing
	}
	for _, p := range ours() {
		if o, err := os.Stat(p); err == nil && os.SameFile(fi, o) {
			return "", programOurs
		}
	}
	return exe, programForeign
}

// ourPrograms are the paths of this hermes-hooks and of the one on PATH,
// those that can be told.
func ourPrograms() []string {
	var ours []string
	if self, err := os.Executable(); err == nil {
		ours = append(ours, self)
	}
	if onPath, err := exec.LookPath(agents.ProgramName); err == nil {
		ours = append(ours, onPath)
	}
	return ours
}

// windowsPath reports whether p starts with a Windows drive (C:\, C:/).
func windowsPath(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// foreignProgram is doctor's use of programOf: the program when it is
// foreign, "" otherwise. A path that names nothing is not foreign here:
// doctor runs the line to say what the agent gets (the prologue's
// refusal, or the shell's not found).
func foreignProgram(command, dir string, cmd bool) string {
	if exe, v := programOf(command, dir, cmd, ourPrograms); v == programForeign {
		return exe
	}
	return ""
}

// relativeOnPath is the hermes-hooks sh finds first on PATH from dir when
// it finds it through an empty or relative entry (which sh reads from
// dir); "" when it finds none, or one in an absolute folder.
func relativeOnPath(dir string) string {
	if runtime.GOOS == "windows" {
		return "" // the agents' Windows shells: see their own forms
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		rel := !filepath.IsAbs(d)
		if rel {
			d = filepath.Join(dir, d) // "" is the folder itself
		}
		p := filepath.Join(d, agents.ProgramName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			if rel {
				return p
			}
			return ""
		}
	}
	return ""
}

// cmdInFolder is the hermes-hooks cmd.exe would find in dir, the current
// folder, before PATH ("" when there is none): cmd.exe looks there first
// unless NoDefaultCurrentDirectoryInExePath is set, which older Codex
// lines of ours do not set and Wine's cmd.exe ignores. doctor does not run
// such a line in a project's folder: the file is the repository's.
func cmdInFolder(dir string) string {
	exts := os.Getenv("PATHEXT")
	if exts == "" {
		exts = ".COM;.EXE;.BAT;.CMD"
	}
	for _, ext := range strings.Split(exts, ";") {
		if ext == "" {
			continue
		}
		p := filepath.Join(dir, agents.ProgramName+strings.ToLower(ext))
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// ProgramMissing is a ForeignCommand's Status when its program names
// nothing (beside FireForeign, "not_hermes_hooks").
const ProgramMissing = "missing"

// ForeignCommand is a line of an agent's hook file in the form install
// writes whose program is not this hermes-hooks: the agent runs that
// program itself, in place of hermes-hooks, which neither dispatches nor
// approved it. list shows it (list --json: foreign_commands), validate
// warns.
type ForeignCommand struct {
	Event     string `json:"event"`
	Canonical string `json:"canonical_event"`
	Command   string `json:"command"`
	Source    string `json:"source"`
	RunBy     string `json:"run_by"`
	Program   string `json:"program"`
	// Status is FireForeign (an existing program) or ProgramMissing.
	Status string `json:"status"`
	Detail string `json:"detail"`

	entry *hookconfig.Entry
}

// ForeignLines are the lines of ours in the repositories' hook files of
// cfg (Config.OwnLines with a project scope) whose program is not this
// hermes-hooks (programOf, doctor's verdict). A user's own files are
// the user's install (doctor runs them to prove them); a repository's
// are the repository's to write.
func ForeignLines(cfg *hookconfig.Config) []ForeignCommand {
	var out []ForeignCommand
	// Asked once for all the lines, and only when one names an existing
	// file: a PATH search per line is wasted work.
	ours := sync.OnceValue(ourPrograms)
	for _, e := range cfg.OwnLines {
		if e.Scope.Project == "" {
			continue
		}
		dir := e.ProjectDir
		if dir == "" {
			dir = e.Scope.Project
		}
		a, _ := agents.Lookup(e.FileOf)
		title := e.FileOf
		cmd := false
		if a != nil {
			title = a.Title
			// Codex on Windows: cmd.exe runs the line (its commandWindows).
			cmd = runtime.GOOS == "windows" && a.HookFile.WindowsShell == agents.Cmd
		}
		exe, v := programOf(e.Text(), dir, cmd, ours)
		if v == programOurs {
			continue
		}
		fc := ForeignCommand{Event: e.DeclaredAs, Canonical: e.Event.Name, Command: e.Text(), Source: e.Source,
			RunBy: e.FileOf, Program: exe, Status: FireForeign, entry: e}
		const unapproved = "; hermes-hooks neither dispatches nor approved it (a repository's file can name any program in the form of a hermes-hooks line)"
		if v == programMissing {
			fc.Status = ProgramMissing
			fc.Detail = "runs " + exe + ", which does not exist: whatever is put there later runs in place of hermes-hooks, run by " + title + " itself" + unapproved
		} else {
			fc.Detail = "runs " + exe + ", not hermes-hooks: " + title + " runs that program itself, in place of hermes-hooks" + unapproved
		}
		out = append(out, fc)
	}
	return out
}

// printForeign is list's section of ForeignLines, after the hooks.
func printForeign(w io.Writer, lines []ForeignCommand) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "Not hermes-hooks (%d): lines in the form install writes that run another program, which the agent runs itself, unapproved:\n", len(lines))
	fmt.Fprintln(w)
	for _, f := range lines {
		fmt.Fprintf(w, "  [%s] %s\n", show(f.Event), show(f.Command))
		fmt.Fprintf(w, "      from: %s\n", show(f.Source))
		fmt.Fprintf(w, "      ✗ %s\n", show(f.Detail))
	}
	fmt.Fprintln(w)
}

// foreignProblems are validate's warnings for ForeignLines, each at its
// entry.
func foreignProblems(cfg *hookconfig.Config, lines lineFinder) []Problem {
	var out []Problem
	for _, f := range ForeignLines(cfg) {
		key := entryKey(f.entry)
		out = append(out, Problem{File: f.Source, Line: lines.find(f.Source, key), Key: key, Level: LevelWarning,
			Message: "[" + f.Event + "] " + f.Command + ": " + f.Detail})
	}
	return out
}

// What an install-like line (installLike) runs, by why it may not run as
// a guard.
const (
	likeRelative = "relative" // a path relative to the folder the hook runs in
	likeBare     = "bare"     // hermes-hooks from PATH, without install's prologue
	likeOther    = "other"    // any other path: unquoted, under ~ or a variable
)

// installLike reads a hook line install did not write (not
// agents.IsOwnCommand) that calls the hook verb of a hermes-hooks: a
// program named hermes-hooks (or hermes-hooks.exe) followed by "hook", as
// the program of one of its simple commands (after exec or command),
// read as sh reads the line. Someone wrote it by hand, or edited
// install's line: doctor does not run it (the file is the repository's to
// write, and the form alone does not make it ours), and says why it may
// not guard anywhere else (kind). "" when the line calls no hermes-hooks'
// hook verb, or is not sh.
func installLike(command string) (program, kind string) {
	if len(command) > 1<<16 {
		return "", ""
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return "", ""
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || program != "" {
			return program == ""
		}
		args := call.Args
		for len(args) > 0 && (args[0].Lit() == "exec" || args[0].Lit() == "command") {
			args = args[1:]
		}
		if len(args) < 2 || wordText(command, args[1]) != "hook" {
			return true
		}
		prog := wordText(command, args[0])
		base := prog[strings.LastIndexAny(prog, `/\`)+1:]
		if base != agents.ProgramName && base != agents.ProgramName+".exe" {
			return true
		}
		switch program = prog; {
		case prog == base:
			kind = likeBare
		case strings.HasPrefix(prog, "/") || strings.HasPrefix(prog, `\`) || strings.HasPrefix(prog, "~") ||
			strings.HasPrefix(strings.TrimLeft(prog, `"`), "$") || strings.HasPrefix(prog, "%") || windowsPath(prog):
			kind = likeOther
		default:
			kind = likeRelative
		}
		return false
	})
	return program, kind
}

// wordText is w as the shell passes it when it is made of text alone
// (quotes taken off), else as written ($HOME/bin/hermes-hooks).
func wordText(src string, w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if len(p.Parts) != 1 {
				return src[w.Pos().Offset():w.End().Offset()]
			}
			lit, ok := p.Parts[0].(*syntax.Lit)
			if !ok {
				return src[w.Pos().Offset():w.End().Offset()]
			}
			b.WriteString(lit.Value)
		default:
			return src[w.Pos().Offset():w.End().Offset()]
		}
	}
	return b.String()
}

// installLikeDetail is doctor's line for an install-like entry of agent's
// file of scope (installLike's program and kind), with the fix.
func installLikeDetail(program, kind, agent, scope string) string {
	var why string
	switch kind {
	case likeRelative:
		why = "runs " + program + ", a path relative to the folder the agent runs the hook in: it runs whatever that folder holds there, which a teammate's clone may not"
	case likeBare:
		why = `runs hermes-hooks from PATH without install's prologue: where it is not on PATH the agent gets the shell's "not found" and lets the call through`
	default:
		why = "runs " + program + ", a path install does not write: on another machine it may name nothing, or another program"
	}
	return why + "; not as install writes it, so not run; fix: " + installFix(agent, scope)
}

// installFix is the install command that writes agent's entries at scope
// ("user", "local", else the project's).
func installFix(agent, scope string) string {
	fix := "hermes-hooks install " + agent
	switch scope {
	case "user":
		fix += " --user"
	case "local":
		fix += " --local"
	}
	return fix
}

// HoldsInstallLike reports whether in's file holds a line that calls
// hermes-hooks' hook verb in a form install does not write (installLike):
// the agent was installed there by hand, or install's lines were edited,
// so doctor checks the file as one install wrote though it holds no entry
// of ours (a teammate's clone of a committed file edited so).
func HoldsInstallLike(in install.Installed) bool {
	entries, _, err := install.Entries(in)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if p, _ := installLike(e.Command); p != "" && !e.Own(in.Agent.Name) {
			return true
		}
	}
	return false
}
