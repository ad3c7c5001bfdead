package consent

import (
	"os"
	"strings"
	"testing"
)

// The screen refuses exactly the repository hooks Decide would skip as
// unapproved: never one that an approval, an accept channel or a prompt
// could run, nor one whose approval cannot be checked (a fail_closed guard
// must still block then), nor a global hook.
func TestScreenRefusesOnlyWhatDecideSkips(t *testing.T) {
	proj := Scope{Project: "/r", Source: "/r/.hermes/hooks.yaml"}
	other := Scope{Project: "/o", Source: "/o/.hermes/hooks.yaml"}
	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T, s *Store, p *Policy)
		scope  Scope
		refuse bool
	}{
		{"unapproved project hook", nil, proj, true},
		{"approved in another project", func(t *testing.T, s *Store, _ *Policy) { approveIn(t, s, other) }, proj, true},
		{"approved globally only", func(t *testing.T, s *Store, _ *Policy) { approveIn(t, s, Scope{}) }, proj, true},
		{"approved here", func(t *testing.T, s *Store, _ *Policy) { approveIn(t, s, proj) }, proj, false},
		{"global hook", nil, Scope{}, false},
		{"--accept-hooks", func(_ *testing.T, _ *Store, p *Policy) { p.Accept = true }, proj, false},
		{"TTY prompt", func(_ *testing.T, _ *Store, p *Policy) { p.Prompter = &Prompter{IsTTY: true} }, proj, false},
		{"safe mode", func(_ *testing.T, _ *Store, p *Policy) { p.SafeMode = true }, proj, false},
		{"corrupt allowlist", func(t *testing.T, s *Store, _ *Policy) {
			if err := os.MkdirAll(s.Home(), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(s.Path(), []byte("{nope"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, proj, false},
	} {
		s := newTestStore(t)
		var warned []string
		p := &Policy{Store: s, Warn: func(m string) { warned = append(warned, m) }}
		if tc.setup != nil {
			tc.setup(t, s, p)
		}
		got := p.Screen().Refuses("pre_tool_call", "/x/hook.sh", tc.scope)
		if got != tc.refuse {
			t.Errorf("%s: Refuses = %v, want %v", tc.name, got, tc.refuse)
			continue
		}
		if got {
			// What the screen refuses, Decide skips, unapproved and
			// without doubt about the allowlist.
			if v := p.Decide(Request{Event: "pre_tool_call", Command: "/x/hook.sh", Scope: tc.scope}); v.Run || !v.Unapproved || v.Unknown {
				t.Errorf("%s: refused, but Decide says %+v", tc.name, v)
			}
		}
	}
	if (Screen{}).Refuses("pre_tool_call", "/x/hook.sh", proj) {
		t.Error("the zero Screen refuses")
	}
}

// Refused warns once per source file: the policy's own message for one
// hook, a count for several.
func TestScreenRefusedWarnsPerFile(t *testing.T) {
	s := newTestStore(t)
	var warned []string
	p := &Policy{Store: s, Warn: func(m string) { warned = append(warned, m) }}
	a := Scope{Project: "/r", Source: "/r/.hermes/hooks.yaml"}
	b := Scope{Project: "/r", Source: "/r/.claude/settings.json"}
	p.Screen().Refused([]Request{
		{Event: "pre_tool_call", Command: "./a1.sh", Scope: a},
		{Event: "pre_tool_call", Command: "./a2.sh", Scope: a},
		{Event: "PreToolUse", Command: "./b.sh", Scope: b},
	})
	want := []string{
		projectNotApprovedMessage("PreToolUse", "./b.sh", b, b.Source),
		projectHooksNotApprovedMessage(2, "pre_tool_call", a, a.Source),
	}
	if strings.Join(warned, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warned:\n%s\nwant:\n%s", strings.Join(warned, "\n"), strings.Join(want, "\n"))
	}
}

func approveIn(t *testing.T, s *Store, scope Scope) {
	t.Helper()
	if _, err := s.ApproveHook(Request{Event: "pre_tool_call", Command: "/x/hook.sh", Scope: scope}); err != nil {
		t.Fatal(err)
	}
}

// The notice's wording: singular and plural, the count and the fixed
// command only.
func TestUnapprovedNotice(t *testing.T) {
	for n, want := range map[int]string{
		1:   "1 hook from this repository is not approved: review it, then run `hermes-hooks approve --project` yourself",
		2:   "2 hooks from this repository are not approved: review them, then run `hermes-hooks approve --project` yourself",
		120: "120 hooks from this repository are not approved: review them, then run `hermes-hooks approve --project` yourself",
	} {
		if got := UnapprovedNotice(n); got != want {
			t.Errorf("UnapprovedNotice(%d) = %q, want %q", n, got, want)
		}
	}
}
