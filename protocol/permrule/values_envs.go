package permrule

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The assignments of values a command's words are expanded under (envs):
// every one, up to maxVariants; past it, the inert values one at a time.

// envs are every assignment of values to r's names: each value the line
// gives a name, or unset (where the word may come before the first); a
// name it gives none that is read with an operator is unset in some and
// set in others (to a value that reads as written, $NAME), all at once, as
// what it holds is not known either way.
//
// Past maxVariants of them, the inert values (inert: plain words, such
// as a loop's numbers, files or hosts) are taken one at a time, each with
// every assignment of the other names' other values: what a rule looks
// for (an option, a command's name, a value with a blank or a quote) is
// still every assignment of those, and a plain word still appears beside
// each. Bounded before they are made: maxVariants of them, maxExpandBytes
// of text together, maxEvals for the line.
func (v *lineValues) envs(r readSet, words []*syntax.Word, src string) ([]env, error) {
	var choices []choice
	count, unknown := 1, false
	for _, n := range r.names {
		if v.over[n] {
			return nil, fmt.Errorf("the variable %s may hold values this analysis cannot tell (more than %d, or made in a way it does not follow)", n, maxVarValues)
		}
		var opts []expand.Variable
		for _, s := range v.vals[n] {
			opts = append(opts, expand.Variable{Set: true, Kind: expand.String, Str: s})
		}
		opts = append(opts, v.arrays[n]...)
		if len(opts) == 0 {
			_, op := r.withOp[n]
			unknown = unknown || op
			continue
		}
		if v.unsetAt(n, words[0].Pos().Offset()) {
			opts = append(opts, expand.Variable{})
		}
		count = min(count*len(opts), maxVariants+1)
		choices = append(choices, choice{n, opts})
	}
	base := []env{{}}
	if unknown {
		// Unset, set, and the one that gives most text: set where an
		// alternative (${X:+WORD}) is read, unset where a default is.
		set, most := env{}, env{}
		for n, op := range r.withOp {
			if len(v.vals[n]) > 0 || len(v.arrays[n]) > 0 {
				continue
			}
			vr := expand.Variable{Set: true, Kind: expand.String, Str: "$" + n}
			set[n] = vr
			if op == syntax.AlternateUnset || op == syntax.AlternateUnsetOrNull {
				most[n] = vr
			}
		}
		base = append(base, set, most)
	}
	if count > maxVariants {
		count = reducedCount(choices)
	}
	if count > maxVariants {
		return nil, fmt.Errorf("the variables of `%s` take more values together than this analysis follows (%d)", clip(source(words[0], src)), maxVariants)
	}
	// Charged before they are made: a line past its bounds makes none.
	if v.bytes -= r.est * count * len(base); v.bytes < 0 {
		return nil, fmt.Errorf("its variables expand to more text than this analysis makes (%d bytes)", maxExpandBytes)
	}
	if v.evals -= count * len(base); v.evals < 0 {
		return nil, fmt.Errorf("its variables take more values together than this analysis expands (%d)", maxEvals)
	}
	if count == product1(choices) {
		return product(base, choices), nil
	}
	return reduced(base, choices), nil
}

// choice is the values one name may hold in a word (envs).
type choice struct {
	name string
	opts []expand.Variable
}

// product is every assignment of the choices' values, on each of base
// (the caller bounds how many: a name of one value is set in place).
func product(base []env, choices []choice) []env {
	envs := base
	for _, c := range choices {
		if len(c.opts) == 1 {
			for _, e := range envs {
				e[c.name] = c.opts[0]
			}
			continue
		}
		next := make([]env, 0, len(envs)*len(c.opts))
		for _, e := range envs {
			for _, o := range c.opts {
				n := maps.Clone(e)
				n[c.name] = o
				next = append(next, n)
			}
		}
		envs = next
	}
	return envs
}

// product1 is how many assignments product makes of choices (at most
// maxVariants+1).
func product1(choices []choice) int {
	n := 1
	for _, c := range choices {
		n = min(n*len(c.opts), maxVariants+1)
	}
	return n
}

// reducedCount is how many assignments reduced makes of choices (at most
// maxVariants+1).
func reducedCount(choices []choice) int {
	other, inert := split(choices)
	n := product1(other)
	total := n
	for i, c := range inert {
		if len(other[i].opts) == 0 {
			continue
		}
		total = min(total+len(c.opts)*n/len(other[i].opts), maxVariants+1)
	}
	return total
}

// reduced is envs' assignments past maxVariants: every assignment of the
// choices' values that are not inert (each name's first value where it
// has none), and each inert value alone with every one of those.
func reduced(base []env, choices []choice) []env {
	other, inert := split(choices)
	envs := product(cloneEnvs(base), other)
	for i, c := range inert {
		for _, o := range c.opts {
			with := slices.Clone(other)
			with[i] = choice{c.name, []expand.Variable{o}}
			envs = append(envs, product(cloneEnvs(base), with)...)
			if len(envs) > maxVariants {
				return envs
			}
		}
	}
	return envs
}

// split parts each choice's values into those not inert (other; its
// first value where it has none) and the inert ones.
func split(choices []choice) (other, inert []choice) {
	other = make([]choice, len(choices))
	for i, c := range choices {
		other[i].name = c.name
		var plain []expand.Variable
		for _, o := range c.opts {
			if o.Kind == expand.String && o.Set && inertValue(o.Str) {
				plain = append(plain, o)
			} else {
				other[i].opts = append(other[i].opts, o)
			}
		}
		if len(other[i].opts) == 0 {
			other[i].opts = plain[:1]
		}
		inert = append(inert, choice{c.name, plain})
	}
	return other, inert
}

func cloneEnvs(es []env) []env {
	out := make([]env, len(es))
	for i, e := range es {
		out[i] = maps.Clone(e)
	}
	return out
}

// inertValue: a plain word, which no rule reads as an option, a blank, a
// quote or a pattern: letters, digits and . _ / : @ % + , =, not first -.
func inertValue(s string) bool {
	if s == "" || s[0] == '-' {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._/:@%+,=", c)) {
			return false
		}
	}
	return true
}

// unsetAt: a word at offset at may read name unset: it comes before the
// line first gives name a value (else a loop around both is taken to
// give it first: for h in …; do ssh $h …).
func (v *lineValues) unsetAt(name string, at uint) bool {
	if positionalName(name) {
		name = "@"
	}
	for _, b := range v.bodies {
		if at >= b[0] && at < b[1] {
			return false // a function is taken to be called after what it reads is given
		}
	}
	first, ok := v.first[name]
	return !ok || at < first
}

// positionalName: $1 …, $@, $*, $#.
func positionalName(name string) bool {
	return name == "@" || name == "*" || name == "#" || isNumber(name)
}
