package cli

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/repoenv"
)

// hookRepoEnv answers call when a control variable of hermes-hooks in this
// process's environment (repoenv.Controls: HERMES_SAFE_MODE, HERMES_HOME,
// HERMES_HOOKS_MANAGED_CONFIG; HOME while HERMES_HOME is unset and it is
// not the account's home) may have come from a repository's file: the
// agent puts a project's settings "env" (Claude Code) or .env (Gemini CLI,
// Qwen Code) into the environment of every hook it runs, so a repository
// could otherwise switch off the guards the user installed for themselves.
// A gating call is refused, in the agent's own reply, naming the file and
// the variable; any other event is warned about and dispatches nothing (its
// hooks would run from a config and approvals the repository chose). The
// files are read only when a control is set at all (the common call reads
// nothing). hostCwd is the payload's cwd ("" when unknown); home is
// userHome(agent); anyCaller as hookRefuse's. handled: the call is answered.
func (a *App) hookRepoEnv(ctx context.Context, agent *agents.Agent, call *agents.Call, hostCwd string, home func() string, anyCaller bool) (handled bool, err error) {
	// What the project's settings take away from the hook's environment
	// (hook_stripped.go) before what its files put there.
	if handled, err := a.hookStripped(ctx, agent, call, hostCwd, anyCaller); handled {
		return true, err
	}
	if !agent.TakesRepoEnv() {
		return false, nil
	}
	var homeVar func() string // HOME is a control only where it can be moved
	if agent.RepoEnvReplaces() {
		homeVar = home
	}
	active := repoenv.Active(os.LookupEnv, homeVar)
	if len(active) == 0 {
		return false, nil
	}
	dirs := repoEnvDirs(agent, call, hostCwd)
	found := checkBy(ctx, func() []repoenv.Finding {
		return repoenv.Check(agent, dirs, home(), repoenv.InEnv(active, os.LookupEnv), active)
	}, active)
	if len(found) == 0 {
		return false, nil
	}
	msg := repoEnvProblem(agent, found)
	if call.Event == nil || !call.Event.Gating() {
		a.Warn(msg + "; no hook runs for this event")
		return true, nil
	}
	a.Warn(msg)
	reason := "hermes-hooks: " + msg + "; a repository may not switch off your guards, so this tool call is refused (remove the variable from that file; to mean it, set it in your own settings or shell)"
	if slices.ContainsFunc(found, func(f repoenv.Finding) bool {
		return slices.Contains(f.Vars, repoenv.Home) || slices.Contains(f.Vars, repoenv.HomeVar)
	}) {
		// The journal's place is HERMES_HOME's (or ~/.hermes), the
		// repository's choice here.
		return true, denyUnjournaled(a, agent, call, reason, anyCaller)
	}
	return true, a.hookRefuse(agent, call, nil, reason, anyCaller)
}

// userHome is the user's home folder whose files are the user's own: the
// account's where the agent's files can replace HOME itself (Claude
// Code's settings env; "" when the account database has none: then no
// folder is taken for the home, for $HOME is what moved), else HOME (a
// .env only fills what is unset, and HOME is set), which spares reading
// the account database.
func userHome(agent *agents.Agent) func() string {
	if agent.RepoEnvReplaces() {
		return sync.OnceValue(repoenv.UserHome)
	}
	return sync.OnceValue(func() string { h, _ := os.UserHomeDir(); return h })
}

// repoEnvDirs are the folders whose files the agent took hook environment
// from: its projects (agentProjects) and the payload's cwd.
func repoEnvDirs(agent *agents.Agent, call *agents.Call, hostCwd string) []string {
	dirs := agentProjects(agent, call, Cwd())
	if hostCwd != "" {
		dirs = append(dirs, hostCwd)
	}
	return dirs
}

// checkBy runs check within ctx's deadline: files on a slow disk, or a
// hostile one's many, must not hold the call past the agent's limit (which
// lets it through). Not read in time: whether they set active cannot be
// told, a finding like an unreadable file's.
func checkBy(ctx context.Context, check func() []repoenv.Finding, active []string) []repoenv.Finding {
	return within(ctx, check, []repoenv.Finding{{File: "the project's environment files", Vars: active, Err: errNotInTime}})
}

// errNotInTime is what a check that did not end within the agent's time
// limit found (within).
var errNotInTime = errors.New("not read within the agent's time limit")

// within is check's answer, or late once ctx ends first (check goes on,
// its answer dropped).
func within[T any](ctx context.Context, check func() T, late T) T {
	done := make(chan T, 1)
	go func() { done <- check() }()
	select {
	case found := <-done:
		return found
	case <-ctx.Done():
		return late
	}
}

// denyUnjournaled refuses call with reason in the reply (and the caller's
// warning) only: where the journal is may be what the repository moved or
// had stripped (HERMES_HOME).
func denyUnjournaled(a *App, agent *agents.Agent, call *agents.Call, reason string, anyCaller bool) error {
	if anyCaller {
		return writeReply(a, agent.DenyAnyCaller(call, reason))
	}
	return writeReply(a, agent.Deny(call, reason))
}

// repoEnvProblem says what found are, for a warning and a refusal.
func repoEnvProblem(agent *agents.Agent, found []repoenv.Finding) string {
	parts := make([]string, 0, len(found))
	for _, f := range found {
		vars := strings.Join(f.Vars, ", ")
		if f.Err != nil {
			parts = append(parts, "cannot read "+f.File+" ("+f.Err.Error()+"): whether it sets "+vars+" for the hooks "+agent.Title+" runs cannot be told")
			continue
		}
		parts = append(parts, f.File+" sets "+vars+" for the hooks "+agent.Title+" runs")
	}
	return strings.Join(parts, "; ")
}
