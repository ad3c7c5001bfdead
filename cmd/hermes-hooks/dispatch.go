package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/spf13/cobra"
)

// maxEventBytes bounds the event JSON read from stdin.
const maxEventBytes = 64 << 20

type dispatchOptions struct {
	format string
	pretty bool
	// asyncOnly: this process was started by another dispatch to run its
	// async hooks (see runAsyncChild).
	asyncOnly bool
	// calledBy: the agent this dispatch answers (hook AGENT's async child).
	calledBy string
}

func newDispatchCmd(a *app) *cobra.Command {
	var o dispatchOptions
	cmd := &cobra.Command{
		Use:   "dispatch EVENT",
		Short: "Fire EVENT with the JSON fields on stdin and print the outcome JSON (for agents)",
		Long: `Fire EVENT with the host's event fields (a JSON object on stdin: tool_name,
args or tool_input, session_id, and anything else) and print one outcome JSON
object on stdout. Only approved hooks run; see 'hermes-hooks approve'.

EVENT may be a Hermes name (pre_tool_call), a Claude Code name (PreToolUse) or
an alias; every hook declared under any name of the event runs.

Exit status: 0 whenever the hooks were dispatched (the decision is in the
JSON), 2 for an unknown event or stdin that is not a JSON object, 1 when the
config cannot be read. --format hermes prints Hermes' own directive shape
({"action": "block", "message": ...}, {"action": "modify", "args": ...},
{"context": ...} or {}).`,
		Example: `  echo '{"tool_name":"terminal","args":{"command":"rm -rf /"}}' | hermes-hooks dispatch pre_tool_call
  echo '{"tool_name":"Bash","tool_input":{"command":"ls"}}' | hermes-hooks dispatch PreToolUse --format hermes
  echo '{"session_id":"s1","user_message":"hi"}' | hermes-hooks dispatch pre_llm_call --pretty`,
		Args: exactArgs(1, "exactly one EVENT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDispatch(a, args[0], o)
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "json", "output shape: json (the outcome) or hermes (Hermes' wire directive)")
	cmd.Flags().BoolVar(&o.pretty, "pretty", false, "indent the outcome JSON for people")
	cmd.Flags().BoolVar(&o.asyncOnly, "async-only", false, "run only the async hooks (used internally)")
	_ = cmd.Flags().MarkHidden("async-only")
	cmd.Flags().StringVar(&o.calledBy, "called-by", "", "skip the hooks this agent runs itself (used internally by hook)")
	_ = cmd.Flags().MarkHidden("called-by")
	return cmd
}

func runDispatch(a *app, event string, o dispatchOptions) error {
	if o.format != "json" && o.format != "hermes" {
		return usageErr("use --format json or --format hermes", "unknown --format %q", o.format)
	}
	if _, err := dispatcher.LookupEvent(event); err != nil {
		return err
	}
	fields, err := readFields(a.in)
	if err != nil {
		return err
	}
	wd := cwd()
	project := wd
	if c, ok := fields["cwd"].(string); ok && c != "" {
		project = c
	}
	cfg, err := a.loadConfigFor(project)
	if err != nil {
		return err
	}
	outcome, err := a.dispatchOnce(cfg, wd, event, fields, o.asyncOnly, o.calledBy)
	if err != nil {
		return err
	}
	return writeOutcome(a.out, &outcome, o)
}

// dispatchOnce is one dispatch by a process that exits right after it
// (dispatch, hook): consent through the policy, session state in files,
// async hooks handed to a detached child (or, asyncOnly, run here by that
// child), nothing left running. calledBy is the agent the dispatch answers
// (dispatcher.CalledBy), "" for none.
func (a *app) dispatchOnce(cfg *dispatcher.Config, wd, event string, fields map[string]any, asyncOnly bool, calledBy string) (protocol.Outcome, error) {
	store, err := a.store()
	if err != nil {
		return protocol.Outcome{}, err
	}
	mode := dispatcher.AsyncExternal
	if asyncOnly {
		mode = dispatcher.AsyncInline
	}
	d, err := dispatcher.New(cfg, dispatcher.Options{
		Gate: dispatcher.ConsentGate(a.policy(cfg, store)),
		Cwd:  wd,
		Warn: a.warn,
		// One-shot dispatches of a session share its state through files.
		Sessions: &dispatcher.FileSessions{Dir: filepath.Join(store.Home(), "hook-state")},
		// This process exits right after the dispatch: async hooks run in
		// a process of their own (runAsyncChild).
		Async: mode,
		// ... and worker entries run one-shot: a worker kept alive by a
		// process that exits now would serve nobody (serve keeps them).
		OneShotWorkers: true,
		Recorder:       a.recorder(cfg, store.Home()),
	})
	if err != nil {
		return protocol.Outcome{}, &exitError{code: 1, msg: err.Error()}
	}
	// SIGINT/SIGTERM/SIGHUP cancel the dispatch: every running hook's
	// process group is killed before we exit. As the hooks' subreaper, we
	// also find their descendants that left the group (setsid) and kill
	// them before exiting: a one-shot dispatch leaves nothing behind.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if calledBy != "" {
		ctx = dispatcher.CalledBy(ctx, calledBy)
	}
	if subreap {
		_ = dispatcher.BecomeSubreaper()
	}
	outcome, err := d.Dispatch(ctx, event, fields)
	if subreap && startedAny(outcome) {
		// Only a hook that started can have left descendants; the scan
		// of /proc is not free, and most firings start none.
		dispatcher.KillEscaped()
	}
	if err != nil {
		return outcome, err
	}
	if d.AsyncDeferred() > 0 {
		a.runAsyncChild(event, fields, calledBy)
	}
	return outcome, nil
}

