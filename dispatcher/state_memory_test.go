package dispatcher

import (
	"strings"
	"testing"
	"time"
)

// The in-memory store is bounded (issue 12, item 8): least recently used
// sessions go when the budget is exceeded, idle ones expire, and the byte
// accounting is the encoded size.
func TestMemorySessionsBounded(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := NewMemorySessionsWithLimits(10_000, time.Hour)
	s.now = func() time.Time { return now }
	blob := strings.Repeat("x", 3000)
	put := func(id string) {
		t.Helper()
		if err := s.Update(id, func(ss *Session) error {
			ss.State = map[string]any{"blob": blob}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	put("a")
	put("b")
	put("c")
	if s.Len() != 3 || s.Bytes() > 10_000 {
		t.Fatalf("len %d bytes %d", s.Len(), s.Bytes())
	}
	if _, err := s.Load("a"); err != nil { // a is now the most recently used
		t.Fatal(err)
	}
	put("d") // over budget: b, the least recently used, goes
	if got, _ := s.Load("b"); got.State != nil {
		t.Fatal("b should have been evicted")
	}
	if got, _ := s.Load("a"); got.State["blob"] != blob {
		t.Fatal("a must survive: it was used recently")
	}
	if s.Bytes() > 10_000 || s.Evicted() != 1 {
		t.Fatalf("bytes %d evicted %d", s.Bytes(), s.Evicted())
	}
	now = now.Add(2 * time.Hour)
	if got, _ := s.Load("a"); got.State != nil {
		t.Fatal("an idle session must expire")
	}
	if err := s.Clear("c"); err != nil {
		t.Fatal(err)
	}
}
