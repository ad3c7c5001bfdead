package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/server"
	"github.com/hermes-hooks/hermes-hooks/sessions"
)

// HookOptions are hook's own flags.
type HookOptions struct {
	Server   string // forward to this serve ("": the default socket when it answers)
	NoServer bool   // always dispatch in this process
	// AgentTimeout is how long the agent waits for this hook (0: its
	// documented default for the event, agents.Agent.DefaultTimeout).
	AgentTimeout time.Duration
}

// Hook is `hermes-hooks hook AGENT [EVENT]`: the agent's payload on
// stdin, the reply in the agent's protocol (exit code, stdout, stderr).
func (a *App) Hook(agentName, eventArg string, o HookOptions) error {
	start := time.Now()
	a.dispatchOnly = true
	agent, ok := agents.Lookup(agentName)
	if !ok {
		// Exit 1, not 2: for Claude Code, exit 2 would block the tool
		// call because of our own misconfiguration.
		e := &ExitError{Code: 1, Msg: fmt.Sprintf("unknown agent %q (known: %s)", agentName, strings.Join(agents.Names(), ", "))}
		if s := suggest.Closest(agentName, agents.Names()); s != "" {
			e.Hint = "did you mean '" + s + "'? (the agent's hook line names it; hermes-hooks install " + s + " writes it)"
		}
		return e
	}
	data, err := a.readPayload(agent, eventArg, o.AgentTimeout, start)
	var call *agents.Call
	if err == nil {
		call, err = agent.Decode(data, eventArg)
	} else {
		call, _ = agent.Decode(nil, eventArg) // the event of the command line, if any
	}
	if err != nil {
		return a.hookUnreadable(agent, call, agent.Title+" hook payload unreadable: "+err.Error(), true)
	}
	if tok := probeToken(); tok != "" {
		// doctor proving the command line reaches us: nothing runs.
		return writeReply(a, probeReply(agent, call, tok))
	}
	if call.Event == nil {
		if call.AgentEvent == "" {
			// Nothing says what happened: no guard was asked. Quiet,
			// this read as an answer of no objection (a hook command
			// written without its EVENT, a payload by hand).
			key := agent.EventKey
			if key == "" {
				key = "its event field"
			}
			a.Warn(fmt.Sprintf("the %s hook payload names no event (%s) and none is given on the command line (hermes-hooks hook %s EVENT): nothing was checked", agent.Title, key, agent.Name))
		}
		return a.hookUnserved(agent, call, eventArg, "which hermes-hooks does not serve for it")
	}
	if asked, ok := agent.Canonical(eventArg); ok && asked.Gating() && !call.Event.Gating() {
		// The agent reads the answer as the command line's event's: one
		// for an event that refuses nothing would be its "no objection".
		return a.hookUnserved(agent, call, eventArg, "which refuses nothing")
	}
	// The payload, decoded into the host's fields, is read once, here.
	f := protocol.NewFiring(call.Event, "", call.Fields)
	ctx, cancel := hookDeadline(start, agent, call, o.AgentTimeout)
	defer cancel()
	home := userHome(agent) // read once, for both
	if handled, err := a.hookRepoEnv(ctx, agent, call, f.HostCwd, home, false); handled {
		return err
	}
	a.hookLoaders(ctx, agent, call, f.HostCwd, home)
	outcome, err := a.hookDispatch(ctx, agent, call, &f, o)
	if late := (*LateError)(nil); errors.As(err, &late) {
		return a.hookLate(agent, call, &outcome, late)
	}
	if err != nil {
		if call.Event.Gating() {
			// The guards of this call never answered (a signal, an
			// allowlist that cannot be opened …): refused, not allowed,
			// and the refusal journaled by the config the dispatch
			// loaded, as a late one is.
			a.Warn(classifyMsg(err))
			var u *unanswered
			var cfg *hookconfig.Config
			if errors.As(err, &u) {
				cfg = u.config
			}
			return a.hookRefuse(agent, call, cfg, "hermes-hooks: "+classifyMsg(err)+"; this tool call is refused rather than let through unchecked", false)
		}
		if se := (*SignalError)(nil); errors.As(err, &se) {
			return err // no answer, and a non-zero exit that says why
		}
		a.Warn(classifyMsg(err))
		return nil
	}
	if len(outcome.Env) > 0 && agent.EnvFileEnv != "" {
		a.exportToAgent(agent.EnvFileEnv, outcome.Env)
	}
	return writeReply(a, a.encodeTelling(ctx, agent, call, f.Session, &outcome))
}

