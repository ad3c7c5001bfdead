package report

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/repoid"
)

// An agent may read a setting that turns off every hook it runs, ours
// included, from a file other than the one install wrote: a repository's
// committed settings can silence the user's own guards (agents/switches.go).
// doctor reads those files where the installed file applies and says so.

// maxSwitchFile bounds the read of one switch file: a repository's file
// is the repository's to write, and a settings file is a few KiB.
const maxSwitchFile = 4 << 20

// SwitchCheck is a file whose setting makes the agent run none of its
// hooks, this file's included.
type SwitchCheck struct {
	File string `json:"file"`
	// Project: the file is the project's (a repository can commit it), not
	// the user's own.
	Project bool   `json:"project"`
	Setting string `json:"setting,omitempty"`
	Fix     string `json:"fix,omitempty"`
	// Instead: File is not a switch but a hook file beside the installed
	// one that the agent reads in its place (Factory Droid's hooks.json
	// beside settings.json): the installed file's hooks are not run.
	Instead bool `json:"instead,omitempty"`
	// Error: the file could not be read, so whether it turns the hooks off
	// cannot be told.
	Error string `json:"error,omitempty"`
}

// switchCheck reads in's agent's switch files that apply to in: the user's,
// and the project's where in's hooks run (in.Root; for a user file, the
// project around doctor, o.Project), with, when doctor runs below that
// project's root (o.WorkDir), the copies the agent reads in each folder
// down to there (agents.Agent.SwitchFilesAt). For an agent that finds the
// project's root by markers (Codex's project_root_markers) the root is
// the one it takes from that folder, which can be above or below the
// project's; a linked worktree's layers are trusted by its main
// checkout's entry when they have none of their own. trust is the agent's
// trust file (for Codex, the user's config.toml, markers and all).
//
// overruled: in is itself one of those files and its own switch does not
// decide (a file of higher precedence sets the switch, either way), so its
// entries' own "off" (install.Entry.Off, read from in alone) is not the
// agent's: the user's settings true under a project's false still run.
//
// linesOff is, for a line of in's, the setting in those files that makes
// the agent skip that line alone, with its fix ("" when none does):
// Gemini CLI's hooksConfig.disabled, joined across its files
// (agents.Agent.LinesOff).
func switchCheck(in install.Installed, o ProbeOptions, trust trustRead) (c *SwitchCheck, overruled bool, linesOff func(command string) string) {
	linesOff = func(string) string { return "" }
	if c := readInstead(in); c != nil {
		return c, false, linesOff
	}
	if len(in.Agent.SwitchFiles()) == 0 || o.Home == "" {
		return nil, false, linesOff
	}
	project := in.Root
	if in.User {
		project = o.Project
	}
	// Where the agent runs (doctor's folder, when in the project), and
	// the root it takes from there: the files are its, and so is trust.
	// Doctor's folder is where the agent runs for the project around it
	// only: another project's install (the registry's; a repository
	// nested in it, or around it) runs from its own root, where Codex
	// never reads the working folder's layers.
	// A project's file of an agent that reads the folder it starts in
	// only (agents.Agent.StartFolderOnly) is read by sessions started in
	// its folder alone: theirs are the switches that matter for it.
	wd, repo := "", ""
	if samePath(project, o.Project) && (in.User || !in.Agent.StartFolderOnly) {
		wd = o.WorkDir
	}
	if project != "" {
		wd = runDir(project, wd)
		// An agent that reads the folder it starts in only keeps the
		// project for naming its files (sub/.gemini/settings.json):
		// SwitchFilesAt lists that folder's alone.
		if !in.Agent.StartFolderOnly {
			project = agentRoot(in.Agent, trust.parsed, project, wd)
		}
	}
	files := in.Agent.SwitchFilesAt(filepath.ToSlash(project), filepath.ToSlash(wd))
	if project != "" && slices.ContainsFunc(files, func(f agents.SwitchFile) bool { return f.IfTrusted }) {
		repo = mainCheckout(wd)
	}
	parsed := make([]agents.ParsedFile, len(files))
	paths := make([]string, len(files))
	// Each path is looked up once and compared by what it names: as
	// samePath pair by pair, a folder 100 deep stat'd its files some
	// 10,000 times.
	ids := make([]pathID, len(files))
	for i, f := range files {
		if !f.User && (project == "" || f.IfTrusted && !trust.folders.Trusted(filepath.ToSlash(project), path.Join(filepath.ToSlash(project), f.Dir), repo)) {
			continue
		}
		paths[i] = filepath.FromSlash(f.SwitchPath(filepath.ToSlash(o.Home), filepath.ToSlash(project), os.Getenv))
		ids[i] = idOf(paths[i])
		if slices.ContainsFunc(ids[:i], ids[i].same) {
			continue // the project (or a folder in it) is the agent's home: its file is the user's
		}
		p, err := readSwitchFile(in.Agent, f, paths[i], project, trust)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			// ENOTDIR: a .codex that is a file: the agent reads no layer
			// there either.
		case err != nil:
			return &SwitchCheck{File: shownSwitchFile(f, paths[i]), Project: !f.User, Error: err.Error()}, false, linesOff
		default:
			parsed[i] = p
		}
	}
	lines := in.Agent.LinesOff(files, parsed)
	linesOff = func(command string) string {
		off, ok := lines(command)
		if !ok {
			return ""
		}
		where := shownSwitchFile(files[off.File], paths[off.File])
		if !files[off.File].User {
			where = "this project's " + where
		}
		return off.Setting + " in " + where + "; fix: " + off.Fix
	}
	self := idOf(in.Path)
	own := slices.ContainsFunc(ids, self.same)
	off, ok := in.Agent.SwitchesIn(files, parsed)
	if !ok {
		return nil, own, linesOff
	}
	if ids[off.File].same(self) {
		// The installed file's own switch decides: its entries' (FireOff).
		return nil, false, linesOff
	}
	f := files[off.File]
	return &SwitchCheck{File: shownSwitchFile(f, paths[off.File]), Project: !f.User, Setting: off.Setting, Fix: off.Fix}, own, linesOff
}

