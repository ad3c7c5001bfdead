package sessions

import (
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The in-memory store is bounded (issue 12, item 8): least recently used
// sessions go when the budget is exceeded, idle ones expire, and the byte
// accounting is the encoded size.
func TestMemorySessionsBounded(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := NewMemoryWithLimits(10_000, time.Hour)
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

// The budget bounds memory, not just state bytes: a flood of sessions
// with tiny state (or long ids) must not hold more than the budget,
// although each one's JSON is a few dozen bytes. Measured on the heap,
// with everything else the test allocates collected first.
func TestMemorySessionsBudgetBoundsMemory(t *testing.T) {
	const budget = 4 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := NewMemoryWithLimits(budget, time.Hour)
	for i := 0; i < 200_000; i++ {
		id := "session-" + strconv.Itoa(i)
		if err := s.Update(id, func(ss *Session) error {
			ss.State = map[string]any{"n": 1}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("200 000 tiny sessions, budget %d KiB: %d kept, %d KiB counted, %d KiB on the heap",
		budget>>10, s.Len(), s.Bytes()>>10, held>>10)
	if s.Bytes() > budget {
		t.Errorf("counted %d bytes, over the budget %d", s.Bytes(), budget)
	}
	// The budget plus a quarter for what the estimate of the per-session
	// overhead misses (map growth).
	if held > budget+budget/4 {
		t.Errorf("the sessions hold %d KiB of heap, budget %d KiB", held>>10, budget>>10)
	}
	runtime.KeepAlive(s)
}

// A session left with nothing in it is not kept: it is the same as a new
// one, and a host sending a new session id with every event must not fill
// the store with empty records.
func TestMemorySessionsEmptySessionNotKept(t *testing.T) {
	s := NewMemory()
	if err := s.Update("a", func(ss *Session) error { ss.State = map[string]any{"k": "v"}; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.Update("a", func(ss *Session) error { delete(ss.State, "k"); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.Update("b", func(ss *Session) error { ss.StopBlocks = 0; return nil }); err != nil {
		t.Fatal(err)
	}
	if s.Len() != 0 || s.Bytes() != 0 {
		t.Fatalf("empty sessions kept: len %d bytes %d", s.Len(), s.Bytes())
	}
}

// Sessions are kept encoded and decoded on every Load: a caller changing
// what it loaded changes nothing in the store.
func TestMemorySessionsLoadIsACopy(t *testing.T) {
	s := NewMemory()
	if err := s.Update("a", func(ss *Session) error {
		ss.State = map[string]any{"list": []any{"x"}, "k": "v"}
		ss.StopBlocks = 3
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Load("a")
	got.State["k"] = "changed"
	got.State["list"].([]any)[0] = "changed"
	again, _ := s.Load("a")
	if again.State["k"] != "v" || again.State["list"].([]any)[0] != "x" || again.StopBlocks != 3 {
		t.Fatalf("the store changed with the caller's copy: %v", again)
	}
}

// Idle sessions are dropped by the periodic sweep even if nobody asks for
// them again, and the bytes they counted are released.
func TestMemorySessionsIdleSweep(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := NewMemoryWithLimits(1<<20, time.Minute)
	s.now = func() time.Time { return now }
	put := func(id string) {
		t.Helper()
		if err := s.Update(id, func(ss *Session) error { ss.State = map[string]any{"v": id}; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 100; i++ {
		put("old-" + strconv.Itoa(i))
	}
	now = now.Add(2 * time.Minute)
	for i := 0; i < sweepEvery; i++ {
		put("active")
	}
	if s.Len() != 1 || s.Evicted() != 100 {
		t.Fatalf("after a sweep: len %d evicted %d, want 1 and 100", s.Len(), s.Evicted())
	}
	got, _ := s.Load("active")
	if want := len(encodeSession("active", got)) + len("active") + sessionOverhead; s.Bytes() != want {
		t.Fatalf("bytes %d, want %d (one session)", s.Bytes(), want)
	}
}

// Concurrent updates of many sessions keep the accounting exact and within
// the budget (run with -race).
func TestMemorySessionsConcurrent(t *testing.T) {
	const budget = 256 << 10
	s := NewMemoryWithLimits(budget, time.Hour)
	blob := strings.Repeat("y", 1000)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				id := "s-" + strconv.Itoa((w*500+i)%700)
				_ = s.Update(id, func(ss *Session) error {
					ss.State = ApplyPatch(ss.State, map[string]any{strconv.Itoa(i % 5): blob})
					return nil
				})
				_, _ = s.Load(id)
			}
		}()
	}
	wg.Wait()
	sum := 0
	s.mu.Lock()
	for el := s.lru.Front(); el != nil; el = el.Next() {
		sum += el.Value.(*memSession).cost()
	}
	s.mu.Unlock()
	if sum != s.Bytes() || s.Bytes() > budget || s.Len() != len(s.m) {
		t.Fatalf("accounting: counted %d, actual %d, budget %d, len %d, map %d", s.Bytes(), sum, budget, s.Len(), len(s.m))
	}
}

// Both stores keep each of the two stop counts on its own: a session that
// holds nothing else but a subagent's count is not forgotten as empty.
func TestStoresKeepBothStopCounts(t *testing.T) {
	for name, s := range map[string]Store{"memory": NewMemory(), "files": &Files{Dir: t.TempDir()}} {
		if err := s.Update("a", func(ss *Session) error { ss.SubagentStopBlocks = 5; return nil }); err != nil {
			t.Fatal(err)
		}
		if err := s.Update("b", func(ss *Session) error { ss.StopBlocks, ss.SubagentStopBlocks = 2, 7; return nil }); err != nil {
			t.Fatal(err)
		}
		a, _ := s.Load("a")
		b, _ := s.Load("b")
		if a.SubagentStopBlocks != 5 || a.StopBlocks != 0 || b.StopBlocks != 2 || b.SubagentStopBlocks != 7 {
			t.Fatalf("%s: a=%+v b=%+v", name, a, b)
		}
	}
}
