package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
)

// The opa_*.txtar scripts' stand-in for an OPA server (make e2e runs the
// real one): hh-fakeopa URLFILE POSTLOG.
func init() { scriptPrograms["hh-fakeopa"] = fakeOPAMain }

// fakeOPAToken is the bearer token hh-fakeopa wants under /v1/data/authz/.
const fakeOPAToken = "s3cr3t-opa-token"

// fakeOPAMain listens on a loopback port, writes its base URL to URLFILE
// (whole, by a rename, so that await-file never sees half of it) and
// appends every request it gets to POSTLOG ("POST /path body"): a script
// tells from that file whether anything was posted at all. It answers as a
// policy of OPA's data API would: rm -rf is blocked, a force-push asks,
// anything else is undefined ({}), as OPA answers a path no policy is at.
// Under /v1/data/slow it never answers; under /v1/data/broken it answers
// 500; under /v1/data/deny_all it blocks everything; under
// /v1/data/hermes/empty it answers as a package that exists and decides
// nothing ({"result": {}}); under /v1/data/hostile, raw escape sequences
// and 100 KB (no JSON), under /v1/data/large a JSON answer of 100 KB; and /v1/data/hermes is the package above
// /v1/data/hermes/pre_tool_call, whose document it answers as a member.
// Under /v1/data/authz/ it answers as an OPA started with
// --authentication=token whose system.authz wants fakeOPAToken: 401
// without it. Every Authorization and X-* header it gets is logged too
// ("HEADER /path Name: value"), after its post's line.
func fakeOPAMain() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: hh-fakeopa URLFILE POSTLOG")
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tmp := os.Args[1] + ".tmp"
	if err := os.WriteFile(tmp, []byte("http://"+ln.Addr().String()), 0o644); err != nil || os.Rename(tmp, os.Args[1]) != nil {
		fmt.Fprintln(os.Stderr, "cannot write", os.Args[1], err)
		os.Exit(1)
	}
	var mu sync.Mutex
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		mu.Lock()
		if f, err := os.OpenFile(os.Args[2], os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "%s %s %s\n", r.Method, r.URL.Path, body)
			for _, name := range slices.Sorted(maps.Keys(r.Header)) {
				if name == "Authorization" || strings.HasPrefix(name, "X-") {
					fmt.Fprintf(f, "HEADER %s %s: %s\n", r.URL.Path, name, strings.Join(r.Header[name], ", "))
				}
			}
			f.Close()
		}
		mu.Unlock()
		var ok bool
		if r.URL.Path, ok = strings.CutPrefix(r.URL.Path, "/v1/data/authz"); ok {
			if r.Header.Get("Authorization") != "Bearer "+fakeOPAToken {
				// OPA's own answer when system.authz denies.
				w.WriteHeader(http.StatusUnauthorized)
				io.WriteString(w, `{"code":"unauthorized","message":"request rejected by administrative policy"}`)
				return
			}
			r.URL.Path = "/v1/data" + r.URL.Path
		}
		switch r.URL.Path {
		case "/v1/data/slow":
			<-r.Context().Done()
			return
		case "/v1/data/deny_all":
			io.WriteString(w, `{"result":{"decision":"block","message":"policy: nothing runs"}}`)
			return
		case "/v1/data/hermes/empty":
			io.WriteString(w, `{"result":{}}`)
			return
		case "/v1/data/hostile":
			// A terminal's escape sequences (a title set, a bell) raw in
			// the body, then 100 KB: what test and doctor show of an
			// answer must be escaped and cut.
			io.WriteString(w, "{\"result\":{},\"x\":\"\x1b]0;pwned\x07\x1b[2J"+strings.Repeat("A", 100<<10)+"\"}")
			return
		case "/v1/data/large":
			io.WriteString(w, `{"result":{},"x":"`+strings.Repeat("B", 100<<10)+`"}`)
			return
		case "/v1/data/broken":
			http.Error(w, `{"code":"internal_error","message":"eval_conflict_error: complete rules must not produce multiple outputs"}`, http.StatusInternalServerError)
			return
		}
		var post struct {
			Input struct {
				ToolInput struct {
					Command string `json:"command"`
				} `json:"tool_input"`
			} `json:"input"`
		}
		_ = json.Unmarshal(body, &post)
		doc := ""
		switch cmd := post.Input.ToolInput.Command; {
		case strings.Contains(cmd, "rm -rf"):
			doc = `{"decision":"block","message":"policy: rm -rf is not allowed"}`
		case strings.Contains(cmd, "git push --force"):
			doc = `{"decision":"ask","message":"policy: force-push needs a human"}`
		}
		switch {
		case r.URL.Path == "/v1/data/hermes":
			io.WriteString(w, `{"result":{"pre_tool_call":`+cmp.Or(doc, "{}")+`}}`)
		case doc != "":
			io.WriteString(w, `{"result":`+doc+`}`)
		default:
			io.WriteString(w, `{}`)
		}
	}))
}
