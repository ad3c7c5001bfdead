package agents

import "testing"

// Every agent's (and host's) sample of every event it serves decodes back
// to that event (and caller), a tool event's to a named tool, and a tool
// the caller names to that very name: the fail-closed
// matrix fires these, so a sample that decodes to nothing would make its
// rows vacuous. A new agent whose payload is not Claude Code's shape fails
// here until it has its sampler.
func TestSampleRoundTrip(t *testing.T) {
	const unknown = "sample_unknown_tool"
	for _, a := range All() {
		for _, host := range append([]string{""}, a.HostNames()...) {
			for _, name := range a.AgentEvents() {
				ev := a.event(name)
				payload, ok := a.Sample(host, name, "")
				if !ok {
					t.Errorf("%s/%s %s: no sample", a.Name, host, name)
					continue
				}
				c, err := a.Decode(payload, name)
				if err != nil || c.Event != ev {
					t.Errorf("%s/%s %s: %s decodes to %v, %v; want %s", a.Name, host, name, payload, c.Event, err, ev.Name)
					continue
				}
				if (c.Host == nil) != (host == "") || c.Host != nil && c.Host.Name != host {
					t.Errorf("%s %s: %s is not read as host %q's", a.Name, name, payload, host)
				}
				if !ev.Tool {
					continue
				}
				tool, _ := c.Fields["tool_name"].(string)
				if tool == "" {
					t.Errorf("%s/%s %s: %s names no tool (fields %v)", a.Name, host, name, payload, c.Fields)
				}
				if payload, ok := a.Sample(host, name, unknown); ok {
					c, err := a.Decode(payload, name)
					if err != nil || c.Event != ev || c.Fields["tool_name"] != unknown {
						t.Errorf("%s/%s %s: %s decodes to tool %v (%v); want %s", a.Name, host, name, payload, c.Fields["tool_name"], err, unknown)
					}
				}
			}
		}
	}
}

func TestSampleRefusesWhatItCannotSay(t *testing.T) {
	a, _ := Lookup("claude")
	if _, ok := a.Sample("", "NoSuchEvent", ""); ok {
		t.Error("a sample of an event the agent does not serve")
	}
	if _, ok := a.Sample("nosuchhost", "PreToolUse", ""); ok {
		t.Error("a sample of an unknown host")
	}
	cursor, _ := Lookup("cursor")
	if _, ok := cursor.Sample("", "beforeReadFile", "Shell"); ok {
		t.Error("beforeReadFile's sample named a tool its payload cannot carry")
	}
}
