// Package repoenv tells which of hermes-hooks' control variables an agent
// may have taken from a repository's files rather than from the user: the
// files an agent puts into the environment of every hook it runs
// (agents.Agent.RepoEnvFiles: Claude Code's project settings "env", the
// .env Gemini CLI and Qwen Code load) are a repository's to write, and
// HERMES_SAFE_MODE or HERMES_HOME there would switch the user's own guards
// off. `hook AGENT` refuses a gating call then, doctor says so. It also
// tells which variables that make a hook's programs load code (Loads:
// BASH_ENV, NODE_OPTIONS …) such a file set, which `hook AGENT` keeps out
// of its hooks' environment (loaders.go).
//
// Reads are bounded (MaxFile), never block on a FIFO or a device, and
// never follow a link out of the folder the file is in (fsutil.ReadRegular).
package repoenv

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// MaxFile bounds the read of one file: a settings file or a .env is a few
// KiB, and a repository's file is hostile.
const MaxFile = 4 << 20

// The control variables: each changes which of the user's or the
// administrator's guards run, or whether they decide at all.
const (
	SafeMode = "HERMES_SAFE_MODE" // runs no hook of the user's
	Home     = "HERMES_HOME"      // where the config and the approvals are
	// Managed adds a managed config file, which can say
	// allow_managed_hooks_only and so drop the user's guards.
	Managed = "HERMES_HOOKS_MANAGED_CONFIG"
	// ShellPrefix is the program Claude Code runs every shell-form hook
	// with, and so does the dispatcher for a Claude-dialect hook: it is
	// pinned with the hook, so a repository's would leave the user's
	// hooks, approved without it, unrun (a guard not fail_closed: off).
	ShellPrefix = "CLAUDE_CODE_SHELL_PREFIX"
)

// Controls lists them.
var Controls = []string{SafeMode, Home, Managed, ShellPrefix}

// HomeVar is the variable the user's home folder is read from (where
// ~/.hermes is while HERMES_HOME is unset): a repository's settings "env"
// that moves it moves the config and the approvals as HERMES_HOME would.
// A control for hook only while HERMES_HOME is unset and it is not the
// account's home (Active); doctor cannot tell either from where it runs.
var HomeVar = map[bool]string{true: "USERPROFILE", false: "HOME"}[runtime.GOOS == "windows"]

// controlNames are the variables Check looks for in a file.
var controlNames = nameSet{names: append(slices.Clone(Controls), HomeVar)}

// nameSet are the variables looked for in a file: those named, and in a
// settings file also any whose name starts with one of prefixes.
type nameSet struct {
	names, prefixes []string
}

// Effective reports whether name=value, set, changes which guards run:
// HERMES_SAFE_MODE when it turns hooks off, the others whatever their
// value (an empty HERMES_HOME replaces one the user set: where the agent
// puts a file's variables over its own, Claude Code's settings).
func Effective(name, value string) bool {
	switch name {
	case SafeMode:
		return consent.SafeMode(value)
	case Home, Managed, ShellPrefix, HomeVar:
		return true
	}
	return false
}

// emptyIsUnset are the controls whose readers take an empty value for
// none (hermeshome.Dir, hookconfig.ManagedExtra): a file that only fills
// unset variables changes nothing by setting one empty.
var emptyIsUnset = []string{Home, Managed, ShellPrefix}

// Active are the controls lookup (os.LookupEnv) holds to an effect: none
// in the common case, in which no file needs reading. home is the
// account's home folder (UserHome), asked only while HERMES_HOME is unset;
// "" (the account database has none): HOME counts whatever it holds, for
// the account's home cannot be told from one a repository chose. nil home:
// HomeVar is no control (an agent whose files only fill unset variables
// cannot move it).
func Active(lookup func(string) (string, bool), home func() string) []string {
	var on []string
	for _, name := range Controls {
		if v, ok := lookup(name); ok && Effective(name, v) {
			on = append(on, name)
		}
	}
	if h, _ := lookup(Home); h == "" && home != nil {
		// Unset, HOME was moved by no file.
		if v, ok := lookup(HomeVar); ok {
			if !IsUserHome(v, home()) {
				on = append(on, HomeVar)
			}
		}
	}
	return on
}

// IsUserHome reports whether v, a value of HomeVar, names home (the
// account's home folder, UserHome): by its text once cleaned, and with no
// ".." in it, which the system takes after the link before it (a
// repository's link proj/l -> a/b makes /home/u/proj/l/../.., /home/u by
// its text, the repository's own folder for git's ~/.gitconfig and jq's
// ~/.jq). An empty home is no one's.
func IsUserHome(v, home string) bool {
	return home != "" && !dotDot(v) && filepath.Clean(v) == filepath.Clean(home)
}

// Finding is a repository's file that sets control variables, or that
// could not be read while they were to be looked for.
type Finding struct {
	File string
	// Vars are the variables it sets; when Err is set, those it might.
	Vars []string
	Err  error
}

// Want reports whether a file setting name to value counts; known is
// false when the file names the variable in a way the agent's parser and
// ours may read differently (the value is then unknown).
type Want func(name, value string, known bool) bool

// InEnv is the Want of a hook call: a control of active whose value in
// lookup is the file's (the agent took it from there, or the file agrees
// with it: either way the user cannot be told to have chosen it).
func InEnv(active []string, lookup func(string) (string, bool)) Want {
	return func(name, value string, known bool) bool {
		if !slices.Contains(active, name) {
			return false
		}
		v, _ := lookup(name)
		return !known || v == value
	}
}

