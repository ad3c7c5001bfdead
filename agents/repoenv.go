package agents

import (
	"path"
	"slices"
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
	// whose "env" object holds the variables (SettingsEnv).
	Dotenv bool
	// Replaces: the agent puts the file's variables over those its own
	// environment holds (Claude Code), not only fills unset ones: an empty
	// value there empties one the user set. Set from the agent's rule.
	Replaces bool
}

// maxEnvWalk bounds the folders a walk up for a .env looks at: as many
// as a path of PATH_MAX (4096 bytes) can name, so that the walk always
// reaches the root as the agents' own walks do (at 256, a .env 260
// folders above where Gemini CLI starts went unchecked). It only runs
// when a control variable is set.
const maxEnvWalk = 4096 / 2

// repoEnvRule is where an agent takes hook environment from.
type repoEnvRule struct {
	// files are the project's files it takes hook environment from when
	// started in dir, in groups: of each group the agent loads the first
	// file that exists. isHome tells the user's home folder (by any of its
	// names): files there are the user's own, never a repository's.
	files func(dir string, isHome func(string) bool) [][]EnvFile
	// replaces: the files replace a variable the agent's own environment
	// already holds, not only fill an unset one (a .env): only then can
	// they move one that is always set, HOME, or empty one the user set.
	replaces bool
	// refuses are the variables the agent never takes from these files
	// (nil: none).
	refuses func(name string) bool
}

var repoEnvRules = map[string]repoEnvRule{
	// code.claude.com/docs/en/settings: "env" in any settings file; the
	// project's shared and local files, read from the project's root.
	"claude": {replaces: true, files: func(dir string, isHome func(string) bool) [][]EnvFile {
		if isHome(dir) {
			return nil // ~/.claude/settings.json is the user's own
		}
		return [][]EnvFile{
			{{Path: path.Join(dir, ".claude/settings.json"), Within: dir}},
			{{Path: path.Join(dir, ".claude/settings.local.json"), Within: dir}},
		}
	}},
	// Gemini CLI's findEnvFile and loadEnvironment (0.61.0's bundle): from
	// the workspace up, in each folder .gemini/.env, then .env; the first
	// found is loaded; the home folder's are the user's.
	"gemini": {files: func(dir string, isHome func(string) bool) [][]EnvFile {
		return [][]EnvFile{dotenvWalk(dir, isHome, ".gemini")}
	}},
	// Qwen Code's findEnvFiles and loadEnvironment (0.24.4's bundle): the
	// same walk (from the folder's real path) with .qwen/.env, stopping at
	// the home folder; its merged settings' "env" fills what is still
	// unset, the workspace's .qwen/settings.json among them.
	"qwen": {files: func(dir string, isHome func(string) bool) [][]EnvFile {
		groups := [][]EnvFile{dotenvWalk(dir, isHome, ".qwen")}
		if !isHome(dir) {
			groups = append(groups, []EnvFile{{Path: path.Join(dir, ".qwen/settings.json"), Within: dir}})
		}
		return groups
	}, refuses: qwenRefuses},
}

// qwenLoaders are the variables Qwen Code 0.24.4 takes from no env file
// (isLoaderEnvKey: they make the programs it and its hooks start load
// code), compared as it does, lower-cased with "_" read as "-"; and
// bash's functions by their prefix.
var qwenLoaders = []string{
	"node-options", "npm-config-node-options", "npm-config-userconfig", "npm-config-globalconfig",
	"npm-config-script-shell", "npm-config-prefix", "node-path", "openssl-conf",
	"node-repl-external-module", "npm-config-node-gyp", "npm-config-init-module",
	"ld-preload", "ld-audit", "dyld-insert-libraries", "bash-env", "zdotdir",
}

