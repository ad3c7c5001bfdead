package report

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// doctor's proof that what install wrote fires: every entry of ours in
// every installed hook file is run as its agent runs it (the agent's shell,
// the file's folder, a sample payload of its event) with a probe that makes
// `hook` answer without dispatching (agents.ProbeEnv). Entries that are not
// ours are named and never run: a repository's hook file is the
// repository's to write.

// Fire statuses of one entry.
const (
	FireOK       = "fires"
	FireNotFound = "not_found"
	FireNoAnswer = "no_answer"
	FireNotOurs  = "not_ours"
	FireNotRun   = "not_run"
	// FireAltered: an entry of ours that is not as install writes it (a
	// matcher on its group, "async", a shorter timeout…): the agent may
	// not run it as a guard.
	FireAltered = "altered"
	// FireForeign: an entry of ours in a project's file whose absolute
	// path names a program that is not hermes-hooks (foreignProgram).
	FireForeign = "not_hermes_hooks"
	// FireUnknown: the installed release of the agent does not know the
	// event, so it never runs the entry.
	FireUnknown = "unknown_event"
	// FireNotProved: past maxProbes distinct entries of one file, not run.
	FireNotProved = "not_proved"
	// FireOff: an entry of ours that the file's own setting makes the
	// agent skip (disableAllHooks, Gemini CLI's hooksConfig): not run,
	// since the probe would fire where the agent never does.
	FireOff = "switched_off"
	// FireInstallLike: an entry install did not write that calls the hook
	// verb of a hermes-hooks in another form (installLike: a relative
	// path, no prologue): not run, and a guard of it may not run for a
	// teammate, or from another folder. Not a problem by itself (beside
	// an entry of ours for the event, no guard is lost): a guarded event
	// that only such a line serves is (coverage.go).
	FireInstallLike = "install_like"
)

// maxProbes bounds the shells doctor starts for one hook file: a project's
// file is the repository's to write, and install writes one entry per
// event, so a file with more distinct entries of ours than this is not one
// install wrote.
const maxProbes = 64

// FireCheck is one entry of an installed hook file, as doctor proved it.
type FireCheck struct {
	Event   string `json:"event"`
	Command string `json:"command"`
	Gating  bool   `json:"gating"`
	Status  string `json:"status"`
	Detail  string `json:"detail,omitempty"`
}

// InstallCheck is one hook file install wrote, as doctor found it.
type InstallCheck struct {
	Agent string `json:"agent"`
	Title string `json:"title"`
	File  string `json:"file"`
	// Scope is "user", "project" or "local" (a project's checkout-only file).
	Scope string `json:"scope"`
	Root  string `json:"root"`
	// InstalledAt is when the file was last written (its mtime).
	InstalledAt time.Time `json:"installed_at"`
	// LastEvent is the journal's newest record since InstalledAt from the
	// file's project (any, for a user file); nil when there is none.
	LastEvent *time.Time `json:"last_event"`
	// Trusted is whether the agent trusts the project folder to run its
	// hooks (nil: the agent does not ask, or a user file).
	Trusted   *bool  `json:"trusted,omitempty"`
	TrustFile string `json:"trust_file,omitempty"`
	// Unreviewed are the events of entries of ours that the agent has not
	// been told to trust one by one (Codex's /hooks): it skips them.
	Unreviewed []string `json:"unreviewed,omitempty"`
	// AgentAbsent: the agent has no state on this machine (the folder of
	// its trust file does not exist: it was never run here), so whether
	// it trusts the project is not asked (Trusted and Unreviewed stay
	// empty). A teammate who does not use that agent has nothing to fix.
	AgentAbsent bool `json:"agent_not_set_up,omitempty"`
	// AgentDir is the agent's folder AgentAbsent found missing.
	AgentDir string `json:"agent_dir,omitempty"`
	// AgentVersion is the installed release of the agent, where its events
	// depend on it ("" when not asked or not found).
	AgentVersion string `json:"agent_version,omitempty"`
	// SwitchedOff: another file's setting makes the agent run none of its
	// hooks here, this file's included (switches.go).
	SwitchedOff *SwitchCheck `json:"switched_off,omitempty"`
	// NotReadHere is the project root the agent takes where doctor runs
	// (a folder below this file's, for Codex the nearest holding .git),
	// when it is below this file's folder: the agent reads no hook file
	// above its root, so it runs none of this file's hooks there.
	NotReadHere string `json:"not_read_here,omitempty"`
	// GuardedHereBy is the user's file of the same agent whose entries
	// fire, where doctor runs, for every guarded event of this file, when
	// the agent does not read this one here (NotReadHere): its guards
	// still run (coverage.go).
	GuardedHereBy string `json:"guarded_here_by,omitempty"`
	// RepoEnv are the project's files that set a control variable of
	// hermes-hooks for the hooks the agent runs (repoenv.go).
	RepoEnv []RepoEnvCheck `json:"repo_env,omitempty"`
	// RepoLoaders are the project's files that set a variable making the
	// hooks load code, which hook AGENT keeps out of them (repoenv.go):
	// said, a problem only where the agent's own shell loads it before
	// hermes-hooks starts (BeforeHook).
	RepoLoaders []RepoEnvCheck `json:"repo_loaders,omitempty"`
	// Stripped are the control variables set in doctor's environment that
	// the agent strips from its hooks' environment (envstrip.go).
	Stripped []StripCheck `json:"env_stripped,omitempty"`
	// Gone: the registry of installations records this file, and it is no
	// longer there (Entries is empty).
	Gone bool `json:"gone,omitempty"`
	// Uncovered are the agent's events that the config doctor read guards
	// and that no entry of the agent's files here calls hermes-hooks for
	// (coverage.go): those guards never run when the agent fires them.
	Uncovered []string    `json:"uncovered,omitempty"`
	Error     string      `json:"error,omitempty"`
	Entries   []FireCheck `json:"entries"`
}

