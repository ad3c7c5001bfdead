package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/report"
)

type testOptions struct {
	forTool     string
	payloadFile string
	json        bool
	examples    bool
	requireAll  bool // --examples: every hook's examples must run
	// runUnapproved: also run a repository's hooks nobody approved (or
	// changed since): without it test shows them, unrun.
	runUnapproved bool
}

func newTestCmd(a *app) *cobra.Command {
	var o testOptions
	cmd := &cobra.Command{
		Use:   "test EVENT",
		Short: "Fire every hook matching EVENT against a synthetic payload",
		Long: `Fire every hook configured for EVENT against a synthetic payload and show each
run: exit code, time, output, and what the dispatcher made of the reply.

test runs the hooks of your own config that are not allowlisted yet (and
says so), because trying a hook is how you decide to approve it; dispatch
never does. A repository's hooks (its .hermes/hooks.yaml, its agents'
settings files) that are not approved, or changed since, are shown with the
payload they would get but not run — a repository can propose hooks, never
run them — unless --run-unapproved says you have read them.

The payload starts from built-in defaults for the event (pre_tool_call: the
terminal tool running 'echo hello', …); --for-tool sets tool_name and, on tool
events, keeps only hooks whose matcher accepts it (the others are listed, each
with its matcher and the tool it filtered out); --payload-file merges a JSON
object of event fields (keys as the host sends them: args; a tool_input,
as the payload printed below names the arguments, is read as args; - reads
it from stdin).

The hooks run in dispatch's order: priority tiers (a chain on transform
events), and nothing after a block, which dispatch would not start either:
such a hook is shown as not started, and why.

After the runs comes the verdict: one status line per hook, the outcome the
dispatcher folds from their replies (decision, message, context, …) and the
payload the hooks were sent.

Exit status: 0 when every hook ran or was not started after a block
(whatever it decided), 1 when a hook could not start or timed out, 2 for an
unknown event.

With --examples (and no EVENT), test runs instead the examples hook entries
declare (examples: [{tool: terminal, args: {command: "rm -rf /"}, expect:
block}]): each through a real dispatch that holds that hook alone, one at a
time, and prints ✓ or ✗ per example with what the hook did. Only approved,
unchanged hooks run; the others are listed as not approved, examples not
run. Exit status 1 when an example fails. With --require-all, also 1 when
any hook's examples were not run (not approved, changed since approval, …),
naming each on stderr: for CI, where a check that ran nothing must not
pass.`,
		Example: `  hermes-hooks test pre_tool_call --for-tool terminal
  hermes-hooks test pre_llm_call --payload-file event.json
  echo '{"args": {"command": "git push --force"}}' | hermes-hooks test pre_tool_call --payload-file -
  hermes-hooks test PreToolUse --for-tool Bash --json
  # in a repository you cloned: its hooks are shown, not run, until approved
  hermes-hooks test pre_tool_call --for-tool terminal --run-unapproved
  hermes-hooks test --examples
  hermes-hooks test --examples --json | jq '.hooks[] | select(.shadow) | {id, examples: [.examples[] | {name, would}]}'
  # in CI: fail when an example fails or any hook's examples did not run
  hermes-hooks test --examples --require-all`,
		Args: func(cmd *cobra.Command, args []string) error {
			if o.examples {
				return exactArgs(0, "no EVENT with --examples (every hook's examples run on its own event)")(cmd, args)
			}
			return exactArgs(1, "exactly one EVENT")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.examples {
				if o.forTool != "" || o.payloadFile != "" {
					return usageErr("each example names its own tool and args", "--examples takes neither --for-tool nor --payload-file")
				}
				return runTestExamples(a, o)
			}
			if o.requireAll {
				return usageErr("hermes-hooks test --examples --require-all", "--require-all is for --examples")
			}
			return runTest(a, args[0], o)
		},
	}
	cmd.Flags().StringVar(&o.forTool, "for-tool", "", "tool name for the synthetic payload (filters tool-event matchers)")
	cmd.Flags().StringVar(&o.payloadFile, "payload-file", "", "JSON object of event fields merged over the synthetic payload (- reads stdin)")
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON for scripts")
	cmd.Flags().BoolVar(&o.examples, "examples", false, "run every approved hook's examples (examples: in its entry) and check what it decides")
	cmd.Flags().BoolVar(&o.runUnapproved, "run-unapproved", false, "also run a repository's hooks that are not approved (or changed since approval): they run with your credentials, so read them first")
	cmd.Flags().BoolVar(&o.requireAll, "require-all", false, "with --examples: exit 1 when any hook's examples were not run (not approved or changed), naming them")
	return cmd
}

