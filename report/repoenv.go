package report

import (
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/repoenv"
)

// An agent may put a project's settings "env" (Claude Code) or .env
// (Gemini CLI, Qwen Code) into the environment of every hook it runs:
// a repository that sets HERMES_SAFE_MODE or HERMES_HOME there makes
// `hook AGENT` refuse every tool call (internal/repoenv). doctor's probe
// runs the line in doctor's own environment, so it fires all the same:
// doctor reads those files and says so.

// RepoEnvCheck is a project's file that sets a control variable for the
// hooks the agent runs, or that could not be read.
type RepoEnvCheck struct {
	File string   `json:"file"`
	Vars []string `json:"vars"`
	// Project is the project folder whose hooks the file reaches.
	Project string `json:"project"`
	Error   string `json:"error,omitempty"`
}

// repoEnvCheck reads the project's files in's agent takes hook environment
// from, where in's hooks run (its root; for a user file, the project around
// doctor, and doctor's folder in it), home being the user's.
func repoEnvCheck(in install.Installed, o ProbeOptions) []RepoEnvCheck {
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
	if samePath(project, o.Project) && within(o.WorkDir, project) {
		dirs = append(dirs, o.WorkDir)
	}
	var out []RepoEnvCheck
	for _, f := range repoenv.Check(in.Agent, dirs, o.Home, repoenv.AnySet, repoenv.Controls) {
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
	where := show(c.File)
	if within(c.File, c.Project) {
		rel, _ := filepath.Rel(c.Project, c.File)
		where = "this project's " + show(filepath.ToSlash(rel))
	}
	vars := show(strings.Join(c.Vars, ", "))
	if c.Error != "" {
		return CheckFail.Symbol() + " cannot read " + where + " (" + show(c.Error) + "): whether it sets " + vars + " for the hooks " + show(title) + " runs cannot be told, so hermes-hooks refuses every tool call there while one of them is set"
	}
	return CheckFail.Symbol() + " " + where + " sets " + vars + " for the hooks " + show(title) + " runs: a repository may not switch off your guards, so hermes-hooks refuses every tool call there; fix: remove it from that file (to mean it, set it in your own settings or shell)"
}
