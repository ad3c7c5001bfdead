//go:build unix

package dispatcher

import "testing"

// FuzzDecodeWorkerReply: any reply line is either a result or a reason
// the worker is broken, never both, never a panic.
func FuzzDecodeWorkerReply(f *testing.F) {
	for _, s := range []string{`{}`, `{"action":"block"}`, `{"exit":2,"stderr":"no"}`, `{"exit":"2"}`, `{"exit":2.5}`, `not json`, `[1]`, `{"exit":1e400}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		res, bad := decodeWorkerReply(line)
		if bad != "" && (res.Exited || res.Stdout != nil) {
			t.Fatalf("broken reply %q also gave a result %+v", line, res)
		}
		if bad == "" && !res.Exited {
			t.Fatalf("reply %q neither broken nor a result", line)
		}
	})
}