// mainCheckout is the main checkout of the linked git worktree that
// holds dir (slash-separated), whose [projects] trust Codex falls back to
// (agents.Agent.TrustedFolder); "" when dir is in none.
func mainCheckout(dir string) string {
	if dir == "" {
		return ""
	}
	m, ok := repoid.MainTop(filepath.FromSlash(dir))
	if !ok {
		return ""
	}
	return filepath.ToSlash(m)
}

// agentRoot is the folder a takes for the project's root when it runs in
// wd (a folder in project): the nearest at or above wd holding one of its
// root markers (agents.Agent.RootMarkersIn, read from config, its trust
// file parsed), else wd; wd itself for an empty list; project for an agent
// without markers (hookconfig.RootByMarkers: the walk hook AGENT takes
// too). An agent that reads the project settings of the folder it starts
// in only (agents.Agent.StartFolderOnly) takes wd.
func agentRoot(a *agents.Agent, config agents.ParsedFile, project, wd string) string {
	if a.StartFolderOnly && wd != "" {
		return wd
	}
	markers, ok := a.RootMarkersIn(config)
	if !ok || wd == "" {
		return project
	}
	return hookconfig.RootByMarkers(wd, markers)
}

// rootBelow is the project root in's agent takes when it runs in wd
// (doctor's folder), when that root lies below in's folder: the agent
// reads hook files from its root down to wd only, so none of in's hooks
// run there (Codex, whose root is the nearest folder with .git, else wd
// itself: guards installed in a workspace folder that is no repository
// are not read inside its repositories, nor in its plain subfolders;
// Claude Code, Gemini CLI and Qwen Code, which read the folder they start
// in only: a project's file is not read in any folder below it).
// "" when wd is not below in's folder, for a user file, and for an agent
// whose root is the project's.
func rootBelow(in install.Installed, wd, home string, config agents.ParsedFile) string {
	if in.User || wd == "" || samePath(wd, in.Root) || !fsutil.InTree(wd, in.Root) || samePath(in.Root, home) {
		// A file in the home folder is the user's, read wherever the
		// agent starts.
		return ""
	}
	root := agentRoot(in.Agent, config, in.Root, wd)
	if samePath(root, in.Root) || !fsutil.InTree(root, in.Root) {
		return ""
	}
	return root
}

// runDir is the folder the agent is taken to run in: wd (doctor's) when
// that is the project or below it, else the project.
func runDir(project, wd string) string {
	if fsutil.InTree(wd, project) && filepath.IsAbs(wd) {
		return wd
	}
	return project
}

// readSwitchFile reads and parses f, a's switch file at p: a project's
// file inside the project only (a link out of it, to a device or another
// user's file, is not followed) and within the bound a's parser takes in
// bounded time (agents.Agent.ParseLayerEnv: a repository's file is hostile),
// the user's config.toml as readTrust read and parsed it already.
func readSwitchFile(a *agents.Agent, f agents.SwitchFile, p, project string, trust trustRead) (agents.ParsedFile, error) {
	if f.User && samePath(p, trust.file) {
		return trust.parsed, trust.err
	}
	within := ""
	if !f.User {
		within = project
	}
	data, err := fsutil.ReadRegular(p, within, maxSwitchFile)
	if err != nil {
		return agents.ParsedFile{}, err
	}
	return a.ParseLayerEnv(f, data, os.LookupEnv)
}

// shownSwitchFile is how doctor names a switch file: a project's by its
// path in the project (".claude/settings.json"), the user's in full.
func shownSwitchFile(f agents.SwitchFile, path string) string {
	if f.User {
		return path
	}
	return f.Path
}

// samePath reports whether a and b name the same file or folder: the
// same name, or the same thing by another one (a linked parent, a home
// folder reached through a link), which by name alone doctor took for a
// project of its own.
func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ai, errA := os.Stat(a)
	bi, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ai, bi)
}

