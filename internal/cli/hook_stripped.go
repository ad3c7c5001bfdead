package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/repoenv"
)

// hookStripped answers call when the project's settings make the agent
// strip a control variable of hermes-hooks from the environment of the
// hooks it runs (Gemini CLI's security.environmentVariableRedaction: a
// "blocked" list naming HERMES_HOME, or an "allowed" list that replaces
// the user's): the variable never reaches this process, which cannot tell
// whether the user set it, and without it reads ~/.hermes instead of the
// user's HERMES_HOME. A repository's settings file must not be a way to
// switch the user's guards off, so a gating call is refused, naming the
// file; any other event is warned about and dispatches nothing, as
// hookRepoEnv does. Only the controls absent (or empty) here are asked about, and
// only what the project's file decides counts: the user's or the
// administrator's own settings are their choice (doctor says what they
// strip). What strict mode strips (GITHUB_SHA, SURFACE=Github) cannot be
// told here: it strips those very variables.
func (a *App) hookStripped(ctx context.Context, agent *agents.Agent, call *agents.Call, hostCwd string, anyCaller bool) (handled bool, err error) {
	if !agent.StripsEnv() {
		return false, nil
	}
	var names []string
	for _, name := range repoenv.StripControls {
		if os.Getenv(name) == "" { // stripped, or read as unset
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return false, nil
	}
	var dirs []string
	for _, d := range append(agentProjects(agent, call, Cwd()), hostCwd) {
		if d != "" && filepath.IsAbs(d) && !slices.Contains(dirs, filepath.Clean(d)) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	home, _ := os.UserHomeDir()
	problems := within(ctx, func() []string {
		var out []string
		for _, d := range dirs {
			// Most calls read the project's one small file and stop.
			if repoenv.ProjectMayStrip(agent, home, d, os.LookupEnv) {
				out = append(out, stripProblems(agent, repoenv.Strips(agent, home, d, names, nil, os.LookupEnv))...)
			}
		}
		return out
	}, []string{"the agent's settings files: " + errNotInTime.Error()})
	if len(problems) == 0 {
		return false, nil
	}
	msg := strings.Join(problems, "; ")
	if call.Event == nil || !call.Event.Gating() {
		a.Warn(msg + "; no hook runs for this event")
		return true, nil
	}
	a.Warn(msg)
	reason := "hermes-hooks: " + msg + "; whether you set it cannot be told, and a repository may not switch off your guards, so this tool call is refused (remove the setting from that file; to keep it, add the variable to the allowed list of your system settings)"
	return true, denyUnjournaled(a, agent, call, reason, anyCaller)
}

// stripProblems says what of s the project's file decides: a variable it
// makes the agent strip, or the file itself when it cannot be read.
func stripProblems(agent *agents.Agent, s repoenv.Strip) []string {
	if s.Err != nil {
		if !slices.ContainsFunc(s.Files, func(f agents.StripFile) bool {
			return f.Project && filepath.FromSlash(f.Path) == s.ErrFile
		}) {
			return nil // the user's or the system's own: doctor says so
		}
		return []string{"cannot read " + s.ErrFile + " (" + s.Err.Error() + "): whether it makes " + agent.Title + " strip a control of hermes-hooks from the environment of its hooks cannot be told"}
	}
	var out []string
	for _, st := range s.Stripped {
		if st.ByProject && st.File >= 0 {
			out = append(out, s.Files[st.File].Path+" makes "+agent.Title+" strip "+st.Name+" from the environment of the hooks it runs ("+st.Setting+")")
		}
	}
	return out
}
