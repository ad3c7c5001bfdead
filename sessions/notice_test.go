package sessions

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// FirstNotice is true once per session, in either store, even for calls
// of one session racing each other, and keeps what else the session holds;
// an id without a session is always first.
func TestFirstNoticeOncePerSession(t *testing.T) {
	for name, s := range map[string]Store{"memory": NewMemory(), "files": &Files{Dir: t.TempDir()}} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			if err := s.Update("a", func(sess *Session) error { sess.Ran = []string{"x"}; return nil }); err != nil {
				t.Fatal(err)
			}
			var firsts atomic.Int32
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					first, err := FirstNotice(ctx, s, "a")
					if err != nil {
						t.Error(err)
					}
					if first {
						firsts.Add(1)
					}
				}()
			}
			wg.Wait()
			if firsts.Load() != 1 {
				t.Fatalf("%d firsts for one session, want 1", firsts.Load())
			}
			if sess, _ := s.Load("a"); !sess.Noticed || len(sess.Ran) != 1 {
				t.Errorf("session a = %+v", sess)
			}
			if first, _ := FirstNotice(ctx, s, "b"); !first {
				t.Error("another session is not first")
			}
			for range 2 {
				if first, _ := FirstNotice(ctx, s, ""); !first {
					t.Error("no session id: not first")
				}
			}
		})
	}
}

// A hostile session id (a path, a huge string, odd bytes) keeps the
// once-state inside the store's directory, in files of a bounded size.
func TestFirstNoticeHostileIDStaysInDir(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "state")
	s := &Files{Dir: dir}
	ids := []string{"../../escape", "/etc/passwd", "..", "a/../../b", "\x00\n\x1b[31m", strings.Repeat("x", 8<<20)}
	for _, id := range ids {
		if first, err := FirstNotice(context.Background(), s, id); err != nil || !first {
			t.Fatalf("%.20q: first %v, %v", id, first, err)
		}
		if first, _ := FirstNotice(context.Background(), s, id); first {
			t.Fatalf("%.20q: first twice", id)
		}
	}
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !fi.IsDir() && filepath.Dir(p) != dir {
			t.Errorf("%s: outside the state directory", p)
		}
		if fi.Size() > 4096 {
			t.Errorf("%s: %d bytes", p, fi.Size())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
