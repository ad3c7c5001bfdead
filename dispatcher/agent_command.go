package dispatcher

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// What an entry's agent does to a hook's command before it runs it: the
// text it rewrites (protocol.CommandExpander: Gemini CLI puts its
// variables in, quoted), the variables of the firing it sets, and those
// the hook's own file sets (hookconfig.CommandSpec.Env). hookFor and
// ConsentRequest both go through agentCommand (and resolveTarget), so the
// gate resolves and pins the command exactly as the runner starts it.

// agentCommand applies e's agent's rules to c (its Text and Env) for a
// hook given project as its project directory in session; it returns
// the text the approval pins besides the command's files ("": none).
func agentCommand(e *hookconfig.Entry, c *cmdpin.Command, project, session string) string {
	if !c.Shell {
		return ""
	}
	if x, ok := e.Codec.(protocol.CommandExpander); ok {
		plans, _ := cmdpin.Getenv(c.Env, "GEMINI_PLANS_DIR")
		v := protocol.HookVars{Project: project, Session: session, PlansDir: plans,
			PowerShell: c.ShellPath == cmdpin.PowerShellShell}
		c.Text = x.ExpandCommand(c.Text, v)
		hv := x.HookEnv(v)
		for _, k := range slices.Sorted(maps.Keys(hv)) {
			c.Env = withEnv(c.Env, k, hv[k])
		}
	}
	vars := e.Exec().Env
	if len(vars) == 0 {
		return ""
	}
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		if reservedVar(k) {
			// Never handed to a hook (hookBaseEnv): a file cannot approve
			// what a nested dispatch meets, nor lift the recursion guard.
			continue
		}
		c.Env = withEnv(c.Env, k, vars[k])
		// The hook's own choice, as an assignment in its command is: a
		// file it names (BASH_ENV) is pinned, not only its text.
		c.Vars = append(c.Vars, k+"="+vars[k])
	}
	return envSpec(vars)
}

// envSpecPrefix begins the text an approval pins for a hook's own
// variables (consent's envSpecMarker).
const envSpecPrefix = "env\n"

// envSpec is the canonical text of a hook's own variables, sorted by
// name, each value Go-quoted: its digest is pinned by the approval
// (cmdpin.Target.Spec), so a variable added or changed after approval — a
// guard switched off — needs a new one.
func envSpec(vars map[string]string) string {
	var b strings.Builder
	b.WriteString(envSpecPrefix)
	for i, k := range slices.Sorted(maps.Keys(vars)) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Quote(k))
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(vars[k]))
	}
	return b.String()
}

// resolveTarget is what c runs, as the runner starts it, with the text
// agentCommand returned (spec) pinned beside the command's own.
func resolveTarget(c cmdpin.Command, spec string) cmdpin.Target {
	t := cmdpin.Resolve(c)
	t.Spec = textutil.JoinNonEmpty("\n", t.Spec, spec)
	return t
}