// readPayload reads the agent's payload to the end of stdin — within the
// agent's deadline (less the margin) when it is known before the payload
// is: the flag, else the agent's default for the command line's event. An
// agent (or a host between it and us) that never closes our stdin must
// still get an answer in time; reading to EOF first used to leave hook
// waiting, the deadline counted from a start already long past, until the
// agent gave up and let the call through.
func (a *App) readPayload(agent *agents.Agent, eventArg string, flag time.Duration, start time.Time) ([]byte, error) {
	read := func() ([]byte, error) {
		data, err := io.ReadAll(io.LimitReader(a.In, MaxEventBytes+1))
		if err == nil && len(data) > MaxEventBytes {
			err = fmt.Errorf("more than %d MiB", MaxEventBytes>>20)
		}
		return data, err
	}
	limit := agentLimit(agent, eventArg, flag)
	if limit <= 0 {
		return read()
	}
	type payload struct {
		data []byte
		err  error
	}
	done := make(chan payload, 1)
	go func() {
		data, err := read()
		done <- payload{data, err}
	}()
	t := time.NewTimer(time.Until(answerBy(start, limit)))
	defer t.Stop()
	select {
	case p := <-done:
		return p.data, p.err
	case <-t.C:
		return nil, fmt.Errorf("stdin not closed within the %s s %s waits for its hook", agents.FormatSeconds(limit), agent.Title)
	}
}

// encodeTelling is the agent's reply to call, which also tells the person,
// once per session, how many of the repository's hooks did not run for
// want of an approval (issue 32, item 2): the first such call whose reply
// has a place the agent shows the user (agents.EncodeNotice) carries the
// line, and marks the session (in the one-shot session files, whether the
// dispatch ran here or in a serve: the mark is this process's, as is the
// reply). A reply without that place says it on stderr and leaves the
// session unmarked, so a later event may still show it. Without a session
// id every call is its own session. The line holds the count and a fixed
// command only, and nothing in the outcome can suppress it.
func (a *App) encodeTelling(ctx context.Context, agent *agents.Agent, call *agents.Call, session string, o *protocol.Outcome) agents.Reply {
	if o.Unapproved == 0 {
		return agent.Encode(call, o)
	}
	notice := consent.UnapprovedNotice(o.Unapproved)
	r, shown := agent.EncodeNotice(call, o, notice)
	if !shown {
		// On stderr only when this process's dispatch did not already
		// warn there with the command (a served call's warnings went to
		// the server's log): one warning, not two.
		if !a.warnedUnapproved {
			a.Warn(notice)
		}
		return r
	}
	if !a.firstNotice(ctx, session) {
		return agent.Encode(call, o)
	}
	return r
}

// firstNotice marks the session id (a firing's Session) as told
// (sessions.FirstNotice, in the one-shot session files) and reports
// whether it was not yet.
func (a *App) firstNotice(ctx context.Context, id string) bool {
	store, err := a.Store()
	if err != nil {
		a.Warn("the notice of unapproved hooks is not shown: " + err.Error())
		return false
	}
	first, err := sessions.FirstNotice(ctx, &sessions.Files{Dir: filepath.Join(store.Home(), "hook-state")}, id)
	if err != nil {
		a.Warn("the notice of unapproved hooks is not shown: " + err.Error())
	}
	return first
}

