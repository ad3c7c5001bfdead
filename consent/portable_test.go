package consent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRepoLinkFromJSON(t *testing.T) {
	good := func() map[string]any {
		return map[string]any{
			keyEvent: "pre_tool_call", keyCommand: "./g.sh", keyProject: "/a", keySource: "/a/.hermes/hooks.yaml",
			keyFiles:      []any{map[string]any{keyPath: "/a/g.sh", keySHA256: "ab", keyInRepo: "g.sh"}},
			keyRepository: map[string]any{keyRepoIDs: []any{"git:/a/.git"}, keyRepoSource: ".hermes/hooks.yaml", keyRepoSourceSH: "cd", keyRepoProject: "."},
		}
	}
	repo := func(m map[string]any) map[string]any { return m[keyRepository].(map[string]any) }
	for _, c := range []struct {
		name   string
		edit   func(m map[string]any)
		linked bool
	}{
		{"valid", func(map[string]any) {}, true},
		{"no link", func(m map[string]any) { delete(m, keyRepository) }, false},
		{"link not an object", func(m map[string]any) { m[keyRepository] = "git:/a/.git" }, false},
		{"an ID not a string", func(m map[string]any) { repo(m)[keyRepoIDs] = []any{"git:/a/.git", 7} }, false},
		{"no IDs", func(m map[string]any) { repo(m)[keyRepoIDs] = []any{} }, false},
		{"source leaves the worktree", func(m map[string]any) { repo(m)[keyRepoSource] = "../x/hooks.yaml" }, false},
		{"source absolute", func(m map[string]any) { repo(m)[keyRepoSource] = "/etc/hooks.yaml" }, false},
		{"project leaves the worktree", func(m map[string]any) { repo(m)[keyRepoProject] = ".." }, false},
		{"no source digest", func(m map[string]any) { delete(repo(m), keyRepoSourceSH) }, false},
		{"a file leaves the worktree", func(m map[string]any) {
			m[keyFiles] = []any{map[string]any{keyPath: "/a/g.sh", keySHA256: "ab", keyInRepo: "../../etc/passwd"}}
		}, false},
		{"a file's relative path not a string", func(m map[string]any) {
			m[keyFiles] = []any{map[string]any{keyPath: "/a/g.sh", keySHA256: "ab", keyInRepo: 1}}
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := good()
			c.edit(m)
			e := entryFromJSON(m)
			if e.Repo.Linked() != c.linked {
				t.Errorf("linked = %v, want %v (%+v)", e.Repo.Linked(), c.linked, e.Repo)
			}
		})
	}
}

