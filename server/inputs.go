package server

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// A hook call forwarded by `hermes-hooks hook AGENT` states every input
// that changes which hooks run and how consent is decided: the agent hook
// files of its command line, --accept-hooks, HERMES_ACCEPT_HOOKS and
// HERMES_SAFE_MODE (query "inputs=1" and one parameter each, below). This
// server answers only when each is what it has itself; otherwise 409, and
// the caller dispatches by itself (a guard from its --codex-hooks must
// not be skipped because this server was started without it, nor safe
// mode ignored). A reply to a checked call carries InputsHeader, so the
// caller can tell this server from one that ignored the parameters.

// InputsHeader marks a reply whose request's inputs were checked.
const InputsHeader = "Hermes-Hooks-Inputs"

// VersionHeader carries the answering server's version (Options.Version)
// on a dispatch's reply.
const VersionHeader = "Hermes-Hooks-Version"

// Query parameters of a forwarded call's inputs.
const (
	QueryInputs    = "inputs"
	QueryAccept    = "accept_hooks"
	QueryEnvAccept = "env_accept_hooks"
	QuerySafeMode  = "safe_mode"
	// QueryManaged is the managed config HERMES_HOOKS_MANAGED_CONFIG adds
	// (hookconfig.ManagedExtra; absent: none).
	QueryManaged = "managed_config"
	// QueryPlacesEnv prefixes each variable of agents.PlacesEnv the
	// caller has set (env_CODEX_HOME=…): which hook files an agent reads
	// itself, and so which hooks hook AGENT leaves to it, follows them.
	// QueryPlacesStated says the caller states them (hook AGENT does; a
	// client that calls as no agent leaves no hook to one, and states
	// none).
	QueryPlacesEnv    = "env_"
	QueryPlacesStated = "places_env"
	// QueryConfigNamed: the caller named its config (--config), so that a
	// missing one refuses its calls (hookconfig.LoadOptions.ConfigNamed).
	QueryConfigNamed = "config_named"
	// QueryHome is the caller's home directory (os.UserHomeDir, "" when
	// it has none). The load and the match follow it, not only the
	// hooks' environment: a "~/…" path in the config (rules:, an agent's
	// settings file, the journal), a Claude `if` rule's "~/…" pattern,
	// and which hook files are an agent's own (~/.claude/settings.json).
	QueryHome = "home"
	// QueryStateDir is the caller's HERMES_HOME (hermeshome.Dir, "" when
	// it has none): the allowlist its one-shot reads approvals from. The
	// config is stated on its own, and a caller sent here by
	// HERMES_HOOKS_SERVER or --server may name this server's.
	QueryStateDir = "hermes_home"
)

// A forwarded call names each agent's hook files of its command line with
// the agent's config key (claude_settings=/abs/path …).

// inputsConflict says how a forwarded call's inputs differ from this
// server's ("" when they do not, or the caller stated none).
func (s *Server) inputsConflict(r *http.Request, w http.ResponseWriter) string {
	q := r.URL.Query()
	if q.Get(QueryInputs) == "" {
		return ""
	}
	w.Header().Set(InputsHeader, "checked")
	for _, a := range agents.All() {
		key, own := a.Source.ConfigKey, s.opts.AgentFiles[a.Name]
		if !sameFiles(q[key], own) {
			return "this server reads --" + a.Source.Flag + " " + strings.Join(own, ", ") + ", not " + strings.Join(q[key], ", ")
		}
	}
	flag := func(key string, mine bool) string {
		if (q.Get(key) == "1") != mine {
			return "this server runs with " + key + "=" + map[bool]string{true: "1", false: "0"}[mine] + ", the caller with " + key + "=" + q.Get(key)
		}
		return ""
	}
	// Load reads these from this process's environment (hookconfig's
	// loadPlaces), not the hooks' base environment, and only to tell an
	// agent's own hook files: a config that reads none is answered the
	// same whatever they hold.
	for _, name := range agents.PlacesEnv() {
		if q.Get(QueryPlacesStated) == "" || !s.readsAgentFiles() {
			break
		}
		if mine, theirs := os.Getenv(name), q.Get(QueryPlacesEnv+name); mine != theirs {
			return "this server runs with " + name + "=" + mine + ", the caller with " + name + "=" + theirs
		}
	}
	if q.Get(QueryConfigNamed) == "1" && !s.opts.ConfigNamed {
		// This server reads the same path as a config that may be absent
		// (no hooks); the caller would refuse without it. Only a missing
		// file tells the two apart.
		if hookconfig.CheckNamed(s.opts.ConfigPath) != nil {
			return "the caller named the config " + s.opts.ConfigPath + ", which does not exist; this server reads it as optional (no hooks)"
		}
	}
	if c := s.homesConflict(q); c != "" {
		return c
	}
	if mine := hookconfig.ManagedExtra(); q.Get(QueryManaged) != mine {
		return "this server reads the managed config " + mine + " beside the system's, the caller " + q.Get(QueryManaged)
	}
	safe := s.opts.SafeMode || consent.SafeMode(s.env("HERMES_SAFE_MODE"))
	for _, c := range []string{
		flag(QueryAccept, s.opts.Accept),
		flag(QueryEnvAccept, consent.EnvAccept(s.env("HERMES_ACCEPT_HOOKS"))),
		flag(QuerySafeMode, safe),
	} {
		if c != "" {
			return c
		}
	}
	return ""
}

