package report

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/repoenv"
)

// An agent may put a project's settings "env" (Claude Code) or .env
// (Gemini CLI, Qwen Code) into the environment of every hook it runs:
// a repository that sets HERMES_SAFE_MODE or HERMES_HOME there makes
// `hook AGENT` refuse every tool call (internal/repoenv). doctor's probe
// runs the line in doctor's own environment, so it fires all the same:
// doctor reads those files and says so. It also names a file that sets a
// variable loading code into the hooks (BASH_ENV, NODE_OPTIONS …), which
// `hook AGENT` keeps out of them.

// RepoEnvCheck is a project's file that sets a control variable for the
// hooks the agent runs, or that could not be read.
type RepoEnvCheck struct {
	File string   `json:"file"`
	Vars []string `json:"vars"`
	// Project is the project folder whose hooks the file reaches.
	Project string `json:"project"`
	Error   string `json:"error,omitempty"`
	// BeforeHook are the variables of Vars (RepoLoaders) that the agent's
	// shell reads before the hook's command line runs (repoenv.ShellReads):
	// the repository's code answers before hermes-hooks starts.
	BeforeHook []string `json:"before_hook,omitempty"`
	// shell is the agent's (agents.Agent.Shell), for BeforeHook's line.
	shell string
}

// repoEnvCheck reads the project's files in's agent takes hook environment
// from, where in's hooks run (its root; for a user file, the project around
// doctor, and doctor's folder in it), home being the user's.
func repoEnvCheck(in install.Installed, o ProbeOptions) []RepoEnvCheck {
	return repoEnvRead(in, o, func(a *agents.Agent, dirs []string) []repoenv.Finding {
		return repoenv.Check(a, dirs, o.Home, repoenv.AnySet, repoenv.Controls)
	})
}

// repoLoaderCheck is repoEnvCheck for the variables that make a hook's
// programs load code (repoenv.Loads), and a PATH with folders a repository
// fills: `hook AGENT` keeps them from the hooks when a repository's file
// set them, which doctor says (a file that sets both has two lines). A
// file that cannot be read is repoEnvCheck's to report.
func repoLoaderCheck(in install.Installed, o ProbeOptions) []RepoEnvCheck {
	out := repoEnvRead(in, o, func(a *agents.Agent, dirs []string) []repoenv.Finding {
		found := repoenv.Loaders(a, dirs, o.Home, nil, repoenv.AnyLoader, nil)
		if !a.RepoEnvReplaces() {
			return found // a file that only fills unset variables sets no PATH
		}
		return append(found, repoenv.Loaders(a, dirs, o.Home, []string{repoenv.PathVar}, repoenv.PathInto(dirs), nil)...)
	})
	if runtime.GOOS == "windows" {
		return out // the agents start hooks with PowerShell or cmd there
	}
	sh := repoenv.Shell{Name: in.Agent.Shell(), DynamicLoader: runtime.GOOS != "darwin"}
	sh.BashAsSh = sh.Name == "sh" && shIsBash()
	for i := range out {
		out[i].BeforeHook, out[i].shell = repoenv.ShellReads(sh, out[i].Vars), sh.Name
	}
	return out
}

// shIsBash reports whether /bin/sh is bash here: a link to it (Fedora,
// Arch), or on macOS the shell /private/var/select/sh names (bash unless
// the user chose another).
func shIsBash() bool {
	if runtime.GOOS == "darwin" {
		t, err := os.Readlink("/private/var/select/sh")
		return err != nil || filepath.Base(t) == "bash"
	}
	r, err := filepath.EvalSymlinks("/bin/sh")
	return err == nil && filepath.Base(r) == "bash"
}

// repoEnvRead runs read where in's hooks run (its root; for a user file,
// the project around doctor, and doctor's folder in it).
func repoEnvRead(in install.Installed, o ProbeOptions, read func(*agents.Agent, []string) []repoenv.Finding) []RepoEnvCheck {
	if !in.Agent.TakesRepoEnv() {
		return nil
	}
	project := in.Root
	if in.User {
		project = o.Project
	}
	if project == "" {
		return nil
	}
	dirs := []string{project}
	if samePath(project, o.Project) && fsutil.InTree(o.WorkDir, project) {
		dirs = append(dirs, o.WorkDir)
	}
	var out []RepoEnvCheck
	for _, f := range read(in.Agent, dirs) {
		c := RepoEnvCheck{File: f.File, Vars: f.Vars, Project: project}
		if f.Err != nil {
			c.Error = f.Err.Error()
		}
		out = append(out, c)
	}
	return out
}

// RepoEnvLine is doctor's line for c, a file of the project's that title
// (the agent) takes hook environment from, escaped.
func RepoEnvLine(c *RepoEnvCheck, title string) string {
	where, vars := c.where(), show(strings.Join(c.Vars, ", "))
	if c.Error != "" {
		return CheckFail.Symbol() + " cannot read " + where + " (" + show(c.Error) + "): whether it sets " + vars + " for the hooks " + show(title) + " runs cannot be told, so hermes-hooks refuses every tool call there while one of them is set"
	}
	return CheckFail.Symbol() + " " + where + " sets " + vars + " for the hooks " + show(title) + " runs: a repository may not switch off your guards, so hermes-hooks refuses every tool call there; fix: remove it from that file (to mean it, set it in your own settings or shell)"
}

// RepoLoaderLine is doctor's line for c, a file of the project's that sets
// a variable loading code (repoLoaderCheck) for the hooks title runs.
func RepoLoaderLine(c *RepoEnvCheck, title string) string {
	if len(c.BeforeHook) > 0 {
		shell := c.shell
		if shell == "" {
			shell = "its shell"
		}
		return CheckFail.Symbol() + " " + c.where() + " sets " + show(strings.Join(c.BeforeHook, ", ")) + " for the hooks " + show(title) + " runs, and " + show(title) +
			" starts each hook's command line with " + shell + ", which runs that code first: the repository's code answers before hermes-hooks starts, for every guard there; fix: remove it from that file (to mean it, set it in your own settings or shell)"
	}
	if slices.Equal(c.Vars, []string{repoenv.PathVar}) {
		return CheckWarn.Symbol() + " " + c.where() + " sets PATH for the hooks " + show(title) +
			" runs, with folders a repository fills (relative ones, the project's) that would put its programs before yours: hermes-hooks passes PATH to your hooks without them"
	}
	what := "load code nobody approved"
	if slices.ContainsFunc(c.Vars, repoenv.Routes) {
		what = "load code, or send their requests to servers, nobody approved"
	}
	return CheckWarn.Symbol() + " " + c.where() + " sets " + show(strings.Join(c.Vars, ", ")) + " for the hooks " + show(title) +
		" runs: it would make them " + what + ", so hermes-hooks keeps it out of your hooks' environment (to mean it, set it in your own settings or shell)"
}

// where names c's file, escaped: by its path in the project when it is in it.
func (c *RepoEnvCheck) where() string {
	if fsutil.InTree(c.File, c.Project) {
		rel, _ := filepath.Rel(c.Project, c.File)
		return "this project's " + show(filepath.ToSlash(rel))
	}
	return show(c.File)
}

// loadedBeforeHook: a project's file makes the agent's shell load code
// before the hook's command line runs (RepoEnvCheck.BeforeHook).
func (c *InstallCheck) loadedBeforeHook() bool {
	return slices.ContainsFunc(c.RepoLoaders, func(r RepoEnvCheck) bool { return len(r.BeforeHook) > 0 })
}
