package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/sessions"

	"github.com/fsnotify/fsnotify"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/serverstats"
	"github.com/hermes-hooks/hermes-hooks/journal"
)

// Defaults for Options.
const (
	DefaultMaxBodyBytes  = 8 << 20
	DefaultMaxConcurrent = 64
	// DefaultQueueWait is how long a dispatch beyond MaxConcurrent waits
	// for a slot before it is refused with 503: long enough to absorb a
	// burst, short enough that a host is never stuck behind slow hooks.
	DefaultQueueWait = 2 * time.Second
	// DefaultRequestTimeout is a little above the longest hook timeout
	// (600 s, a Claude-dialect hook), so a single slow hook always finishes or times out on its
	// own terms before the request does.
	DefaultRequestTimeout  = (hookconfig.MaxClaudeTimeoutSeconds + 10) * time.Second
	DefaultShutdownTimeout = 10 * time.Second
	// DefaultDebounce gathers a burst of file events (an editor's
	// write-temp, rename, chmod; a `git checkout`) into one refresh.
	DefaultDebounce = 150 * time.Millisecond
	// DefaultSettle is how long the config files must stay unchanged
	// before a reload is applied: a file rewritten in place (truncated,
	// then written) is never read half-way. Editors, config managers and
	// `git checkout` finish a write in milliseconds, so 200 ms is two
	// orders of magnitude of margin for a writer that pauses between
	// chunks (on Linux a writer that keeps the file open is waited for
	// however long it pauses, see beingWritten), yet a saved edit is still
	// in service well under half a second later (debounce + settle),
	// quicker than a person switches windows.
	DefaultSettle = 200 * time.Millisecond
	// DefaultSettleLimit is how long a changed config waits to settle
	// before serve says in its log that it keeps the last good config.
	// It waits on: loading what is there then could apply half a file (a
	// look between a truncation and its write). Meanwhile forwarded calls
	// are refused (409, see staleConflict), so the wait costs speed, never
	// a guard.
	DefaultSettleLimit = 5 * time.Second
	// DefaultBodyTimeout bounds how long a request body may take to
	// arrive, so a client that sends headers and then dribbles (or never
	// sends) the body cannot hold a connection and a slot.
	DefaultBodyTimeout = 30 * time.Second
	// DefaultMaxConns bounds open connections: at the cap, the one that
	// has waited longest without a request is closed for a new client
	// (limitListener).
	DefaultMaxConns = 256
	// DefaultHeaderTimeout bounds how long a request's head (request line
	// and headers) may take to arrive once the server waits for it. A
	// client writes its head at once (net/http's transport does, in one
	// write of a few hundred bytes); a process that sends it a byte at a
	// time is holding a connection, and at --max-conns everyone's place,
	// so it gets 2 s, not the 10 s it used to. The bound never reaches a
	// body (BodyTimeout does) nor a dispatch, and no hook ran for a
	// client that is cut: it sees its connection close unanswered, and,
	// as `hook` does, dispatches by itself (server.Forward's errors), or,
	// as the Node and Python clients do, reports ServerNotAnsweringError
	// to its host.
	DefaultHeaderTimeout = 2 * time.Second
)

// maxBurst bounds how long a continuous stream of file events can postpone
// a refresh.
const maxBurst = time.Second

