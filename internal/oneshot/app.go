// Package oneshot is the one-shot half of the hermes-hooks command line:
// `dispatch EVENT` and `hook AGENT [EVENT]` run by a process that exits
// right after, and the front that decides, from the arguments alone,
// whether this process answers or hands the command line to the complete
// program.
//
// Contract: it links nothing a one-shot dispatch does not need (no cobra,
// no server, no metrics, no report), because its binary, cmd/hermes-hooks,
// is started once per agent event and every linked package's start-up work
// is paid on every event. The complete program (cmd/hermes-hooks-full)
// runs the same two commands through this package, so both binaries answer
// alike byte for byte; the front only decides which of them answers.
package oneshot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// App holds what every command shares: the streams and the global flags.
type App struct {
	In       io.Reader
	Out, Err io.Writer

	ConfigPath     string
	ClaudeSettings []string
	// Other agents' hook files (--codex-hooks …), read as Claude settings
	// files are.
	CodexHooks, CopilotHooks, CursorHooks []string
	AcceptHooks                           bool

	// HTTP posts Claude Code http hooks: httphook.Post in the complete
	// program. The front leaves it nil, so that it does not link net/http;
	// a dispatch that meets an http hook is then handed to the complete
	// program (NeedsFull).
	HTTP dispatcher.HTTPPost

	// noHandOver: the complete program cannot be started, so this front
	// dispatches everything itself, its http hooks failing as hooks that
	// cannot start (a fail_closed one blocks).
	noHandOver bool
	// triedServer: hook already tried to forward to a live serve.
	triedServer bool
	// moreProjects are project directories loaded beside the dispatch's
	// own (hook AGENT: the agent's project; see agentProjects).
	moreProjects []string

	// NoSubreap: this process must not adopt and kill its hooks' escaped
	// descendants. Only tests that dispatch in-process set it: the test
	// binary has other children (testscript's commands, their detached
	// async children) that KillEscaped would take for escapees.
	NoSubreap bool
}

// Home is HERMES_HOME (default ~/.hermes).
func (a *App) Home() (string, error) {
	h, err := consent.DefaultHome()
	if err != nil {
		return "", &ExitError{Code: 1, Msg: err.Error(), Hint: "set HERMES_HOME"}
	}
	return h, nil
}

// Config returns the config file path: --config, else $HERMES_HOME/config.yaml.
func (a *App) Config() (string, error) {
	if a.ConfigPath != "" {
		return a.ConfigPath, nil
	}
	p, err := dispatcher.DefaultConfigPath()
	if err != nil {
		return "", &ExitError{Code: 1, Msg: err.Error(), Hint: "set HERMES_HOME"}
	}
	return p, nil
}

// LoadConfig reads the config, the agents' hook files and the project's
// .hermes/hooks.yaml (found from the working directory), printing every
// warning on stderr.
func (a *App) LoadConfig() (*dispatcher.Config, error) { return a.LoadConfigFor(Cwd()) }

// LoadConfigQuiet is LoadConfig without printing the warnings: the caller
// reports them (validate).
func (a *App) LoadConfigQuiet() (*dispatcher.Config, error) { return a.load(Cwd()) }

// LoadConfigFor is LoadConfig for a project directory other than the
// working directory (dispatch uses the host's cwd field).
func (a *App) LoadConfigFor(projectDir string) (*dispatcher.Config, error) {
	cfg, err := a.load(projectDir)
	if err != nil {
		return nil, err
	}
	a.warnAll(cfg)
	return cfg, nil
}

// loadToRun is LoadConfigFor for a dispatch of ev with fields, whose stdin
// was stdin. When this program cannot answer it whole (the front: no http
// poster, no YAML parser, no backtracking regex engine) it returns a
// *NeedsFull before printing anything, so that the complete program
// answers the same command line and prints the warnings once:
//   - ev has an http hook;
//   - a config (or a project's hooks file) is not in the cache of parsed
//     configs yet (it is new or was edited since the last parse);
//   - a matcher of ev needs the backtracking engine for these fields.
//
// calledBy is the agent the dispatch answers: its own hook files' entries
// are skipped (it runs them itself), so they need no hand-over.
func (a *App) loadToRun(projectDir string, ev *protocol.Event, fields map[string]any, stdin []byte, calledBy string) (*dispatcher.Config, error) {
	cfg, err := a.load(projectDir)
	if errors.Is(err, dispatcher.ErrNoEngine) && !a.noHandOver {
		return nil, &NeedsFull{Stdin: stdin, Why: "a config not parsed before", TriedServer: a.triedServer}
	}
	if err != nil {
		return nil, err
	}
	if !a.noHandOver {
		for _, e := range cfg.Entries {
			if a.HTTP == nil && e.Event == ev && e.Type == dispatcher.TypeHTTP && (calledBy == "" || e.RunBy != calledBy) {
				return nil, &NeedsFull{Stdin: stdin, Why: "an http hook", TriedServer: a.triedServer}
			}
		}
		if cfg.Undecided(ev, fields, calledBy) {
			return nil, &NeedsFull{Stdin: stdin, Why: "a matcher that needs the backtracking regex engine", TriedServer: a.triedServer}
		}
	}
	a.warnAll(cfg)
	return cfg, nil
}

