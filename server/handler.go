package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/report"
	"github.com/hermes-hooks/hermes-hooks/sessions"
)

// Handler returns the HTTP API (see the package comment). Serve uses it;
// tests and embedding hosts may mount it elsewhere.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	// Methods are checked in the handlers, not in the patterns, so that a
	// wrong method gets our JSON error rather than the mux's plain text.
	mux.HandleFunc("/v1/dispatch/{event}", s.handleDispatch)
	mux.HandleFunc("/v1/hooks", s.handleHooks)
	mux.HandleFunc("/healthz", s.handleHealth)
	mux.HandleFunc("/v1/stats", s.handleStats)
	mux.HandleFunc("/metrics", s.handleMetrics)
	mux.HandleFunc("/", s.handleNotFound)
	return mux
}

// apiError is every error reply's body.
type apiError struct {
	Error      string   `json:"error"`
	DidYouMean string   `json:"did_you_mean,omitempty"`
	Hint       string   `json:"hint,omitempty"`
	Allowed    []string `json:"allowed,omitempty"`
	Limit      int64    `json:"limit_bytes,omitempty"`
	RetryAfter int      `json:"retry_after_seconds,omitempty"`
}

const fieldsHint = `send one JSON object of event fields, e.g. {"tool_name":"terminal","args":{"command":"ls"}}`

// replyWriteTimeout bounds the writing of a reply: a client that asks and
// never reads (the reply fills the socket's buffers) would otherwise hold
// its connection — and a dispatch its slot — for ever, and --max-conns of
// them shut everyone else out. A reader takes milliseconds.
const replyWriteTimeout = 10 * time.Second

// replyDeadline starts the reply's write bound.
func replyDeadline(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(replyWriteTimeout))
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	replyDeadline(w)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func writeError(w http.ResponseWriter, status int, e apiError) {
	e.Error = textutil.CutBytesSaying(e.Error, maxError)
	writeJSON(w, status, marshal(e))
}

// marshal encodes v on one line, without HTML escaping (messages quote
// commands, and "<" should read as "<").
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return buf.Bytes()
}

