package consent

import "testing"

// A managed hook is approved by the managed config it is in: safe mode, a
// missing allowlist or no approval at all do not stop it, and running it
// records nothing.
func TestDecide_ManagedRunsWhateverTheUserSets(t *testing.T) {
	s := newTestStore(t)
	for name, p := range map[string]*Policy{
		"safe mode":    {Store: s, SafeMode: true},
		"no allowlist": {},
		"plain":        {Store: s},
	} {
		v := p.Decide(Request{Event: "pre_tool_call", Command: "/etc/hermes-hooks/guard.sh", Scope: Scope{Managed: true}})
		if !v.Run || !v.Approved || !v.TextOnlyAck || v.Reason != reasonManaged {
			t.Errorf("%s: %+v", name, v)
		}
		v.Pins.Close()
	}
	if _, ok, _ := s.Lookup("pre_tool_call", "/etc/hermes-hooks/guard.sh"); ok {
		t.Error("a managed hook was recorded in the allowlist")
	}
	// The same command outside the managed layer is the user's: not run.
	if v := (&Policy{Store: s}).Decide(Request{Event: "pre_tool_call", Command: "/etc/hermes-hooks/guard.sh"}); v.Run {
		t.Errorf("unmanaged: %+v", v)
	}
	st := Inspect(Request{Event: "pre_tool_call", Command: "/etc/hermes-hooks/guard.sh", Scope: Scope{Managed: true}}, nil)
	if !st.Approved || !st.Approval.TextOnlyAck {
		t.Errorf("Inspect: %+v", st)
	}
}
