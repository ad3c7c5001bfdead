package permrule

import "mvdan.cc/sh/v3/syntax"

// Words that may vanish. bash drops from a command's words an unquoted
// expansion that is empty ($X unset, a $(…) that prints nothing) and a
// "$@" of no arguments: the words after it take its place, so
// `git $NOPE push --force` runs git push --force, while listed as written
// git's command was $NOPE. Where such a word's value is not known here, the
// command is also listed as bash runs it when they all vanish.

// appendVanished appends to cmds c without the words that may vanish,
// when it has some and other words: a variant that may run (maybe), whose
// forms are listed and which, unreadable, does not make the line so (the
// words as written were read; a `ssh $h uptime` must not be refused as an
// ssh reading its commands from standard input).
func appendVanished(cmds []shellCommand, c shellCommand) []shellCommand {
	var kept []shellWord
	for _, w := range c.words {
		if !w.vanish {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 || len(kept) == len(c.words) {
		return cmds
	}
	return append(cmds, shellCommand{words: kept, stdin: c.stdin, stdinText: c.stdinText, maybe: true})
}

// markVanish marks words, what the word w of a command makes, when it is
// one word whose value is not known here: whether it reads a value the
// line gives (the line's values expand it already, empty too: values.go),
// and if not, whether it may vanish.
func markVanish(words []shellWord, w *syntax.Word, v *lineValues) []shellWord {
	if len(words) != 1 || words[0].static {
		return words
	}
	words[0].given = lineGives(v, w)
	words[0].vanish = !words[0].given && mayVanish(w)
	return words
}

// lineGives reports whether w reads a variable the line gives values.
func lineGives(v *lineValues, w *syntax.Word) bool {
	gives := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if p, ok := n.(*syntax.ParamExp); ok && p.Param != nil {
			name := p.Param.Value
			gives = gives || len(v.vals[name]) > 0 || len(v.arrays[name]) > 0 || v.over[name]
		}
		return !gives
	})
	return gives
}

// mayVanish reports whether w is made only of expansions bash removes
// from a command's words when they expand to nothing: unquoted parameters
// and command substitutions, and "$@" or "${a[@]}" of no elements.
func mayVanish(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst:
		case *syntax.DblQuoted:
			if len(p.Parts) != 1 || !eachElementAWord(p.Parts[0]) {
				return false
			}
		default:
			return false
		}
	}
	return len(w.Parts) > 0
}

// eachElementAWord reports a "$@" or "${a[@]}": each element a word of its
// own, none when there are none.
func eachElementAWord(p syntax.WordPart) bool {
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil {
		return false
	}
	if pe.Param.Value == "@" {
		return true
	}
	w, ok := pe.Index.(*syntax.Word)
	return ok && w.Lit() == "@"
}
