package cmdpin

import (
	"errors"
	"fmt"
	"strings"
)

// Windows command lines. Pure functions, built on every system so that
// their table and fuzz tests run in Linux CI too; the Windows build uses
// them to split Hermes-dialect commands and to start batch files.

// splitWindowsArgs splits a command line into words by the rules
// CommandLineToArgvW (and the Microsoft C runtime) apply:
//
//   - The first word is a program name: a double quote starts or ends a
//     quoted part and backslashes are literal (C:\dir\ stays C:\dir\).
//   - In later words, spaces and tabs separate words outside quotes;
//     2n backslashes before a double quote are n backslashes and the quote
//     toggles quoting; 2n+1 backslashes before it are n backslashes and a
//     literal quote; backslashes before anything else are literal; inside
//     quotes, "" is one literal quote (and quoting goes on).
//
// An empty or blank line has no words.
func splitWindowsArgs(line string) []string {
	var args []string
	i := skipBlanks(line, 0)
	if i == len(line) {
		return nil
	}
	// The program name.
	var b strings.Builder
	inQuote := false
	for ; i < len(line); i++ {
		c := line[i]
		if c == '"' {
			inQuote = !inQuote
			continue
		}
		if !inQuote && (c == ' ' || c == '\t') {
			break
		}
		b.WriteByte(c)
	}
	args = append(args, b.String())
	for {
		i = skipBlanks(line, i)
		if i == len(line) {
			return args
		}
		var w string
		w, i = nextWindowsArg(line, i)
		args = append(args, w)
	}
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// nextWindowsArg reads one word (not the program name) starting at i.
func nextWindowsArg(line string, i int) (string, int) {
	var b strings.Builder
	inQuote := false
	for i < len(line) {
		c := line[i]
		switch {
		case c == '\\':
			n := 0
			for i < len(line) && line[i] == '\\' {
				n++
				i++
			}
			if i < len(line) && line[i] == '"' {
				b.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					b.WriteByte('"')
					i++
				}
				continue
			}
			b.WriteString(strings.Repeat(`\`, n))
		case c == '"':
			if inQuote && i+1 < len(line) && line[i+1] == '"' {
				b.WriteByte('"')
				i += 2
				continue
			}
			inQuote = !inQuote
			i++
		case !inQuote && (c == ' ' || c == '\t'):
			return b.String(), i
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), i
}

// quoteWindowsArg quotes one word (not the program name) so that
// splitWindowsArgs, CommandLineToArgvW and the C runtime read it back
// unchanged.
func quoteWindowsArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\"") {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	n := 0 // backslashes pending
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			n++
		case '"':
			b.WriteString(strings.Repeat(`\`, 2*n+1))
			b.WriteByte('"')
			n = 0
		default:
			b.WriteString(strings.Repeat(`\`, n))
			b.WriteByte(c)
			n = 0
		}
	}
	b.WriteString(strings.Repeat(`\`, 2*n))
	b.WriteByte('"')
	return b.String()
}

// batchUnsafe are the characters no quoting makes literal on a cmd.exe
// command line: a double quote ends the quoted part (and everything after
// it is cmd.exe syntax again), % expands variables even inside quotes, !
// does too when delayed expansion is on (a registry setting /d does not
// turn off), and a line break or NUL ends the command. Everything else
// cmd.exe treats as special (& | < > ^ ( ) , ; = space) is literal inside
// double quotes, and every word is quoted.
const batchUnsafe = "\"%!\r\n\x00"

// errBatchArg is the class of refusal batchCmdLine returns.
var errBatchArg = errors.New("cannot be passed to a batch file safely")

// batchCmdLine is the command line that runs a .cmd or .bat file through
// cmd.exe, as Windows itself does (CreateProcess on a batch file runs
// `cmd.exe /c`), with /d (no AutoRun commands from the registry) and /s
// (cmd.exe strips the outer quotes and reads the rest as written):
//
//	"COMSPEC" /d /s /c ""SCRIPT" "ARG1" "ARG2""
//
// Every word is quoted; a word with a character in batchUnsafe is refused
// (the BatBadBut class: a quoted argument that cmd.exe would still read as
// syntax runs commands the caller never wrote). Trailing backslashes of a
// word are doubled, so that a program the batch file hands "%~1" to does
// not read the closing quote as escaped.
func batchCmdLine(comspec, script string, args []string) (string, error) {
	var b strings.Builder
	b.WriteString(`"` + comspec + `" /d /s /c "`)
	for i, w := range append([]string{script}, args...) {
		if j := strings.IndexAny(w, batchUnsafe); j >= 0 {
			what := "argument " + quoteForError(w)
			if i == 0 {
				what = "batch file path " + quoteForError(w)
			}
			return "", fmt.Errorf("%s %w: it holds %s, which cmd.exe reads as syntax even inside quotes",
				what, errBatchArg, quoteForError(w[j:j+1]))
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		trimmed := strings.TrimRight(w, `\`)
		b.WriteString(`"` + trimmed + strings.Repeat(`\`, 2*(len(w)-len(trimmed))) + `"`)
	}
	b.WriteByte('"')
	return b.String(), nil
}

// quoteForError shows a word in an error, control characters escaped.
func quoteForError(s string) string {
	r := strings.NewReplacer("\r", `\r`, "\n", `\n`, "\x00", `\0`)
	return "`" + r.Replace(s) + "`"
}

// WindowsArgs splits a command line into words as a Windows program reads
// its own (splitWindowsArgs), for consent's Hermes-style script lookup,
// which on Windows must not eat a path's backslashes as POSIX words do.
func WindowsArgs(line string) []string { return splitWindowsArgs(line) }