func runTest(a *app, event string, o testOptions) error {
	ev, ok := protocol.Lookup(event)
	if !ok {
		fmt.Fprintf(a.Out, "Unknown event: %s\n", show(report.PyRepr(event)))
		if s := protocol.SuggestEvent(event); s != "" {
			fmt.Fprintf(a.Out, "Did you mean: %s\n", show(s))
		}
		fmt.Fprintf(a.Out, "Valid events: %s\n", strings.Join(protocol.ValidEventNames(), ", "))
		fmt.Fprintln(a.Out, "(Claude Code names such as PreToolUse are accepted too.)")
		return silentExit(2)
	}
	fields, _ := ev.SyntheticFields()
	if o.forTool != "" {
		fields["tool_name"] = o.forTool
	}
	if o.payloadFile != "" {
		extra, err := readPayloadFile(a, o.payloadFile)
		if err != nil {
			return err
		}
		if protocol.MergeFields(fields, extra) {
			fmt.Fprintln(a.Out, "Note: the payload file's tool_input is read as args (the call's arguments, as a host sends them)")
		}
	}
	f := protocol.NewFiring(ev, event, fields) // test command:model: the command is model
	fields = f.Fields
	cfg, err := a.LoadConfig()
	if err != nil {
		return err
	}
	store, err := a.Store()
	if err != nil {
		return err
	}
	allow, err := store.Load()
	if err != nil {
		a.Warn(err.Error())
	}
	wd := cli.Cwd()
	d, err := a.trialDispatcher(cfg, wd)
	if err != nil {
		return err
	}
	var entries []*hookconfig.Entry
	var filtered []filteredHook
	for _, e := range d.EntriesFor(ev) {
		switch {
		case o.forTool != "" && ev.Tool && !e.Matches(fields, cfg.Tools):
			filtered = append(filtered, filteredHook{Entry: e, Tool: o.forTool})
		case !ev.Admits(e.DeclaredAs, fields):
			filtered = append(filtered, filteredHook{Entry: e, Member: true, Fired: event})
		case !d.IfAllows(e, &f):
			filtered = append(filtered, filteredHook{Entry: e, IfRule: true})
		default:
			entries = append(entries, e)
		}
	}
	statuses := report.Inspect(&hookconfig.Config{Entries: entries, Tools: cfg.Tools}, allow, wd)
	runs := make([]trialRun, len(entries))
	for i, e := range entries {
		r := &runs[i]
		*r = trialRun{Entry: e, Approved: statuses[i].Approved,
			Changed: statuses[i].Approved && !statuses[i].Runs()}
		r.Held = !e.Scope.Global() && (!r.Approved || r.Changed) && !o.runUnapproved
		if !r.Held && !e.Scope.Global() && (!r.Approved || r.Changed) && !e.RunsCommand() {
			// Run because the person said so: what it sends (a header
			// filled from their environment) is said, as approve says it.
			r.Unapproved = statuses[i].TextOnly
		}
	}
	// Run as dispatch runs them (tiers, chains), so that a hook dispatch
	// never starts after a block is not started here either.
	hookRuns := d.RunEntries(context.Background(), ev, entries, fields, func(i int) bool { return runs[i].Held })
	for i := range runs {
		runs[i].HookRun = hookRuns[i]
		if !runs[i].Held && !runs[i].NotStarted && runs[i].Report.Error != "" {
			runs[i].Missing = report.MissingScript(dispatcher.ConsentRequest(entries[i], wd, nil), &statuses[i])
		}
	}
	outcome := protocol.Fold(ev, f.Args, foldTrial(runs))
	// A rewritten call is judged again by the rules, as dispatch does.
	reports := make([]protocol.HookReport, len(runs))
	for i := range runs {
		reports[i] = runs[i].Report
	}
	if d.Rejudge(context.Background(), ev, fields, entries, reports, &outcome) {
		for i := range runs {
			runs[i].Report = reports[i]
		}
		outcome = protocol.Fold(ev, f.Args, foldTrial(runs))
	}
	if o.json {
		out := trialJSON(ev, fields, runs, &outcome)
		out["filtered"] = filteredJSON(filtered)
		if err := writeJSON(a.Out, out); err != nil {
			return err
		}
	} else {
		if len(runs) > 0 || len(filtered) == 0 {
			printTrial(a.Out, ev, event, o.forTool, runs)
		}
		printFiltered(a.Out, filtered, len(runs))
		printVerdict(a.Out, runs, &outcome)
	}
	if failedRuns(runs) > 0 {
		// A hook that cannot start or never finishes is a broken hook,
		// whatever the fold made of it: scripts (and CI) see it.
		return silentExit(1)
	}
	return nil
}

// readPayloadFile reads --payload-file ("-": stdin). A file that is not a
// JSON object is ignored with a warning (as Hermes does); one that cannot be
// read or parsed stops the command.
func readPayloadFile(a *app, path string) (map[string]any, error) {
	var (
		data []byte
		err  error
	)
	if path == "-" {
		path = "stdin"
		data, err = io.ReadAll(io.LimitReader(a.In, cli.MaxEventBytes+1))
		if err == nil && len(data) > cli.MaxEventBytes {
			err = fmt.Errorf("stdin holds more than %d MiB", cli.MaxEventBytes>>20)
		}
	} else {
		data, err = os.ReadFile(path)
		err = fileErr(path, err)
	}
	if err != nil {
		fmt.Fprintf(a.Out, "Error reading payload file: %s\n", show(err.Error()))
		return nil, silentExit(1)
	}
	v, err := pyjson.DecodePayload(data)
	if err != nil {
		fmt.Fprintf(a.Out, "Error reading payload file: %s: %s\n", show(path), show(err.Error()))
		return nil, silentExit(1)
	}
	m, ok := v.(map[string]any)
	if !ok {
		fmt.Fprintf(a.Out, "Warning: %s is not a JSON object; ignoring\n", show(path))
		return nil, nil
	}
	return m, nil
}

// trialDispatcher is the dispatcher test and doctor run hooks with,
// through RunEntry: every entry allowed (they decide themselves what may
// run) and worker entries run one-shot. No profile is set: the synthetic
// payload has the shape of a production one built from the same fields
// (Hermes' test_synthetic_payload_matches_production_shape), so "profile"
// appears only when the fields name one (--payload-file).
func (a *app) trialDispatcher(cfg *hookconfig.Config, wd string) (*dispatcher.Dispatcher, error) {
	return dispatcher.New(cfg, dispatcher.Options{Gate: dispatcher.AllowAll, Cwd: wd, Warn: a.Warn, OneShotWorkers: true})
}