// Options configures a Server.
type Options struct {
	// ConfigPath is the YAML config file, as the user named it (GET
	// /v1/hooks reports it as given, like `list --json`). Required.
	ConfigPath string
	// ConfigNamed: ConfigPath was named on purpose (serve --config): gone
	// at a reload, it is a config that does not load (the last good one
	// stays, forwarded calls are refused), not one with no hooks.
	ConfigNamed bool
	// AgentFiles are further agent hook files, by agent name
	// (--claude-settings, --codex-hooks …).
	AgentFiles hookconfig.AgentFiles
	// Cwd is the server's working directory: where project hooks are
	// found, relative script paths resolved, and the payload's cwd when a
	// host sends none (default: the process's working directory).
	Cwd string
	// ProjectDir is where the project's hooks are looked for (default:
	// Cwd); MoreProjectDirs are further project directories loaded beside
	// it, as `hook AGENT` loads them one-shot (hookconfig.LoadOptions).
	// A user-level server (NewUser) sets both per project.
	ProjectDir      string
	MoreProjectDirs []string
	// Store is the allowlist. Required.
	Store *consent.Store
	// Accept approves and records every hook not yet allowlisted, a
	// repository's included (--accept-hooks). HERMES_ACCEPT_HOOKS (read
	// from Env, or the server's environment) and hooks_auto_accept approve
	// the user's own hooks only (consent.NewPolicy).
	Accept bool
	// SafeMode runs no hook at all; HERMES_SAFE_MODE in the environment
	// does too.
	SafeMode bool
	// Logger receives every log line (nil: slog.Default()). Answered
	// dispatches that neither block nor fail are logged at debug level.
	Logger *slog.Logger
	// LogDropped counts the log lines lost so far (LogWriter.Dropped),
	// reported by /healthz and /v1/stats (nil: none are).
	LogDropped func() uint64
	// Env is the hooks' base environment (nil: the server's own).
	Env []string
	// Sessions keeps session state (nil: sessions.NewMemory, bounded).
	Sessions *sessions.Memory
	// Version is the hermes-hooks version the decision journal's records
	// name (the config's journal: block says where it is, and whether).
	Version string

	MaxBodyBytes    int64
	MaxConcurrent   int
	QueueWait       time.Duration
	RequestTimeout  time.Duration
	ShutdownTimeout time.Duration
	Debounce        time.Duration
	Settle          time.Duration
	SettleLimit     time.Duration
	BodyTimeout     time.Duration
	HeaderTimeout   time.Duration
	MaxConns        int
}

// Server is the long-running dispatcher. Create it with New, run it with
// Serve (once).
type Server struct {
	opts     Options
	log      *slog.Logger
	sessions *sessions.Memory
	// cur is the configuration in service; a request loads it once and
	// keeps it to the end, so a reload never changes a dispatch midway.
	cur   atomic.Pointer[generation]
	slots chan struct{}
	// payloads bounds the request bodies held at once (payload.go).
	payloads *payloadBudget
	// inflight counts dispatches being run, for health and shutdown.
	inflight  atomic.Int64
	reloadErr atomic.Pointer[string]
	served    atomic.Bool
	// live counts dispatches per event since the server started; the
	// per-hook records live in each generation (internal/serverstats).
	live    *serverstats.Live
	metrics http.Handler

	// mu serialises refreshes and guards the watch state below.
	mu          sync.Mutex
	watcher     *fsnotify.Watcher
	configFiles []string // config-ish files the current config depends on
	configFP    [32]byte // their content when it was loaded
	failedFP    [32]byte // their content when a load last failed
	hooks       map[hookKey]hookView
	scripts     []string
	interesting map[string]bool
	watchFailed map[string]bool
	// seen is what the settle check last saw of each config file; retry
	// is the pending look while they settle.
	seen  map[string]observation
	retry *time.Timer
	// wait is the pending reload's wait for its files to settle
	// (settle.go); see Options.SettleLimit.
	wait settleWait
	// disk is what the files of the config in service looked like just
	// before it was read (staleConflict compares a forwarded call's
	// moment with it).
	disk    atomic.Pointer[diskView]
	stopped atomic.Bool
	kicked  atomic.Bool // a refresh kickRefresh started is running
	// journal is the decision journal of the current configuration; kept
	// across reloads that do not change its journal: block, so its
	// failure count and its one warning carry over.
	journal    *journal.Writer
	journalCfg hookconfig.JournalConfig
	// exp exports the journal's records (export.go).
	exp exporting
	// load reads the configuration: hookconfig.Load, which a test may wrap
	// to act between the settle check and the read.
	load func(path string, o hookconfig.LoadOptions) (*hookconfig.Config, error)
	// routed: a user-level server chose this project server for the
	// request's project directories (and verified them), so the
	// one-project check of checkDispatch does not apply.
	routed bool
	// dirs are the directories the config was loaded from (Cwd, the
	// project directory, the config's and the allowlist's, then the
	// other project directories), as they were just before: see moved.
	dirs []pinnedDir
}

// generation is one loaded configuration and the dispatcher built for it.
type generation struct {
	n     int64
	cfg   *hookconfig.Config
	d     *dispatcher.Dispatcher
	stats *serverstats.Table
	// journal is the decision journal d records to (nil: off).
	journal *journal.Writer
}

