package protocol

import "strings"

// Shadowed takes the report of an entry in mode: shadow out of the fold:
// its contribution becomes Would, the few words of what it would have
// asked for, and Contribution nil. The dispatcher does it as the entry
// runs; a caller that folds reports of its own (test's verdict) does it
// too, so that its outcome shows what dispatch's does.
func (r *HookReport) Shadowed() {
	r.Shadow = true
	if r.Contribution != nil {
		r.Would = wouldOf(r.Contribution)
		r.Contribution = nil
	}
}

// wouldOf describes a contribution in a few words, as a shadow hook's
// report and the journal show it: its decision and message ("block: no
// rm -rf"), else what it asked for ("context, stop"); "" for nothing.
func wouldOf(c *Contribution) string {
	if c.Decision != "" && c.Decision != DecisionNone {
		if c.Message != "" {
			return string(c.Decision) + ": " + c.Message
		}
		return string(c.Decision)
	}
	var parts []string
	for _, p := range []struct {
		set  bool
		name string
	}{
		{c.Args != nil, "args"}, {c.Context != "", "context"}, {c.Stop, "stop"},
		{c.SystemMessage != "", "system_message"}, {c.Result != nil, "result"},
		{c.InjectSystem != "" || c.InjectUser != "", "inject"}, {c.Metadata != nil, "metadata"},
		{c.State != nil, "state"}, {c.Env != nil, "env"},
	} {
		if p.set {
			parts = append(parts, p.name)
		}
	}
	return strings.Join(parts, ", ")
}
