// Package cli is what every hermes-hooks command shares — the App (streams
// and global flags), config loading with warnings, errors and exit codes —
// and the two commands agents run: `dispatch EVENT` and `hook AGENT
// [EVENT]`, each a process that exits right after it answers.
//
// Contract: a command reads its input, dispatches (in this process, or
// through a live serve that would answer exactly as this process would),
// and writes one answer; what cannot be evaluated on a gating event is
// answered with a block (dispatch) or the agent's deny (hook), never with
// "no objection". Errors map to exit codes in one place (Report).
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/hermeshome"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// App holds what every command shares: the streams and the global flags.
type App struct {
	In       io.Reader
	Out, Err io.Writer

	ConfigPath string
	// AgentFiles are the agents' hook files named on the command line
	// (--claude-settings, --codex-hooks …), by agent name.
	AgentFiles  hookconfig.AgentFiles
	AcceptHooks bool

	// triedServer: hook already tried to forward to a live serve.
	triedServer bool
	// signalsIgnored: a firing of rules alone ignored SIGINT, SIGTERM and
	// SIGHUP (ignoreSignals), which the programs this process starts
	// would inherit (childSignals).
	signalsIgnored bool
	// warnedUnapproved: a dispatch in this process skipped a repository's
	// hooks for want of an approval, and its consent policy warned on
	// stderr with the command that reviews and approves them (approve
	// --project 'DIR'): the count-only notice is not said there again.
	warnedUnapproved bool
	// dispatchOnly: the command only dispatches (hook, dispatch), so its
	// loads leave the built-in rule files' examples unread
	// (LoadOptions.SkipBuiltinExamples).
	dispatchOnly bool
	// moreProjects are project directories loaded beside the dispatch's
	// own (hook AGENT: the agent's project; see agentProjects).
	moreProjects []string
	// hookEnv is the environment the hooks of this process's dispatches
	// start from (nil: its own): hook AGENT's, less the loaders a
	// repository's file set (hookLoaders).
	hookEnv []string

	// NoSubreap: this process must not adopt and kill its hooks' escaped
	// descendants. Only tests that dispatch in-process set it: the test
	// binary has other children (testscript's commands, their detached
	// async children) that KillEscaped would take for escapees.
	NoSubreap bool

	// spooled is the export spool this process left records in (Finish
	// starts their flush), "" for none.
	spooled string
}

// Home is HERMES_HOME (default ~/.hermes).
func (a *App) Home() (string, error) {
	h, err := hermeshome.Dir()
	if err != nil {
		return "", WithHint(err, "set HERMES_HOME")
	}
	return h, nil
}

// Config returns the config file path: --config, else $HERMES_HOME/config.yaml.
func (a *App) Config() (string, error) {
	if a.ConfigPath != "" {
		return a.ConfigPath, nil
	}
	p, err := hookconfig.DefaultConfigPath()
	if err != nil {
		return "", WithHint(err, "set HERMES_HOME")
	}
	return p, nil
}

// LoadConfig reads the config, the agents' hook files and the project's
// .hermes/hooks.yaml (found from the working directory), printing every
// warning on stderr, and then, when any is a problem, where validate shows
// them: a warning names a key path, not its file and line. For the verbs
// people run; dispatch and hook keep Hermes' lines alone.
func (a *App) LoadConfig() (*hookconfig.Config, error) {
	cfg, err := a.LoadConfigFor(Cwd())
	if err != nil {
		return nil, err
	}
	problems := 0
	for _, w := range cfg.Warnings {
		if !w.Minor {
			problems++
		}
	}
	switch {
	case problems == 1:
		fmt.Fprintf(a.Err, "hermes-hooks: hint: 1 config problem: %s shows it with its file and line\n", a.validateCommand())
	case problems > 1:
		fmt.Fprintf(a.Err, "hermes-hooks: hint: %d config problems: %s shows each with its file and line\n", problems, a.validateCommand())
	}
	return cfg, nil
}

// validateCommand is the validate command line that reads what this
// command read: without the --config and agent file flags it was given,
// validate would check $HERMES_HOME's config and say all is well.
func (a *App) validateCommand() string {
	line := "hermes-hooks validate"
	if a.ConfigPath != "" {
		line += " --config " + shquote.IfNeeded(a.ConfigPath)
	}
	for _, ag := range agents.All() {
		for _, f := range a.AgentFiles[ag.Name] {
			line += " --" + ag.Source.Flag + " " + shquote.IfNeeded(f)
		}
	}
	return line
}