// allowMethods answers 405 unless the request's method is one of allowed.
func allowMethods(w http.ResponseWriter, r *http.Request, allowed ...string) bool {
	for _, m := range allowed {
		if r.Method == m {
			return true
		}
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	writeError(w, http.StatusMethodNotAllowed, apiError{
		Error:   "method " + echo(r.Method) + " not allowed on " + echo(r.URL.Path),
		Allowed: allowed,
	})
	return false
}

func (s *Server) handleNotFound(w http.ResponseWriter, r *http.Request) {
	hint := "endpoints: POST /v1/dispatch/{event}, GET /v1/hooks, GET /v1/stats, GET /metrics, GET /healthz"
	writeError(w, http.StatusNotFound, apiError{Error: "no such endpoint: " + echo(r.URL.Path), Hint: hint})
}

// dispatchLog is what the request line of a dispatch says.
type dispatchLog struct {
	event, canonical, decision string
	hooks, ran, status         int
	// failed and timedOut count the hooks that failed (spawn error,
	// non-zero exit without a decision) or timed out.
	failed, timedOut int
	err              string
}

// handleDispatch runs one event for a client. Its phases are helpers of
// their own: checkDispatch refuses a request this server must not answer,
// acquireSlot bounds the dispatches in flight, and dispatchAndReply runs
// the hooks and answers. The deferred steps stay here, so that their order
// is on one screen: the reply is flushed before the dispatch stops
// counting as in flight, the slot is freed, and the request line is
// logged last.
func (s *Server) handleDispatch(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	l := dispatchLog{event: r.PathValue("event")}
	defer func() { s.logDispatch(r.Context(), &l, time.Since(start)) }()

	req, ok := s.checkDispatch(w, r, &l)
	defer func() { s.payloads.release(req.held) }()
	if !ok {
		return
	}
	if !s.acquireSlot(w, r, &l) {
		return
	}
	defer func() { <-s.slots }()
	s.inflight.Add(1)
	defer func() {
		// Send the reply before this dispatch stops counting as in
		// flight: past its timeout, shutdown closes every connection
		// once none is, and a reply still in the server's buffer was
		// lost (the client read EOF instead of the 503).
		if f, ok := w.(http.Flusher); ok && l.status != 0 && l.status != 499 {
			f.Flush()
		}
		s.inflight.Add(-1)
	}()
	s.dispatchAndReply(w, r, &l, req)
}

// fail sends an error reply and notes it for the request line.
func (l *dispatchLog) fail(w http.ResponseWriter, status int, e apiError) {
	l.status, l.err = status, textutil.CutBytesSaying(e.Error, maxError)
	writeError(w, status, e)
}

// dispatchRequest is a dispatch request that passed checkDispatch.
type dispatchRequest struct {
	event  string // the canonical name
	format string // "", "json" or "hermes"
	// firing is the body's fields, read once (protocol.NewFiring).
	firing protocol.Firing
	// held is what the body reserved of the payload budget: returned
	// when the request ends, whether it was refused or answered.
	held int64
}

// checkDispatch checks everything about a request before it may take a
// dispatch slot: the method, the event, the format, that the request is
// for this server's project, config and inputs, and its body. When ok is
// false the error reply is sent.
func (s *Server) checkDispatch(w http.ResponseWriter, r *http.Request, l *dispatchLog) (req dispatchRequest, ok bool) {
	if !allowMethods(w, r, http.MethodPost) {
		l.status, l.err = http.StatusMethodNotAllowed, "method not allowed"
		return req, false
	}
	ev, err := dispatcher.LookupEvent(l.event)
	if err != nil {
		var ue *dispatcher.UnknownEventError
		e := apiError{Error: "unknown event '" + echo(l.event) + "'"}
		if errors.As(err, &ue) {
			e.DidYouMean = ue.Suggestion
		}
		l.fail(w, http.StatusNotFound, e)
		return req, false
	}
	l.canonical = ev.Name
	req.event = ev.Name
	req.format = r.URL.Query().Get("format")
	if req.format != "" && req.format != "json" && req.format != "hermes" {
		l.fail(w, http.StatusBadRequest, apiError{Error: "unknown format '" + echo(req.format) + "'", Hint: "use ?format=json (the outcome) or ?format=hermes"})
		return req, false
	}
	if c := s.projectConflict(r.URL.Query()["project"]); c != "" {
		l.fail(w, http.StatusConflict, apiError{Error: c})
		return req, false
	}
	if c := r.URL.Query().Get("config"); c != "" && !sameConfig(c, s.opts.ConfigPath) {
		l.fail(w, http.StatusConflict, apiError{Error: "this server reads the config " + s.opts.ConfigPath + ", not " + echo(c)})
		return req, false
	}
	if c := s.inputsConflict(r, w); c != "" {
		l.fail(w, http.StatusConflict, apiError{Error: c})
		return req, false
	}
	fields, status, e := s.readFields(w, r, &req.held)
	if status != 0 {
		l.fail(w, status, e)
		return req, false
	}
	req.firing = protocol.NewFiring(ev, l.event, fields)
	return req, true
}

// acquireSlot takes a dispatch slot. A bounded number of dispatches run at
// once; beyond it a request waits a little for a slot, then is refused
// with Retry-After rather than queued without limit behind slow hooks.
// When it returns false no slot was taken and the reply (if the client is
// still there) is sent.
func (s *Server) acquireSlot(w http.ResponseWriter, r *http.Request, l *dispatchLog) bool {
	select {
	case s.slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(s.opts.QueueWait)
	select {
	case s.slots <- struct{}{}:
		t.Stop()
		return true
	case <-t.C:
		w.Header().Set("Retry-After", "1")
		l.fail(w, http.StatusServiceUnavailable, apiError{
			Error:      "too many dispatches in flight (--max-concurrent " + strconv.Itoa(cap(s.slots)) + ")",
			RetryAfter: 1,
		})
		return false
	case <-r.Context().Done():
		t.Stop()
		l.status, l.err = 499, "client went away while queued"
		return false
	}
}

// dispatchAndReply runs the request's event through the current
// generation's dispatcher and answers with its outcome, or with why there
// is none.
func (s *Server) dispatchAndReply(w http.ResponseWriter, r *http.Request, l *dispatchLog, req dispatchRequest) {
	g := s.cur.Load()
	// Checked against the config that will answer, after the body was
	// read and a slot waited for: a reload in between must not let a
	// check of the old files vouch for the new config, or the reverse.
	if r.URL.Query().Get(QueryInputs) != "" {
		if c := s.staleConflict(g); c != "" {
			l.fail(w, http.StatusConflict, apiError{Error: c})
			return
		}
	}
	ctx, cancel := context.WithTimeoutCause(r.Context(), s.opts.RequestTimeout, errRequestTimeout)
	defer cancel()
	calledBy := r.URL.Query().Get("called_by")
	if calledBy != "" {
		// `hermes-hooks hook AGENT` forwarding: that agent runs its own
		// hook files' entries itself (and the journal's record names it).
		ctx = dispatcher.CalledBy(ctx, calledBy)
	}
	// The journal's records say the server decided (a hook's own
	// fallback says why it did not use one), and what the agent got.
	ctx = journal.WithRoute(ctx, servedRoute(r.URL.Query(), req.firing.Event.Name))
	outcome, err := g.d.Fire(ctx, &req.firing)
	if err == nil && outcome.Unapproved > 0 && calledBy == "" && req.format != "hermes" {
		s.tellUnapproved(ctx, &outcome, req.firing.Session)
	}
	if ctx.Err() == nil && err != nil {
		l.fail(w, http.StatusNotFound, apiError{Error: err.Error()})
		return
	}
	if ctx.Err() != nil {
		s.failCancelled(ctx, w, l)
		return
	}
	// Only an answered dispatch counts: a cancelled one's hooks were
	// killed for reasons not theirs.
	g.stats.Record(&outcome, time.Now())
	s.live.CountDispatch(req.event, &outcome)
	l.decision, l.hooks = string(outcome.Decision), len(outcome.Hooks)
	for i := range outcome.Hooks {
		l.count(&outcome.Hooks[i])
	}
	var body []byte
	if req.format == "hermes" {
		body = pyjson.Append(nil, outcome.HermesWireOver(req.firing.ArgsMap()), pyjson.Python)
	} else {
		body = protocol.AppendOutcome(nil, &outcome, pyjson.Compact)
	}
	l.status = http.StatusOK
	// The caller compares it with its own: a server of another version
	// may decide differently, and is not used.
	w.Header().Set(VersionHeader, s.opts.Version)
	writeJSON(w, http.StatusOK, append(body, '\n'))
}

// tellUnapproved tells the person, once per session (kept with the
// server's sessions), how many of the repository's hooks did not run for
// want of an approval (issue 32, item 2), in the outcome's system_message,
// which is for the user. A call forwarded by `hook AGENT` is told by that
// process, in the agent's own channel; Hermes' wire form has no member for
// the user, and its count is in the outcome's JSON only.
func (s *Server) tellUnapproved(ctx context.Context, o *protocol.Outcome, id string) {
	if first, _ := sessions.FirstNotice(ctx, s.sessions, id); !first {
		return
	}
	notice := consent.UnapprovedNotice(o.Unapproved)
	if o.SystemMessage != "" {
		notice = o.SystemMessage + "\n" + notice
	}
	o.SystemMessage = notice
}

// failCancelled answers a dispatch whose context ended. The outcome of an
// interrupted dispatch lacks the hooks that were killed; answering with it
// would read as "no objection", so the reply says why it was cancelled.
func (s *Server) failCancelled(ctx context.Context, w http.ResponseWriter, l *dispatchLog) {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errShutdown):
		w.Header().Set("Retry-After", "1")
		l.fail(w, http.StatusServiceUnavailable, apiError{Error: "dispatch cancelled: " + cause.Error(), RetryAfter: 1})
	case errors.Is(cause, errRequestTimeout):
		l.fail(w, http.StatusGatewayTimeout, apiError{Error: "dispatch cancelled: " + cause.Error() +
			" (" + s.opts.RequestTimeout.String() + ")"})
	default:
		l.status, l.err = 499, "client went away: dispatch cancelled"
	}
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "that"
}