// withDefaults is o with each option left unset given its default, as
// New and NewUser take them (Cwd and ProjectDir are New's alone: a user
// server sets them per project). A user server's Sessions store made here
// is shared by all its projects.
func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = DefaultMaxConcurrent
	}
	if o.QueueWait <= 0 {
		o.QueueWait = DefaultQueueWait
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = DefaultShutdownTimeout
	}
	if o.Debounce <= 0 {
		o.Debounce = DefaultDebounce
	}
	if o.Settle <= 0 {
		o.Settle = DefaultSettle
	}
	if o.SettleLimit <= 0 {
		o.SettleLimit = DefaultSettleLimit
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = DefaultBodyTimeout
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.HeaderTimeout <= 0 {
		o.HeaderTimeout = DefaultHeaderTimeout
	}
	if o.Sessions == nil {
		o.Sessions = sessions.NewMemory()
	}
	return o
}

// New loads the configuration and returns a server ready to Serve. A
// config that cannot be loaded now is an error (a *hookconfig.ConfigError):
// there is no last good one to fall back on.
func New(opts Options) (*Server, error) {
	if opts.ConfigPath == "" {
		return nil, errors.New("server: Options.ConfigPath is required")
	}
	if opts.Store == nil {
		return nil, errors.New("server: Options.Store is required")
	}
	if opts.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("server: working directory: %w", err)
		}
		opts.Cwd = wd
	}
	if opts.ProjectDir == "" {
		opts.ProjectDir = opts.Cwd
	}
	opts = opts.withDefaults()
	s := &Server{
		dirs:        pinDirs(loadedFrom(&opts)),
		opts:        opts,
		log:         opts.Logger,
		sessions:    opts.Sessions,
		slots:       make(chan struct{}, opts.MaxConcurrent),
		payloads:    newPayloadBudget(payloadBudgetFor(opts.MaxBodyBytes)),
		watchFailed: map[string]bool{},
		seen:        map[string]observation{},
		load:        hookconfig.Load,
		live:        serverstats.NewLive(time.Now()),
	}
	s.metrics = serverstats.NewHandler(s.scrape)
	s.configFiles = s.initialConfigFiles()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reloadConfig(); err != nil {
		return nil, err
	}
	s.reviewHooks(nil)
	return s, nil
}

// build makes the dispatcher for a configuration. The consent policy is
// new with every configuration because hooks_auto_accept is part of it; it
// reads the allowlist afresh on its first decision.
func (s *Server) build(cfg *hookconfig.Config) (*dispatcher.Dispatcher, error) {
	pol := consent.NewPolicy(s.opts.Store, consent.PolicyOptions{
		AcceptFlag:       s.opts.Accept,
		ConfigAutoAccept: cfg.AutoAccept,
		Env:              s.opts.Env,
		Warn:             func(msg string) { s.log.Warn("consent", "detail", msg) },
	})
	pol.SafeMode = pol.SafeMode || s.opts.SafeMode
	return dispatcher.New(cfg, dispatcher.Options{
		Gate: dispatcher.ConsentGate(pol),

		Cwd:      s.opts.Cwd,
		Env:      s.opts.Env,
		Warn:     func(msg string) { s.log.Warn("dispatcher", "detail", msg) },
		Sessions: s.sessions,
		Recorder: s.recorder(cfg),
	})
}

// recorder is the decision journal for cfg (nil when it is off). build
// runs under s.mu (New, refresh), which guards the cached writer.
func (s *Server) recorder(cfg *hookconfig.Config) dispatcher.Recorder {
	s.exporterFor(cfg)
	if s.journal == nil || s.journalCfg != cfg.Journal {
		s.journalCfg = cfg.Journal
		s.journal = journal.ForConfig(cfg.Journal, s.opts.Store.Home(), journal.Options{
			Version: s.opts.Version,
			// Many decisions at once: a busy or stuck journal must
			// delay none of them (see journal.Options.Background).
			Background: true,
			Warn:       func(msg string) { s.log.Warn("journal", "detail", msg) },
			// Export follows the journal, never the other way round.
			OnAppend: s.exportLine,
		})
	}
	if s.journal == nil {
		return nil
	}
	return s.journal
}

// Generation is the number of configurations loaded so far (1 after New).
func (s *Server) Generation() int64 { return s.cur.Load().n }

