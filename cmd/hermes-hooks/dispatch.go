package main

import (
	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/internal/cli"
)

func newDispatchCmd(a *app) *cobra.Command {
	var o cli.DispatchOptions
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
			cli.OneShotGC()
			return a.Dispatch(args[0], o)
		},
	}
	cmd.Flags().StringVar(&o.Format, "format", "json", "output shape: json (the outcome) or hermes (Hermes' wire directive)")
	cmd.Flags().BoolVar(&o.Pretty, "pretty", false, "indent the outcome JSON for people")
	cmd.Flags().BoolVar(&o.AsyncOnly, "async-only", false, "run only the async hooks (used internally)")
	_ = cmd.Flags().MarkHidden("async-only")
	cmd.Flags().StringVar(&o.CalledBy, "called-by", "", "skip the hooks this agent runs itself (used internally by hook)")
	_ = cmd.Flags().MarkHidden("called-by")
	return cmd
}