// exportToAgent appends the variables the hooks exported (each hook got a
// CLAUDE_ENV_FILE of the dispatcher's own) to the agent's file named by
// the variable envFileEnv, which the agent sources before the session's
// later commands: its hooks' exports must reach it as if it had run them
// itself. Every value is single-quoted, so none can run anything.
func (a *App) exportToAgent(envFileEnv string, vars map[string]string) {
	path := os.Getenv(envFileEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		_, err = f.Write(protocol.AppendEnvExports(nil, vars))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		a.Warn("the hooks' exports did not reach " + envFileEnv + ": " + err.Error())
	}
}

// hookUnreadable answers a call whose payload cannot be read, problem
// saying why: a warning and nothing else, unless a fail_closed guard
// protects the event, which is then refused (the guard cannot be asked, so
// it must not be bypassed), as when the config cannot be read either. A
// refusal goes on the journal like any block.
func (a *App) hookUnreadable(agent *agents.Agent, call *agents.Call, problem string, anyCaller bool) error {
	if call.Event != nil && call.Event.Gating() {
		// Its deadline counted from now: the payload's read has its own.
		ctx, cancel := hookDeadline(time.Now(), agent, call, 0)
		handled, err := a.hookRepoEnv(ctx, agent, call, "", userHome(agent), anyCaller)
		cancel()
		if handled {
			a.Warn(problem)
			return err
		}
		// The agent's own project, as a readable call's dispatch loads
		// it (its shell may have left it): its guards stand here too.
		a.moreProjects = agentProjects(agent, call, Cwd())
		cfg, err := a.load(Cwd())
		if err != nil {
			// Neither the payload nor the config can be read: a guard
			// the config holds cannot be asked.
			a.Warn(problem)
			a.Warn(classifyMsg(err))
			return a.hookRefuse(agent, call, nil, hookconfig.Refusal(err), anyCaller)
		}
		a.warnAll(cfg)
		// Arguments unreadable, the tool known: only its guards are asked.
		toolNamed := call.Fields != nil && protocol.NewFiring(call.Event, "", call.Fields).HasTool
		asked := func(e *hookconfig.Entry) bool {
			// A guard of other tools would not be asked, nor one the
			// agent runs itself.
			return (!toolNamed || e.Matches(call.Fields, cfg.Tools)) && !slices.Contains(call.RunBy(), e.RunBy)
		}
		switch why, guard := a.unreadRefusal(cfg, call.Event, asked); {
		case guard != nil:
			return a.hookRefuse(agent, call, cfg, "hermes-hooks: "+problem+"; the fail_closed guard "+dispatcher.ShownHook(guard)+" cannot check it, so this is refused", anyCaller)
		case why != "":
			a.Warn(problem)
			return a.hookRefuse(agent, call, cfg, why, anyCaller)
		}
	}
	a.Warn(problem)
	return nil
}

// hookUnserved answers a payload naming an event hermes-hooks does not
// serve for the agent, or one that refuses nothing on a call installed
// for a gating event (why says which): nothing, unless the command line
// names a gating event. The agent was told to ask before its tool calls,
// and reads the answer as that event's, so a payload naming something
// else (a renamed event, a host's own name) is a call nobody can check,
// answered as an unreadable one: refused where a fail_closed guard
// protects the command line's event, never "allow" by silence then.
func (a *App) hookUnserved(agent *agents.Agent, call *agents.Call, eventArg, why string) error {
	ev, ok := agent.Canonical(eventArg)
	if !ok || !ev.Gating() {
		return nil
	}
	asked := &agents.Call{Agent: agent, AgentEvent: eventArg, Event: ev, Host: call.Host}
	return a.hookUnreadable(agent, asked, fmt.Sprintf("the %s hook payload names the event %q, %s, but this hook was installed for %s", agent.Title, call.AgentEvent, why, eventArg), false)
}