// LoadConfigQuiet is LoadConfig without printing the warnings: the caller
// reports them (validate).
func (a *App) LoadConfigQuiet() (*hookconfig.Config, error) { return a.load(Cwd()) }

// LoadConfigFor is LoadConfig for a project directory other than the
// working directory (dispatch uses the host's cwd field).
func (a *App) LoadConfigFor(projectDir string) (*hookconfig.Config, error) {
	cfg, err := a.load(projectDir)
	if err != nil {
		return nil, err
	}
	a.warnAll(cfg)
	return cfg, nil
}

// loadToRun is LoadConfigFor for a dispatch: read from files that were
// not being written (loadSettled).
func (a *App) loadToRun(ctx context.Context, projectDir string) (*hookconfig.Config, error) {
	cfg, err := a.loadSettled(ctx, projectDir)
	if err != nil {
		return nil, err
	}
	a.warnAll(cfg)
	return cfg, nil
}

// refusal is the answer to a dispatch of ev whose load failed with err:
// when a failing fail_closed guard blocks ev (a tool call's, a gateway
// message's), whether such a guard protects it is unknown, so it is
// refused, with a warning and a reason that names the file and the fix.
// ok is false for other events. dispatch prints the outcome, hook the
// agent's encoding of it (its deny). The refusal goes on the journal like
// any block, to the default file: the config's journal: block is unknown
// while the config does not load.
func (a *App) refusal(ev *protocol.Event, fields map[string]any, err error) (refused protocol.Outcome, ok bool) {
	if err == nil {
		return protocol.Outcome{}, false
	}
	if refused, ok = hookconfig.RefusalFor(ev, err); !ok {
		return refused, false
	}
	a.Warn(classifyMsg(err))
	a.journalRefusal(context.Background(), nil, ev, fields, &refused)
	return refused, true
}

// journalRefusal records a refusal that no dispatch decided (the config,
// or the payload, could not be read) like any block: to cfg's journal, or
// the default file when cfg is nil (a config that does not load has no
// journal: block to read).
func (a *App) journalRefusal(ctx context.Context, cfg *hookconfig.Config, ev *protocol.Event, fields map[string]any, refused *protocol.Outcome) {
	store, err := a.Store()
	if err != nil {
		return
	}
	jc := hookconfig.JournalConfig{}
	if cfg != nil {
		jc = cfg.Journal
	}
	if w := journal.ForConfig(jc, store.Home(), journal.Options{VersionOf: Version, Warn: a.Warn, OnAppend: a.journalHook(cfg, store.Home())}); w != nil {
		// The firing's cwd, by the rule a dispatch's record follows.
		f := protocol.NewFiring(ev, "", fields)
		f.Bind(nil, Cwd(), isDir)
		w.Record(ctx, &dispatcher.Record{Time: time.Now(), Event: ev, Fields: fields, Cwd: f.Cwd, Firing: &f, Outcome: refused})
		w.Close()
	}
}

func (a *App) load(projectDir string) (*hookconfig.Config, error) {
	path, err := a.Config()
	if err != nil {
		return nil, err
	}
	// A config named on purpose must exist (LoadOptions.ConfigNamed).
	return hookconfig.Load(path, a.LoadOptions(projectDir))
}

func (a *App) warnAll(cfg *hookconfig.Config) {
	for _, w := range cfg.Warnings {
		a.Warn(w.String())
	}
}

// LoadOptions are the agent hook files of the command line, and the
// project directory.
func (a *App) LoadOptions(projectDir string) hookconfig.LoadOptions {
	var bundles []string
	if h, err := a.Home(); err == nil {
		bundles = hookconfig.BundleDirs(h)
	}
	return hookconfig.LoadOptions{
		ConfigNamed:     a.ConfigPath != "",
		AgentFiles:      a.AgentFiles,
		ProjectDir:      projectDir,
		MoreProjectDirs: a.moreProjects,
		BundleDirs:      bundles,
		Managed:         true,
		// hook and dispatch never run the built-in files' examples.
		SkipBuiltinExamples: a.dispatchOnly,
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
func (a *App) Policy(cfg *hookconfig.Config, store *consent.Store) *consent.Policy {
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

// isDir reports whether p names a directory: the test of a host's cwd
// (protocol.Firing.Bind).
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