// Refresh checks every watched file now, as the watcher does after a burst
// of events: it reloads a changed config and logs consent changes.
func (s *Server) Refresh() { s.refresh(nil) }

var (
	errShutdown       = errors.New("the server is shutting down")
	errRequestTimeout = errors.New("the dispatch exceeded the request timeout")
)

// Serve answers requests on ln until ctx ends, then shuts down gracefully
// (see the package comment) and returns nil; an error means the listener
// failed. Serve closes ln. It may be called once.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if !s.served.CompareAndSwap(false, true) {
		return errors.New("server: Serve called twice")
	}
	defer ln.Close()
	// Every request's context descends from base: cancelling it is how the
	// shutdown cancels in-flight dispatches, and a cancelled dispatch kills
	// its hooks' process groups.
	base, cancelBase := context.WithCancelCause(context.Background())
	defer cancelBase(nil)
	handler := tokenGuard(ln, s.log, s.browserGuard(s.Handler(), ln.Addr()))
	lim := limitListener(ln, s.opts.MaxConns)
	ln = lim
	hs := &http.Server{
		Handler:           handler,
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: s.opts.HeaderTimeout,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	lim.attach(hs)

	defer s.startWatching()()

	g := s.cur.Load()
	s.log.Info("listening", "addr", addrString(ln.Addr()), "pid", os.Getpid(),
		"config", s.opts.ConfigPath, "hooks", len(g.cfg.Entries), "cwd", s.opts.Cwd)

	defer inBackground(s.flushSpool)()

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}

	timeout := s.opts.ShutdownTimeout
	deadline := time.Now().Add(timeout)
	// Keep back part of the bound to kill the hooks of dispatches that did
	// not finish and to answer their clients.
	grace := min(timeout/4, 2*time.Second)
	s.log.Info("shutting down", "in_flight", s.inflight.Load(), "timeout", timeout.String())
	sctx, cancel := context.WithDeadline(context.Background(), deadline.Add(-grace))
	err := hs.Shutdown(sctx) // closes the listener (removing the socket file) at once
	cancel()
	if err != nil {
		n := s.inflight.Load()
		s.log.Warn("shutdown timeout reached: cancelling in-flight dispatches", "in_flight", n)
		cancelBase(errShutdown)
		s.waitIdle(deadline)
		hs.Close()
	}
	<-errc
	// Async hooks and worker processes end with the server: nothing of it
	// is left behind.
	s.release()
	s.log.Info("stopped")
	return nil
}

// startWatching watches the config's files for changes (hot reload) until
// the returned stop is called; stop also ends any pending settle retry.
func (s *Server) startWatching() (stop func()) {
	wctx, stopWatch := context.WithCancel(context.Background())
	watchDone := make(chan struct{})
	if w, err := fsnotify.NewWatcher(); err != nil {
		s.log.Warn("hot reload disabled: cannot watch files", "err", err)
		close(watchDone)
	} else {
		s.mu.Lock()
		s.watcher = w
		s.mu.Unlock()
		// Watches are in place from here on; anything that changed since
		// New loaded the config is caught by this first refresh.
		s.refresh(nil)
		go func() {
			defer close(watchDone)
			s.watch(wctx, w)
			s.mu.Lock()
			s.watcher = nil // a later Refresh must not use a closed watcher
			s.mu.Unlock()
			w.Close()
		}()
	}
	return func() {
		stopWatch()
		<-watchDone
		s.stopped.Store(true)
		s.mu.Lock()
		if s.retry != nil {
			s.retry.Stop()
		}
		s.mu.Unlock()
	}
}

// release ends what a stopped server keeps: its async hooks and workers,
// and the records its journal still queues.
func (s *Server) release() {
	s.cur.Load().d.Close()
	if j := s.cur.Load().journal; j != nil {
		j.Close()
	}
	// After the journal: its last records are queued for export by now.
	s.closeExport(5 * time.Second)
}

// waitIdle waits until no dispatch is in flight, or until the deadline. It
// polls: shutdown happens once, and a counter with a short tick is simpler
// than a WaitGroup that new requests could still be joining.
func (s *Server) waitIdle(deadline time.Time) {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for s.inflight.Load() > 0 && time.Now().Before(deadline) {
		<-t.C
	}
}

func addrString(a net.Addr) string {
	if a.Network() == "unix" {
		return "unix://" + a.String()
	}
	return a.Network() + "://" + a.String()
}
