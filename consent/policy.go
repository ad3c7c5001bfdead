package consent

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

// isTruthy is Hermes' reading of an opt-in string: 1, true, yes or on, after
// trimming, in any case.
func isTruthy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// SafeMode reports whether a HERMES_SAFE_MODE value turns hooks off.
func SafeMode(env string) bool { return isTruthy(env) }

// EnvAccept reports whether a HERMES_ACCEPT_HOOKS value accepts hooks.
func EnvAccept(env string) bool { return isTruthy(env) }

// AutoAccept reports whether a decoded YAML value of hooks_auto_accept
// accepts hooks: only boolean true or a truthy string. Everything else,
// including the integer 1, null and the string "false", does not; Python
// truthiness once made "false" accept (Hermes #16244).
func AutoAccept(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return isTruthy(v)
	}
	return false
}

// EffectiveAccept combines the three accept channels: the --accept-hooks
// flag, the HERMES_ACCEPT_HOOKS value and the hooks_auto_accept config
// value. Any one of them accepts.
func EffectiveAccept(flag bool, env string, autoAccept any) bool {
	return flag || EnvAccept(env) || AutoAccept(autoAccept)
}

// Hook is what the gate needs to know about one configured hook.
type Hook struct {
	Event, Command string
	// Vars are the variables ScriptFile may expand in the script path
	// (CLAUDE_PROJECT_DIR for Claude-dialect hooks; HOME to override the
	// process's).
	Vars map[string]string
	// Dir is the directory relative script paths are resolved against;
	// empty means the process's working directory.
	Dir string
}

// Verdict is the gate's decision for one hook.
type Verdict struct {
	// Run says whether the hook may run now.
	Run bool
	// Reason says why, for logs and per-hook reports; when Run is false
	// it is the message to show.
	Reason string
	// Warning, when set, should be shown even though the hook runs (mtime
	// drift, an approval that could not be saved).
	Warning string
	// Approved is true when the pair is approved (allowlisted, or approved
	// during this call or earlier in this process), even if drift stops
	// it from running.
	Approved bool
	// Drift is the script comparison for approved hooks.
	Drift DriftKind
}

// Reasons given in Verdict.Reason.
const (
	ReasonSafeMode      = "safe mode (HERMES_SAFE_MODE)"
	ReasonAllowlisted   = "allowlisted"
	ReasonAccepted      = "approved by accept policy (--accept-hooks / HERMES_ACCEPT_HOOKS / hooks_auto_accept)"
	ReasonPrompted      = "approved at the prompt"
	ReasonThisRun       = "approved for this run (the allowlist could not be saved)"
	ReasonDeclined      = "declined at the prompt"
	ReasonPromptTimeout = "no answer at the prompt in time"
	ReasonPromptEOF     = "no answer at the prompt (end of input)"
	ReasonNoStore       = "no allowlist configured"
)

// NotAllowlistedMessage is the warning for a hook that is skipped because
// nobody approved it, in Hermes' wording followed by the command that
// approves it.
func NotAllowlistedMessage(event, command string) string {
	return fmt.Sprintf("shell hook for %s (%s) not allowlisted — skipped. Use --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true, or approve at the TTY prompt next run. Or run: %s",
		event, command, ApproveCommandHint(event, command))
}

// Policy is the consent gate the dispatcher asks before running any hook.
// Set its fields before the first Decide and do not change them after; a
// Policy must not be copied once used. It is safe for concurrent use.
type Policy struct {
	Store *Store
	// SafeMode runs nothing (HERMES_SAFE_MODE).
	SafeMode bool
	// Accept approves, and records, every hook not yet allowlisted (see
	// EffectiveAccept).
	Accept bool
	// Prompter, when it is a TTY, asks about hooks not yet allowlisted.
	Prompter *Prompter
	// Warn receives warnings for the user. Each distinct message is sent
	// once until the allowlist file changes, so a server dispatching the
	// same unapproved hook on every event does not flood its log. It is
	// called synchronously, possibly while a prompt is being serialised,
	// so it must not call Decide.
	Warn func(string)

	// snap is the parsed allowlist with the identity of the file version
	// it came from; Decide re-reads only when the file's identity changed.
	snap     atomic.Pointer[snapshot]
	reloadMu sync.Mutex

	mu sync.Mutex
	// session holds approvals granted in this process that could not be
	// saved; they hold until the process ends, as in Hermes.
	session map[pair]Entry
	// declined remembers prompts answered no (or not answered), so one
	// unattended prompt cannot stall every later event.
	declined map[pair]Answer
	warned   map[string]struct{}

	// promptMu serialises new approvals (prompts and accept-policy
	// writes); decisions about approved hooks never take it.
	promptMu sync.Mutex
	hashes   HashCache
	// tokens caches ScriptPath per command: tokenising is the most
	// expensive step of a Decide for an approved hook, and a dispatcher
	// asks about the same few configured commands over and over.
	tokens sync.Map // command → ScriptPath(command)
	ntoken atomic.Int32
}

