package agents

import (
	"slices"
	"testing"
)

// Every agent's Open Plugins shape: only the format's events that agent
// registers, in the format's order, no init document, and the agent's own
// hook file left as it was; nil when its file is not grouped or shares no
// event with the format.
func TestOpenPluginShape(t *testing.T) {
	shaped := 0
	for _, a := range All() {
		before := slices.Clone(a.HookFile.Events)
		got := OpenPluginShape(a)
		var want []string
		for _, ev := range OpenPluginEvents {
			if slices.Contains(a.HookFile.Events, ev) {
				want = append(want, ev)
			}
		}
		if a.HookFile.Layout != Grouped || len(want) == 0 {
			if got != nil {
				t.Errorf("%s: shaped with %v, want nil (layout %v, shared events %v)", a.Name, got.HookFile.Events, a.HookFile.Layout, want)
			}
			continue
		}
		shaped++
		if got == nil {
			t.Errorf("%s: nil, want the events %v", a.Name, want)
			continue
		}
		if !slices.Equal(got.HookFile.Events, want) {
			t.Errorf("%s: events %v, want %v", a.Name, got.HookFile.Events, want)
		}
		if got.HookFile.Init != nil {
			t.Errorf("%s: the shape keeps the agent's init document", a.Name)
		}
		if got == a || !slices.Equal(a.HookFile.Events, before) {
			t.Errorf("%s: the agent itself was narrowed", a.Name)
		}
	}
	if a, _ := Lookup(OpenPluginAgent); OpenPluginShape(a) == nil {
		t.Errorf("the default agent %s has no Open Plugins shape", OpenPluginAgent)
	}
	if shaped == 0 {
		t.Fatal("no agent has an Open Plugins shape")
	}
}
