package server

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// DefaultMaxProjects bounds the projects a user-level server keeps loaded
// (each with its config, watches and workers); the least recently used
// one is dropped beyond it, and loaded again when it is next named.
const DefaultMaxProjects = 32

// QueryWorkdir is the working directory of the `hook` process that
// forwards a call: a user-level server runs the call's hooks there, as the
// hook process would itself.
const QueryWorkdir = "wd"

// User is a user-level server (`serve --user`): one socket for every
// project of its user. A request names its project directories (query
// "project", the first being the payload's cwd) and the caller's working
// directory ("wd"); each distinct set is one project Server — the user's
// config plus those projects' hooks files, approvals read from the one
// allowlist — loaded the first time it is named, watched for changes as a
// per-project server watches its own, and dropped when it is the least
// recently used beyond MaxProjects. Every project Server shares the
// dispatch slots, so --max-concurrent bounds the whole server.
//
// The directories are verified before anything is loaded (see
// verifyProjectDir), and the listener only lets this user's processes
// connect (PeerUID): a request can only make the server load what its
// caller could load by itself.
type User struct {
	base        Options
	maxProjects int
	log         *slog.Logger
	slots       chan struct{}
	payloads    *payloadBudget // one for every project, as slots
	served      bool

	mu       sync.Mutex
	lru      *list.List // of *userProject, most recently used first
	byKey    map[string]*list.Element
	watching bool // Serve runs: loaded projects watch their files
	closed   bool
	// loaded is told (without waiting) each time a project loads: the
	// spool loop flushes once a project's config says where to.
	loaded chan struct{}
}

// userProject is one loaded project set.
type userProject struct {
	key   string
	ready chan struct{} // closed once srv or err is set
	srv   *Server
	h     http.Handler // srv's
	err   error
	stop  func() // stops the watcher (nil: none)
	// refs counts requests using srv; an evicted project is released when
	// the last one ends.
	refs    int
	evicted bool
}

// NewUser returns a user-level server with opts as every project's
// options (Cwd, ProjectDir and MoreProjectDirs are set per project) and at
// most maxProjects loaded at once (<= 0: DefaultMaxProjects). Nothing is
// loaded until a request names a project.
func NewUser(opts Options, maxProjects int) (*User, error) {
	if opts.ConfigPath == "" || opts.Store == nil {
		return nil, errors.New("server: Options.ConfigPath and Options.Store are required")
	}
	if maxProjects <= 0 {
		maxProjects = DefaultMaxProjects
	}
	opts = opts.withDefaults()
	return &User{base: opts, maxProjects: maxProjects, log: opts.Logger,
		slots:    make(chan struct{}, opts.MaxConcurrent),
		payloads: newPayloadBudget(payloadBudgetFor(opts.MaxBodyBytes)),
		lru:      list.New(), byKey: map[string]*list.Element{},
		loaded: make(chan struct{}, 1)}, nil
}

// Projects is the number of project sets loaded now.
func (u *User) Projects() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.lru.Len()
}

// errProject is a request whose project directories cannot be served.
type errProject struct {
	status int
	msg    string
}

func (e *errProject) Error() string { return e.msg }

// projectDirs reads and verifies the request's project directories and
// working directory; the key names the set.
func projectDirs(r *http.Request) (wd string, dirs []string, key string, err error) {
	q := r.URL.Query()
	for _, p := range q["project"] {
		if p != "" {
			dirs = append(dirs, p)
		}
	}
	if len(dirs) == 0 {
		return "", nil, "", &errProject{http.StatusBadRequest, "name the project: ?project=/absolute/project/dir (a user-level server serves every project)"}
	}
	wd = q.Get(QueryWorkdir)
	if wd == "" {
		wd = dirs[0]
	}
	for _, d := range append([]string{wd}, dirs...) {
		if err := verifyProjectDir(d); err != nil {
			return "", nil, "", err
		}
	}
	return wd, dirs, wd + "\x00" + strings.Join(dirs, "\x00"), nil
}