// AnySet is doctor's Want: any control a file sets to an effect.
func AnySet(name, value string, known bool) bool {
	return slices.Contains(Controls, name) && (!known || Effective(name, value))
}

// UserHome is the user's home folder from the account database, not
// $HOME, which the same files could move (a project's folder taken for the
// home would make its files "the user's own"); "" when the database has
// none (an LDAP account in a build without cgo, a container run as a bare
// uid): $HOME, the variable a repository moved, is no witness. Not
// user.Current: without cgo it makes an account up from $USER and $HOME
// when the database has none (accountHome).
func UserHome() string { return accountHome() }

// Check reads the repository's files a takes hook environment from when
// started in any of dirs (absolute folders; each also by its real path,
// where Qwen Code starts its search), home being the user's home folder
// ("" none: every folder is a project's), and returns those that set a
// variable want counts, or that cannot be read (unreadable: the variables
// they might set, for the message). Each folder and each file is looked
// at once, however many of dirs lead to it.
func Check(a *agents.Agent, dirs []string, home string, want Want, unreadable []string) []Finding {
	return checkNames(a, dirs, home, controlNames, want, unreadable)
}

func checkNames(a *agents.Agent, dirs []string, home string, ns nameSet, want Want, unreadable []string) []Finding {
	if !a.TakesRepoEnv() {
		return nil
	}
	var homes []string
	if home != "" {
		homes = append(homes, filepath.ToSlash(filepath.Clean(home)))
		if r, err := filepath.EvalSymlinks(home); err == nil {
			homes = append(homes, filepath.ToSlash(r))
		}
	}
	var all []string
	add := func(d string) {
		if !slices.Contains(all, d) {
			all = append(all, d)
		}
	}
	for _, d := range dirs {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		add(filepath.Clean(d))
		if r, err := filepath.EvalSymlinks(d); err == nil {
			add(r)
		}
	}
	homes = append(homes, homeNames(all, home)...)
	var out []Finding
	seen := map[string]bool{}
	r := reader{a: a, names: ns, want: want, unreadable: unreadable, read: map[string]read{}}
	for _, d := range all {
		for _, group := range a.RepoEnvFiles(filepath.ToSlash(d), homes...) {
			f, ok := r.firstIn(group)
			if ok && !seen[f.File] {
				seen[f.File] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// homeNames are the other names the home folder has on the way up from
// dirs: an ancestor that is the same folder (os.SameFile) through a
// link (/home a link to /var/home, a linked parent in $PWD). By its name
// alone the home's files were a repository's there, and the user's own
// ~/.env refused.
func homeNames(dirs []string, home string) []string {
	hi, err := os.Stat(home)
	if home == "" || err != nil {
		return nil
	}
	var names []string
	// dirs share their parents (a folder, its real path, the payload's
	// cwd below it): a walk up stops at a folder an earlier one looked
	// at, whose own parents it looked at too.
	seen := map[string]bool{}
	for _, d := range dirs {
		for p := d; !seen[p]; {
			seen[p] = true
			if fi, err := os.Stat(p); err == nil && os.SameFile(fi, hi) {
				names = append(names, filepath.ToSlash(p))
			}
			parent := filepath.Dir(p)
			if parent == p {
				break
			}
			p = parent
		}
	}
	return names
}

// read is what reader found of one file.
type read struct {
	info   fs.FileInfo
	absent bool
	f      Finding
	ok     bool
}

// reader reads each file once for Check: the walks up from a folder, its
// real path and the payload's cwd meet in the same parents, and a 4 MiB
// .env read once per folder that led to it took seconds.
type reader struct {
	a          *agents.Agent
	names      nameSet
	want       Want
	unreadable []string
	read       map[string]read
	files      []read // those that exist, to tell one file by two paths
}

// firstIn reads the first file of group that exists, as the agent loads
// it: a finding when it sets a variable want counts or cannot be read.
func (r *reader) firstIn(group []agents.EnvFile) (Finding, bool) {
	for _, ef := range group {
		got, done := r.read[ef.Path]
		if !done {
			got = r.readOne(ef)
			r.read[ef.Path] = got
		}
		if !got.absent {
			return got.f, got.ok
		}
	}
	return Finding{}, false
}

func (r *reader) readOne(ef agents.EnvFile) read {
	p := filepath.FromSlash(ef.Path)
	info, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return read{absent: true}
	}
	if err == nil {
		// The same file by a folder's logical and real path: read once.
		for _, f := range r.files {
			if os.SameFile(f.info, info) {
				return f
			}
		}
	}
	got := r.readFile(p, ef)
	if err == nil {
		got.info = info
		r.files = append(r.files, got)
	}
	return got
}

func (r *reader) readFile(p string, ef agents.EnvFile) read {
	data, err := fsutil.ReadRegular(p, filepath.FromSlash(ef.Within), MaxFile)
	if err != nil {
		return read{f: Finding{File: p, Vars: r.unreadable, Err: err}, ok: len(r.unreadable) > 0}
	}
	vars, err := setIn(r.a, ef, data, r.names, r.want)
	if err != nil {
		return read{f: Finding{File: p, Vars: r.unreadable, Err: err}, ok: len(r.unreadable) > 0}
	}
	return read{f: Finding{File: p, Vars: vars}, ok: len(vars) > 0}
}
