package report

import (
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/repoenv"
)

// Gemini CLI strips variables from the environment of the hooks it runs
// when its settings say so (security.environmentVariableRedaction) or in
// GitHub Actions (agents/envstrip.go): a HERMES_HOME set in the user's
// environment then never reaches `hook gemini`, which reads ~/.hermes
// instead, and the user's guards do not run. doctor's probe runs the line
// in doctor's own environment, where the variable is still set, so it
// fires all the same: doctor reads the agent's settings and says so.

// StripCheck is a control variable set in doctor's environment that the
// agent strips from the environment of the hooks it runs, or its settings
// that could not be read.
type StripCheck struct {
	Var string `json:"var,omitempty"`
	// File is the settings file whose setting strips Var ("": the agent's
	// strict mode alone, GITHUB_SHA or SURFACE=Github).
	File string `json:"file,omitempty"`
	// Project: File is the project's (a repository can commit it); then
	// `hook AGENT` refuses every tool call there.
	Project bool   `json:"project"`
	Setting string `json:"setting,omitempty"`
	Fix     string `json:"fix,omitempty"`
	// Refused: `hook AGENT` notices and refuses tool calls (the project's
	// file strips the variable by its name).
	Refused bool   `json:"refused,omitempty"`
	Error   string `json:"error,omitempty"`
}

// stripCheck reads the settings in's agent strips its hooks' environment
// by, where in's hooks run (its root; for a user file, doctor's folder),
// for the controls set in doctor's environment (repoenv.StripControls):
// nothing is read while none is set.
func stripCheck(in install.Installed, o ProbeOptions) []StripCheck {
	if !in.Agent.StripsEnv() {
		return nil
	}
	env := map[string]string{}
	var names []string
	for _, name := range repoenv.StripControls {
		if v, ok := os.LookupEnv(name); ok && repoenv.StripSet(name, v) {
			names, env[name] = append(names, name), v
		}
	}
	if len(names) == 0 {
		return nil
	}
	workspace, root := in.Root, in.Root
	if in.User {
		workspace, root = o.WorkDir, o.WorkDir
		if o.Project != "" {
			workspace, root = runDir(o.Project, o.WorkDir), o.Project
		}
	}
	s := repoenv.Strips(in.Agent, o.Home, workspace, names, env, os.LookupEnv)
	if s.Err != nil {
		return []StripCheck{{File: s.ErrFile, Error: s.Err.Error()}}
	}
	var out []StripCheck
	for i, st := range s.Stripped {
		c := StripCheck{Var: st.Name, Setting: st.Setting, Fix: s.Fixes[i], Refused: st.ByProject && !st.ByValue}
		if st.File >= 0 {
			f := s.Files[st.File]
			c.File, c.Project = filepath.FromSlash(f.Path), f.Project
			// A project's file by its path in the project, as the
			// switch files are named.
			if rel, err := filepath.Rel(root, c.File); err == nil && f.Project {
				c.File = rel
			}
		}
		out = append(out, c)
	}
	return out
}

// strippedLoss is what the hooks lose with name.
var strippedLoss = map[string]string{
	repoenv.Home:        "hermes-hooks then reads the config and approvals of ~/.hermes, not those of your HERMES_HOME, and your guards there do not run",
	repoenv.Managed:     "hermes-hooks then reads no managed config, and its guards do not run",
	repoenv.ShellPrefix: "your Claude-dialect hooks, approved with that prefix, then do not match their approval and do not run",
	repoenv.Accept:      "your own hooks that it approves are then unapproved there: they do not run (a fail_closed one refuses)",
}

// StripLine is doctor's line for c, of the agent title, escaped.
func StripLine(c *StripCheck, title string) string {
	if c.Error != "" {
		return CheckFail.Symbol() + " cannot read " + show(c.File) + " (" + show(c.Error) + "): whether " + show(title) + " strips your HERMES_HOME (or another control of hermes-hooks) from its hooks' environment cannot be told"
	}
	where := show(title) + "'s strict mode"
	if c.File != "" {
		where = show(c.File)
		if c.Project {
			where = "this project's " + where
		}
	}
	line := CheckFail.Symbol() + " " + where + " makes " + show(title) + " strip " + show(c.Var) + " from the environment of the hooks it runs (" + show(c.Setting) + "): " + strippedLoss[c.Var]
	if c.Refused {
		line += "; hermes-hooks refuses every tool call there meanwhile"
	}
	return line + "; fix: " + show(c.Fix)
}
