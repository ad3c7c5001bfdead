package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// PrintInstallChecks is doctor's section on the hook files install wrote: per
// file, each entry's proof, the agent's folder trust and the journal's
// last event; nothing when none was found.
func PrintInstallChecks(w io.Writer, checks []InstallCheck, now time.Time) {
	if len(checks) == 0 {
		return
	}
	fmt.Fprintf(w, "Checking %s (each entry run as its agent runs it, answered by a probe: no hook runs)...\n\n",
		Count(len(checks), "installed hook file", "installed hook files"))
	problems := 0
	for i := range checks {
		c := &checks[i]
		problems += c.Problems()
		fmt.Fprintf(w, "  %s, %s file %s\n", show(c.Title), c.Scope, show(c.File))
		if c.Error != "" {
			fmt.Fprintf(w, "      %s cannot read it: %s\n", CheckFail.Symbol(), show(c.Error))
		}
		if c.Gone {
			fmt.Fprintf(w, "      %s the file is gone: install wrote it (hermes-hooks installs records it)\n", CheckInfo.Symbol())
		}
		for _, e := range c.Entries {
			fmt.Fprintf(w, "      %s\n", fireLine(&e))
		}
		if c.Trusted != nil && !*c.Trusted {
			fmt.Fprintf(w, "      %s not trusted by the agent: %s does not trust %s, so %s does not run this file's hooks (open %s there and trust the folder)\n",
				CheckFail.Symbol(), show(c.TrustFile), show(c.Root), show(c.Title), show(c.Title))
		}
		if c.SwitchedOff != nil {
			fmt.Fprintf(w, "      %s\n", SwitchLine(c.SwitchedOff))
		}
		for j := range c.RepoEnv {
			fmt.Fprintf(w, "      %s\n", RepoEnvLine(&c.RepoEnv[j], c.Title))
		}
		for j := range c.RepoLoaders {
			fmt.Fprintf(w, "      %s\n", RepoLoaderLine(&c.RepoLoaders[j], c.Title))
		}
		for j := range c.Stripped {
			fmt.Fprintf(w, "      %s\n", StripLine(&c.Stripped[j], c.Title))
		}
		if c.NotReadHere != "" {
			mark := CheckFail.Symbol()
			if c.GuardedHereBy != "" {
				mark = CheckInfo.Symbol()
			}
			fmt.Fprintf(w, "      %s %s\n", mark, notReadLine(c))
		}
		for _, ev := range c.Uncovered {
			fmt.Fprintf(w, "      %s %s\n", CheckFail.Symbol(), uncoveredLine(c, ev))
		}
		if c.AgentAbsent {
			fmt.Fprintf(w, "      %s %s is not set up on this machine (no %s): its folder trust is asked for once it is\n",
				CheckInfo.Symbol(), show(c.Title), show(c.AgentDir))
		}
		if n := len(c.Unreviewed); n > 0 {
			fmt.Fprintf(w, "      %s not trusted by the agent: %s has no review of %s of these (%s): it skips them until you trust them in its /hooks\n",
				CheckFail.Symbol(), show(c.Title), Count(n, "entry", "entries"), show(strings.Join(c.Unreviewed, ", ")))
		}
		if !c.Gone {
			fmt.Fprintf(w, "      %s %s\n", CheckInfo.Symbol(), installedLine(c, now))
		}
		fmt.Fprintln(w)
	}
	if problems > 0 {
		fmt.Fprintf(w, "%s in installed hook files: a tool call there is not checked as installed.\n\n", Count(problems, "issue", "issues"))
	}
}

// notReadLine says why the agent run where doctor runs never reads c's
// file, and the fix: start it in the file's folder, install the guards
// where it reads, or for the user (read wherever it runs); or, when the
// user's file runs the guards here (GuardedHereBy), that it does.
func notReadLine(c *InstallCheck) string {
	user := "or install the guards for yourself (hermes-hooks install " + c.Agent + " --user)"
	guarded := c.GuardedHereBy != ""
	if guarded {
		user = "your own file " + c.GuardedHereBy + " runs these guards here"
	}
	if a, ok := agents.Lookup(c.Agent); ok && a.StartFolderOnly {
		sep := ", "
		if guarded {
			sep = "; "
		}
		return show("not read by " + c.Title + " run here: it reads the project settings of the folder it starts in only, never a folder's above it; start it in " +
			c.Root + sep + user)
	}
	line := "not read by " + c.Title + " run here: it takes " + c.NotReadHere + " as the project's root and reads hook files from there down only; "
	if guarded {
		return show(line + user)
	}
	return show(line + "install the guards there (hermes-hooks install " + c.Agent + " --project " + shquote.Quote(c.NotReadHere) + "), " + user)
}

