package agents

import (
	"encoding/json"
	"path"
	"strings"
)

// Some agents put variables from a project's files into the environment of
// every hook they run: Claude Code the "env" of its settings files (a
// project's .claude/settings.json and settings.local.json outrank the
// user's, and replace what the agent's own environment held), Gemini CLI
// and Qwen Code the nearest .env walking up from the folder they start in
// (each only fills a variable the environment does not hold yet), Qwen
// Code its workspace settings' "env" too. A repository that commits such a
// file chooses the environment `hermes-hooks hook` runs in: HERMES_SAFE_MODE
// or HERMES_HOME there would switch the user's own guards off.
// RepoEnvFiles names those files so hook can tell a variable the
// repository set from one the user did. Facts and sources: docs/security.md,
// "What a repository's environment can change".

// EnvFile is a file of a project's from which an agent takes variables
// for the environment of the hooks it runs.
type EnvFile struct {
	// Path is slash-separated and absolute.
	Path string
	// Within is the folder the file must lie in: a link out of it is not
	// followed (a repository names the file; what it links to is not the
	// repository's to offer as "not set").
	Within string
	// Dotenv: KEY=value lines (ParseDotenv); else a JSON settings file
	// whose "env" object holds the variables (ParseSettingsEnv).
	Dotenv bool
}

// maxEnvWalk bounds the folders a walk up for a .env looks at.
const maxEnvWalk = 256

// repoEnvRules are, per agent, the project's files it takes hook
// environment from when started in dir, in groups: of each group the agent
// loads the first file that exists. home is the user's home folder:
// files there are the user's own, never a repository's.
var repoEnvRules = map[string]func(dir, home string) [][]EnvFile{
	// code.claude.com/docs/en/settings: "env" in any settings file; the
	// project's shared and local files, read from the project's root.
	"claude": func(dir, home string) [][]EnvFile {
		if dir == home {
			return nil // ~/.claude/settings.json is the user's own
		}
		return [][]EnvFile{
			{{Path: path.Join(dir, ".claude/settings.json"), Within: dir}},
			{{Path: path.Join(dir, ".claude/settings.local.json"), Within: dir}},
		}
	},
	// Gemini CLI's findEnvFile and loadEnvironment (0.61.0's bundle): from
	// the workspace up, in each folder .gemini/.env, then .env; the first
	// found is loaded; the home folder's are the user's.
	"gemini": func(dir, home string) [][]EnvFile {
		return [][]EnvFile{dotenvWalk(dir, home, ".gemini")}
	},
	// Qwen Code's findEnvFiles and loadEnvironment (0.24.4's bundle): the
	// same walk (from the folder's real path) with .qwen/.env, stopping at the home folder; its
	// merged settings' "env" fills what is still unset, the workspace's
	// .qwen/settings.json among them.
	"qwen": func(dir, home string) [][]EnvFile {
		groups := [][]EnvFile{dotenvWalk(dir, home, ".qwen")}
		if dir != home {
			groups = append(groups, []EnvFile{{Path: path.Join(dir, ".qwen/settings.json"), Within: dir}})
		}
		return groups
	},
}

// dotenvWalk is the walk of a .env search from dir up to (not including)
// home or the root: in each folder own/.env, then .env.
func dotenvWalk(dir, home, own string) []EnvFile {
	var files []EnvFile
	for range maxEnvWalk {
		if dir == home || dir == "" {
			break
		}
		files = append(files,
			EnvFile{Path: path.Join(dir, own, ".env"), Within: dir, Dotenv: true},
			EnvFile{Path: path.Join(dir, ".env"), Within: dir, Dotenv: true})
		parent := path.Dir(dir)
		if parent == dir || parent == "." {
			break
		}
		dir = parent
	}
	return files
}

// RepoEnvFiles are the files of a project's that a, started in dir (an
// absolute, slash-separated folder), takes hook environment from, in
// groups of which it loads the first that exists; nil for an agent that
// takes none. home (slash-separated) is the user's home folder, whose
// files are the user's own choice and not listed.
func (a *Agent) RepoEnvFiles(dir, home string) [][]EnvFile {
	rule, ok := repoEnvRules[a.Name]
	if !ok || dir == "" || !slashAbs(dir) {
		return nil
	}
	dir, home = path.Clean(dir), path.Clean(home)
	if home == "." {
		home = ""
	}
	return rule(dir, home)
}

// RepoEnvReplaces reports whether a's project files replace a variable
// the agent's own environment already holds (Claude Code's settings "env"),
// not only fill an unset one (a .env): only then can they move one that is
// always set, HOME.
func (a *Agent) RepoEnvReplaces() bool { return a.Name == "claude" }

// TakesRepoEnv reports whether a takes hook environment from a project's
// files at all.
func (a *Agent) TakesRepoEnv() bool {
	_, ok := repoEnvRules[a.Name]
	return ok
}

// ParseSettingsEnv reads the "env" object of a JSON settings file: each
// variable as the agent puts it into the environment (a string as it is,
// any other value as its JSON text: a number 1 becomes "1"). A file that
// is not a JSON object sets nothing the agent would take; err says so.
func ParseSettingsEnv(data []byte) (map[string]string, error) {
	var doc struct {
		Env map[string]json.RawMessage `json:"env"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	env := make(map[string]string, len(doc.Env))
	for k, raw := range doc.Env {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			env[k] = s
			continue
		}
		env[k] = strings.TrimSpace(string(raw))
	}
	return env, nil
}