// count adds one hook report to the line.
func (l *dispatchLog) count(r *protocol.HookReport) {
	if r.Ran {
		l.ran++
	}
	switch {
	case r.TimedOut:
		l.timedOut++
	case r.Error != "",
		r.Ran && r.ExitCode != nil && *r.ExitCode != 0 && (r.Contribution == nil || r.Contribution.Decision != protocol.DecisionBlock):
		l.failed++
	}
}

// level is the log level of a dispatch's line. One line per dispatch is a
// debug detail (a busy host sends thousands); what someone should hear
// about is info: a block, a refusal or failure (a non-200 reply), a hook
// that failed or timed out; the server's own failures (5xx) are warnings.
func (l *dispatchLog) level() slog.Level {
	switch {
	case l.status >= 500:
		return slog.LevelWarn
	case l.status != http.StatusOK, l.decision == string(protocol.DecisionBlock), l.failed > 0, l.timedOut > 0:
		return slog.LevelInfo
	}
	return slog.LevelDebug
}

// logDispatch writes the request's one log line, at l.level().
func (s *Server) logDispatch(ctx context.Context, l *dispatchLog, d time.Duration) {
	level := l.level()
	if !s.log.Enabled(ctx, level) {
		return
	}
	attrs := []slog.Attr{slog.String("event", echo(l.event))}
	if l.canonical != "" && l.canonical != l.event {
		attrs = append(attrs, slog.String("canonical", l.canonical))
	}
	if l.decision != "" {
		attrs = append(attrs, slog.String("decision", l.decision), slog.Int("hooks", l.hooks), slog.Int("ran", l.ran))
	}
	if l.failed > 0 {
		attrs = append(attrs, slog.Int("failed", l.failed))
	}
	if l.timedOut > 0 {
		attrs = append(attrs, slog.Int("timed_out", l.timedOut))
	}
	attrs = append(attrs, slog.Int("status", l.status))
	if l.err != "" {
		attrs = append(attrs, slog.String("error", l.err))
	}
	attrs = append(attrs, slog.Float64("duration_ms", math.Round(float64(d.Microseconds()))/1000))
	s.log.LogAttrs(ctx, level, "dispatch", attrs...)
}