// uncoveredLine says that no entry install writes of c's agent calls
// hermes-hooks for its event ev, which the config guards (only an
// install-like line of c's, when it has one), and the fix: install writes
// an entry for every event of the agent.
func uncoveredLine(c *InstallCheck, ev string) string {
	fix := installFix(c.Agent, c.Scope)
	guards := ev
	if a, ok := agents.Lookup(c.Agent); ok {
		if canon, ok := a.Canonical(ev); ok {
			guards = canon.Name
			if canon.AlsoRuns != "" {
				guards = canon.AlsoRuns + " and " + canon.Name
			}
		}
	}
	if slices.ContainsFunc(c.Entries, func(e FireCheck) bool { return e.Event == ev && e.Status == FireInstallLike }) {
		return show(ev + ": only a line install does not write calls hermes-hooks for it (above), so the guards of " + guards +
			" run when " + c.Title + " fires it only where that line finds a hermes-hooks; fix: " + fix)
	}
	if a, ok := agents.Lookup(c.Agent); ok && !slices.Contains(a.HookFile.Events, ev) && len(a.HookFile.Events) > 0 {
		// install writes no entry for ev: its fix adds none.
		first := a.HookFile.Events[0]
		return show(ev + ": install writes no entry of " + c.Title + " for it, so the guards of " + guards + " never run when " + c.Title +
			" fires it; fix: add an entry for " + ev + " to this file that runs the command of its " + first + " entry with each " + first + " in it made " + ev)
	}
	return show(ev + ": no entry of " + c.Title + " runs hermes-hooks for it (in this file or another it reads here), so the guards of " +
		guards + " never run when " + c.Title + " fires it; fix: " + fix)
}

// fireLine is one entry's line: "PreToolUse: fires ✓", or what went wrong.
func fireLine(e *FireCheck) string {
	ev := show(e.Event)
	switch e.Status {
	case FireOK:
		return ev + ": fires ✓"
	case FireNotOurs:
		return ev + ": " + CheckInfo.Symbol() + " " + show(e.Detail) + ": " + show(e.Command)
	case FireNotRun:
		return ev + ": " + CheckInfo.Symbol() + " " + show(e.Detail)
	case FireInstallLike:
		// A problem only where no entry of ours serves the event
		// (uncoveredLine says so).
		return ev + ": " + CheckWarn.Symbol() + " " + show(e.Detail)
	}
	mark := CheckFail.Symbol()
	if !e.Gating {
		mark = CheckWarn.Symbol()
	}
	return ev + ": " + mark + " " + show(e.Detail)
}

// installedLine: "Claude Code's file here last written 3 days ago; no
// event recorded since" (an agent that never calls is a guard that never
// runs). The date is the file's mtime: for a project's file that is
// install's write, or a checkout's (a teammate's clone of the team's
// committed file, which they never installed), so it is called a write.
func installedLine(c *InstallCheck, now time.Time) string {
	s := c.Title + "'s file here last written"
	if c.Scope == "user" {
		s = c.Title + " installed for this user"
	}
	if !c.InstalledAt.IsZero() {
		s += " " + ago(now.Sub(c.InstalledAt))
	}
	if c.LastEvent == nil {
		return s + "; no event recorded since"
	}
	return s + "; last event recorded " + ago(now.Sub(*c.LastEvent))
}

// ago says how long ago d was, in its largest whole unit.
func ago(d time.Duration) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one + " ago"
		}
		return strconv.FormatInt(n, 10) + " " + one + "s ago"
	}
	switch {
	case d < time.Minute:
		return "less than a minute ago"
	case d < time.Hour:
		return unit(int64(d/time.Minute), "minute")
	case d < 48*time.Hour:
		return unit(int64(d/time.Hour), "hour")
	}
	return unit(int64(d/(24*time.Hour)), "day")
}
