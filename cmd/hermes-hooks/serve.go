package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/sessions"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/server"
)

type serveOptions struct {
	listen          string
	allowRemote     bool
	maxBody         int64
	maxConcurrent   int
	queueWait       time.Duration
	requestTimeout  time.Duration
	shutdownTimeout time.Duration
	bodyTimeout     time.Duration
	maxConns        int
	sessionBudget   int
	sessionIdle     time.Duration
	logFormat       string
	logLevel        string
	logFile         string
	user            bool
	maxProjects     int
	printService    string
}

// serveTokenHelp is serve's help on the token transport (its Long text is
// long enough already for the function that holds it).
const serveTokenHelp = `On Windows the server listens on token://$HERMES_HOME/hermes-hooks.endpoint
(--user: $HERMES_HOME/run/hermes-hooks.endpoint) by default: a random
loopback TCP port, written with a fresh random key to that file, which only
you can read. Every request must prove it holds the key (others get 401) and
every reply proves it back, so another local user can neither dispatch nor
read, nor pose as the server. 'hermes-hooks hook' finds the file by itself.

`

func newServeCmd(a *app) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run a long-lived dispatcher with an HTTP/JSON API and hot reload (for agents)",
		Long: `Serve hook dispatches over HTTP/JSON on a Unix socket (mode 0600) or a loopback
TCP port, so an agent pays for a process start once, not per event.

  POST /v1/dispatch/EVENT   body: the event fields (a JSON object); reply: the
                            outcome JSON 'hermes-hooks dispatch' prints
                            (?format=hermes for Hermes' directive shape)
  GET  /v1/hooks            what 'hermes-hooks list --json' prints
  GET  /v1/stats            per hook: matched, ran, skipped, blocks, errors,
                            timeouts, last fired, p50/p99 run time
                            ('hermes-hooks doctor --live' reads it)
  GET  /metrics             the same for Prometheus (text format)
  GET  /healthz             {"status":"ok","generation":N,...}

Errors are JSON ({"error": ...}): 400 bad body, 404 unknown event (with
"did_you_mean") or path, 405 wrong method, 408 body not sent within
--body-timeout, 413 body over --max-body-bytes,
503 (Retry-After) when --max-concurrent dispatches are running and no slot
frees within --queue-wait, or when shutdown cancelled the dispatch, 504 past
--request-timeout. A non-200 reply carries no outcome: treat it as a failed
dispatch, not as "no objection".

On TCP, requests a web page could send are refused before anything runs:
one with an Origin header (403), a Host other than the listening address
(127.0.0.1:PORT or [::1]:PORT as bound, or localhost:PORT; 403, against DNS
rebinding), or a body not sent as application/json (415). Requests on a Unix
socket are not checked (its mode is the access control).

Changes take effect without a restart. The config, the Claude settings files
and the project hooks file are reloaded when they change — once they have
stayed unchanged (size, times, inode) for 200 ms and did not change while
read, so a file being rewritten is never read half-way (the last good config
serves meanwhile); a broken config is logged (file, line, reason) and the
last good one stays in service. Approvals and revocations ('hermes-hooks
approve/revoke' from another terminal) count from the next dispatch, and so
does an edit to an approved script (it stops running until re-approved).
Dispatches already running finish on the config they started with. Session
state is kept in memory, across reloads.

Project hooks (.hermes/hooks.yaml) are those of the directory the server
starts in; the server does not switch hook sets by the cwd a request names.
Hooks inherit the server's environment.

With --user, one server answers for every project of yours: a request names
its project directory (?project=/abs/dir, as 'hermes-hooks hook' does), whose
config set (its hooks files and your config) is loaded when first named,
watched like the above, and dropped when it is the least recently used of
more than --max-projects. A project directory that is not an absolute path
of a directory you can list, or whose last component is a symlink, is
refused (409) before anything is loaded. It listens on
unix://$HERMES_HOME/run/hermes-hooks.sock by default, in a directory it
makes 0700 (one owned by someone else, a symlink, or open to group or others
is refused), and closes every connection made by another user (the kernel's
peer credentials). 'hermes-hooks hook' finds it there or at
HERMES_HOOKS_SERVER, and uses it only when its socket is yours and private,
its process runs as you and has your version; otherwise hook says why on
stderr and in the journal and decides by itself.

` + serveTokenHelp + `Bounds: a request body must arrive within --body-timeout (else 408), and
holds no dispatch slot meanwhile; bodies in flight hold 2×--max-body-bytes at
most (else 503); at most --max-conns connections (the idlest closed for
room); session state is kept encoded in memory, at most --session-budget
bytes for all sessions (least recently used dropped first), and a session
unused for --session-idle is dropped too. A dropped session starts again empty: its state, its count
of stop-hook blocks, its once-per-session hooks. A lock file beside the
socket (SOCKET.lock, held while the server runs) keeps a second server off
the same path, even if the socket file was deleted.

SIGTERM, SIGINT or SIGHUP stops accepting connections; running dispatches
may finish until --shutdown-timeout is nearly spent, then they are cancelled
(their hooks' process groups are killed, with their descendants that left
them), the socket file is removed and the server exits.

Logs go to stderr, or to --log-file (reopened by name on SIGUSR1, for log
rotation). At the default level (info) they say what happens to the server
(start, reloads, consent changes, errors, refused requests, given-up
workers) and only the dispatches that block, fail or time out; --log-level
debug adds one line per request. Logging never holds up a dispatch: lines
wait in a bounded queue for the destination, and when it does not take them
(a pipe nobody reads), lines are dropped and counted (log_lines_dropped in
/healthz and /v1/stats; a warning once the destination takes lines again).`,
		Example: `  hermes-hooks serve --listen unix://$HOME/.hermes/hermes-hooks.sock
  curl --unix-socket ~/.hermes/hermes-hooks.sock -d '{"tool_name":"terminal","args":{"command":"ls"}}' http://x/v1/dispatch/pre_tool_call
  hermes-hooks serve --listen tcp://127.0.0.1:8765 --log-format json --log-level debug
  hermes-hooks --config project.yaml serve --listen unix:///run/user/1000/hooks.sock --max-concurrent 16
  hermes-hooks serve --user                # every project: hook finds it by itself
  hermes-hooks serve --listen token://$HOME/.hermes/hooks.endpoint  # loopback TCP + a key only you can read (Windows' default)
  mkdir -p ~/.config/systemd/user && hermes-hooks serve --print-service systemd > ~/.config/systemd/user/hermes-hooks.service  # start at login`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.printService != "" {
				return printService(a, o.printService)
			}
			return runServe(a, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.listen, "listen", "", "unix:///path/to/sock, token:///path/to/endpoint (loopback TCP whose port and key only you can read there) or tcp://127.0.0.1:PORT (default unix://$HERMES_HOME/hermes-hooks.sock; on Windows token://$HERMES_HOME/hermes-hooks.endpoint)")
	f.BoolVar(&o.allowRemote, "allow-remote", false, "allow a TCP address other machines can reach (the API has no authentication)")
	f.Int64Var(&o.maxBody, "max-body-bytes", server.DefaultMaxBodyBytes, "largest request body accepted (bigger: 413)")
	f.IntVar(&o.maxConcurrent, "max-concurrent", server.DefaultMaxConcurrent, "dispatches running at once; more wait up to --queue-wait, then get 503")
	f.DurationVar(&o.queueWait, "queue-wait", server.DefaultQueueWait, "how long a dispatch beyond --max-concurrent waits for a slot")
	f.DurationVar(&o.requestTimeout, "request-timeout", server.DefaultRequestTimeout, "cancel a dispatch (and kill its hooks) after this long (504)")
	f.DurationVar(&o.shutdownTimeout, "shutdown-timeout", server.DefaultShutdownTimeout, "on SIGTERM/SIGINT/SIGHUP, exit within this long, cancelling dispatches still running")
	f.DurationVar(&o.bodyTimeout, "body-timeout", server.DefaultBodyTimeout, "a request body must arrive within this long (else 408)")
	f.IntVar(&o.maxConns, "max-conns", server.DefaultMaxConns, "open connections at most; at the cap the one idle longest is closed for a new one")
	f.IntVar(&o.sessionBudget, "session-budget", sessions.DefaultSessionBudget, "bytes of session state kept in memory for all sessions together (64 MiB); the least recently used sessions are dropped beyond it")
	f.DurationVar(&o.sessionIdle, "session-idle", sessions.DefaultSessionIdle, "drop a session's state after this long unused")
	f.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	f.StringVar(&o.logLevel, "log-level", "info", "least important log level shown: debug (every request), info, warn or error")
	f.StringVar(&o.logFile, "log-file", "", "append the log to this file instead of stderr (reopened on SIGUSR1)")
	f.BoolVar(&o.user, "user", false, "answer for every project of this user (default socket unix://$HERMES_HOME/run/hermes-hooks.sock, in a 0700 directory)")
	f.IntVar(&o.maxProjects, "max-projects", server.DefaultMaxProjects, "with --user: projects kept loaded at once; the least recently used is dropped beyond it")
	f.StringVar(&o.printService, "print-service", "", "print a service definition that runs 'serve --user' at login: systemd (a user unit) or launchd (a LaunchAgent plist)")
	return cmd
}

