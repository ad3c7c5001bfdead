// Package sessions keeps what the dispatcher remembers about a session
// between firings: the hooks' shared state, which once-per-session hooks
// ran, the count of consecutive stop-hook blocks, and replies of async
// hooks waiting for the session's next dispatch. Memory keeps sessions in
// memory within a byte budget (serve, Go hosts); Files keeps one file per
// session, shared by the one-shot processes of a session.
//
// Contract: a state is at most MaxStateBytes (a patch that would pass it
// is refused whole, ErrStateTooLarge); updates are serialised per store
// and, for Files, across processes under a bounded, cancellable lock
// (DefaultLockWait); nothing here blocks a dispatch for longer.
package sessions

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// MaxStateBytes bounds one session's state (its JSON form). A patch that
// would make it larger is refused as a whole: the state stays as it was and
// the hook's report says why. 64 KiB is ample for flags and small records
// and keeps every payload that carries the state small.
const MaxStateBytes = 64 << 10

// Session is what the dispatcher remembers about one session between
// firings.
type Session struct {
	// State is the hooks' shared state: every payload of the session
	// carries it, replies patch it.
	State map[string]any `json:"state,omitempty"`
	// StopBlocks counts the agent's consecutive blocked stops, and
	// SubagentStopBlocks its subagents' (see the dispatcher's
	// stopBlockCap). Two counts, so that one guard's cap never restarts
	// the other's run.
	StopBlocks         int `json:"stop_blocks,omitempty"`
	SubagentStopBlocks int `json:"subagent_stop_blocks,omitempty"`
	// Pending are replies of async hooks, for the session's next dispatch.
	Pending []PendingReply `json:"pending,omitempty"`
	// Ran lists the once-per-session hooks (Claude's once) that have run.
	Ran []string `json:"ran,omitempty"`
	// Noticed: the person was told of the repository's unapproved hooks
	// (FirstNotice).
	Noticed bool `json:"noticed,omitempty"`
}

// empty: nothing to remember, the same as a session never seen.
func (s *Session) empty() bool {
	return len(s.State) == 0 && s.StopBlocks == 0 && s.SubagentStopBlocks == 0 && len(s.Pending) == 0 && len(s.Ran) == 0 && !s.Noticed
}

// Store keeps Sessions. Update must be atomic with respect to other
// Updates of the same session, in this process and — for stores shared
// between processes — in others.
type Store interface {
	Load(id string) (Session, error)
	Update(id string, change func(*Session) error) error
	Clear(id string) error
}

// StoreContext is a Store whose writes can give up when ctx
// ends. The dispatcher uses these methods when the store has them: a
// dispatch that is cancelled (SIGTERM, a server shutting down) must not
// wait on a store whose lock someone else holds. Files has them.
type StoreContext interface {
	Store
	UpdateContext(ctx context.Context, id string, change func(*Session) error) error
	ClearContext(ctx context.Context, id string) error
}

// DefaultLockWait bounds how long Files waits for the lock
// of its directory. An update holds it for a read and a write of one small
// file, milliseconds; only a stuck holder (a dispatch stopped with SIGSTOP,
// a hung network file system) makes the wait run out, and the update then
// fails (reported) rather than hold up the dispatch.
const DefaultLockWait = 2 * time.Second

// ErrStateTooLarge refuses a patch that would exceed MaxStateBytes.
var ErrStateTooLarge = errors.New("session state would exceed " + strconv.Itoa(MaxStateBytes>>10) + " KiB")

// ApplyPatch merges a reply's state patch shallowly: keys are set, a null
// deletes its key.
func ApplyPatch(state map[string]any, patch map[string]any) map[string]any {
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
	if len(pyjson.Encode(s.State, pyjson.Compact)) > MaxStateBytes {
		return ErrStateTooLarge
	}
	return nil
}

// Files keeps each session in its own file under a directory
// ($HERMES_HOME/hook-state for one-shot dispatch), so separate dispatch
// processes of one session share it. Files are named by a hash of the
// session id (ids are the host's and may hold any character), written
// atomically with mode 0600, and updated under an exclusive lock on the
// directory's lock file. One lock for all sessions keeps the directory free
// of per-session lock files; updates are short, so contention is not an
// issue, and the wait for the lock is bounded (LockWait) and ends with the
// dispatch's context: a stuck holder costs an update, never a hang.
type Files struct {
	Dir string
	// LockWait bounds the wait for the directory's lock
	// (DefaultLockWait when 0).
	LockWait time.Duration
}

// lock takes the directory's lock, within LockWait and while ctx lasts.
func (s *Files) lock(ctx context.Context) (func(), error) {
	wait := s.LockWait
	if wait <= 0 {
		wait = DefaultLockWait
	}
	unlock, err := fsutil.LockContext(ctx, filepath.Join(s.Dir, ".lock"), wait)
	if err != nil {
		return nil, fmt.Errorf("session state: lock: %w", err)
	}
	return unlock, nil
}

func (s *Files) path(id string) string {
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(s.Dir, hex.EncodeToString(sum[:16])+".json")
}