// verifyProjectDir refuses (409, as a per-project server refuses another
// project: the caller then decides by itself) a project directory the
// server must not load for a caller: a relative or unclean path, a path whose last component
// is a symlink (it could be pointed elsewhere between the check and the
// load, and the server keeps what it loaded by path), anything but a
// directory, and a directory this server's user cannot list (the caller,
// of the same user, could not load it either).
func verifyProjectDir(d string) error {
	if !filepath.IsAbs(d) || filepath.Clean(d) != d {
		return &errProject{http.StatusConflict, "project directory " + d + ": not an absolute, clean path"}
	}
	fi, err := os.Lstat(d)
	if err != nil {
		return &errProject{http.StatusConflict, "project directory " + d + ": " + pathErr(err)}
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return &errProject{http.StatusConflict, "project directory " + d + ": a symlink; name the directory it leads to"}
	}
	if !fi.IsDir() {
		return &errProject{http.StatusConflict, "project directory " + d + ": not a directory"}
	}
	if afterProjectLstat != nil {
		afterProjectLstat(d)
	}
	// Not os.Open: what is at d now may not be what Lstat saw.
	f, err := fsutil.OpenDir(d)
	if err == nil {
		_, err = f.Readdirnames(1)
		f.Close()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return &errProject{http.StatusConflict, "project directory " + d + ": " + pathErr(err)}
	}
	return nil
}

// afterProjectLstat, when a test sets it, runs between verifyProjectDir's
// look at a directory and its open: where a swap would land.
var afterProjectLstat func(d string)

// pathErr is an error without the path the message already names.
func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// acquire returns the project Server for the key, loading it if needed,
// with a reference the caller must release.
func (u *User) acquire(wd string, dirs []string, key string) (*userProject, error) {
	u.mu.Lock()
	if u.closed {
		u.mu.Unlock()
		return nil, errShutdown
	}
	if el, ok := u.byKey[key]; ok {
		p := el.Value.(*userProject)
		u.lru.MoveToFront(el)
		p.refs++
		u.mu.Unlock()
		<-p.ready
		if p.err != nil {
			u.release(p)
			return nil, p.err
		}
		if why := p.srv.moved(); why != "" {
			// Loaded from what the paths led to then: load it again
			// from what they lead to now.
			u.log.Info("project moved: loading it again", "project", dirs[0], "why", why)
			u.mu.Lock()
			if el, ok := u.byKey[key]; ok && el.Value == p {
				u.lru.Remove(el)
				delete(u.byKey, key)
				p.evicted = true
			}
			u.mu.Unlock()
			u.release(p)
			return u.acquire(wd, dirs, key)
		}
		return p, nil
	}
	p := &userProject{key: key, ready: make(chan struct{}), refs: 1}
	u.byKey[key] = u.lru.PushFront(p)
	u.evictLocked()
	watching := u.watching
	u.mu.Unlock()

	// Loaded outside the lock: another project's requests do not wait
	// for this config to be read.
	opts := u.base
	opts.Cwd, opts.ProjectDir, opts.MoreProjectDirs = wd, dirs[0], dirs[1:]
	opts.Logger = u.log.With("project", dirs[0])
	srv, err := New(opts)
	if err == nil {
		srv.routed = true
		srv.slots = u.slots // one bound for the whole server
		srv.payloads = u.payloads
		p.h = srv.Handler()
		if watching {
			p.stop = srv.startWatching()
		}
		u.log.Info("project loaded", "project", dirs[0], "wd", wd, "hooks", len(srv.cur.Load().cfg.Entries))
	}
	p.srv, p.err = srv, err
	close(p.ready)
	if err != nil {
		// A config that does not load is not kept: the next request
		// tries again (the caller, told why, decides by itself).
		u.mu.Lock()
		if el, ok := u.byKey[key]; ok && el.Value == p {
			u.lru.Remove(el)
			delete(u.byKey, key)
		}
		u.mu.Unlock()
		u.release(p)
		return nil, err
	}
	// Only now: the spool loop that wakes looks for a ready project.
	select {
	case u.loaded <- struct{}{}:
	default:
	}
	return p, nil
}

// evictLocked drops the least recently used projects beyond the bound.
// Called with u.mu held.
func (u *User) evictLocked() {
	for u.lru.Len() > u.maxProjects {
		el := u.lru.Back()
		p := el.Value.(*userProject)
		u.lru.Remove(el)
		delete(u.byKey, p.key)
		p.evicted = true
		if p.refs == 0 {
			go p.close(u.log)
		}
	}
}

