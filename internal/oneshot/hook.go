package oneshot

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// HookOptions are hook's own flags.
type HookOptions struct {
	Server   string // forward to this serve ("": the default socket when it answers)
	NoServer bool   // always dispatch in this process
}

// Hook is `hermes-hooks hook AGENT [EVENT]`: the agent's payload on
// stdin, the reply in the agent's protocol (exit code, stdout, stderr).
func (a *App) Hook(agentName, eventArg string, o HookOptions) error {
	agent, ok := agents.Lookup(agentName)
	if !ok {
		// Exit 1, not 2: for Claude Code, exit 2 would block the tool
		// call because of our own misconfiguration.
		return &ExitError{Code: 1, Msg: fmt.Sprintf("unknown agent %q (known: %s)", agentName, strings.Join(agents.Names(), ", "))}
	}
	data, err := io.ReadAll(io.LimitReader(a.In, MaxEventBytes+1))
	if err == nil && len(data) > MaxEventBytes {
		err = fmt.Errorf("more than %d MiB", MaxEventBytes>>20)
	}
	var call *agents.Call
	if err == nil {
		call, err = agent.Decode(data, eventArg)
	} else {
		call, _ = agent.Decode(nil, eventArg) // the event of the command line, if any
	}
	if err != nil {
		return a.hookUnreadable(agent, call, data, err)
	}
	if call.Event == nil {
		return nil // not an event hermes-hooks serves for this agent
	}
	outcome, err := a.hookDispatch(agent, call, o, data)
	if nf := (*NeedsFull)(nil); errors.As(err, &nf) {
		return err
	}
	if err != nil {
		if call.Event.Gating() {
			// The guards of this call never answered (a signal, an
			// allowlist that cannot be opened …): refused, not allowed.
			a.Warn(classifyMsg(err))
			return writeReply(a, agent.Deny(call, "hermes-hooks: "+classifyMsg(err)+"; this tool call is refused rather than let through unchecked"))
		}
		if se := (*SignalError)(nil); errors.As(err, &se) {
			return err // no answer, and a non-zero exit that says why
		}
		a.Warn(classifyMsg(err))
		return nil
	}
	return writeReply(a, agent.Encode(call, &outcome))
}

// hookUnreadable answers a payload that cannot be read: a warning and
// nothing else, unless a fail_closed guard protects the event, which is
// then refused (the guard cannot be asked, so it must not be bypassed).
func (a *App) hookUnreadable(agent *agents.Agent, call *agents.Call, stdin []byte, readErr error) error {
	msg := agent.Title + " hook payload unreadable: " + readErr.Error()
	if call.Event != nil && call.Event.Gating() {
		cfg, err := a.load(Cwd())
		if errors.Is(err, dispatcher.ErrNoEngine) {
			// Whether a fail_closed guard protects the event is in a
			// config only the complete program can read now: it answers,
			// or, when it cannot be started, the event is refused.
			if !a.noHandOver {
				return &NeedsFull{Stdin: stdin, Why: "a config not parsed before"}
			}
			a.Warn(msg)
			return writeReply(a, agent.Deny(call, unreadableConfigRefusal))
		}
		if err != nil {
			// Neither the payload nor the config can be read: a guard
			// the config holds cannot be asked.
			a.Warn(msg)
			a.Warn(classifyMsg(err))
			return writeReply(a, agent.Deny(call, dispatcher.Refusal(err)))
		}
		if err == nil {
			a.warnAll(cfg)
			for _, e := range cfg.Entries {
				if e.Event == call.Event && e.FailClosed && e.RunBy != agent.Name {
					return writeReply(a, agent.Deny(call, "hermes-hooks: "+msg+"; the fail_closed guard "+e.Command+" cannot check it, so this is refused"))
				}
			}
		}
	}
	a.Warn(msg)
	return nil
}

// hookDispatch runs the call's hooks: through a live server when there is
// one, else in this process.
func (a *App) hookDispatch(agent *agents.Agent, call *agents.Call, o HookOptions, stdin []byte) (protocol.Outcome, error) {
	wd := Cwd()
	project := wd
	if c, ok := call.Fields["cwd"].(string); ok && c != "" {
		project = c
	}
	if !o.NoServer && !a.triedServer {
		if target, explicit := a.hookServer(o.Server); target != "" {
			a.triedServer = true
			config, _ := a.Config()
			q := url.Values{"called_by": {agent.Name}, "project": {project}, "config": {config}}
			out, err := forward(target, q, call)
			if err == nil {
				return out, nil
			}
			if explicit {
				a.Warn("server " + target + ": " + err.Error() + "; dispatching here instead")
			}
		}
	}
	cfg, err := a.loadToRun(project, call.Event, call.Fields, stdin, agent.Name)
	if refused, ok := a.refusal(call.Event, err); ok {
		return refused, nil
	}
	if err != nil {
		return protocol.Outcome{}, err
	}
	return a.dispatchOnce(cfg, wd, call.Event.Name, call.Fields, false, agent.Name)
}

