package dispatcher

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// dyingServer answers every request with the raw bytes resp and closes
// the connection: a server that dies part way through its answer.
func dyingServer(t *testing.T, resp string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, req.Body)
				_, _ = io.WriteString(c, resp)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// A fail_closed guard, http or opa, whose server dies after its status
// line (or part way through the body it announced) blocks: the old code
// read what had come as the whole reply, so an http guard's empty 200 —
// and an opa guard's complete-looking prefix — let the call through with
// no error at all.
func TestHTTPAndOPACutReplyFailsClosed(t *testing.T) {
	for name, url := range map[string]string{
		"nothing after the status": dyingServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 300\r\n\r\n"),
		"a complete-looking prefix": dyingServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 300\r\n\r\n"+
			`{"result":{"decision":"allow"}}`),
	} {
		d := settingsDispatcher(t, `{"hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":"`+url+`/hook","onFailure":"block"}]}]}}`, Options{})
		o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal"})
		if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "cut short") {
			t.Errorf("http, %s: %s %q (%+v), want a block saying the reply was cut short", name, o.Decision, o.Message, o.Hooks)
		}
		o = dispatch(t, dispatcherFor(t, opaYAML("pre_tool_call", url+"/v1/data/x", true, "")), "pre_tool_call", lsFields)
		if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "cut short") {
			t.Errorf("opa, %s: %s %q (%+v), want a block saying the reply was cut short", name, o.Decision, o.Message, o.Hooks)
		}
	}
}