// qwenExcluded are, of Qwen Code 0.24.4's longer list of variables a
// project's file may not set (PROJECT_ENV_HARDCODED_EXCLUSIONS: its own
// paths, TLS and proxy settings, git's and an editor's commands …;
// compared lower-cased), those that load code into a hook's programs.
var qwenExcluded = []string{
	"pythonstartup", "git_config_count", "git_config_parameters", "git_config_global",
	"git_config_system", "xdg_config_home", "git_external_diff", "git_exec_path",
	"git_ssh_command", "git_ssh", "git_proxy_command", "git_askpass", "git_editor", "git_sequence_editor",
	"git_template_dir", "curl_home", "wgetrc",
}

// qwenGitPair: its excluded patterns, git's configuration pairs
// (git_config_key_N, git_config_value_N; l lower-cased). Not a regexp:
// one compiled at init costs every start.
func qwenGitPair(l string) bool {
	for _, p := range []string{"git_config_key_", "git_config_value_"} {
		if n, ok := strings.CutPrefix(l, p); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return false
}

// qwenRefuses: Qwen Code's loaders, qwenExcluded and qwenGitPair.
func qwenRefuses(name string) bool {
	l := strings.ToLower(name)
	c := strings.ReplaceAll(l, "_", "-")
	return slices.Contains(qwenLoaders, c) || strings.HasPrefix(c, "bash-func-") || slices.Contains(qwenExcluded, l) ||
		qwenGitPair(l)
}

// RepoEnvRefuses reports whether a never takes name from a project's
// files (Qwen Code's loader variables): such a file setting it sets
// nothing.
func (a *Agent) RepoEnvRefuses(name string) bool {
	r := repoEnvRules[a.Name].refuses
	return r != nil && r(name)
}

// dotenvWalk is the walk of a .env search from dir up to (not including)
// the home folder or the root: in each folder own/.env, then .env.
func dotenvWalk(dir string, isHome func(string) bool, own string) []EnvFile {
	var files []EnvFile
	for range maxEnvWalk {
		if isHome(dir) || dir == "" {
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
// takes none. homes (slash-separated) are the user's home folder by each
// of its names (as given, its real path): its files are the user's own
// choice and not listed. No home: every folder is a project's.
func (a *Agent) RepoEnvFiles(dir string, homes ...string) [][]EnvFile {
	rule, ok := repoEnvRules[a.Name]
	if !ok || dir == "" || !slashAbs(dir) {
		return nil
	}
	var hs []string
	for _, h := range homes {
		if h != "" && path.Clean(h) != "." {
			hs = append(hs, path.Clean(h))
		}
	}
	groups := rule.files(path.Clean(dir), func(d string) bool { return slices.Contains(hs, d) })
	for _, g := range groups {
		for i := range g {
			g[i].Replaces = rule.replaces // the agent's, for every file it takes
		}
	}
	return groups
}

// RepoEnvReplaces reports whether a's project files replace a variable
// the agent's own environment already holds (Claude Code's settings "env"),
// not only fill an unset one (a .env): only then can they move one that is
// always set, HOME, or make one the user set empty.
func (a *Agent) RepoEnvReplaces() bool { return repoEnvRules[a.Name].replaces }

// TakesRepoEnv reports whether a takes hook environment from a project's
// files at all.
func (a *Agent) TakesRepoEnv() bool {
	_, ok := repoEnvRules[a.Name]
	return ok
}

// SettingsEnv is the "env" object of a project's settings file (data),
// read as a reads the file for its switches (ParseLayerEnv: past a byte
// order mark, with comments where a allows them, Node's JSON, Qwen Code's
// ${VAR} expansion with lookup the agent's environment), so that no
// spelling of a name or a value reads differently here and in the agent.
// No object: a file the agent skips sets nothing. err: a file larger than
// a's reader takes (the variables it sets cannot be told).
func (a *Agent) SettingsEnv(data []byte, lookup func(string) (string, bool)) (map[string]any, error) {
	p, err := a.ParseLayerEnv(SwitchFile{}, data, lookup)
	if err != nil {
		return nil, err
	}
	env, _ := p.doc["env"].(map[string]any)
	return env, nil
}