// Problems counts what makes a guard of this file not guard: a gating
// entry that does not fire, an untrusted project folder, an unreadable
// file, a guarded event no entry calls hermes-hooks for.
func (c *InstallCheck) Problems() int {
	n := 0
	gating := false
	for _, e := range c.Entries {
		if e.Gating && e.Status != FireNotOurs && e.Status != FireInstallLike {
			gating = true
			if e.Status != FireOK && e.Status != FireNotRun {
				n++
			}
		}
	}
	if c.Trusted != nil && !*c.Trusted && gating {
		n++
	}
	if (c.SwitchedOff != nil || c.NotReadHere != "" && c.GuardedHereBy == "") && gating {
		n++
	}
	n += len(c.Uncovered)
	for _, e := range c.Entries {
		if e.Gating && slices.Contains(c.Unreviewed, e.Event) {
			n++ // once: the user trusts them all at once in the agent
			break
		}
	}
	if len(c.RepoEnv) > 0 && gating {
		n++
	}
	if len(c.Stripped) > 0 && gating {
		n++
	}
	if c.loadedBeforeHook() && gating {
		n++
	}
	if c.Error != "" {
		n++
	}
	return n
}

// ProbeOptions are how CheckInstalls runs and reads.
type ProbeOptions struct {
	// NoRun: run nothing (doctor --no-run).
	NoRun bool
	// Home is the user's home directory (the agents' trust files).
	Home string
	// Journal is the journal's path ("" : not read).
	Journal string
	// Project is the project around doctor ("": none), whose switch files
	// apply to the user's hook files (switches.go).
	Project string
	// WorkDir is the folder doctor runs in ("": unknown): an agent run
	// there reads switch files in the folders down to it from the root
	// of a project that holds it (agents.Agent.SwitchFilesAt).
	WorkDir string
	// Guards says whether the config doctor read holds guards that the
	// agent's call of a gating event must run (GuardsOf; nil: none): each
	// such event of an agent installed for Project, or for the user, needs
	// an entry that calls hermes-hooks (coverage.go).
	Guards func(agent string, ev *protocol.Event) bool
	// Gone are the hook files the registry of installations records for
	// Project or the user that are no longer there: an agent installed
	// once, whose guards the file no longer runs.
	Gone []install.Installed
}

// CheckInstalls proves every installed file's entries fire.
func CheckInstalls(ctx context.Context, installs []install.Installed, o ProbeOptions) []InstallCheck {
	probe, cleanup, err := newProbe()
	if err != nil {
		o.NoRun = true
	}
	defer cleanup()
	var versions map[string]string
	if !o.NoRun {
		versions = agentVersions(ctx, installs)
	}
	var out []InstallCheck
	for _, in := range installs {
		c := checkInstall(ctx, in, probe, o, err, versions[in.Agent.Name])
		out = append(out, c)
	}
	lastEvents(out, o.Journal)
	for _, in := range o.Gone {
		out = append(out, InstallCheck{Agent: in.Agent.Name, Title: in.Agent.Title, File: in.Path, Scope: scopeOf(in), Root: in.Root,
			Gone: true, Entries: []FireCheck{}})
	}
	coverage(out, o, versions)
	guardedHere(out)
	return out
}

