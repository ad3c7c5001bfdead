package permrule

import (
	"errors"
	"slices"
)

// What a command string takes from the line that runs it (sh -c STRING,
// eval, a string eval runs): the values of that line's variables, within
// one budget for the whole line.

// maxInherited bounds the values the command strings of one line take
// from the lines that run them, together: each string gets a copy of its
// line's values, and 64 KiB of `X1=a; eval echo $X1; X2=a; eval …`
// copied thousands of values thousands of times (seconds). Past it the
// line cannot be read (an error).
const maxInherited = 1 << 18

// lineShared is what a line and the command strings it runs share: the
// values the strings took from the lines that run them (maxInherited),
// and the caller's stop (CommandsUntil).
type lineShared struct {
	spent int
	stop  func() bool
}

// errPastBound ends an analysis whose caller's time bound passed.
var errPastBound = errors.New("the analysis was stopped: its time bound passed")

// halted reports whether the caller asked the analysis to end.
func (v *lineValues) halted() bool {
	return v.shared != nil && v.shared.stop != nil && v.shared.stop()
}

// inherit gives v the values of outer, the line that runs v's as a
// command string: unset too (they may be given after it runs).
func (v *lineValues) inherit(outer *lineValues) {
	if outer == nil {
		return
	}
	if outer.shared == nil {
		outer.shared = &lineShared{}
	}
	v.shared = outer.shared
	n := 0
	for _, vals := range outer.vals {
		n += len(vals)
	}
	for _, arrs := range outer.arrays {
		for _, a := range arrs {
			n += 1 + len(a.List) + len(a.Map)
		}
	}
	if v.shared.spent += n; v.shared.spent > maxInherited || outer.exhausted {
		v.exhausted = true
		return
	}
	for name, vals := range outer.vals {
		for _, s := range vals {
			v.add(name, s)
		}
	}
	for name, arrs := range outer.arrays {
		for _, a := range arrs {
			v.addArray(name, a)
		}
	}
	for name := range outer.over {
		v.made()
		v.over[name] = true
	}
	v.mergeLastArgs(outer.lastArgs)
}

// mergeLastArgs adds to v's last arguments those of outer it lacks. v's
// are most often none or where outer's start (a command string's values
// are made from its line's and given back to it: evalRound): outer's
// are then taken whole. A line of thousands of command strings (eval
// '…'; eval '…'; …) merged them one by one each time, quadratic: minutes.
func (v *lineValues) mergeLastArgs(outer []string) {
	if len(outer) >= len(v.lastArgs) && slices.Equal(outer[:len(v.lastArgs)], v.lastArgs) {
		v.lastArgs = slices.Clip(outer) // a later append copies
		return
	}
	have := make(map[string]bool, len(v.lastArgs))
	for _, a := range v.lastArgs {
		have[a] = true
	}
	for _, a := range outer {
		if !have[a] {
			have[a] = true
			v.lastArgs = append(v.lastArgs, a)
		}
	}
}
