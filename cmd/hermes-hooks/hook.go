package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

type hookOptions struct {
	server   string
	noServer bool
}

func newHookCmd(a *app) *cobra.Command {
	var o hookOptions
	cmd := &cobra.Command{
		Use:   "hook AGENT [EVENT]",
		Short: "Answer AGENT's hook call: read its payload, run every approved hook, reply in its protocol",
		Long: `The command an agent runs as its hook (` + "`hermes-hooks install AGENT`" + ` writes it into
the agent's hook file). AGENT is one of: ` + strings.Join(agents.Names(), ", ") + `.

It reads the agent's own payload on stdin, maps its event and fields onto
hermes-hooks' events (Claude Code's PreToolUse is pre_tool_call, Cursor's
beforeSubmitPrompt is pre_llm_call, …), runs every approved hook configured
for that event — Hermes config, the project's .hermes/hooks.yaml, Claude
settings, Codex, Copilot and Cursor hook files — and answers with the exit code, stdout and stderr the agent
reads. Hooks the agent's own hook files declare are skipped: the agent runs
them itself.

It never prompts (stdin is the agent's) and never breaks the agent: an
event hermes-hooks does not serve, no matching hook, or an unreadable
payload all answer exit 0 with nothing on stdout — except that an
unreadable payload on an event a fail_closed guard protects is refused.

When a ` + "`hermes-hooks serve`" + ` answers on --server (default: its socket in
HERMES_HOME, when present), the dispatch is forwarded to it, so its warm
state applies; the answer is the same either way.`,
		Example: `  # what Claude Code runs for PreToolUse after: hermes-hooks install claude
  echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' | hermes-hooks hook claude
  # Cursor names the event in its payload too
  echo '{"hook_event_name":"beforeSubmitPrompt","prompt":"hi"}' | hermes-hooks hook cursor`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usageErr("hermes-hooks hook AGENT [EVENT], AGENT one of "+strings.Join(agents.Names(), ", "), "expected AGENT and an optional EVENT")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			event := ""
			if len(args) == 2 {
				event = args[1]
			}
			return runHook(a, args[0], event, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "", "forward to this `hermes-hooks serve` (unix:///path or tcp://127.0.0.1:PORT; default: $HERMES_HOME/hermes-hooks.sock when it answers)")
	f.BoolVar(&o.noServer, "no-server", false, "always dispatch in this process")
	return cmd
}

func runHook(a *app, agentName, eventArg string, o hookOptions) error {
	agent, ok := agents.Lookup(agentName)
	if !ok {
		// Exit 1, not 2: for Claude Code, exit 2 would block the tool
		// call because of our own misconfiguration.
		return &exitError{code: 1, msg: fmt.Sprintf("unknown agent %q (known: %s)", agentName, strings.Join(agents.Names(), ", "))}
	}
	data, err := io.ReadAll(io.LimitReader(a.in, maxEventBytes+1))
	if err == nil && len(data) > maxEventBytes {
		err = fmt.Errorf("more than %d MiB", maxEventBytes>>20)
	}
	var call *agents.Call
	if err == nil {
		call, err = agent.Decode(data, eventArg)
	} else {
		call, _ = agent.Decode(nil, eventArg) // the event of the command line, if any
	}
	if err != nil {
		return a.hookUnreadable(agent, call, err)
	}
	if call.Event == nil {
		return nil // not an event hermes-hooks serves for this agent
	}
	outcome, err := a.hookDispatch(agent, call, o)
	if err != nil {
		a.warn(err.Error())
		return nil
	}
	return writeReply(a, agent.Encode(call, &outcome))
}

// hookUnreadable answers a payload that cannot be read: a warning and
// nothing else, unless a fail_closed guard protects the event, which is
// then refused (the guard cannot be asked, so it must not be bypassed).
func (a *app) hookUnreadable(agent *agents.Agent, call *agents.Call, readErr error) error {
	msg := agent.Title + " hook payload unreadable: " + readErr.Error()
	if call.Event != nil && call.Event.Gating() {
		if cfg, err := a.loadConfigFor(cwd()); err == nil {
			for _, e := range cfg.Entries {
				if e.Event == call.Event && e.FailClosed && e.RunBy != agent.Name {
					return writeReply(a, agent.Deny(call, "hermes-hooks: "+msg+"; the fail_closed guard "+e.Command+" cannot check it, so this is refused"))
				}
			}
		}
	}
	a.warn(msg)
	return nil
}

// hookDispatch runs the call's hooks: through a live server when there is
// one, else in this process.
func (a *app) hookDispatch(agent *agents.Agent, call *agents.Call, o hookOptions) (protocol.Outcome, error) {
	wd := cwd()
	project := wd
	if c, ok := call.Fields["cwd"].(string); ok && c != "" {
		project = c
	}
	if !o.noServer {
		if target, explicit := a.hookServer(o.server); target != "" {
			config, _ := a.config()
			q := url.Values{"called_by": {agent.Name}, "project": {project}, "config": {config}}
			out, err := forward(target, q, call)
			if err == nil {
				return out, nil
			}
			if explicit {
				a.warn("server " + target + ": " + err.Error() + "; dispatching here instead")
			}
		}
	}
	cfg, err := a.loadConfigFor(project)
	if err != nil {
		return protocol.Outcome{}, err
	}
	return a.dispatchOnce(cfg, wd, call.Event.Name, call.Fields, false, agent.Name)
}

// hookServer is the server to forward to: --server, else the default
// socket when it exists. explicit says the user asked for it.
func (a *app) hookServer(flag string) (target string, explicit bool) {
	if flag != "" {
		return flag, true
	}
	home, err := a.home()
	if err != nil {
		return "", false
	}
	sock := filepath.Join(home, "hermes-hooks.sock")
	if fi, err := os.Stat(sock); err != nil || fi.Mode()&os.ModeSocket == 0 {
		return "", false
	}
	return "unix://" + sock, false
}

// forward posts the call to a serve at target and reads its outcome. The
// query names the caller, the project and the config: a server that serves
// another project or config refuses (409), and the caller dispatches by
// itself rather than with the wrong hooks.
func forward(target string, q url.Values, call *agents.Call) (protocol.Outcome, error) {
	var o protocol.Outcome
	u, err := url.Parse(target)
	if err != nil {
		return o, err
	}
	var dial func(ctx context.Context, _, _ string) (net.Conn, error)
	base := "http://hermes-hooks"
	switch u.Scheme {
	case "unix":
		path := u.Path
		dial = func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{Timeout: 200 * time.Millisecond}).DialContext(ctx, "unix", path)
		}
	case "tcp", "http":
		base = "http://" + u.Host
	default:
		return o, fmt.Errorf("unsupported server address %q (use unix:///path or tcp://127.0.0.1:PORT)", target)
	}
	client := &http.Client{
		// The server bounds each dispatch itself (its request timeout).
		Timeout:   15 * time.Minute,
		Transport: &http.Transport{DialContext: dial},
	}
	body := protocol.EncodeJSON(call.Fields, protocol.Compact)
	resp, err := client.Post(base+"/v1/dispatch/"+url.PathEscape(call.Event.Name)+"?"+q.Encode(), "application/json", bytes.NewReader(body))
	if err != nil {
		return o, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return o, err
	}
	if resp.StatusCode != http.StatusOK {
		return o, fmt.Errorf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(data)))
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return o, errors.New("unreadable outcome: " + err.Error())
	}
	return o, nil
}

func writeReply(a *app, r agents.Reply) error {
	if len(r.Stdout) > 0 {
		if _, err := a.out.Write(r.Stdout); err != nil {
			return &exitError{code: 1, msg: "write reply: " + err.Error()}
		}
	}
	if len(r.Stderr) > 0 {
		_, _ = a.err.Write(r.Stderr)
	}
	if r.Exit != 0 {
		return &exitError{code: r.Exit}
	}
	return nil
}