// scopeOf is in's InstallCheck.Scope.
func scopeOf(in install.Installed) string {
	switch {
	case in.User:
		return "user"
	case in.Local:
		return "local"
	}
	return "project"
}

func checkInstall(ctx context.Context, in install.Installed, p probe, o ProbeOptions, probeErr error, version string) InstallCheck {
	c := InstallCheck{Agent: in.Agent.Name, Title: in.Agent.Title, File: in.Path, Scope: scopeOf(in), Root: in.Root, Entries: []FireCheck{}, AgentVersion: version}
	entries, mtime, err := install.Entries(in)
	c.InstalledAt = mtime
	if err != nil {
		c.Error = err.Error()
		return c
	}
	t := readTrust(in.Agent, o.Home)
	trust := t.data
	c.TrustFile = t.file
	if t.file != "" {
		// The agent keeps its trust in a folder it makes when it first
		// runs (~/.codex, ~/.gemini, ~/.copilot, or where CODEX_HOME or
		// COPILOT_HOME points): without that folder the agent was never
		// set up on this machine, and its trust is nothing to report yet.
		if dir := filepath.Dir(c.TrustFile); !in.User {
			if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
				c.AgentAbsent, c.AgentDir = true, dir
			} else {
				// A linked worktree with no trust of its own has its main
				// checkout's (agents.Agent.TrustedFolder).
				root := filepath.ToSlash(in.Root)
				top := filepath.ToSlash(agentRoot(in.Agent, t.parsed, in.Root, in.Root))
				trusted := t.folders.Trusted(top, root, mainCheckout(root))
				c.Trusted = &trusted
			}
		}
	}
	var overruled bool
	var linesOff func(string) string
	c.SwitchedOff, overruled, linesOff = switchCheck(in, o, t)
	c.NotReadHere = rootBelow(in, o.WorkDir, o.Home, t.parsed)
	c.RepoEnv = repoEnvCheck(in, o)
	c.RepoLoaders = repoLoaderCheck(in, o)
	c.Stripped = stripCheck(in, o)
	entryOff := in.Agent.EntriesOffIn(t.parsed)
	reviews := in.Agent.Reviews(trust)
	// An entry repeated is proved once: proved maps it to its probe, and
	// the probes run together once every entry is read (fireAll).
	proved := map[[3]string]int{}
	var probes []probeJob
	var copies [][2]int // an entry's index and the probe that proves it
	for _, e := range entries {
		// The line the agent runs here (on Windows, its Windows line) and
		// how it starts it.
		run, cannot, why := runFor(in.Agent, runtime.GOOS, e.FileEntry, os.Getenv, exec.LookPath, isFile)
		if reviewed, asks := reviews(filepath.ToSlash(in.Path), e.FileEntry); asks && !reviewed && e.Own(in.Agent.Name) && !c.AgentAbsent {
			c.Unreviewed = append(c.Unreviewed, e.Event)
		}
		fc := FireCheck{Event: e.Event, Command: run.line}
		foreign := ""
		if !in.User {
			foreign = foreignProgram(run.line, in.Root, run.cmdLine != "")
		}
		if ev, ok := in.Agent.Canonical(e.Event); ok {
			fc.Gating = ev.Gating()
		}
		userOff := entryOff(filepath.ToSlash(in.Path), e.FileEntry)
		lineOff := ""
		if e.Own(in.Agent.Name) {
			lineOff = linesOff(e.Command)
		}
		switch {
		case !e.Own(in.Agent.Name):
			fc.Status, fc.Detail, fc.Command = notOurs(e, run.line, in.Agent.Name, c.Scope)
		case e.Off != "" && !overruled:
			fc.Status, fc.Detail = FireOff, e.Off+": "+in.Agent.Title+" does not run this entry, so doctor does not either (a setting of the file, not of hermes-hooks: take it out to have the guard back)"
		case lineOff != "":
			fc.Status, fc.Detail = FireOff, lineOff+"; "+in.Agent.Title+" does not run this entry, so doctor does not either"
		case userOff != "":
			fc.Status, fc.Detail = FireOff, userOff+" in "+c.TrustFile+": "+in.Agent.Title+
				" does not run this entry, so doctor does not either (your own setting: turn the hook on again in its /hooks, or take that line out)"
		case !knows(in.Agent, version, e.Event):
			_, since := in.Agent.KnowsEvent(version, e.Event)
			fc.Status, fc.Detail = FireUnknown, "event unknown to the "+in.Agent.Title+" version installed ("+version+"; it knows it since "+since+"): never run"
		case e.Altered != "":
			fc.Status, fc.Detail = FireAltered, "not as install writes it ("+e.Altered+"): "+in.Agent.Title+" may not run it as a guard; run hermes-hooks install "+in.Agent.Name+" to write it again"
		case foreign != "":
			fc.Status, fc.Detail = FireForeign, "runs "+foreign+", not hermes-hooks: not run (the agent runs that program in place of hermes-hooks; a repository's file can name any)"
		case o.NoRun:
			fc.Status, fc.Detail = FireNotRun, "not run (--no-run)"
			if probeErr != nil {
				fc.Detail = "not run: " + probeErr.Error()
			}
		default:
			key := [3]string{e.Event, e.Script, run.line}
			if j, seen := proved[key]; seen {
				copies = append(copies, [2]int{len(c.Entries), j})
			} else if len(proved) == maxProbes {
				fc.Status, fc.Detail = FireNotProved, "not run: doctor proves at most "+strconv.Itoa(maxProbes)+
					" distinct entries of one file and this file holds more (install writes one per event: run hermes-hooks install "+
					in.Agent.Name+" to write it again)"
			} else {
				proved[key] = len(probes)
				probes = append(probes, probeJob{at: len(c.Entries), entry: e, run: run, cannot: cannot, why: why})
			}
		}
		c.Entries = append(c.Entries, fc)
	}
	p.fireAll(ctx, in, probes, c.Entries)
	for _, cp := range copies {
		from := c.Entries[probes[cp[1]].at]
		c.Entries[cp[0]].Status, c.Entries[cp[0]].Detail = from.Status, from.Detail
	}
	return c
}