// handleHooks answers exactly what `hermes-hooks list --json` prints: the
// configuration in service, inspected against the allowlist as it is now.
func (s *Server) handleHooks(w http.ResponseWriter, r *http.Request) {
	if !allowMethods(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	g := s.cur.Load()
	store := s.opts.Store
	allow, err := store.Load()
	if err != nil {
		s.log.Warn("read allowlist", "err", err)
	}
	statuses := report.Inspect(g.cfg, allow, s.opts.Cwd)
	listing := report.NewListing(s.opts.ConfigPath, g.cfg, store.Path(), statuses)
	listing.Cwd = s.opts.Cwd
	// The encoder settings of `list --json`, so the bytes are the same.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(listing); err != nil {
		writeError(w, http.StatusInternalServerError, apiError{Error: "encode listing: " + err.Error()})
		return
	}
	s.log.Debug("hooks", "status", http.StatusOK, "hooks", len(listing.Hooks))
	writeJSON(w, http.StatusOK, buf.Bytes())
}

// health is GET /healthz's body.
type health struct {
	Status      string `json:"status"`
	Generation  int64  `json:"generation"`
	Hooks       int    `json:"hooks"`
	InFlight    int64  `json:"in_flight"`
	ReloadError string `json:"reload_error,omitempty"`
	// LogLinesDropped counts the log lines lost since the start: the
	// log's destination did not take them (Options.LogDropped).
	LogLinesDropped uint64 `json:"log_lines_dropped"`
	// Workers are the worker entries that have run, with their live
	// processes and, for one that kept crashing, why it was given up.
	Workers []dispatcher.WorkerStatus `json:"workers,omitempty"`
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	if !allowMethods(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	g := s.cur.Load()
	h := health{Status: "ok", Generation: g.n, Hooks: len(g.cfg.Entries), InFlight: s.inflight.Load(), Workers: g.d.Workers(),
		LogLinesDropped: s.logDropped()}
	if e := s.reloadErr.Load(); e != nil {
		h.ReloadError = *e
	}
	s.log.Debug("healthz", "status", http.StatusOK)
	writeJSON(w, http.StatusOK, marshal(h))
}

// sameConfig reports whether a caller's config (absolute, as hook sends
// it) is this server's, by the same path: the same file is not enough.
// Load reads a config's relative paths (rules:, an agent's settings file,
// the journal) from the folder it was named in, as spelt — through a
// symlink or a hard link in another folder, another folder's files, and
// "~/" and ".." are taken as spelt too.
func sameConfig(theirs, mine string) bool {
	return filepath.IsAbs(theirs) && filepath.Clean(theirs) == absPath(mine)
}

// sameDir reports whether a and b name the same file or directory
// (symlinks and spelling aside).
func sameDir(a, b string) bool {
	ai, errA := os.Stat(a)
	bi, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(ai, bi)
}

// logDropped is Options.LogDropped, or 0.
func (s *Server) logDropped() uint64 {
	if s.opts.LogDropped == nil {
		return 0
	}
	return s.opts.LogDropped()
}