// hookRefuse answers call with the agent's refusal for reason, and puts it
// on the journal (cfg's, or the default one while no config loads): a
// refusal no dispatch decided is still one the user must be able to find.
// anyCaller: the payload could not be read, so neither can who sent it (the
// agent, or a host running its file): the refusal is one both read.
func (a *App) hookRefuse(agent *agents.Agent, call *agents.Call, cfg *hookconfig.Config, reason string, anyCaller bool) error {
	refused := protocol.Outcome{Event: call.Event.Name, Decision: protocol.DecisionBlock, Message: reason}
	a.journalRefusal(context.Background(), cfg, call.Event, call.Fields, &refused)
	if anyCaller {
		return writeReply(a, agent.DenyAnyCaller(call, reason))
	}
	return writeReply(a, agent.Deny(call, reason))
}

// hookDispatch runs the call's hooks: through a live server when there is
// one that would answer exactly as this process would, else in this
// process.
func (a *App) hookDispatch(ctx context.Context, agent *agents.Agent, call *agents.Call, f *protocol.Firing, o HookOptions) (protocol.Outcome, error) {
	wd := Cwd()
	f.Bind(nil, wd, isDir)
	project := f.Cwd // the host's cwd when it is a directory
	// The agent's own project keeps its guards when the payload's cwd has
	// left it (a `cd` in a shell tool): its project directory, the roots
	// its payload names, and the directory it started us in.
	a.moreProjects = agentProjects(agent, call, wd)
	runBy := strings.Join(callRunBy(call, project), ",")
	// The journal's record (and what is exported of it) names the agent,
	// and what it got where that is not the decision (an ask it cannot
	// put to a person is a refusal).
	ctx = journal.WithRoute(ctx, journal.Route{Agent: agent.Name, AgentEvent: call.AgentEvent, Delivered: func(o *protocol.Outcome) (protocol.Decision, string) {
		return agent.Delivered(call, o)
	}})
	if !o.NoServer && !a.triedServer {
		if target := a.hookServer(o.Server); target != "" {
			a.triedServer = true
			q := a.forwardQuery(runBy, project, wd)
			// Which agent call it is, for the record's delivered.
			q.Set(server.QueryAgent, agent.Name)
			q.Set(server.QueryAgentEvent, call.AgentEvent)
			if call.Host != nil {
				q.Set(server.QueryAgentHost, call.Host.Name)
			}
			out, err := server.Forward(ctx, target, q, call.Event.Name, call.Fields, Version())
			if err == nil {
				return out, nil
			}
			if late := (*LateError)(nil); errors.As(context.Cause(ctx), &late) {
				return protocol.Outcome{}, late // no time left to dispatch here
			}
			// Said on stderr and in the journal's record of this
			// firing: a user who runs a server must be able to tell
			// that (and why) it did not answer.
			reason := "server " + target + " not used: " + err.Error()
			a.Warn(reason + "; dispatching here instead")
			route := journal.RouteOf(ctx)
			route.ServerUnused = reason
			ctx = journal.WithRoute(ctx, route)
		}
	}
	cfg, err := a.loadToRun(ctx, project)
	if refused, ok := a.refusal(call.Event, call.Fields, err); ok {
		return refused, nil
	}
	if err != nil {
		return protocol.Outcome{}, err
	}
	out, err := a.dispatchOnce(ctx, cfg, wd, f, false, runBy)
	if late := (*LateError)(nil); errors.As(err, &late) {
		late.config = cfg
	} else if err != nil {
		err = &unanswered{err: err, config: cfg}
	}
	return out, err
}

// unanswered is a dispatch that ended with no outcome after its config
// loaded (a signal, an allowlist that cannot be opened): the refusal of a
// gating call goes on that config's journal.
type unanswered struct {
	err    error
	config *hookconfig.Config
}

func (u *unanswered) Error() string { return u.err.Error() }
func (u *unanswered) Unwrap() error { return u.err }

// agentProjects are the project directories an agent's call comes from
// besides the payload's cwd.
func agentProjects(agent *agents.Agent, call *agents.Call, wd string) []string {
	var dirs []string
	if agent.ProjectEnv != "" {
		if d := os.Getenv(agent.ProjectEnv); d != "" {
			dirs = append(dirs, d)
		}
	}
	return append(append(dirs, call.Roots...), wd)
}

