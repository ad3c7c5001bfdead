package permrule

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// What bash does to a command line's text before it runs it, as far as
// parseShell follows it: brace expansion (modelled), arithmetic that
// runs commands from quoted text, and bracket nesting too deep to parse
// (both refused: the line cannot be read).

// arithRuns: bash evaluates the operands of let, of [[ … -eq … ]] and the
// values of declare -i as arithmetic, and a quoted operand's array
// subscript there runs its $(…) or backticks: let 'x=a[$(rm -rf ~)]'. The
// text does not show such a command as one, so the line cannot be read.
func arithRuns(w shellWord) error {
	if w.static && (strings.Contains(w.text, "$(") || strings.Contains(w.text, "`")) {
		return fmt.Errorf("it evaluates %q as arithmetic, which runs the command inside", clip(w.text))
	}
	return nil
}

// maxBraceWords bounds the words one word's brace expansion may make.
const maxBraceWords = 1024

// braceWords is w's words after brace expansion, which bash does before
// anything else: rm -{r,f} x is rm -r -f x, and {rm,-rf,x} is rm -rf x. A
// word that would expand into more than maxBraceWords words stays one
// word, whose value is not known here (odd).
func braceWords(w *syntax.Word, src string) []shellWord {
	split := *w // SplitBraces rewrites the word; the tree is still walked
	if !syntax.SplitBraces(&split) {
		return []shellWord{shellWordOf(w, src)}
	}
	var out []shellWord
	for x, err := range expand.BracesSeq(nil, &split) {
		if err != nil || len(out) == maxBraceWords {
			return []shellWord{{text: source(w, src), odd: true}}
		}
		out = append(out, shellWordOf(x, src))
	}
	return out
}

// maxNesting bounds how deep a command line's brackets may nest.
const maxNesting = 128

// nests reports whether s's (, { and [ nest more than limit deep, counted
// without regard to quoting (an over-estimate, which only refuses more).
func nests(s string, limit int) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{', '[':
			if depth++; depth > limit {
				return true
			}
		case ')', '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return false
}