func runServe(a *app, o serveOptions) error {
	// Before the first log line: a write to a stderr nobody reads any
	// more must not kill the server.
	catchSIGPIPE()
	logw, err := openServeLog(a, o.logFile)
	if err != nil {
		return err
	}
	// Lines still queued at exit get a moment to reach the destination;
	// one that takes nothing must not hold the exit.
	defer logw.Close(2 * time.Second)
	logger, err := newLogger(logw, o.logFormat, o.logLevel)
	if err != nil {
		return err
	}
	logw.OnResume(func(n, total uint64) {
		logger.Warn("log lines were dropped: the log's destination did not take them", "dropped", n, "dropped_total", total)
	})
	stopLogSignals := handleLogSignals(logw, logger)
	defer stopLogSignals()
	switch {
	case o.maxBody <= 0:
		return usageErr("", "--max-body-bytes must be positive")
	case o.maxConcurrent <= 0:
		return usageErr("", "--max-concurrent must be positive")
	case o.queueWait <= 0 || o.requestTimeout <= 0 || o.shutdownTimeout <= 0 || o.bodyTimeout <= 0 || o.sessionIdle <= 0:
		return usageErr("write durations like 500ms, 10s or 5m", "--queue-wait, --request-timeout, --shutdown-timeout, --body-timeout and --session-idle must be positive")
	case o.maxConns <= 0 || o.sessionBudget <= 0 || o.maxProjects <= 0:
		return usageErr("", "--max-conns, --session-budget and --max-projects must be positive")
	}
	store, err := a.Store()
	if err != nil {
		return err
	}
	addr, err := serveAddr(o, store.Home())
	if err != nil {
		return err
	}
	path, err := a.Config()
	if err != nil {
		return err
	}
	if a.ConfigPath != "" {
		// At once, for serve --user too (it loads at a project's first
		// request): a typo fails here, not on every call.
		if err := hookconfig.CheckNamed(path); err != nil {
			return err
		}
	}
	opts := server.Options{
		ConfigPath: path,
		// A named config must exist at start and at every reload: a typo,
		// or the file deleted while serve runs, must not serve no hooks.
		ConfigNamed: a.ConfigPath != "",
		AgentFiles:  a.AgentFiles,
		Cwd:         cli.Cwd(),
		Store:       store,
		// HERMES_ACCEPT_HOOKS and HERMES_SAFE_MODE are read from the
		// environment by consent.NewPolicy; --accept-hooks is the flag.
		Accept:          a.AcceptHooks,
		Logger:          logger,
		LogDropped:      logw.Dropped,
		MaxBodyBytes:    o.maxBody,
		MaxConcurrent:   o.maxConcurrent,
		QueueWait:       o.queueWait,
		RequestTimeout:  o.requestTimeout,
		ShutdownTimeout: o.shutdownTimeout,
		BodyTimeout:     o.bodyTimeout,
		MaxConns:        o.maxConns,
		Sessions:        sessions.NewMemoryWithLimits(o.sessionBudget, o.sessionIdle),
		Version:         cli.Version(),
	}
	var srv interface {
		Serve(context.Context, net.Listener) error
	}
	if o.user {
		srv, err = newUserServer(opts, addr, o.maxProjects)
	} else {
		srv, err = server.New(opts)
	}
	if err != nil {
		return err // a *hookconfig.ConfigError: exit 1 with its hint
	}
	if addr.Network == "tcp" && o.allowRemote {
		logger.Warn("--allow-remote: the API has no authentication; anyone who can connect runs your approved hooks", "addr", addr.String())
	} else if addr.Network == "tcp" {
		// Loopback is this machine, not this user: fine for curl and
		// /metrics, which is what tcp:// is for (hook never forwards to it).
		logger.Warn("a tcp:// address has no authentication: any user of this machine can dispatch through it (your approved hooks run on their payload) and read /v1/hooks; for agents use unix:// or token://", "addr", addr.String())
	}
	ln, err := server.Listen(addr, logger)
	if errors.Is(err, server.ErrInUse) {
		return withHint(err, "stop the other server first, or --listen somewhere else")
	}
	if err != nil {
		return err
	}
	// The first SIGTERM/SIGINT/SIGHUP starts the graceful shutdown. SIGHUP
	// is what a server started from a terminal gets when the terminal
	// closes; left to the runtime's default it would kill the server on
	// the spot, leaving its socket file behind and its hooks unattended.
	// Later signals are caught too and change nothing: the shutdown is
	// bounded by --shutdown-timeout anyway, and dying at once would leave
	// the running hooks (each in its own process group, out of reach of a
	// terminal's Ctrl-C) orphaned.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// As the subreaper of its hooks' descendants, the server finds those
	// that left their hook's process group and kills them at a hook's
	// timeout or failure, and those of the hooks still running when it
	// stops (a successful hook's detached helpers are left alone).
	_ = dispatcher.BecomeSubreaper()
	defer dispatcher.KillEscaped()
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	return nil
}

