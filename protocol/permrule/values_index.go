package permrule

import "slices"

// A set of each name's values with many, for add: a value is looked up
// there rather than among them.

// valueIndex is a set of a name's values, for the slice it was made
// from (first element, length): any other slice there makes it anew.
type valueIndex struct {
	first *string
	n     int
	set   map[string]bool
	scans int // lookups among the values while set is nil
}

// minIndexed is the count of a name's values from which add looks a value
// up in a set (has) rather than among them: thousands of values, each
// added past thousands, were quadratic (0.4 s for 64 KiB of reads).
const minIndexed = 32

// has reports whether val is among name's values.
func (v *lineValues) has(name, val string) bool {
	vals := v.vals[name]
	if len(vals) < minIndexed {
		return slices.Contains(vals, val)
	}
	x := v.index[name]
	if x == nil || x.first != &vals[0] || x.n != len(vals) {
		// Made only once a few lookups have each scanned the values: a
		// string eval runs that adds once to an inherited name with
		// thousands (eval n=a1, thousands of times) made a set each.
		if x == nil || x.set != nil {
			x = &valueIndex{}
			if v.index == nil {
				v.index = map[string]*valueIndex{}
			}
			v.index[name] = x
		}
		if x.scans++; x.scans <= 4 {
			return slices.Contains(vals, val)
		}
		x.first, x.n, x.set = &vals[0], len(vals), make(map[string]bool, len(vals))
		for _, s := range vals {
			x.set[s] = true
		}
	}
	return x.set[val]
}

// indexed keeps name's set (has) in step with val, just appended: has
// made it for the values before when they were many, and any other is
// dropped (made anew when needed).
func (v *lineValues) indexed(name, val string) {
	x := v.index[name]
	if x == nil || x.set == nil {
		return
	}
	vals := v.vals[name]
	if len(vals)-1 < minIndexed {
		delete(v.index, name)
		return
	}
	x.first, x.n = &vals[0], len(vals)
	x.set[val] = true
}