// startedAny reports whether any hook process was started.
func startedAny(o protocol.Outcome) bool {
	for _, h := range o.Hooks {
		if h.Ran {
			return true
		}
	}
	return false
}

// recorder is the decision journal the config asks for (nil when it is
// off). A nil *journal.Writer must not become a non-nil Recorder.
func (a *app) recorder(cfg *dispatcher.Config, home string) dispatcher.Recorder {
	if w := journal.ForConfig(cfg.Journal, home, journal.Options{Version: version(), Warn: a.warn}); w != nil {
		return w
	}
	return nil
}

// subreap: a one-shot dispatch adopts its hooks' escaped descendants and
// kills them before it exits. Only tests that call run in-process turn it
// off: the test binary has other children (testscript's commands, their
// detached async children) that KillEscaped would take for escapees.
var subreap = true

// runAsyncChild starts this program again, detached, to run the event's
// async hooks (Claude's async: true) without delaying the event: the same
// event and fields, the same directory and environment, --async-only. It
// checks consent again itself, runs the async hooks, and leaves their
// replies in the session's state for its next dispatch. Failing to start it
// only loses those replies, which the report already calls late.
func (a *app) runAsyncChild(event string, fields map[string]any, calledBy string) {
	self, err := os.Executable()
	if err != nil {
		a.warn("async hooks not run: " + err.Error())
		return
	}
	args := []string{"dispatch", event, "--async-only"}
	if calledBy != "" {
		args = append(args, "--called-by", calledBy)
	}
	if a.configPath != "" {
		args = append([]string{"--config", a.configPath}, args...)
	}
	for _, files := range []struct {
		flag  string
		names []string
	}{{"--claude-settings", a.claudeSettings}, {"--codex-hooks", a.codexHooks}, {"--copilot-hooks", a.copilotHooks}, {"--cursor-hooks", a.cursorHooks}} {
		for _, f := range files.names {
			args = append([]string{files.flag, f}, args...)
		}
	}
	if a.acceptHooks {
		args = append([]string{"--accept-hooks"}, args...)
	}
	// The fields go through a file, not a pipe: this process exits right
	// after the start, and a pipe fed by exec's copying goroutine would
	// close with nothing written (the child then saw no session and its
	// reply was lost, under load).
	in, err := os.CreateTemp("", "hermes-hooks-async-*.json")
	if err != nil {
		a.warn("async hooks not run: " + err.Error())
		return
	}
	defer in.Close()
	removed := os.Remove(in.Name()) == nil // the open descriptor keeps it readable
	if _, err := in.Write(protocol.EncodeJSON(fields, protocol.Compact)); err != nil {
		a.warn("async hooks not run: " + err.Error())
		return
	}
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		a.warn("async hooks not run: " + err.Error())
		return
	}
	cmd := exec.Command(self, args...)
	cmd.Stdin = in
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		a.warn("async hooks not run: " + err.Error())
		return
	}
	if !removed {
		// Where an open file cannot be removed, the child's copy is left
		// in the temporary directory.
		_ = os.Remove(in.Name())
	}
	// Not waited for: it outlives this dispatch on purpose.
	_ = cmd.Process.Release()
}

// readFields reads the event fields: a JSON object, or nothing at all
// (an event without fields).
func readFields(in io.Reader) (map[string]any, error) {
	data, err := io.ReadAll(io.LimitReader(in, maxEventBytes+1))
	if err != nil {
		return nil, &exitError{code: 1, msg: "read stdin: " + err.Error()}
	}
	if len(data) > maxEventBytes {
		return nil, usageErr("", "stdin holds more than %d MiB of event fields", maxEventBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	v, err := protocol.DecodeJSON(data)
	if err != nil {
		return nil, usageErr(`send one JSON object, e.g. {"tool_name":"terminal","args":{"command":"ls"}}`,
			"stdin is not valid JSON: %v", err)
	}
	fields, ok := v.(map[string]any)
	if !ok {
		return nil, usageErr(`send one JSON object, e.g. {"tool_name":"terminal","args":{"command":"ls"}}`,
			"stdin must be a JSON object of event fields")
	}
	return fields, nil
}

func writeOutcome(w io.Writer, outcome *protocol.Outcome, o dispatchOptions) error {
	var buf []byte
	switch {
	case o.format == "hermes":
		buf = protocol.AppendJSON(nil, outcome.HermesWire(), protocol.Python)
	case o.pretty:
		buf = indentJSON(protocol.AppendOutcome(nil, outcome, protocol.Compact))
	default:
		buf = protocol.AppendOutcome(nil, outcome, protocol.Compact)
	}
	buf = append(buf, '\n')
	_, err := w.Write(buf)
	return err
}
