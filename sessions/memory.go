package sessions

import (
	"container/list"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of NewMemory' bounds.
const (
	// DefaultSessionBudget bounds the memory all in-memory sessions hold
	// together (see Memory for what is counted): a thousand
	// sessions at the largest state allowed (MaxStateBytes), or hundreds
	// of thousands of small ones.
	DefaultSessionBudget = 64 << 20
	// DefaultSessionIdle is how long an unused session is kept: longer
	// than an agent normally pauses between two events of one session.
	DefaultSessionIdle = time.Hour
)

// sessionOverhead is what one session costs beside its encoded bytes and
// its id: the map entry, the list element and the record (about 150 bytes
// on 64-bit platforms, rounded up). Counting it keeps the budget a bound on
// memory even for a flood of sessions with tiny or no state.
const sessionOverhead = 192

// sweepEvery is how many updates pass between two sweeps of idle sessions.
const sweepEvery = 256

// Memory keeps sessions in memory (hermes-hooks serve, Go hosts),
// bounded in total. Each session is kept encoded — its compact JSON, as
// Files writes it — and decoded on every Load, so what the budget
// counts is what it holds: the encoded bytes, the session id and a fixed
// per-session overhead. When an update takes the total over the budget,
// the least recently used sessions (Load and Update both count as a use)
// are evicted until it fits; the session being updated is never evicted,
// so the budget is exceeded only by a single session larger than it. A
// session unused for the idle time is dropped when it is next touched, and
// by a sweep every few hundred updates; there is no background goroutine,
// so nothing needs closing.
//
// An evicted or expired session is gone, exactly as if it had ended: its
// next firing sees an empty state, its count of consecutive stop-hook
// blocks starts again from zero (so a stop hook may keep the agent going
// up to the dispatcher's stopBlockCap more times), its once-per-session hooks run again,
// and async replies still waiting for it are lost. A session with nothing
// in it is not kept at all (it is indistinguishable from a new one). Safe
// for concurrent use.
type Memory struct {
	mu     sync.Mutex
	m      map[string]*list.Element // id → *memSession in lru
	lru    *list.List               // front: most recently used
	bytes  int
	budget int
	idle   time.Duration
	now    func() time.Time
	ops    int
	// evicted counts sessions dropped for the budget or for idleness.
	evicted atomic.Int64
}

type memSession struct {
	id   string
	data []byte
	used time.Time
}

// cost is what a session counts against the budget.
func (ms *memSession) cost() int { return cap(ms.data) + len(ms.id) + sessionOverhead }

// NewMemory returns an empty in-memory store with the default
// bounds (DefaultSessionBudget, DefaultSessionIdle).
func NewMemory() *Memory {
	return NewMemoryWithLimits(DefaultSessionBudget, DefaultSessionIdle)
}

// NewMemoryWithLimits returns an empty in-memory store holding at
// most maxBytes (see Memory for what is counted) and dropping
// sessions unused for idle (<= 0: the defaults).
func NewMemoryWithLimits(maxBytes int, idle time.Duration) *Memory {
	if maxBytes <= 0 {
		maxBytes = DefaultSessionBudget
	}
	if idle <= 0 {
		idle = DefaultSessionIdle
	}
	return &Memory{m: map[string]*list.Element{}, lru: list.New(), budget: maxBytes, idle: idle, now: time.Now}
}

// Len is the number of sessions held.
func (s *Memory) Len() int { s.mu.Lock(); defer s.mu.Unlock(); return s.lru.Len() }

// Bytes is what the sessions held count against the budget.
func (s *Memory) Bytes() int { s.mu.Lock(); defer s.mu.Unlock(); return s.bytes }

// Evicted is how many sessions were dropped so far, for the budget or for
// idleness (not those cleared or emptied).
func (s *Memory) Evicted() int64 { return s.evicted.Load() }

// get returns the live element of id (dropping it when idle), or nil.
func (s *Memory) get(id string, now time.Time) *list.Element {
	el, ok := s.m[id]
	if !ok {
		return nil
	}
	if now.Sub(el.Value.(*memSession).used) > s.idle {
		s.remove(el)
		s.evicted.Add(1)
		return nil
	}
	return el
}

func (s *Memory) remove(el *list.Element) {
	ms := el.Value.(*memSession)
	s.bytes -= ms.cost()
	delete(s.m, ms.id)
	s.lru.Remove(el)
}

// Load returns the session, decoded afresh: the caller owns it.
func (s *Memory) Load(id string) (Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	el := s.get(id, now)
	if el == nil {
		return Session{}, nil
	}
	ms := el.Value.(*memSession)
	ms.used = now
	s.lru.MoveToFront(el)
	return decodeSession(ms.data), nil
}

// Update changes the session under the store's lock.
func (s *Memory) Update(id string, change func(*Session) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	defer s.sweep(now)
	var sess Session
	el := s.get(id, now)
	if el != nil {
		sess = decodeSession(el.Value.(*memSession).data)
	}
	if err := change(&sess); err != nil {
		return err
	}
	if err := checkSize(&sess); err != nil {
		return err
	}
	if sess.empty() {
		// Nothing to remember: an empty session is a new one.
		if el != nil {
			s.remove(el)
		}
		return nil
	}
	// An exact copy: the encoder's buffer grew by appending and may be a
	// quarter larger than its content, which the budget would not see.
	enc := encodeSession(id, sess)
	data := append(make([]byte, 0, len(enc)), enc...)
	if el != nil {
		ms := el.Value.(*memSession)
		s.bytes -= ms.cost()
		ms.data, ms.used = data, now
		s.bytes += ms.cost()
		s.lru.MoveToFront(el)
	} else {
		// The id is cloned: it may be a slice of a large request body,
		// which it must not keep alive.
		ms := &memSession{id: strings.Clone(id), data: data, used: now}
		el = s.lru.PushFront(ms)
		s.m[ms.id] = el
		s.bytes += ms.cost()
	}
	// Over budget: the least recently used sessions go first (never the
	// one just written).
	for s.bytes > s.budget && s.lru.Back() != el {
		s.remove(s.lru.Back())
		s.evicted.Add(1)
	}
	return nil
}

// sweep drops idle sessions now and then, even if nobody asks for them:
// those at the back of the list, unused the longest. Called with s.mu held.
func (s *Memory) sweep(now time.Time) {
	if s.ops++; s.ops%sweepEvery != 0 {
		return
	}
	for back := s.lru.Back(); back != nil && now.Sub(back.Value.(*memSession).used) > s.idle; back = s.lru.Back() {
		s.remove(back)
		s.evicted.Add(1)
	}
}

// Clear forgets the session.
func (s *Memory) Clear(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.m[id]; ok {
		s.remove(el)
	}
	return nil
}