// release ends a request's use of p.
func (u *User) release(p *userProject) {
	u.mu.Lock()
	p.refs--
	closeIt := p.evicted && p.refs == 0
	u.mu.Unlock()
	if closeIt {
		p.close(u.log)
	}
}

// close stops a dropped project's watcher, workers and journal.
func (p *userProject) close(log *slog.Logger) {
	<-p.ready
	if p.srv == nil {
		return
	}
	if p.stop != nil {
		p.stop()
	}
	p.srv.release()
	log.Info("project dropped", "project", p.srv.opts.ProjectDir)
}

// Handler routes each request to its project's Server; /healthz is the
// user-level server's own.
func (u *User) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", u.handleHealth)
	mux.HandleFunc("/", u.route)
	return mux
}

func (u *User) route(w http.ResponseWriter, r *http.Request) {
	wd, dirs, key, err := projectDirs(r)
	if err == nil {
		var p *userProject
		if p, err = u.acquire(wd, dirs, key); err == nil {
			defer u.release(p)
			p.h.ServeHTTP(w, r)
			return
		}
	}
	status := http.StatusConflict // the config does not load: the caller decides itself
	var pe *errProject
	if errors.As(err, &pe) {
		status = pe.status
	}
	u.log.Info("request refused", "path", echo(r.URL.Path), "status", status, "error", textutil.CutBytesSaying(err.Error(), maxError))
	writeError(w, status, apiError{Error: err.Error()})
}

// userHealth is a user-level server's GET /healthz.
type userHealth struct {
	Status   string `json:"status"`
	Mode     string `json:"mode"`
	Projects int    `json:"projects"`
}

func (u *User) handleHealth(w http.ResponseWriter, r *http.Request) {
	if !allowMethods(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	writeJSON(w, http.StatusOK, marshal(userHealth{Status: "ok", Mode: "user", Projects: u.Projects()}))
}

// Serve answers requests on ln until ctx ends, then stops every project
// (their hooks, workers and journals) and returns nil.
func (u *User) Serve(ctx context.Context, ln net.Listener) error {
	u.mu.Lock()
	if u.served {
		u.mu.Unlock()
		return errors.New("server: Serve called twice")
	}
	u.served, u.watching = true, true
	u.mu.Unlock()
	defer ln.Close()
	base, cancelBase := context.WithCancelCause(context.Background())
	defer cancelBase(nil)
	handler := tokenGuard(ln, u.log, u.Handler())
	lim := limitListener(ln, u.base.MaxConns)
	ln = lim
	hs := &http.Server{
		Handler:           handler,
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: u.base.HeaderTimeout,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(u.log.Handler(), slog.LevelWarn),
	}
	lim.attach(hs)
	u.log.Info("listening", "addr", addrString(ln.Addr()), "pid", os.Getpid(), "mode", "user",
		"config", u.base.ConfigPath, "max_projects", u.maxProjects)
	defer inBackground(u.flushSpool)()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), u.base.ShutdownTimeout)
	if err := hs.Shutdown(sctx); err != nil {
		cancelBase(errShutdown) // kills the hooks of dispatches still running
		hs.Close()
	}
	cancel()
	<-errc
	u.mu.Lock()
	u.closed = true
	var all []*userProject
	for el := u.lru.Front(); el != nil; el = el.Next() {
		all = append(all, el.Value.(*userProject))
	}
	u.lru.Init()
	clear(u.byKey)
	u.mu.Unlock()
	for _, p := range all {
		p.close(u.log)
	}
	u.log.Info("stopped")
	return nil
}

// flushSpool sends the one-shot records left in the export spool (hook
// processes that decided without a server) as a per-project serve does:
// when a project loads and every spoolEvery, through the most recently
// used project's exporter — the export: block is the user's config's (a
// repository cannot choose it), so every project's is the same. With no
// project loaded there is no config read yet, and nothing to flush by.
func (u *User) flushSpool(ctx context.Context) {
	t := time.NewTicker(spoolEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-u.loaded:
		}
		u.mu.Lock()
		var srv *Server
		for el := u.lru.Front(); el != nil && srv == nil; el = el.Next() {
			p := el.Value.(*userProject)
			select {
			case <-p.ready:
				srv = p.srv // nil when it did not load
			default:
			}
		}
		u.mu.Unlock()
		if srv != nil {
			srv.flushSpoolOnce(ctx)
		}
	}
}
