package cli

import (
	"context"
	"os"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/repoenv"
)

// hookLoaders keeps out of every hook's environment the variables that
// make programs load code (repoenv.Loads: BASH_ENV, a bash function
// BASH_FUNC_jq%%, NODE_OPTIONS, LD_PRELOAD …) which a repository's file
// put into this process's environment (a project's settings "env", a
// .env: the agent passes them to every hook it runs). The user's guard
// was approved for its own files; the code such a variable loads would
// run inside it and could answer for it (a BASH_ENV that prints an allow
// and exits). Dropped, not refused: a project may set NODE_OPTIONS for
// its own tools, and the guards still run as approved. The files are read
// only when such a variable is set (the common call reads nothing); not
// read in time, every one set is dropped. PATH, set by such a file (one
// that replaces a variable: Claude Code's settings env), is passed without
// its relative folders and those in the project (repoenv.OutsidePath):
// else the repository's jq is the one the guard runs. HOME, moved by such
// a file while HERMES_HOME is set (without it, HOME is a control that
// hookRepoEnv refuses), is replaced by the account's (movedHome). The
// hooks' environment is then a.hookEnv (dispatchOnce, runAsyncChild); a
// warning names the file. A proxy or resolver setting among them
// (repoenv.Routes) is unset in this process too, whose own posts read it.
// home is userHome(agent).
func (a *App) hookLoaders(ctx context.Context, agent *agents.Agent, call *agents.Call, hostCwd string, home func() string) {
	if !agent.TakesRepoEnv() {
		return
	}
	env := os.Environ()
	set := repoenv.LoadersSet(env)
	dirs := repoEnvDirs(agent, call, hostCwd)
	path, hasPath := os.LookupEnv(repoenv.PathVar)
	// Only a file that replaces a variable can set one always set; and
	// only a PATH with a folder a repository fills need be looked for
	// (the common one has none: no file is read).
	if hasPath && agent.RepoEnvReplaces() && repoenv.OutsidePath(path, dirs, false) != path {
		set = append(set, repoenv.PathVar)
	}
	if movedHome(agent, home) {
		set = append(set, repoenv.HomeVar)
	}
	if len(set) == 0 {
		return
	}
	found := checkBy(ctx, func() []repoenv.Finding {
		return repoenv.Loaders(agent, dirs, home(), set, repoenv.InEnv(set, os.LookupEnv), set)
	}, set)
	var drop []string
	for _, f := range found {
		drop = append(drop, f.Vars...)
	}
	if len(drop) == 0 {
		return
	}
	a.hookEnv = repoenv.Without(env, drop)
	for _, v := range drop {
		if repoenv.Routes(v) {
			// This process's own posts (http hooks, opa: entries, export)
			// read the proxy and the resolver's settings from its
			// environment: through a repository's proxy, a refused
			// tunnel would leave a guard that is not fail_closed deciding
			// nothing.
			os.Unsetenv(v)
		}
	}
	if slices.Contains(drop, repoenv.PathVar) {
		a.hookEnv = append(a.hookEnv, repoenv.PathVar+"="+repoenv.OutsidePath(path, dirs, true))
	}
	if h := home(); h != "" && slices.Contains(drop, repoenv.HomeVar) {
		a.hookEnv = append(a.hookEnv, repoenv.HomeVar+"="+h)
	}
	a.Warn(loadersProblem(agent, found, home()))
}

// movedHome reports whether HOME may be a repository's choice that is no
// control (HERMES_HOME is set, so it moves no config or approval; else
// hookRepoEnv has refused the call): the agent's files replace variables
// (Claude Code's settings env) and HOME is not the account's home (or
// that cannot be told, or it names it through a "..": IsUserHome). A
// hook's programs read their start-up files from there: git its
// ~/.gitconfig (core.fsmonitor runs a command for every git status), jq
// its ~/.jq (definitions that replace builtins such as test), Python the
// .pth files of its user site folder, zsh its .zshenv.
func movedHome(agent *agents.Agent, home func() string) bool {
	if !agent.RepoEnvReplaces() || os.Getenv(repoenv.Home) == "" {
		return false
	}
	v, ok := os.LookupEnv(repoenv.HomeVar)
	if !ok {
		return false
	}
	return !repoenv.IsUserHome(v, home())
}

// loadersProblem says what hookLoaders found and did, home being the
// account's home folder.
func loadersProblem(agent *agents.Agent, found []repoenv.Finding, home string) string {
	how := "not passed to your hooks"
	if slices.ContainsFunc(found, func(f repoenv.Finding) bool { return slices.Contains(f.Vars, repoenv.PathVar) }) {
		how += " (" + repoenv.PathVar + ": without its relative folders and those in the project)"
	}
	if slices.ContainsFunc(found, func(f repoenv.Finding) bool { return slices.Contains(f.Vars, repoenv.HomeVar) }) {
		if home != "" {
			how += " (" + repoenv.HomeVar + ": your account's home folder instead)"
		} else {
			how += " (" + repoenv.HomeVar + ": none, for your account has no home folder)"
		}
	}
	what := "the code it makes them load"
	if slices.ContainsFunc(found, func(f repoenv.Finding) bool { return slices.ContainsFunc(f.Vars, repoenv.Routes) }) {
		// A proxy or a search domain loads nothing, but its server
		// answers for a guard's http:// call.
		what += " (or where it sends their requests)"
	}
	return repoEnvProblem(agent, found) + "; " + how + ": " + what + " was never approved (to mean it, set it in your own settings or shell)"
}
