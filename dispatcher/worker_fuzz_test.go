//go:build unix

package dispatcher

import (
	"reflect"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// FuzzDecodeWorkerReply: any reply line is either a result or a reason
// the worker is broken, never both, never a panic; a result is never had
// without the request's id, and what it keeps of the line is the line
// without the id.
func FuzzDecodeWorkerReply(f *testing.F) {
	for _, s := range []string{`{}`, `{"action":"block"}`, `{"exit":2,"stderr":"no"}`, `{"exit":"2"}`, `{"exit":2.5}`, `not json`, `[1]`, `{"exit":1e400}`,
		`{"hermes_hooks_request_id": 7}`, `{"action": "block", "hermes_hooks_request_id": 7}`, `{"hermes_hooks_request_id":7,"exit":2,"stderr":"no"}`,
		`{"hermes_hooks_request_id": 8}`, `{"hermes_hooks_request_id": "7"}`, `{"hermes_hooks_request_id": 7.0}`, `{"hermes_hooks_request_id": -1}`} {
		f.Add([]byte(s), uint64(7))
	}
	f.Fuzz(func(t *testing.T, line []byte, id uint64) {
		res, bad := decodeWorkerReply(line, id)
		if bad != "" && (res.Exited || res.Stdout != nil) {
			t.Fatalf("broken reply %q also gave a result %+v", line, res)
		}
		if bad == "" && !res.Exited {
			t.Fatalf("reply %q neither broken nor a result", line)
		}
		if bad != "" {
			return
		}
		v, _ := pyjson.Decode(line)
		want := v.(map[string]any)
		if n, ok := jsonInt(want[hookproc.WorkerRequestID]); !ok || n < 0 || uint64(n) != id {
			t.Fatalf("reply %q accepted for request %d", line, id)
		}
		if _, env := want["exit"]; env {
			return
		}
		delete(want, hookproc.WorkerRequestID)
		got, err := pyjson.Decode(res.Stdout)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("reply %q kept as %q (%v)", line, res.Stdout, err)
		}
	})
}

// FuzzWithoutMember: for any JSON object the decoder accepts, the member
// removal scans it and leaves the same object less that key.
func FuzzWithoutMember(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"k": 1, "a": [1, {"k": 2}], "k": "x"}`, `{ "k" : {"}":"{"} }`, `{"a":"\"k\"","b":NaN,"k":-Infinity}`, `{"\u006b":1}`} {
		f.Add([]byte(s), "k")
	}
	f.Fuzz(func(t *testing.T, obj []byte, key string) {
		v, err := pyjson.Decode(obj)
		want, isObj := v.(map[string]any)
		if err != nil || !isObj {
			return
		}
		out, ok := hookproc.WithoutMember(obj, key)
		if !ok {
			t.Fatalf("%q: not scanned as an object", obj)
		}
		delete(want, key)
		got, err := pyjson.Decode(out)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q less %q = %q (%v)", obj, key, out, err)
		}
	})
}
