package hookproc

import "testing"

func TestWithRequestID(t *testing.T) {
	for _, c := range []struct {
		payload string
		spaced  bool
		want    string
	}{
		{`{"hook_event_name": "pre_tool_call"}`, true, `{"hook_event_name": "pre_tool_call", "hermes_hooks_request_id": 7}` + "\n"},
		{`{"hook_event_name":"PreToolUse"}` + "\n", false, `{"hook_event_name":"PreToolUse","hermes_hooks_request_id":7}` + "\n"},
		{`{}`, true, `{"hermes_hooks_request_id": 7}` + "\n"},
		{`{ }`, false, `{ "hermes_hooks_request_id":7}` + "\n"},
		// A host field of our key's name goes: ours is the only one.
		{`{"tool_name":"Bash","hermes_hooks_request_id":999}`, false, `{"tool_name":"Bash","hermes_hooks_request_id":7}` + "\n"},
		{`{"hermes_hooks_request_id": 999, "a": 1}`, true, `{"a": 1, "hermes_hooks_request_id": 7}` + "\n"},
		{`{"hermes_hooks_request_id":999}`, false, `{"hermes_hooks_request_id":7}` + "\n"},
		{`{"hermes_hooks\u005frequest_id":999,"a":1}`, false, `{"a":1,"hermes_hooks_request_id":7}` + "\n"},
		// Nested, it is the host's own business.
		{`{"extra":{"hermes_hooks_request_id":999}}`, false, `{"extra":{"hermes_hooks_request_id":999},"hermes_hooks_request_id":7}` + "\n"},
		{`[1]`, true, ""},
		{``, true, ""},
	} {
		got, ok := WithRequestID([]byte(c.payload), 7, c.spaced)
		if string(got) != c.want || ok != (c.want != "") {
			t.Errorf("WithRequestID(%q) = %q, %v; want %q", c.payload, got, ok, c.want)
		}
	}
}

func TestWithoutMember(t *testing.T) {
	const k = WorkerRequestID
	for _, c := range []struct{ in, want string }{
		{`{"action": "block", "hermes_hooks_request_id": 7}` + "\n", `{"action": "block"}` + "\n"},
		{`{"hermes_hooks_request_id":7,"action":"block"}`, `{"action":"block"}`},
		{`{"a":1, "hermes_hooks_request_id":7 ,"b":[1,{"hermes_hooks_request_id":2}]}`, `{"a":1 ,"b":[1,{"hermes_hooks_request_id":2}]}`},
		{` { "hermes_hooks_request_id" : 7 } `, ` {  } `},
		{`{"hermes_hooks_request_id":1,"hermes_hooks_request_id":2}`, `{}`},
		{`{}`, `{}`},
		{`{"s":"}\"hermes_hooks_request_id\": 1","n":-1.5e3}`, `{"s":"}\"hermes_hooks_request_id\": 1","n":-1.5e3}`},
		{`{"a":1`, ""},
		{`[1]`, ""},
	} {
		got, ok := WithoutMember([]byte(c.in), k)
		if string(got) != c.want || ok != (c.want != "") {
			t.Errorf("WithoutMember(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}
