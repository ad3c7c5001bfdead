package permrule

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The positional parameters a line gives ($1 …, $@): set and shift.

// positional is one change of the positional parameters: set -- WORDS
// (args), or shift N.
type positional struct {
	args  []*syntax.Word
	shift int
}

// positionalOf reads set [options] [--] WORDS and shift [N] (also after
// command or builtin), ok false for any other command.
func positionalOf(args []*syntax.Word, src string) (positional, bool) {
	word := func(i int) string {
		if i >= len(args) {
			return ""
		}
		return shellWordOf(args[i], src).text
	}
	i := 0
	for word(i) == "command" || word(i) == "builtin" {
		i++
	}
	switch word(i) {
	case "shift":
		n, err := strconv.Atoi(word(i + 1))
		if i+1 >= len(args) || err != nil || n < 0 {
			n = 1
		}
		return positional{shift: n}, true
	case "set":
		i++
		set := false // whether the words that follow are the parameters
		for ; i < len(args); i++ {
			w := word(i)
			if w == "--" {
				i, set = i+1, true
				break
			}
			if len(w) > 1 && (w[0] == '-' || w[0] == '+') && w[len(w)-1] == 'o' {
				// -o, +o, -euo: o takes the next word (set -euo
				// pipefail sets no $1).
				i++
				continue
			}
			if !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "+") || w == "-" {
				set = true
				break
			}
		}
		if !set {
			return positional{}, false // set -e: the parameters stay
		}
		return positional{args: args[i:]}, true
	}
	return positional{}, false
}

// positionals adds the positional parameters the line's set and shift
// give ($1 …, $@, $*, $#), each in line order from the ones before it
// (unset at first), as each of the lists of fields set's words may
// expand to.
func (v *lineValues) positionals(sets []positional, src string) {
	if len(sets) == 0 {
		return
	}
	cur := [][]string{nil}
	for _, p := range sets {
		// Each settle round reads every set again: 3,000 of them ran a
		// second past the caller's stop.
		if v.stopped = v.stopped || v.halted(); v.stopped {
			return
		}
		var next [][]string
		if p.args == nil {
			for _, l := range cur {
				next = append(next, l[min(p.shift, len(l)):])
			}
		}
		for _, l := range cur {
			if p.args == nil {
				break
			}
			saved := v.arrays["@"]
			v.made()
			v.arrays["@"] = []expand.Variable{{Set: true, Kind: expand.Indexed, List: l}}
			lists, err := v.expand(p.args, src, false, true)
			v.arrays["@"] = saved
			if err != nil {
				for _, name := range []string{"@", "*", "#", "1", "2", "3", "4", "5", "6", "7", "8", "9"} {
					v.over[name] = true
				}
				return
			}
			next = append(next, lists...)
		}
		if len(next) > maxVarValues {
			next = next[:maxVarValues]
			v.over["@"], v.over["*"] = true, true
		}
		cur = next
		for _, list := range cur {
			for i, s := range list {
				v.add(strconv.Itoa(i+1), s)
			}
			all := expand.Variable{Set: true, Kind: expand.Indexed, List: list}
			v.addArray("@", all)
			v.addArray("*", all)
			v.add("#", strconv.Itoa(len(list)))
		}
	}
}
