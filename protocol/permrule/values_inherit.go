package permrule

import (
	"cmp"
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
// the caller's stop (CommandsUntil), the text read and mapfile read
// (read, within maxReadBytes: each string has no bound of its own, and
// thousands of eval 'read b <<< "$T"' each read T whole), and the
// commands' last arguments, $_'s values (last, lastSeen; lastOver past
// maxVarValues of them) — the line's and its strings' together, as a
// word anywhere may read any of them: one set, each looked up at once
// (a list copied into each string was quadratic: 64 KiB of eval 'echo
// aN'; took 0.3 s).
type lineShared struct {
	spent int
	stop  func() bool
	read  int

	last     []string
	lastSeen map[string]bool
	lastOver bool
}

// share is what v shares with the line that runs it and the strings it
// runs, made when first needed.
func (v *lineValues) share() *lineShared {
	if v.shared == nil {
		v.shared = &lineShared{}
	}
	return v.shared
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
	v.unreadable = cmp.Or(v.unreadable, outer.unreadable)
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
	for name, outs := range outer.outputs {
		for _, o := range outs {
			v.addOutput(name, o)
		}
	}
	if v.shared.spent += work; v.shared.spent > maxInherited {
		v.exhausted = true
	}
}

// addLastArg keeps a as a value of $_, up to maxVarValues of them (past
// them $_ cannot be told).
func (v *lineValues) addLastArg(a string) {
	sh := v.share()
	switch {
	case sh.lastSeen[a]:
	case len(sh.last) >= maxVarValues:
		sh.lastOver = true
	default:
		if sh.lastSeen == nil {
			sh.lastSeen = map[string]bool{}
		}
		sh.lastSeen[a] = true
		sh.last = append(sh.last, a)
	}
}

// hasLastArgs: a command on the line or in its strings has a last
// argument ($_ has a value).
func (v *lineValues) hasLastArgs() bool {
	return v.shared != nil && (len(v.shared.last) > 0 || v.shared.lastOver)
}