// openServeLog is the log's destination, behind a writer that never
// blocks (server.LogWriter): --log-file, or stderr.
func openServeLog(a *app, path string) (*server.LogWriter, error) {
	if path == "" {
		return server.NewLogWriter(a.Err), nil
	}
	w, err := server.OpenLogFile(path)
	if err != nil {
		return nil, fmt.Errorf("--log-file: %w", err)
	}
	return w, nil
}

func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	l, err := server.NewLogger(w, format, level)
	switch {
	case errors.Is(err, server.ErrLogLevel):
		return nil, usageErr("use --log-level debug, info, warn or error", "unknown --log-level %q", level)
	case err != nil:
		return nil, usageErr("use --log-format text or --log-format json", "unknown --log-format %q", format)
	}
	return l, nil
}

// serveAddr is where serve listens: --listen, else the default address in
// home (serve --user's own under it).
func serveAddr(o serveOptions, home string) (server.Addr, error) {
	listen := o.listen
	if listen == "" {
		// The default address is in HERMES_HOME, which a fresh machine
		// does not have until something writes to it: make it, as the
		// allowlist's first write does, rather than fail on the lock
		// file beside the socket (and a login unit restart for ever).
		if err := os.MkdirAll(home, 0o700); err != nil {
			return server.Addr{}, err
		}
	}
	switch {
	case listen == "" && o.user:
		listen = server.UserAddr(home).String()
	case listen == "":
		listen = server.DefaultAddr(home).String()
	}
	addr, err := server.ParseAddr(listen, o.allowRemote)
	if errors.Is(err, server.ErrNotLoopback) {
		return addr, usageErr("pass --allow-remote if you really mean it (anyone who can connect runs your approved hooks), or listen on 127.0.0.1", "%v", err)
	}
	if err != nil {
		return addr, usageErr("use --listen unix:///path/to/sock or --listen tcp://127.0.0.1:PORT", "%v", err)
	}
	return addr, nil
}