// maxCachedTokens bounds the token cache for hosts that pass ever-new
// commands; past it commands are simply tokenised on every call.
const maxCachedTokens = 4096

// scriptFile is ScriptFile with the tokenisation cached.
func (p *Policy) scriptFile(h Hook) string {
	if tok, ok := p.tokens.Load(h.Command); ok {
		return locate(tok.(string), h.Vars, h.Dir)
	}
	tok := ScriptPath(h.Command)
	if p.ntoken.Load() < maxCachedTokens {
		if _, loaded := p.tokens.LoadOrStore(h.Command, tok); !loaded {
			p.ntoken.Add(1)
		}
	}
	return locate(tok, h.Vars, h.Dir)
}

type pair struct{ event, command string }

type snapshot struct {
	key    fileKey
	exists bool
	file   *File
}

// Decide says whether h may run, approving and recording it when an accept
// channel or the prompt allows. The order is: safe mode runs nothing; an
// allowlisted hook runs unless its script's content changed since approval
// (a changed mtime only warns); an accept policy approves and runs; a TTY
// prompt asks; otherwise the hook is skipped with a warning.
func (p *Policy) Decide(h Hook) Verdict {
	if p.SafeMode {
		return Verdict{Reason: ReasonSafeMode}
	}
	if p.Store == nil {
		return Verdict{Reason: ReasonNoStore}
	}
	k := pair{h.Event, h.Command}
	if v, ok := p.decideApproved(h, k); ok {
		return v
	}
	if p.Accept {
		// Serialised and re-checked like prompts, so that many goroutines
		// meeting the same new hook at once write one approval, not one
		// each.
		p.promptMu.Lock()
		defer p.promptMu.Unlock()
		if v, ok := p.decideApproved(h, k); ok {
			return v
		}
		return p.approve(h, k, ReasonAccepted)
	}
	if p.Prompter != nil && p.Prompter.IsTTY {
		return p.prompt(h, k)
	}
	msg := NotAllowlistedMessage(h.Event, h.Command)
	p.warn(msg)
	return Verdict{Reason: msg}
}

// decideApproved handles hooks that are already approved, in the file or in
// this process.
func (p *Policy) decideApproved(h Hook, k pair) (Verdict, bool) {
	reason := ReasonAllowlisted
	e, ok := p.current().file.Lookup(h.Event, h.Command)
	if !ok {
		p.mu.Lock()
		e, ok = p.session[k]
		p.mu.Unlock()
		reason = ReasonThisRun
	}
	if !ok {
		return Verdict{}, false
	}
	return p.checkScript(h, e, reason), true
}

// checkScript turns an approval into a verdict after comparing the script
// with it.
func (p *Policy) checkScript(h Hook, e Entry, reason string) Verdict {
	d := p.hashes.Check(e, p.scriptFile(h))
	v := Verdict{Run: true, Reason: reason, Approved: true, Drift: d.Kind}
	switch d.Kind {
	case DriftHash:
		v.Run = false
		v.Reason = d.Message() + "; re-approve with: " + ApproveCommandHint(h.Event, h.Command)
		p.warn(fmt.Sprintf("shell hook for %s (%s) not run: %s", h.Event, h.Command, v.Reason))
	case DriftMtime:
		v.Warning = fmt.Sprintf("shell hook for %s (%s): %s", h.Event, h.Command, d.Message())
		p.warn(v.Warning)
	}
	return v
}