// pathID is a path and what it names (fi nil when it cannot be stat'd),
// looked up once for a path compared with many (idOf, pathID.same).
type pathID struct {
	name string
	fi   fs.FileInfo
}

// idOf is p's pathID; the zero pathID, the same as nothing, for "".
func idOf(p string) pathID {
	if p == "" {
		return pathID{}
	}
	fi, err := os.Stat(p)
	if err != nil {
		fi = nil
	}
	return pathID{name: p, fi: fi}
}

// same is samePath of the two paths, from what idOf found.
func (a pathID) same(b pathID) bool {
	if a.name == "" || b.name == "" {
		return false
	}
	return filepath.Clean(a.name) == filepath.Clean(b.name) || a.fi != nil && b.fi != nil && os.SameFile(a.fi, b.fi)
}

// SwitchLine is the line doctor and install print for c, escaped.
func SwitchLine(c *SwitchCheck) string {
	where := show(c.File)
	if c.Project {
		where = "this project's " + where
	}
	if c.Instead {
		return CheckFail.Symbol() + " " + where + " is what " + show(c.Setting) + "; fix: " + show(c.Fix)
	}
	if c.Error != "" {
		return CheckFail.Symbol() + " cannot read " + where + " (" + show(c.Error) + "): whether it turns all hooks off, your guards included, cannot be told"
	}
	return CheckFail.Symbol() + " " + where + " turns all hooks off, including your guards: " + show(c.Setting) + "; fix: " + show(c.Fix)
}

// SwitchedOff is what install says after it wrote in: the switch file that
// makes the agent run none of in's entries (nil: none), and, for a line of
// in's, the setting that makes the agent skip that line alone with its fix
// ("" when none does: a workspace's Gemini CLI hooksConfig.disabled
// naming the line install wrote in the user's file). home is the user's
// home folder; project the project around install, for in a user file;
// workDir the folder install runs in ("": unknown).
func SwitchedOff(in install.Installed, home, project, workDir string) (c *SwitchCheck, linesOff func(command string) string) {
	c, _, linesOff = switchCheck(in, ProbeOptions{Home: home, Project: project, WorkDir: workDir}, readTrust(in.Agent, home))
	return c, linesOff
}

// LineOffLine is the line install prints for a line of event ev that the
// agent skips, why being SwitchedOff's linesOff, escaped.
func LineOffLine(ev, why string) string {
	return CheckFail.Symbol() + " " + show(ev) + ": " + show(why)
}

// trustRead is the agent's trust file as readTrust read it.
type trustRead struct {
	file string
	data []byte
	err  error
	// folders is data read once for the trust of each folder down to
	// where the agent runs (a read per folder of a 4 MiB file, 100
	// folders deep, was seconds per install).
	folders agents.FolderTrust
	// parsed is data parsed once (Codex's config.toml: its switch, root
	// markers and per-hook state; go-toml took seconds a parse of a large
	// file, and doctor parsed it up to four times an install).
	parsed agents.ParsedFile
}

// readTrust reads a's trust file (agents.Agent.TrustFile; file "" when a
// has none or home is unknown) as a regular file of at most maxSwitchFile
// bytes: CODEX_HOME or COPILOT_HOME can put it anywhere, and a FIFO there
// held doctor for ever, a huge file was read whole.
func readTrust(a *agents.Agent, home string) trustRead {
	tf := a.TrustFile(filepath.ToSlash(home), os.Getenv)
	if tf == "" || home == "" {
		return trustRead{}
	}
	t := trustRead{file: filepath.FromSlash(tf)}
	t.data, t.err = fsutil.ReadRegular(t.file, "", maxSwitchFile)
	t.folders = a.FolderTrust(t.data)
	if t.err == nil {
		t.parsed = a.Parse(t.data)
	}
	return t
}

// readInstead is the file beside in's hook file that the agent reads in
// its place (agents.Agent.ReplacedBy), when there is one: then none of
// in's entries runs. File is shown relative to the project, as the
// switch files are.
func readInstead(in install.Installed) *SwitchCheck {
	for _, f := range in.Agent.ReplacedBy(filepath.ToSlash(in.Path)) {
		if _, err := os.Stat(filepath.FromSlash(f)); err != nil {
			continue
		}
		shown := filepath.FromSlash(f)
		if !in.User && in.Root != "" {
			if rel, err := filepath.Rel(in.Root, shown); err == nil && !strings.HasPrefix(rel, "..") {
				shown = rel
			}
		}
		base := filepath.Base(in.Path)
		return &SwitchCheck{File: shown, Project: !in.User, Instead: true,
			Setting: in.Agent.Title + " reads instead of the hooks of " + base + ", these included",
			Fix:     "move its hooks into the \"hooks\" of " + base + " and remove it (" + in.Agent.Title + " reads the one or the other), or add these entries to it"}
	}
	return nil
}
