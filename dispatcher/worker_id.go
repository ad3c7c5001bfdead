//go:build unix

package dispatcher

import (
	"math/rand/v2"
	"strconv"

	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// Worker request ids are framed by internal/hookproc (WithRequestID,
// WithoutMember: see hookproc.WorkerRequestID for why they exist); what
// is here is reading a reply as a hook's output.

// newRequestID is a worker request's id: unpredictable, so that a worker
// cannot write the reply to a request it has not seen yet (a sequence let
// a hostile worker answer request n+1 ahead, and a reply written before
// the request arrived was taken for its answer). Below 2^53, so that a
// worker reading JSON numbers as doubles (JavaScript) echoes it exactly;
// never 0. math/rand/v2's generator is ChaCha8, seeded by the runtime.
func newRequestID() uint64 { return rand.Uint64N(1<<53-1) + 1 }

// decodeWorkerReply reads one reply line to request id: a JSON object
// carrying the id (hookproc.WorkerRequestID) is, without it, what a one-shot hook
// would have printed with exit 0, unless it is the envelope of an exit
// status ({"exit": N, …}). Anything else — another id or none included —
// is a broken worker.
func decodeWorkerReply(line []byte, id uint64) (hookproc.Result, string) {
	const notObject = "printed a line that is not a JSON object"
	// An envelope naming "exit" (or the id) twice is no envelope.
	v, err := pyjson.DecodeUnique(line)
	obj, ok := v.(map[string]any)
	if err != nil || !ok {
		return hookproc.Result{}, notObject
	}
	got, has := obj[hookproc.WorkerRequestID]
	if !has {
		return hookproc.Result{}, "replied without the request's id (" + hookproc.WorkerRequestID + ")"
	}
	if n, ok := jsonInt(got); !ok || n < 0 || uint64(n) != id {
		return hookproc.Result{}, "replied to another request (" + hookproc.WorkerRequestID + " " +
			textutil.Truncate(string(pyjson.Encode(got, pyjson.Compact)), 40) + ", expected " + strconv.FormatUint(id, 10) + ")"
	}
	code, isEnv := obj["exit"]
	if !isEnv {
		stripped, ok := hookproc.WithoutMember(line, hookproc.WorkerRequestID)
		if !ok {
			return hookproc.Result{}, notObject
		}
		return hookproc.Result{Exited: true, Stdout: stripped}, ""
	}
	n, ok := jsonInt(code)
	if !ok {
		return hookproc.Result{}, `sent an "exit" that is not an integer`
	}
	res := hookproc.Result{Exited: true, ExitCode: n}
	if s, ok := obj["stdout"].(string); ok {
		res.Stdout = []byte(s)
	}
	if s, ok := obj["stderr"].(string); ok {
		res.Stderr = []byte(s)
	}
	return res, ""
}

func jsonInt(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		if n == float64(int(n)) {
			return int(n), true
		}
	case interface{ String() string }: // json.Number
		i, err := strconv.Atoi(n.String())
		return i, err == nil
	}
	return 0, false
}
