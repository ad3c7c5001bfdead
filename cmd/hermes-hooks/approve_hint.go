package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/shlex"

	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// noHookHints are what approve adds when no configured hook runs the
// command it was given: that the script it names does not exist, and the
// configured commands whose script has the same file name (a newcomer
// types `approve no-rm-rf.sh` for ~/.hermes/hooks/no-rm-rf.sh). Without
// them the only way on that approve showed was --event, then --force,
// which approves a file that is not there.
func noHookHints(statuses []report.HookStatus, command string) (missing string, didYouMean []string) {
	script := firstWord(command)
	if script == "" {
		return "", nil
	}
	if strings.ContainsRune(script, '/') || strings.HasPrefix(script, "~") {
		p := expandHome(script)
		if !filepath.IsAbs(p) {
			p = filepath.Join(cli.Cwd(), p)
		}
		if _, err := os.Stat(p); err != nil {
			missing = p
		}
	}
	seen := map[string]bool{}
	for i := range statuses {
		text := statuses[i].Entry.Text()
		if w := firstWord(text); w != "" && filepath.Base(w) == filepath.Base(script) && !seen[text] {
			seen[text] = true
			didYouMean = append(didYouMean, "hermes-hooks approve "+pasteHome(text))
		}
	}
	return missing, didYouMean
}

// firstWord is a command's first word as a shell reads it, "" when it has
// none or does not split.
func firstWord(command string) string {
	w, err := shlex.Split(command)
	if err != nil || len(w) == 0 {
		return ""
	}
	return w[0]
}

// expandHome is p with a leading ~/ as the user's home directory.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// noHookText is noHookHints as the lines approve prints and the text
// --json's error ends with.
func noHookText(statuses []report.HookStatus, command string) (lines []string, suffix string) {
	missing, dym := noHookHints(statuses, command)
	if missing != "" {
		lines = append(lines, "There is no file "+missing+".")
		suffix += "; there is no file " + missing
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