// mkfile writes path (and its directories).
func mkfile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// TestApprovalTravels: an approval given in repository A holds in a clone
// B with the same content (Inspect says so), not once B's script differs;
// the checkout's own approval keeps winning over one from elsewhere; and
// keys the approval does not know survive a rewrite.
func TestApprovalTravels(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, dir := range []string{a, b} {
		mkfile(t, filepath.Join(dir, ".hermes", "hooks.yaml"), "hooks:\n  pre_tool_call:\n    - command: ./g.sh\n", 0o644)
		mkfile(t, filepath.Join(dir, "g.sh"), "#!/bin/sh\necho '{}'\n", 0o755)
	}
	mkfile(t, filepath.Join(a, ".git", "config"), "", 0o644)
	// With forward slashes, as git writes a local path (a backslash is an
	// escape in git's config, also on Windows).
	mkfile(t, filepath.Join(b, ".git", "config"), "[remote \"origin\"]\n\turl = "+filepath.ToSlash(a)+"\n", 0o644)
	req := func(dir string) Request {
		return Request{Event: "pre_tool_call", Command: "./g.sh", Dir: dir,
			Scope: Scope{Project: dir, Source: filepath.Join(dir, ".hermes", "hooks.yaml")}}
	}
	home := filepath.Join(root, "home")
	mkfile(t, filepath.Join(home, fileName), `{"approvals": [], "hermes_key": {"kept": true}}`, 0o600)
	store := NewStore(home)
	if _, err := store.ApproveHook(req(a)); err != nil {
		t.Fatal(err)
	}
	f, err := store.Load()
	if err != nil {
		t.Fatal(err)
	}
	if !f.Projects[0].Repo.Linked() || f.Projects[0].Files[0].InRepo != "g.sh" {
		t.Fatalf("approval not linked: %+v", f.Projects[0])
	}
	data, _ := os.ReadFile(store.Path())
	if !strings.Contains(string(data), `"hermes_key"`) {
		t.Errorf("a key of the allowlist was dropped:\n%s", data)
	}
	if st := Inspect(req(a), f); !st.Approved || st.Elsewhere || st.Drift.Kind != DriftNone {
		t.Errorf("in A: %+v", st)
	}
	if st := Inspect(req(b), f); !st.Approved || !st.Elsewhere || st.Drift.Kind != DriftNone {
		t.Errorf("in the clone: %+v", st)
	}
	mkfile(t, filepath.Join(b, "g.sh"), "#!/bin/sh\necho changed\n", 0o755)
	if st := Inspect(req(b), f); !st.Approved || st.Drift.Kind != DriftHash {
		t.Errorf("in the clone, changed: %+v", st)
	}
	// Approved in B with B's content: B's own approval wins in B, and A
	// still runs on its own.
	if _, err := store.ApproveHook(req(b)); err != nil {
		t.Fatal(err)
	}
	f, _ = store.Load()
	if st := Inspect(req(b), f); !st.Approved || st.Elsewhere || st.Drift.Kind != DriftNone {
		t.Errorf("in the clone, re-approved: %+v", st)
	}
	if st := Inspect(req(a), f); !st.Approved || st.Elsewhere || st.Drift.Kind != DriftNone {
		t.Errorf("in A after B's approval: %+v", st)
	}
	// A third checkout with A's content matches A's approval, not B's.
	c := filepath.Join(root, "c")
	mkfile(t, filepath.Join(c, ".hermes", "hooks.yaml"), "hooks:\n  pre_tool_call:\n    - command: ./g.sh\n", 0o644)
	mkfile(t, filepath.Join(c, "g.sh"), "#!/bin/sh\necho '{}'\n", 0o755)
	mkfile(t, filepath.Join(c, ".git"), "gitdir: "+filepath.Join(a, ".git")+"\n", 0o644)
	if st := Inspect(req(c), f); !st.Approved || !st.Elsewhere || st.Drift.Kind != DriftNone {
		t.Errorf("in a third checkout with A's content: %+v", st)
	}
}

// TestScreenAndDecideSeeOtherCheckouts: the screen lets a clone's hook
// through to Decide when an approval from the repository's other checkout
// may cover it, Decide runs it on that approval, and MayRunIn counts it;
// an unrelated repository with the same files gets none of that.
func TestScreenAndDecideSeeOtherCheckouts(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "c")
	for _, dir := range []string{a, b, c} {
		mkfile(t, filepath.Join(dir, ".hermes", "hooks.yaml"), "hooks:\n  pre_tool_call:\n    - command: ./g.sh\n", 0o644)
		mkfile(t, filepath.Join(dir, "g.sh"), "#!/bin/sh\necho '{}'\n", 0o755)
	}
	mkfile(t, filepath.Join(a, ".git", "config"), "[remote \"origin\"]\n\turl = https://example.com/o/r.git\n", 0o644)
	mkfile(t, filepath.Join(b, ".git", "config"), "[remote \"origin\"]\n\turl = git@example.com:o/r\n", 0o644)
	mkfile(t, filepath.Join(c, ".git", "config"), "[remote \"origin\"]\n\turl = git@example.com:other/r\n", 0o644)
	scope := func(dir string) Scope {
		return Scope{Project: dir, Source: filepath.Join(dir, ".hermes", "hooks.yaml")}
	}
	req := func(dir string) Request {
		return Request{Event: "pre_tool_call", Command: "./g.sh", Dir: dir, Scope: scope(dir)}
	}
	s := NewStore(filepath.Join(root, "home"))
	if _, err := s.ApproveHook(req(a)); err != nil {
		t.Fatal(err)
	}
	p := &Policy{Store: s}
	if p.Screen().Refuses("pre_tool_call", "./g.sh", scope(b)) {
		t.Error("the screen refuses the clone's hook")
	}
	if !p.Screen().Refuses("pre_tool_call", "./g.sh", scope(c)) {
		t.Error("the screen lets an unrelated repository's hook through")
	}
	if !p.MayRunIn(b) || p.MayRunIn(c) {
		t.Errorf("MayRunIn: clone %v, unrelated %v", p.MayRunIn(b), p.MayRunIn(c))
	}
	v := p.Decide(req(b))
	if !v.Run || v.Reason != reasonElsewhere {
		t.Errorf("Decide in the clone: %+v", v)
	}
	if v.Pins != nil {
		v.Pins.Close()
	}
	if v := p.Decide(req(c)); v.Run || !v.Unapproved {
		t.Errorf("Decide in an unrelated repository: %+v", v)
	}
}