// refusal is the answer to a dispatch of ev whose load failed with err:
// when ev gates tool calls, whether a guard protects it is unknown, so it
// is refused, with a warning and a reason that names the file and the fix
// (for the front that cannot read a config it has no parse of and cannot
// hand over, the reason says so). ok is false for other events and for a
// hand-over. dispatch prints the outcome, hook the agent's encoding of it
// (its deny).
func (a *App) refusal(ev *protocol.Event, err error) (refused protocol.Outcome, ok bool) {
	if err == nil || errors.As(err, new(*NeedsFull)) {
		return protocol.Outcome{}, false
	}
	if refused, ok = dispatcher.RefusalFor(ev, err); !ok {
		return refused, false
	}
	a.Warn(classifyMsg(err))
	if errors.Is(err, dispatcher.ErrNoEngine) {
		refused.Message = unreadableConfigRefusal
	}
	return refused, true
}

func (a *App) load(projectDir string) (*dispatcher.Config, error) {
	path, err := a.Config()
	if err != nil {
		return nil, err
	}
	if a.ConfigPath != "" {
		// A config named on purpose must exist: a typo in an agent's hook
		// command must not read as "no hooks" (and no guard).
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, &dispatcher.ConfigError{Path: path, Err: errors.New("no such file (named by --config)")}
		}
	}
	return dispatcher.Load(path, a.LoadOptions(projectDir))
}

// parseYAML is the YAML parser of every load: the cache of parsed configs
// in HERMES_HOME (see cfgtree.Cache) in front of the installed engine,
// which fills it. The front has no engine: a text it finds no parse of
// fails with dispatcher.ErrNoEngine, and loadToRun hands the command line
// to the complete program, whose parse the next front finds.
func (a *App) parseYAML(text []byte) (*cfgtree.Node, error) {
	var cache cfgtree.Cache
	if home, err := a.Home(); err == nil {
		cache.Dir = filepath.Join(home, "cache", "config")
	}
	if root, ok := cache.Get(text); ok {
		return root, nil
	}
	parse := dispatcher.InstalledEngines().YAML
	if parse == nil {
		return nil, dispatcher.ErrNoEngine
	}
	root, err := parse(text)
	if err == nil {
		_ = cache.Put(text, root)
	}
	return root, err
}

func (a *App) warnAll(cfg *dispatcher.Config) {
	for _, w := range cfg.Warnings {
		a.Warn(w.String())
	}
}

// NeedsFull says that the command line must be answered by the complete
// program, which is given Stdin as its standard input (this process has
// read its own).
type NeedsFull struct {
	Stdin []byte
	Why   string
	// TriedServer: the front already tried to forward to a live serve,
	// and the complete program must not try again (--no-server).
	TriedServer bool
}

func (n *NeedsFull) Error() string { return "this dispatch needs the complete program (" + n.Why + ")" }

// LoadOptions are the agent hook files of the command line, and the
// project directory.
func (a *App) LoadOptions(projectDir string) dispatcher.LoadOptions {
	return dispatcher.LoadOptions{
		ClaudeSettings:  a.ClaudeSettings,
		CodexHooks:      a.CodexHooks,
		CopilotHooks:    a.CopilotHooks,
		CursorHooks:     a.CursorHooks,
		ProjectDir:      projectDir,
		MoreProjectDirs: a.moreProjects,
		YAML:            a.parseYAML,
	}
}

// Warn prints a warning on stderr, escaped for the terminal.
func (a *App) Warn(msg string) {
	fmt.Fprintf(a.Err, "hermes-hooks: warning: %s\n", Show(msg))
}

// Store is the allowlist in HERMES_HOME.
func (a *App) Store() (*consent.Store, error) {
	h, err := a.Home()
	if err != nil {
		return nil, err
	}
	return consent.NewStore(h), nil
}

// Policy is the consent policy for running hooks: the accept channels of
// the flag, HERMES_ACCEPT_HOOKS and hooks_auto_accept, and HERMES_SAFE_MODE.
// No prompt: stdin carries the event (dispatch), and an agent calling us
// must never hang on a question nobody sees.
func (a *App) Policy(cfg *dispatcher.Config, store *consent.Store) *consent.Policy {
	return consent.NewPolicy(store, consent.PolicyOptions{
		AcceptFlag:       a.AcceptHooks,
		ConfigAutoAccept: cfg.AutoAccept,
		Warn:             a.Warn,
	})
}

// Cwd is the working directory ("" when it is gone).
func Cwd() string {
	wd, _ := os.Getwd()
	return wd
}

// Show escapes text from configs, allowlists, hooks and arguments for the
// terminal (see package termsafe): no config can make a line lie.
func Show(s string) string { return termsafe.Escape(s) }
