package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// noHookHints are what approve adds when no configured hook runs the
// command it was given: that the script it names does not exist, and the
// configured commands whose script has the same file name (a newcomer
// types `approve no-rm-rf.sh` for ~/.hermes/hooks/no-rm-rf.sh). Without
// them the only way on that approve showed was --event, then --force,
// which approves a file that is not there. The command is resolved as a
// hook's is (cmdpin: ~, the directory, an interpreter's script).
func noHookHints(statuses []report.HookStatus, command string) (missing string, didYouMean []string) {
	t := cmdpin.Resolve(cmdpin.Command{Text: command, Env: os.Environ(), Dir: cli.Cwd()})
	name := t.Primary()
	if name != "" {
		if _, err := os.Stat(name); err != nil {
			missing = name
		}
	} else if len(t.Argv) > 0 {
		name = t.Argv[0] // a bare name no PATH entry holds
	}
	if name == "" {
		return missing, nil
	}
	seen := map[string]bool{}
	for i := range statuses {
		text := statuses[i].Entry.Text()
		if s := statuses[i].Script; s != "" && filepath.Base(s) == filepath.Base(name) && !seen[text] {
			seen[text] = true
			didYouMean = append(didYouMean, "hermes-hooks approve "+pasteHome(text))
		}
	}
	return missing, didYouMean
}

// noHookText is noHookHints as the lines approve prints and the text
// --json's error ends with. A missing script is to be written before it
// is approved: --force would record it as missing, and the script written
// later is then "changed since approval" until approved again.
func noHookText(statuses []report.HookStatus, command string) (lines []string, suffix string) {
	missing, dym := noHookHints(statuses, command)
	if missing != "" {
		lines = append(lines, "There is no file "+missing+".", "Write the script first, then approve it: an approval records its content.")
		suffix += "; there is no file " + missing + " (write the script first, then approve it: an approval records its content)"
	}
	if len(dym) > 0 {
		lines = append(lines, "Did you mean:")
		for _, d := range dym {
			lines = append(lines, "  "+d)
		}
		suffix += "; did you mean: " + strings.Join(dym, " or ")
	}
	return lines, suffix
}

// ruleNamed says what to do when name is a configured rule's id or text
// ("" when it is none), and whether that is nothing (a rule of the
// user's own config). approve takes a command: a rule's id led to
// --event, then --force, for a rule that needs no approval or is
// approved with its repository's hooks.
func ruleNamed(statuses []report.HookStatus, name string) (string, bool) {
	for i := range statuses {
		st := &statuses[i]
		r := st.Entry.Rule()
		if r == nil || (r.ID != name && r.Source != name) {
			continue
		}
		if st.NoApproval {
			return name + " is a rule of your own config: it needs no approval, and runs as it is", true
		}
		return name + " is a rule of " + st.Entry.Source + ": a repository's rules are approved with its hooks: hermes-hooks approve --project", false
	}
	return "", false
}

// approveRule answers approve of a rule's id or text (handled false when
// command names none).
func approveRule(a *app, store *consent.Store, statuses []report.HookStatus, command, event string, json bool) (handled bool, err error) {
	msg, nothing := ruleNamed(statuses, command)
	if msg == "" {
		return false, nil
	}
	if json && !nothing {
		return true, noHookJSON(a, store, command, event, msg)
	}
	if json {
		return true, writeJSON(a.Out, map[string]any{"results": []any{}, "approved": 0, "refused": 0, "allowlist": store.Path(),
			"command": command, "event": event, "message": msg})
	}
	fmt.Fprintln(a.Out, show(msg))
	if nothing {
		return true, nil
	}
	return true, silentExit(1)
}

// printLines prints each line, escaped for the terminal.
func printLines(a *app, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(a.Out, show(l))
	}
}

// pasteHome is command as a shell word to paste: a leading ~/ is left for
// the shell to expand when the rest needs no quoting (approve reads the
// expanded path as the config's ~/ spelling).
func pasteHome(command string) string {
	if rest, ok := strings.CutPrefix(command, "~/"); ok && shquote.IfNeeded(rest) == rest {
		return command
	}
	return shquote.IfNeeded(command)
}
