package permrule

import (
	"errors"
	"slices"
)

// What a command string takes from the line that runs it (sh -c STRING,
// eval, a string eval runs): the values of that line's variables, within
// one budget for the whole line.

// maxInherited bounds what the command strings of one line take from the
// lines that run them, together (inherit: a name's values taken whole
// count one, values taken one by one each, an array its elements): each
// string gets its line's values, and 64 KiB of `X1=a; eval echo $X1; X2=a;
// eval …` copied thousands of names thousands of times (seconds). Past it
// the line cannot be read (an error).
const maxInherited = 1 << 20

// lineShared is what a line and the command strings it runs share: the
// values the strings took from the lines that run them (maxInherited),
// and the caller's stop (CommandsUntil).
type lineShared struct {
	spent int
	stop  func() bool
}

// errPastBound ends an analysis whose caller's time bound passed.
var errPastBound = errors.New("the analysis was stopped: its time bound passed")

// halted reports whether the caller asked the analysis to end (v nil: a
// line no values were read for, which no caller can stop).
func (v *lineValues) halted() bool {
	return v != nil && v.shared != nil && v.shared.stop != nil && v.shared.stop()
}

// inherit gives v the values of outer, the line that runs v's as a
// command string: unset too (they may be given after it runs). What it
// costs is charged to the line's budget: a name's values are taken whole
// where v has none of its own, only the new ones where v's are where
// outer's start (evalRound gives a string's values back to its line,
// which made them), one by one otherwise.
func (v *lineValues) inherit(outer *lineValues) {
	if outer == nil {
		return
	}
	if outer.shared == nil {
		outer.shared = &lineShared{}
	}
	v.shared = outer.shared
	if outer.exhausted {
		v.exhausted = true
		return
	}
	work := len(outer.vals) + len(outer.arrays) + len(outer.over)
	if work > 0 {
		v.made()
	}
	for name, vals := range outer.vals {
		have := v.vals[name]
		switch {
		case len(have) == 0 && !v.over[name] && !v.lower[name] && !v.upper[name] && !v.integer[name]:
			// outer's are distinct and within maxVarValues already; a
			// later append to either copies (Clip).
			v.vals[name] = slices.Clip(vals)
			v.longest = max(v.longest, outer.longest)
		case len(have) > 0 && len(vals) >= len(have) && slices.Equal(vals[:len(have)], have):
			for _, s := range vals[len(have):] {
				v.add(name, s)
			}
			work += len(vals) - len(have)
		default:
			for _, s := range vals {
				v.add(name, s)
			}
			work += len(vals)
		}
	}
	for name, arrs := range outer.arrays {
		for _, a := range arrs {
			v.addArray(name, a)
			// Each array is taken one by one, its key (arrKey) made of
			// every element: an array of 32,768 taken by thousands of
			// strings (eval :; eval :; …) cost seconds charged as one.
			work += 1 + len(a.List) + len(a.Map)
		}
	}
	for name := range outer.over {
		v.over[name] = true
	}
	v.mergeLastArgs(outer)
	if v.shared.spent += work; v.shared.spent > maxInherited {
		v.exhausted = true
	}
}

// mergeLastArgs adds to v's last arguments those of outer it lacks. v's
// are most often none or where outer's start (a command string's values
// are made from its line's and given back to it: evalRound): outer's
// are then taken whole. A line of thousands of command strings (eval
// '…'; eval '…'; …) merged them one by one each time, quadratic: minutes.
func (v *lineValues) mergeLastArgs(outer *lineValues) {
	v.lastOver = v.lastOver || outer.lastOver
	if len(outer.lastArgs) >= len(v.lastArgs) && slices.Equal(outer.lastArgs[:len(v.lastArgs)], v.lastArgs) {
		v.lastArgs = slices.Clip(outer.lastArgs) // a later append copies
		return
	}
	for _, a := range outer.lastArgs {
		v.addLastArg(a)
	}
}

// addLastArg keeps a as a value of $_, up to maxLastArgs of them.
func (v *lineValues) addLastArg(a string) {
	switch {
	case slices.Contains(v.lastArgs, a):
	case len(v.lastArgs) >= maxLastArgs:
		v.lastOver = true
	default:
		v.lastArgs = append(v.lastArgs, a)
	}
}
