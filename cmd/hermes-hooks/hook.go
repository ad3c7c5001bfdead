package main

import (
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
)

func newHookCmd(a *app) *cobra.Command {
	var o cli.HookOptions
	var agentTimeout float64
	cmd := &cobra.Command{
		Use:   "hook AGENT [EVENT]",
		Short: "Answer AGENT's hook call: read its payload, run every approved hook, reply in its protocol",
		Long: `The command an agent runs as its hook (` + "`hermes-hooks install AGENT`" + ` writes it into
the agent's hook file). AGENT is one of: ` + strings.Join(agents.Names(), ", ") + `.

It reads the agent's own payload on stdin, maps its event and fields onto
hermes-hooks' events (Claude Code's PreToolUse is pre_tool_call, Cursor's
beforeSubmitPrompt is pre_llm_call, …), runs every approved hook configured
for that event — Hermes config, the project's .hermes/hooks.yaml, and every
agent hook file they name (Claude settings, Codex, Gemini CLI, … ) — and
answers with the exit code, stdout and stderr the agent reads. Hooks the agent's own hook files declare are skipped: the agent runs
them itself.

It never prompts (stdin is the agent's) and never breaks the agent: an
event hermes-hooks does not serve, no matching hook, or an unreadable
payload all answer exit 0 with nothing on stdout — except that an
unreadable payload on an event a fail_closed guard protects is refused.

When a ` + "`hermes-hooks serve`" + ` answers on --server (default: the one
HERMES_HOOKS_SERVER names, "off" for none; else serve --user's socket,
$HERMES_HOME/run/hermes-hooks.sock, else $HERMES_HOME/hermes-hooks.sock,
the first one present), the dispatch is forwarded to it, so its warm state
applies; the answer is the same either way.

An agent that times out its hook goes on without it. So the answer comes
before the agent's deadline (--agent-timeout, which install writes, else the
agent's documented default), less a margin: a guard still running then is
killed, with its process tree, and a gating event is refused ("guard X did
not answer in time"); other events get the answers that came.`,
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
			if cmd.Flags().Changed("agent-timeout") {
				if !(agentTimeout > 0) || math.IsInf(agentTimeout, 0) {
					return usageErr("hermes-hooks hook AGENT EVENT --agent-timeout SECONDS", "--agent-timeout: %v is not a number of seconds above 0", agentTimeout)
				}
				o.AgentTimeout = time.Duration(agentTimeout * float64(time.Second))
			}
			event := ""
			if len(args) == 2 {
				event = args[1]
			}
			cli.OneShotGC()
			return a.Hook(args[0], event, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Server, "server", "", "forward to the hermes-hooks serve at `ADDR` (unix:///path or token:///path; a tcp:// one is not used: it cannot prove who listens; default: $HERMES_HOOKS_SERVER, else the socket of serve --user, else $HERMES_HOME/hermes-hooks.sock, when present)")
	f.BoolVar(&o.NoServer, "no-server", false, "always dispatch in this process")
	f.Float64Var(&agentTimeout, "agent-timeout", 0, "the agent waits `SECONDS` for this hook (install writes it; default: the agent's documented timeout for the event): the answer comes before, and a guard that has not answered by then refuses a tool call")
	return cmd
}
