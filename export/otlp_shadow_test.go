package export

import (
	"testing"
	"time"

	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	"google.golang.org/protobuf/proto"
)

// A firing in which a rule in mode: shadow would have blocked: decided
// none, its verdict in the hook's "would".
const shadowLine = `{"seq":9,"prev":"ef56","time":"2026-12-02T09:45:38Z","version":"1.2.3","event":"pre_tool_call","tool":"terminal","decision":"none","stop":false,"payload_sha256":"01","elapsed_ms":1,"hooks":[{"command":"audit.sh","ran":true,"timed_out":false,"decision":"none"},{"command":"rule: push","ran":true,"timed_out":false,"decision":"none","rule":"team/no-force-push","shadow":true,"would":"block: no force pushes"}]}`

// TestOTLPShadowWould: an exported record says what each hook in mode:
// shadow would have decided (hermes_hooks.hooks.would, one per hook, as
// the lists beside it), so that a dashboard can watch a rule tried in
// shadow mode, as docs/journal.md has log watch it: the record said
// "none" and nothing of the block it would have given.
func TestOTLPShadowWould(t *testing.T) {
	observed := time.Unix(1800000000, 5)
	items := []item{newItem([]byte(shadowLine)), newItem([]byte(blockLine))}
	var ld logspb.LogsData
	if err := proto.Unmarshal(encodeProtobuf(testRes, items, observed), &ld); err != nil {
		t.Fatal(err)
	}
	recs := ld.ResourceLogs[0].ScopeLogs[0].LogRecords
	attrs := func(lr *logspb.LogRecord) map[string]string {
		m := map[string]string{}
		for _, kv := range lr.Attributes {
			m[kv.Key] = flat(kv.Value)
		}
		return m
	}
	got := attrs(recs[0])
	if w, ok := got["hermes_hooks.hooks.would"]; !ok || w != ",block: no force pushes" {
		t.Errorf("shadow record: hermes_hooks.hooks.would = %q (present %v), want %q", w, ok, ",block: no force pushes")
	}
	if got["hermes_hooks.hooks.command"] != "audit.sh,rule: push" {
		t.Errorf("hooks.command = %q", got["hermes_hooks.hooks.command"])
	}
	if w, ok := attrs(recs[1])["hermes_hooks.hooks.would"]; ok {
		t.Errorf("a record without a shadow hook carries hermes_hooks.hooks.would = %q", w)
	}
}