// hookServer is the server to forward to: --server, else the default
// socket when it exists. explicit says the user asked for it.
func (a *App) hookServer(flag string) (target string, explicit bool) {
	if flag != "" {
		return flag, true
	}
	home, err := a.Home()
	if err != nil {
		return "", false
	}
	sock := filepath.Join(home, "hermes-hooks.sock")
	if fi, err := os.Stat(sock); err != nil || fi.Mode()&os.ModeSocket == 0 {
		return "", false
	}
	return "unix://" + sock, false
}

// forward posts the call to a serve at target and reads its outcome. The
// query names the caller, the project and the config: a server that serves
// another project or config refuses (409), and the caller dispatches by
// itself rather than with the wrong hooks.
//
// It speaks only the HTTP/1.1 our server answers — one POST with a
// Content-Length, Connection: close, a reply with a Content-Length or
// ending at EOF — over package net, not net/http: net/http brings its TLS
// stack, whose initialisation every start of this binary would pay (see
// Front). Anything else in the reply (chunked encoding, a short body) is an
// error, and the caller then dispatches by itself.
func forward(target string, q url.Values, call *agents.Call) (protocol.Outcome, error) {
	var o protocol.Outcome
	u, err := url.Parse(target)
	if err != nil {
		return o, err
	}
	network, addr, host, dialTimeout := "", "", "hermes-hooks", 200*time.Millisecond
	switch u.Scheme {
	case "unix":
		network, addr = "unix", u.Path
	case "tcp", "http":
		network, addr, host, dialTimeout = "tcp", u.Host, u.Host, 2*time.Second
	default:
		return o, fmt.Errorf("unsupported server address %q (use unix:///path or tcp://127.0.0.1:PORT)", target)
	}
	conn, err := net.DialTimeout(network, addr, dialTimeout)
	if err != nil {
		return o, err
	}
	defer conn.Close()
	// The server bounds each dispatch itself (its request timeout); this
	// only keeps a wedged server from holding the agent for ever.
	_ = conn.SetDeadline(time.Now().Add(15 * time.Minute))
	body := protocol.EncodeJSON(call.Fields, protocol.Compact)
	w := bufio.NewWriter(conn)
	fmt.Fprintf(w, "POST /v1/dispatch/%s?%s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n",
		url.PathEscape(call.Event.Name), q.Encode(), host, len(body))
	w.Write(body)
	if err := w.Flush(); err != nil {
		return o, err
	}
	status, data, err := readResponse(conn, 64<<20)
	if err != nil {
		return o, err
	}
	if status != 200 {
		return o, fmt.Errorf("HTTP %d: %s", status, strings.TrimSpace(string(data)))
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return o, errors.New("unreadable outcome: " + err.Error())
	}
	return o, nil
}

// maxReplyHeader bounds the status line and headers of a server's reply.
const maxReplyHeader = 1 << 20

// readResponse reads an HTTP/1.x response to a request sent with
// Connection: close: the status, and the body by its Content-Length or, without
// one, up to EOF; at most maxReplyHeader bytes of header and limit of body.
func readResponse(conn io.Reader, limit int64) (status int, body []byte, err error) {
	lr := &io.LimitedReader{R: conn, N: maxReplyHeader}
	r := bufio.NewReader(lr)
	tp := textproto.NewReader(r)
	line, err := tp.ReadLine()
	if err != nil {
		return 0, nil, fmt.Errorf("no reply: %w", err)
	}
	proto, rest, _ := strings.Cut(line, " ")
	code, _, _ := strings.Cut(rest, " ")
	status, err = strconv.Atoi(code)
	if !strings.HasPrefix(proto, "HTTP/1.") || err != nil || status < 100 || status > 999 {
		return 0, nil, fmt.Errorf("not an HTTP reply: %q", line)
	}
	header, err := tp.ReadMIMEHeader()
	if err != nil {
		return 0, nil, fmt.Errorf("reply header: %w", err)
	}
	lr.N += limit // the body; r may hold its first bytes already
	if te := header.Get("Transfer-Encoding"); te != "" {
		return 0, nil, fmt.Errorf("unexpected Transfer-Encoding %q in the reply", te)
	}
	in := io.LimitReader(r, limit)
	if cl := header.Get("Content-Length"); cl != "" {
		n, err := strconv.ParseInt(cl, 10, 64)
		if err != nil || n < 0 || n > limit {
			return 0, nil, fmt.Errorf("bad Content-Length %q in the reply", cl)
		}
		body = make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return 0, nil, fmt.Errorf("reply body: %w", err)
		}
		return status, body, nil
	}
	body, err = io.ReadAll(in)
	return status, body, err
}

func writeReply(a *App, r agents.Reply) error {
	if len(r.Stdout) > 0 {
		if _, err := a.Out.Write(r.Stdout); err != nil {
			return &ExitError{Code: 1, Msg: "write reply: " + err.Error()}
		}
	}
	if len(r.Stderr) > 0 {
		_, _ = a.Err.Write(r.Stderr)
	}
	if r.Exit != 0 {
		return &ExitError{Code: r.Exit}
	}
	return nil
}