// homesConflict says how the caller's home directory or HERMES_HOME
// differs from this server's ("" when neither does, or the caller states
// neither: a client that calls as no agent and names no "~/…").
func (s *Server) homesConflict(q url.Values) string {
	if q.Has(QueryHome) {
		// As spelt: "~/…" expands to the string, and a path rule compares
		// strings.
		mine, _ := os.UserHomeDir()
		if theirs := q.Get(QueryHome); theirs != mine {
			return "this server runs with the home directory " + mine + ", the caller with " + theirs
		}
	}
	if q.Has(QueryStateDir) {
		if mine, theirs := s.opts.Store.Home(), q.Get(QueryStateDir); theirs == "" || !sameDir(theirs, mine) {
			return "this server reads the approvals of HERMES_HOME " + mine + ", the caller those of " + theirs
		}
	}
	return ""
}

// env reads a variable of the hooks' base environment, which the consent
// policy reads too (Options.Env, else the server's own).
func (s *Server) env(key string) string {
	if s.opts.Env == nil {
		return os.Getenv(key)
	}
	for i := len(s.opts.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(s.opts.Env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// readsAgentFiles reports whether the config in service holds an entry of
// an agent's hook file (Entry.FileOf), which the agent may run itself.
func (s *Server) readsAgentFiles() bool {
	g := s.cur.Load()
	return g == nil || slices.ContainsFunc(g.cfg.Entries, func(e *hookconfig.Entry) bool { return e.FileOf != "" })
}

// sameFiles reports whether two lists name the same files by the same
// paths in the same order (the order of the entries follows it); paths
// are resolved as Load resolves flag files, against the process's working
// directory. The same file by another path is another source: whether the
// agent reads it itself (and so leaves its hooks to the agent), and the
// project its hooks run for, follow the path as spelt.
func sameFiles(a, b []string) bool {
	return slices.EqualFunc(a, b, func(x, y string) bool { return absPath(x) == absPath(y) })
}

// projectConflict says why this server must not answer for a call from
// the project directories named ("" when it may). One server serves one
// project: a hook call from another project must not be answered with
// this project's hooks (its own guards would be skipped). The same
// directory by another spelling is not enough either: the project hooks
// file is searched upward from the path as spelt, so from a symlink into
// a repository (~/svc -> ~/mono/svc) the search never meets the
// repository's root, and the caller would find a guard this server did
// not load (or the reverse). The caller dispatches by itself instead.
// A user-level server (routed) loads each project by the caller's own
// spelling.
func (s *Server) projectConflict(dirs []string) string {
	if s.routed {
		return ""
	}
	var named []string
	for _, p := range dirs {
		if p == "" {
			continue
		}
		if !sameDir(p, s.opts.Cwd) || !s.dirs[0].is(p) {
			return "this server serves the project " + s.opts.Cwd + ", not " + p
		}
		named = append(named, p)
	}
	if len(named) == 0 {
		return ""
	}
	if why := s.moved(); why != "" {
		return why
	}
	// Compared with the project files of the config in service, not with a
	// search made now: a .git boundary removed below the server changes
	// what both searches find alike, and the config in service has not
	// loaded it yet (a reload follows: the .git is a file of the config).
	config := absPath(s.opts.ConfigPath)
	theirs, mine := hookconfig.FindProjects(named, config), s.cur.Load().cfg.ProjectFiles
	if len(theirs) != len(mine) || slices.ContainsFunc(theirs, func(f string) bool {
		return !slices.ContainsFunc(mine, func(g string) bool { return sameDir(f, g) })
	}) {
		return "from " + strings.Join(named, ", ") + " the project hooks are " + filesOrNone(theirs) +
			"; this server, started in " + s.opts.Cwd + ", loads " + filesOrNone(mine)
	}
	return ""
}

func filesOrNone(files []string) string {
	if len(files) == 0 {
		return "none"
	}
	return strings.Join(files, ", ")
}

// pinnedDir is a directory the config was loaded from, by its path and
// the directory that path led to then.
type pinnedDir struct {
	path string
	fi   os.FileInfo // nil: it could not be read then
}

// loadedFrom are the directories a server's config is read from: the
// working directory first (projectConflict reads it as dirs[0]), the
// project directories, the config's and the allowlist's, and those of the
// agent hook files named on the command line.
func loadedFrom(opts *Options) []string {
	dirs := []string{opts.Cwd, opts.ProjectDir, filepath.Dir(absPath(opts.ConfigPath)), opts.Store.Home()}
	dirs = append(dirs, opts.MoreProjectDirs...)
	for _, files := range opts.AgentFiles {
		for _, f := range files {
			dirs = append(dirs, filepath.Dir(absPath(f)))
		}
	}
	return dirs
}

func pinDirs(paths []string) []pinnedDir {
	dirs := make([]pinnedDir, len(paths))
	for i, p := range paths {
		dirs[i].path = p
		dirs[i].fi, _ = os.Stat(p)
	}
	return dirs
}

// is reports whether p leads to the directory d's path led to when the
// config was loaded (an unreadable one: as spelt).
func (d pinnedDir) is(p string) bool {
	fi, err := os.Stat(p)
	if d.fi == nil || err != nil {
		return filepath.Clean(p) == filepath.Clean(d.path)
	}
	return os.SameFile(fi, d.fi)
}

// moved says which of the directories the config was loaded from now
// leads elsewhere ("" when none does): a symlink on its path was pointed
// at another checkout (cur -> a, then cur -> b). No watched file changes
// then, so the config in service is still the old directory's, and
// would answer for the new one with another project's hooks.
func (s *Server) moved() string {
	for _, d := range s.dirs {
		if !d.is(d.path) {
			return "the directory " + d.path + " leads elsewhere since this server loaded its hooks"
		}
	}
	return ""
}