// Load reads the session; a missing or unreadable file is an empty session
// (state is a convenience, never a reason to fail a dispatch).
func (s *Files) Load(id string) (Session, error) {
	data, err := fsutil.ReadFile(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return Session{}, nil
	}
	if err != nil {
		return Session{}, fmt.Errorf("read session state: %w", err)
	}
	return decodeSession(data), nil
}

func decodeSession(data []byte) Session {
	v, err := pyjson.Decode(data)
	obj, ok := v.(map[string]any)
	if err != nil || !ok {
		return Session{}
	}
	var sess Session
	sess.State, _ = obj["state"].(map[string]any)
	sess.StopBlocks = count(obj["stop_blocks"])
	sess.SubagentStopBlocks = count(obj["subagent_stop_blocks"])
	if list, ok := obj["pending"].([]any); ok {
		for _, item := range list {
			m, _ := item.(map[string]any)
			str := func(k string) string { s, _ := m[k].(string); return s }
			sess.Pending = append(sess.Pending, PendingReply{Event: str("event"), Command: str("command"), Dialect: str("dialect"),
				Source: str("source"), Context: str("context"), SystemMessage: str("system_message"), Note: str("note")})
		}
	}
	sess.Noticed, _ = obj["noticed"].(bool)
	if list, ok := obj["ran"].([]any); ok {
		for _, item := range list {
			if r, ok := item.(string); ok {
				sess.Ran = append(sess.Ran, r)
			}
		}
	}
	return sess
}

// count reads a stored block count; anything but a small positive
// integer (a file edited or damaged) is no count.
func count(v any) int {
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil && i > 0 && i < 1<<20 {
			return int(i)
		}
	}
	return 0
}

// encodeSession is a session's compact JSON, as both stores keep it.
func encodeSession(id string, sess Session) []byte {
	obj := protocol.Object{{Key: "session_id", Value: id}}
	if sess.State != nil {
		obj = append(obj, protocol.KV{Key: "state", Value: sess.State})
	}
	if sess.StopBlocks > 0 {
		obj = append(obj, protocol.KV{Key: "stop_blocks", Value: sess.StopBlocks})
	}
	if sess.SubagentStopBlocks > 0 {
		obj = append(obj, protocol.KV{Key: "subagent_stop_blocks", Value: sess.SubagentStopBlocks})
	}
	if len(sess.Pending) > 0 {
		list := make([]any, 0, len(sess.Pending))
		for _, p := range sess.Pending {
			list = append(list, protocol.Object{
				{Key: "event", Value: p.Event}, {Key: "command", Value: p.Command}, {Key: "dialect", Value: p.Dialect},
				{Key: "source", Value: p.Source}, {Key: "context", Value: p.Context},
				{Key: "system_message", Value: p.SystemMessage}, {Key: "note", Value: p.Note},
			})
		}
		obj = append(obj, protocol.KV{Key: "pending", Value: list})
	}
	if len(sess.Ran) > 0 {
		list := make([]any, len(sess.Ran))
		for i, r := range sess.Ran {
			list[i] = r
		}
		obj = append(obj, protocol.KV{Key: "ran", Value: list})
	}
	if sess.Noticed {
		obj = append(obj, protocol.KV{Key: "noticed", Value: true})
	}
	return pyjson.Encode(obj, pyjson.Compact)
}

// Update locks the session's file, re-reads it, applies change and writes
// the result atomically. The lock is waited for at most LockWait.
func (s *Files) Update(id string, change func(*Session) error) error {
	return s.UpdateContext(context.Background(), id, change)
}

// UpdateContext is Update, giving up the wait for the lock when ctx ends.
func (s *Files) UpdateContext(ctx context.Context, id string, change func(*Session) error) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("session state: %w", err)
	}
	p := s.path(id)
	unlock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	sess, err := s.Load(id)
	if err != nil {
		return err
	}
	before := encodeSession(id, sess)
	if err := change(&sess); err != nil {
		return err
	}
	if err := checkSize(&sess); err != nil {
		return err
	}
	data := append(encodeSession(id, sess), '\n')
	if bytes.Equal(data[:len(data)-1], before) {
		// Nothing changed: no rewrite, no fsync (a missing file and an
		// empty session read the same).
		return nil
	}
	if err := fsutil.WriteAtomic(p, data, 0o600, ".session-*.tmp", nil); err != nil {
		return fmt.Errorf("session state: %w", err)
	}
	return nil
}

// Clear removes the session's file.
func (s *Files) Clear(id string) error {
	return s.ClearContext(context.Background(), id)
}

// ClearContext is Clear, giving up the wait for the lock when ctx ends.
func (s *Files) ClearContext(ctx context.Context, id string) error {
	if _, err := os.Stat(s.Dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	err = os.Remove(s.path(id))
	unlock()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("session state: %w", err)
	}
	return nil
}

// PendingReply is an async hook's reply waiting for its session's next
// dispatch.
type PendingReply struct {
	Event         string `json:"event"`
	Command       string `json:"command"`
	Dialect       string `json:"dialect"`
	Source        string `json:"source,omitempty"`
	Context       string `json:"context,omitempty"`
	SystemMessage string `json:"system_message,omitempty"`
	Note          string `json:"note,omitempty"`
}