// notOurs is the verdict on an entry install did not write, and the
// command shown for it (line, the line the agent runs; a script's path):
// a line that calls hermes-hooks' hook verb in another form is named as
// such (installLike), with why it may not guard and the fix; any other is
// the file's own. Neither is run.
func notOurs(e install.Entry, line, agent, scope string) (status, detail, command string) {
	if e.Script != "" {
		return FireNotOurs, "not a hermes-hooks entry, not run", e.Script
	}
	if program, kind := installLike(line); program != "" {
		return FireInstallLike, installLikeDetail(program, kind, agent, scope), line
	}
	return FireNotOurs, "not a hermes-hooks entry, not run", line
}

func knows(a *agents.Agent, version, event string) bool {
	known, _ := a.KnowsEvent(version, event)
	return known
}

// lastEvents fills each check's LastEvent from the journal: its newest
// record since the file was written, from the file's project (any record,
// for a user file). The journal does not name the agent that called, so a
// project's record is counted for every agent installed there.
//
// The files are read newest first, and no further once every check has
// its event (an older file holds none newer) or a file was last written
// before the earliest install (nor does it, nor any older one): a journal
// of a thousand rotated files took doctor minutes, oldest first.
func lastEvents(checks []InstallCheck, path string) {
	if path == "" || len(checks) == 0 {
		return
	}
	files, err := journal.Files(path)
	if err != nil {
		return
	}
	earliest := checks[0].InstalledAt
	for _, c := range checks[1:] {
		if c.InstalledAt.Before(earliest) {
			earliest = c.InstalledAt
		}
	}
	for i := len(files) - 1; i >= 0 && !allHaveEvents(checks); i-- {
		if st, err := os.Stat(files[i]); err == nil && st.ModTime().Before(earliest) {
			return
		}
		_, _ = journal.ScanFile(files[i], func(_ journal.Line, e *journal.Entry) bool {
			noteEvent(checks, e)
			return true
		})
	}
}

// noteEvent counts record e for every check it is a newer event of.
func noteEvent(checks []InstallCheck, e *journal.Entry) {
	for i := range checks {
		c := &checks[i]
		if e.Time.Before(c.InstalledAt) || c.Scope != "user" && !fsutil.InTree(e.Cwd, c.Root) {
			continue
		}
		if c.LastEvent == nil || e.Time.After(*c.LastEvent) {
			t := e.Time
			c.LastEvent = &t
		}
	}
}

func allHaveEvents(checks []InstallCheck) bool {
	for i := range checks {
		if checks[i].LastEvent == nil {
			return false
		}
	}
	return true
}
