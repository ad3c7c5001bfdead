package repoenv

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// An agent can also take a control away: Gemini CLI strips variables from
// the environment of the hooks it runs by its settings (its
// security.environmentVariableRedaction, or its strict mode in GitHub
// Actions), and `hook gemini` then reads no HERMES_HOME (~/.hermes
// instead: the user's guards kept elsewhere do not run), no managed config,
// no accept channel, no shell prefix. agents.Agent.StrippedOf says which;
// Strips reads the files.

// Accept is the accept channel: a user whose own hooks run because it
// approves them loses them (or, fail_closed, gets refusals) without it.
const Accept = "HERMES_ACCEPT_HOOKS"

// StripControls are the variables whose loss on the way to the hook
// weakens the guards: HERMES_SAFE_MODE is not one (without it more runs),
// nor HERMES_HOOKS_SERVER (a call is forwarded only to a server with the
// caller's inputs, else dispatched in the process).
var StripControls = []string{Home, Managed, ShellPrefix, Accept}

// StripSet reports whether name=value, set in the user's environment, is
// one whose loss weakens the guards.
func StripSet(name, value string) bool {
	if name == Accept {
		return consent.EnvAccept(value)
	}
	return value != ""
}

// Strip is what the agent's settings make it strip from its hooks'
// environment.
type Strip struct {
	Files    []agents.StripFile
	Stripped []agents.Stripped
	// Fixes are Stripped's fixes, in its order.
	Fixes []string
	// ErrFile is a file that could not be read (Err): what the agent
	// strips cannot be told.
	ErrFile string
	Err     error
}

// Strips reads the settings files a takes what it strips from, when run
// in workspace ("": none) with home the user's home folder, and tells
// which of env's variables (names in order; a value "" unknown) it strips.
// lookup is the agent's environment (its strict mode, the files' places
// and their ${VAR} expansion). Each read is a regular file of at most
// MaxFile bytes (a link is followed: the agent follows it; no FIFO); an
// absent file, or a folder in its place, is read by the agent as empty.
func Strips(a *agents.Agent, home, workspace string, names []string, env map[string]string, lookup func(string) (string, bool)) Strip {
	if !a.StripsEnv() || len(names) == 0 {
		return Strip{}
	}
	getenv := func(k string) string { v, _ := lookup(k); return v }
	files := a.StripFiles(filepath.ToSlash(home), filepath.ToSlash(workspace), getenv, runtime.GOOS)
	parsed := make([]agents.ParsedFile, len(files))
	for i, f := range files {
		p := filepath.FromSlash(f.Path)
		data, err := readSettings(p)
		if err == nil {
			parsed[i], err = a.ParseLayerEnv(agents.SwitchFile{User: !f.Project}, data, lookup)
		}
		if err != nil {
			return Strip{Files: files, ErrFile: p, Err: err}
		}
	}
	s := Strip{Files: files, Stripped: a.StrippedOf(files, parsed, names, env, a.StripStrict(lookup))}
	for _, st := range s.Stripped {
		s.Fixes = append(s.Fixes, a.StripFix(files, parsed, st))
	}
	return s
}

// ProjectMayStrip reports whether the project's settings file of a, run
// in workspace, may change what a strips (agents.Agent.StripMayDecide;
// a file that cannot be read may): without that, no stripping is the
// project's doing, and the user's and system's files need not be read.
func ProjectMayStrip(a *agents.Agent, home, workspace string, lookup func(string) (string, bool)) bool {
	getenv := func(k string) string { v, _ := lookup(k); return v }
	for _, f := range a.StripFiles(filepath.ToSlash(home), filepath.ToSlash(workspace), getenv, runtime.GOOS) {
		if !f.Project {
			continue
		}
		data, err := readSettings(filepath.FromSlash(f.Path))
		if err != nil || a.StripMayDecide(data) {
			return true
		}
	}
	return false
}

// readSettings reads the settings file p as a regular file of at most
// MaxFile bytes (a link is followed: the agent follows it; no FIFO); an
// absent file, or a folder in its place, is nil, as the agent reads it
// as empty.
func readSettings(p string) ([]byte, error) {
	data, err := fsutil.ReadRegular(p, "", MaxFile)
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EISDIR) || isDir(p):
		return nil, nil
	}
	return nil, err
}

// isDir reports whether p is a folder: the agent's read of it fails and
// it takes the file for empty.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
