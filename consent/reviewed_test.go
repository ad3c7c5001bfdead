package consent

import (
	"errors"
	"path/filepath"
	"testing"
)

// ApproveHook with Reviewed records the approval only when the files the
// hook runs are exactly the reviewed ones: same paths, same digests.
func TestApproveHookHoldsToWhatWasReviewed(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "guard.sh")
	writeFile(t, script, "#!/bin/sh\necho '{}'\n", 0o755)
	shown := []FileRecord{{Path: script, SHA256: sha256Hex("#!/bin/sh\necho '{}'\n")}}
	for name, c := range map[string]struct {
		reviewed []FileRecord
		refused  bool
	}{
		"what was shown":         {reviewed: shown},
		"another digest":         {reviewed: []FileRecord{{Path: script, SHA256: sha256Hex("#!/bin/sh\n")}}, refused: true},
		"another file":           {reviewed: []FileRecord{{Path: script + ".old", SHA256: shown[0].SHA256}}, refused: true},
		"a file it runs no more": {reviewed: append(append([]FileRecord{}, shown...), FileRecord{Path: "/x"}), refused: true},
		"nothing shown":          {reviewed: []FileRecord{}, refused: true},
		"no review (nil)":        {reviewed: nil},
	} {
		s := newTestStore(t)
		_, err := s.ApproveHook(Request{Event: "pre_tool_call", Command: script, Dir: dir, Reviewed: c.reviewed})
		var changed *ChangedSinceReviewError
		if got := errors.As(err, &changed); got != c.refused {
			t.Errorf("%s: err %v, want refused=%v", name, err, c.refused)
		}
		f, _ := s.Load()
		if _, ok := f.LookupIn("pre_tool_call", script, Scope{}); ok == c.refused {
			t.Errorf("%s: approval recorded=%v, want %v", name, ok, !c.refused)
		}
	}
}