// approve records an approval and lets the hook run. When saving fails the
// approval still holds in this process, and the user is told that they will
// be asked again next time.
func (p *Policy) approve(h Hook, k pair, reason string) Verdict {
	res, err := p.Store.ApproveHook(h)
	v := Verdict{Run: true, Reason: reason, Approved: true, Drift: DriftNone}
	if res.Backup != "" {
		p.warn(BackupNotice(p.Store.Path(), res.Backup))
	}
	if err != nil {
		v.Warning = PersistWarning(p.Store.Path(), err)
		p.warn(v.Warning)
		p.mu.Lock()
		if p.session == nil {
			p.session = make(map[pair]Entry)
		}
		p.session[k] = res.Entry
		p.mu.Unlock()
	}
	return v
}

// prompt asks at the terminal. Only one prompt is shown at a time; a caller
// that waited for another prompt re-checks first, since that prompt may
// have been about the same hook.
func (p *Policy) prompt(h Hook, k pair) Verdict {
	p.promptMu.Lock()
	defer p.promptMu.Unlock()
	if v, ok := p.decideApproved(h, k); ok {
		return v
	}
	p.mu.Lock()
	prev, asked := p.declined[k]
	p.mu.Unlock()
	if asked {
		return Verdict{Reason: declineReason(prev)}
	}
	ans := p.Prompter.Ask(h.Event, h.Command)
	if ans == AnswerYes {
		return p.approve(h, k, ReasonPrompted)
	}
	p.mu.Lock()
	if p.declined == nil {
		p.declined = make(map[pair]Answer)
	}
	p.declined[k] = ans
	p.mu.Unlock()
	return Verdict{Reason: declineReason(ans)}
}

func declineReason(a Answer) string {
	switch a {
	case AnswerTimeout:
		return ReasonPromptTimeout
	case AnswerEOF:
		return ReasonPromptEOF
	}
	return ReasonDeclined
}

func (p *Policy) warn(msg string) {
	if p.Warn == nil {
		return
	}
	p.mu.Lock()
	_, seen := p.warned[msg]
	if !seen {
		if p.warned == nil {
			p.warned = make(map[string]struct{})
		}
		p.warned[msg] = struct{}{}
	}
	p.mu.Unlock()
	if !seen {
		p.Warn(msg)
	}
}

// current returns the parsed allowlist, re-reading it only when the file's
// identity (size, mtime, ctime, inode) differs from the version last read.
// Writers replace the file by rename, so any change by any process shows as
// a new identity on the next call. (The one blind spot: two rewrites between
// two calls, within one tick of the file system's timestamp clock, that
// leave the same size and happen to reuse the first file's inode number.)
func (p *Policy) current() *snapshot {
	path := p.Store.Path()
	key, exists := statKey(path)
	if s := p.snap.Load(); s != nil && s.key == key && s.exists == exists {
		return s
	}
	p.reloadMu.Lock()
	defer p.reloadMu.Unlock()
	if s := p.snap.Load(); s != nil && s.key == key && s.exists == exists {
		return s
	}
	// A changed allowlist may change what is worth warning about (a
	// revoked hook is unapproved again), so warnings may repeat.
	p.mu.Lock()
	p.warned = nil
	p.mu.Unlock()
	s := p.read(path)
	p.snap.Store(s)
	return s
}

func statKey(path string) (fileKey, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileKey{}, false
	}
	return keyOf(fi), true
}

// read parses the allowlist and records the identity of the very file it
// read (from the open descriptor), so a replacement racing with the read is
// noticed on the next call.
func (p *Policy) read(path string) *snapshot {
	f, err := os.Open(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			p.warn(fmt.Sprintf("read allowlist %s: %v", path, err))
		}
		key, exists := statKey(path)
		if exists {
			// Keep the identity of what could not be read, so the
			// failure is not retried (and warned about) on every call.
			return &snapshot{key: key, exists: true, file: &File{}}
		}
		return &snapshot{file: &File{}}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return &snapshot{file: &File{}}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		p.warn(fmt.Sprintf("read allowlist %s: %v", path, err))
		return &snapshot{key: keyOf(fi), exists: true, file: &File{}}
	}
	file := parseFile(data)
	if file.Invalid != nil {
		p.warn(fmt.Sprintf("allowlist %s is treated as empty: %v", path, file.Invalid))
	}
	return &snapshot{key: keyOf(fi), exists: true, file: file}
}