// TestRevokeSelectedKeepsOtherProjects: a revocation picked by project
// (as `revoke` in a project picks: the global entries and the project's,
// an approval of its repository given in another checkout included)
// removes those and keeps an unrelated repository's approval of the same
// command text, reporting each; with no pick it removes every one.
func TestRevokeSelectedKeepsOtherProjects(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, clone, m := filepath.Join(root, "a"), filepath.Join(root, "clone"), filepath.Join(root, "m")
	for _, dir := range []string{a, clone, m} {
		mkfile(t, filepath.Join(dir, ".hermes", "hooks.yaml"), "hooks:\n  pre_tool_call:\n    - command: ./g.sh\n", 0o644)
		mkfile(t, filepath.Join(dir, "g.sh"), "#!/bin/sh\necho '{}'\n", 0o755)
	}
	mkfile(t, filepath.Join(a, ".git", "config"), "[remote \"origin\"]\n\turl = https://example.com/o/a.git\n", 0o644)
	mkfile(t, filepath.Join(clone, ".git", "config"), "[remote \"origin\"]\n\turl = git@example.com:o/a\n", 0o644)
	mkfile(t, filepath.Join(m, ".git", "config"), "[remote \"origin\"]\n\turl = https://example.com/o/m.git\n", 0o644)
	req := func(dir string) Request {
		return Request{Event: "pre_tool_call", Command: "./g.sh", Dir: dir,
			Scope: Scope{Project: dir, Source: filepath.Join(dir, ".hermes", "hooks.yaml")}}
	}
	approveAll := func(s *Store) {
		t.Helper()
		for _, r := range []Request{req(a), req(m), {Event: "pre_tool_call", Command: "./g.sh", Dir: root}} {
			if _, err := s.ApproveHook(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	s := NewStore(filepath.Join(root, "home"))
	approveAll(s)
	in := func(project string) func(Entry) bool {
		return func(e Entry) bool { return e.Scope.Global() || e.OfProject(project) }
	}
	// In the clone: A's approval holds there, so it goes; m's stays.
	res, err := s.RevokeSelected("./g.sh", nil, in(clone))
	if err != nil {
		t.Fatal(err)
	}
	if res.Removed != 2 || len(res.Entries) != 2 || len(res.Kept) != 1 || res.Kept[0].Scope.Project != m {
		t.Fatalf("removed %d %+v, kept %+v", res.Removed, res.Entries, res.Kept)
	}
	f, _ := s.Load()
	if len(f.Approvals) != 0 || len(f.Projects) != 1 || f.Projects[0].Scope.Project != m {
		t.Fatalf("left %+v / %+v", f.Approvals, f.Projects)
	}
	// An unrelated repository is no project of A's, whatever its text.
	if f.Projects[0].OfProject(a) || f.Projects[0].OfProject(clone) || !f.Projects[0].OfProject(m) {
		t.Error("OfProject: m's approval read as A's, or not as m's")
	}
	// No pick: every project's.
	approveAll(s)
	if res, err := s.RevokeSelected("./g.sh", nil, nil); err != nil || res.Removed != 3 || len(res.Kept) != 0 {
		t.Fatalf("without a pick: %+v, %v", res, err)
	}
}
