package server

import (
	"net/http"
	"os"
	"path/filepath"
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

// sameFiles reports whether two lists name the same files in the same
// order (the order of the entries follows it); paths are resolved as Load
// resolves flag files, against the process's working directory.
func sameFiles(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, _ := filepath.Abs(a[i])
		y, _ := filepath.Abs(b[i])
		if !sameDir(x, y) {
			return false
		}
	}
	return true
}