// forwardQuery states everything that decides which hooks run and how
// consent is given, so that a server answers only when it would dispatch
// exactly as this process (serve answers 409 otherwise; see package
// server): the caller (runBy: what it runs itself), the projects, this
// process's working directory (where a user-level serve runs the hooks,
// as this process would), the config, the agent hook files of the command
// line, the accept channels, safe mode, the managed config the
// environment adds, the variables that move the agents' own files, the
// home directory and HERMES_HOME (whose allowlist consent reads).
func (a *App) forwardQuery(runBy, project, wd string) url.Values {
	config, _ := a.Config()
	if abs, err := filepath.Abs(config); err == nil {
		config = abs // relative to this process's directory, as Load reads it
	}
	q := url.Values{"called_by": {runBy}, "config": {config}, server.QueryInputs: {"1"}, server.QueryWorkdir: {wd}}
	if a.ConfigPath != "" {
		q.Set(server.QueryConfigNamed, "1") // a missing one refuses
	}
	home, _ := os.UserHomeDir()
	q.Set(server.QueryHome, home)
	state, _ := a.Home()
	q.Set(server.QueryStateDir, state)
	q["project"] = append([]string{project}, a.moreProjects...)
	for _, ag := range agents.All() {
		for _, f := range a.AgentFiles[ag.Name] {
			abs, err := filepath.Abs(f)
			if err != nil {
				abs = f
			}
			q.Add(ag.Source.ConfigKey, abs)
		}
	}
	set := func(key string, on bool) {
		if on {
			q.Set(key, "1")
		}
	}
	set(server.QueryAccept, a.AcceptHooks)
	set(server.QueryEnvAccept, consent.EnvAccept(os.Getenv("HERMES_ACCEPT_HOOKS")))
	set(server.QuerySafeMode, consent.SafeMode(os.Getenv("HERMES_SAFE_MODE")))
	if extra := hookconfig.ManagedExtra(); extra != "" {
		q.Set(server.QueryManaged, extra)
	}
	q.Set(server.QueryPlacesStated, "1")
	for _, name := range agents.PlacesEnv() {
		if v := os.Getenv(name); v != "" {
			q.Set(server.QueryPlacesEnv+name, v)
		}
	}
	return q
}

// hookServer is the server to forward to: --server; else
// HERMES_HOOKS_SERVER (an address, a socket path, or "off" for none);
// else the user-level server's socket, or the per-project default one,
// when there is a file at its path (on Windows: their endpoint files). "" is none: nothing to forward to, and
// nothing to say about it.
func (a *App) hookServer(flag string) string {
	if flag != "" {
		return flag
	}
	switch env := os.Getenv("HERMES_HOOKS_SERVER"); {
	case env == "off":
		return ""
	case strings.Contains(env, "://"):
		return env
	case env != "":
		abs, err := filepath.Abs(env)
		if err != nil {
			abs = env
		}
		return "unix://" + abs
	}
	home, err := a.Home()
	if err != nil {
		return ""
	}
	for _, addr := range []server.Addr{server.UserAddr(home), server.DefaultAddr(home)} {
		if server.Present(addr) {
			return addr.String()
		}
	}
	return ""
}

func writeReply(a *App, r agents.Reply) error {
	if len(r.Stdout) > 0 {
		if _, err := a.Out.Write(r.Stdout); err != nil {
			return fmt.Errorf("write reply: %w", err)
		}
	}
	if len(r.Stderr) > 0 {
		// The agent shows it to its user or hands it to its model, and a
		// hook's reason is text a payload can steer: nothing in it may act
		// on a terminal (hook_reply_escaped.txtar).
		_, _ = io.WriteString(a.Err, termsafe.EscapeLines(string(r.Stderr)))
	}
	if r.Exit != 0 {
		return &ExitError{Code: r.Exit}
	}
	return nil
}
