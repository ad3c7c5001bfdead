package dispatcher

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// MaxStateBytes bounds one session's state (its JSON form). A patch that
// would make it larger is refused as a whole: the state stays as it was and
// the hook's report says why. 64 KiB is ample for flags and small records
// and keeps every payload that carries the state small.
const MaxStateBytes = 64 << 10

// StopBlockCap is how many times in a row stop hooks (pre_verify,
// subagent_stop) may keep the agent going; after that the agent may stop,
// as Claude Code enforces, so a hook that always says "continue" cannot
// wedge a session.
const StopBlockCap = 8

// Session is what the dispatcher remembers about one session between
// firings.
type Session struct {
	// State is the hooks' shared state: every payload of the session
	// carries it, replies patch it.
	State map[string]any `json:"state,omitempty"`
	// StopBlocks counts consecutive stop-hook blocks (see StopBlockCap).
	StopBlocks int `json:"stop_blocks,omitempty"`
}

// SessionStore keeps Sessions. Update must be atomic with respect to other
// Updates of the same session, in this process and — for stores shared
// between processes — in others.
type SessionStore interface {
	Load(id string) (Session, error)
	Update(id string, change func(*Session) error) error
	Clear(id string) error
}

// ErrStateTooLarge refuses a patch that would exceed MaxStateBytes.
var ErrStateTooLarge = fmt.Errorf("session state would exceed %d KiB", MaxStateBytes>>10)

// applyPatch merges a reply's state patch shallowly: keys are set, a null
// deletes its key.
func applyPatch(state map[string]any, patch map[string]any) map[string]any {
	if state == nil {
		state = map[string]any{}
	}
	for k, v := range patch {
		if v == nil {
			delete(state, k)
			continue
		}
		state[k] = v
	}
	return state
}

func checkSize(s *Session) error {
	if len(protocol.EncodeJSON(s.State, protocol.Compact)) > MaxStateBytes {
		return ErrStateTooLarge
	}
	return nil
}

// MemorySessions keeps sessions in memory (hermes-hooks serve, Go hosts).
type MemorySessions struct {
	mu sync.Mutex
	m  map[string]Session
}

// NewMemorySessions returns an empty in-memory store.
func NewMemorySessions() *MemorySessions { return &MemorySessions{m: map[string]Session{}} }

// Load returns a copy of the session.
func (s *MemorySessions) Load(id string) (Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneSession(s.m[id]), nil
}

// Update changes the session under the store's lock.
func (s *MemorySessions) Update(id string, change func(*Session) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := cloneSession(s.m[id])
	if err := change(&sess); err != nil {
		return err
	}
	if err := checkSize(&sess); err != nil {
		return err
	}
	s.m[id] = sess
	return nil
}

// Clear forgets the session.
func (s *MemorySessions) Clear(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, id)
	return nil
}

func cloneSession(s Session) Session {
	if s.State != nil {
		c := make(map[string]any, len(s.State))
		for k, v := range s.State {
			c[k] = v
		}
		s.State = c
	}
	return s
}

// FileSessions keeps each session in its own file under a directory
// ($HERMES_HOME/hook-state for one-shot dispatch), so separate dispatch
// processes of one session share it. Files are named by a hash of the
// session id (ids are the host's and may hold any character), written
// atomically with mode 0600, and updated under an exclusive lock on the
// directory's lock file. One lock for all sessions keeps the directory free
// of per-session lock files; updates are short, so contention is not an
// issue.
type FileSessions struct {
	Dir string
}

func (s *FileSessions) path(id string) string {
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(s.Dir, hex.EncodeToString(sum[:16])+".json")
}

// Load reads the session; a missing or unreadable file is an empty session
// (state is a convenience, never a reason to fail a dispatch).
func (s *FileSessions) Load(id string) (Session, error) {
	data, err := os.ReadFile(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return Session{}, nil
	}
	if err != nil {
		return Session{}, fmt.Errorf("read session state: %w", err)
	}
	return decodeSession(data), nil
}

func decodeSession(data []byte) Session {
	v, err := protocol.DecodeJSON(data)
	obj, ok := v.(map[string]any)
	if err != nil || !ok {
		return Session{}
	}
	var sess Session
	sess.State, _ = obj["state"].(map[string]any)
	if n, ok := obj["stop_blocks"].(json.Number); ok {
		if i, err := n.Int64(); err == nil && i > 0 && i < 1<<20 {
			sess.StopBlocks = int(i)
		}
	}
	return sess
}

// Update locks the session's file, re-reads it, applies change and writes
// the result atomically.
func (s *FileSessions) Update(id string, change func(*Session) error) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("session state: %w", err)
	}
	p := s.path(id)
	unlock, err := fsutil.Lock(filepath.Join(s.Dir, ".lock"))
	if err != nil {
		return fmt.Errorf("session state: lock: %w", err)
	}
	defer unlock()
	sess, err := s.Load(id)
	if err != nil {
		return err
	}
	if err := change(&sess); err != nil {
		return err
	}
	if err := checkSize(&sess); err != nil {
		return err
	}
	obj := protocol.Object{{Key: "session_id", Value: id}}
	if sess.State != nil {
		obj = append(obj, protocol.KV{Key: "state", Value: sess.State})
	}
	if sess.StopBlocks > 0 {
		obj = append(obj, protocol.KV{Key: "stop_blocks", Value: sess.StopBlocks})
	}
	data := append(protocol.EncodeJSON(obj, protocol.Compact), '\n')
	if err := fsutil.WriteAtomic(p, data, 0o600, ".session-*.tmp", nil); err != nil {
		return fmt.Errorf("session state: %w", err)
	}
	return nil
}

// Clear removes the session's file.
func (s *FileSessions) Clear(id string) error {
	if _, err := os.Stat(s.Dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := fsutil.Lock(filepath.Join(s.Dir, ".lock"))
	if err != nil {
		return fmt.Errorf("session state: lock: %w", err)
	}
	err = os.Remove(s.path(id))
	unlock()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("session state: %w", err)
	}
	return nil
}
