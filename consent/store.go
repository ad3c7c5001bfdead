package consent

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

const (
	// fileName is the allowlist's name inside HERMES_HOME.
	fileName = "shell-hooks-allowlist.json"
	// tempPattern names the temporary files of atomic writes; Hermes uses
	// the same pattern, so stale temporaries of either tool look alike.
	tempPattern = ".shell-hooks-allowlist_*.tmp"
	// staleTempAge is how old a temporary file must be before a writer
	// holding the lock deletes it as the leftover of a killed writer. Every
	// writer holds the lock while its temporary exists, so any temporary
	// seen under the lock is already stale; the age margin only protects a
	// writer that does not follow the locking protocol.
	staleTempAge = time.Minute
)

// Store reads and changes one allowlist file. Its methods may be called from
// many goroutines and processes at once; changes are serialised by an
// exclusive lock on a sibling lock file.
type Store struct {
	// Now is the clock used for approved_at. Tests replace it; nil means
	// time.Now.
	Now func() time.Time

	home string

	// createTemp is os.CreateTemp; tests replace it to inject write
	// failures and to observe temporary file names.
	createTemp func(dir, pattern string) (*os.File, error)
}

// NewStore returns the Store for the allowlist in the given HERMES_HOME
// directory. The directory need not exist yet; the first change creates it.
func NewStore(home string) *Store {
	return &Store{home: home}
}

// Home is the directory holding the allowlist.
func (s *Store) Home() string { return s.home }

// Path is the allowlist file's path.
func (s *Store) Path() string { return filepath.Join(s.home, fileName) }

// LockPath is the path of the lock file that serialises changes.
func (s *Store) LockPath() string { return s.Path() + ".lock" }

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Load reads the allowlist without locking: the file is only ever replaced
// by an atomic rename, so a reader sees either the old or the new content.
// It never returns a nil File. A missing file is an empty allowlist. A file
// that is not a valid allowlist is empty with File.Invalid set. A file that
// exists but cannot be read is empty and the read error is returned; callers
// that only need an answer may use the empty File and report the error.
func (s *Store) Load() (*File, error) {
	data, err := fsutil.ReadFile(s.Path())
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &File{}, nil
		}
		return &File{}, fmt.Errorf("read allowlist: %w", err)
	}
	return parseFile(data), nil
}

// Lookup loads the allowlist and returns the entry approving
// (event, command), if any.
func (s *Store) Lookup(event, command string) (Entry, bool, error) {
	f, err := s.Load()
	e, ok := f.Lookup(event, command)
	return e, ok, err
}

// ApproveResult describes a completed (or attempted) approval.
type ApproveResult struct {
	// Existed is true when the pair was already approved; the old entry
	// was replaced, so exactly one entry remains with fresh timestamps.
	Existed bool
	// Entry is the approval as written. It is filled in even when writing
	// failed, so that a caller can keep the approval for this run.
	Entry Entry
	// Backup, when not empty, is where an invalid allowlist file was moved
	// before the new one was written; the CLI should tell the user.
	Backup string
	// TextOnly, when set, says why the files the command runs cannot be
	// determined: the approval covers its text only.
	TextOnly string
}

// RevokeResult describes a completed revocation.
type RevokeResult struct {
	// Removed is how many entries had the command (any event).
	Removed int
	// Entries are the entries removed, and Kept those of the command (and
	// event) that the revocation's pick passed over (RevokeSelected), in
	// file order: what the person is told was taken, and from where.
	Entries, Kept []Entry
	// Backup is as in ApproveResult.
	Backup string
}

// Approve records consent for (event, command), locating the script
// relative to the process's working directory and environment. See
// ApproveHook.
func (s *Store) Approve(event, command string) (ApproveResult, error) {
	return s.ApproveHook(Request{Event: event, Command: command})
}

// ApproveHook records consent for (h.Event, h.Command) in h.Scope: it
// removes every entry with exactly that key and appends a fresh one
// carrying the current time, every file the command runs (Resolve) with
// its SHA-256, and — for Hermes, which reads it — the mtime of the script
// Hermes would name. The change is persisted before ApproveHook returns; an
// error means it was not, and wraps the OS error.
func (s *Store) ApproveHook(h Request) (ApproveResult, error) {
	t := h.target()
	pins := cmdpin.Pin(t, nil)
	defer pins.Close()
	if h.Reviewed != nil {
		if d := compareFiles(h.Reviewed, "", t, pins); d.Kind == DriftHash {
			path := d.File
			if path == "" && len(t.Files) > 0 {
				path = t.Files[0] // the primary script, which a drift leaves unnamed
			}
			return ApproveResult{}, &ChangedSinceReviewError{Path: path}
		}
	}
	return s.approvePinned(&h, t, pins, 0)
}

// ChangedSinceReviewError is ApproveHook's refusal of a hook whose files
// are not what the person approving it was shown (Request.Reviewed): Path
// changed, is run now but was not shown, or was shown but is no longer run.
type ChangedSinceReviewError struct{ Path string }

func (e *ChangedSinceReviewError) Error() string {
	return e.Path + " changed since it was listed for review; nothing was approved for it"
}

// approvePinned records the approval of h from files already opened and
// hashed, so that what is recorded is exactly what the caller then runs.
// lockWait bounds the wait for the allowlist's lock (0: no bound).
func (s *Store) approvePinned(h *Request, t *cmdpin.Target, pins *cmdpin.Pins, lockWait time.Duration) (ApproveResult, error) {
	var mtime string
	if fi, err := os.Stat(h.hermesScript()); err == nil {
		mtime = formatTimestamp(pyMtime(fi.ModTime()))
	}
	files := records(t, pins)
	primary := ""
	if len(files) > 0 {
		primary = files[0].SHA256
	}
	e := Entry{
		Event: h.Event, Command: h.Command, ApprovedAt: formatTimestamp(s.now()),
		ScriptMtimeAtApproval: mtime, ScriptSHA256AtApproval: primary,
		Files: files, TextOnly: t.Opaque != "", TextOnlyAck: t.Opaque != "" && h.AckTextOnly, SpecSHA256: specDigest(t.Spec), Scope: h.Scope,
		RuleID: h.RuleID,
	}
	if !h.Scope.Global() {
		link(&e, h.Scope, t)
	}
	res := ApproveResult{Entry: newEntry(e)}
	backup, err := s.mutate(lockWait, func(f *File) {
		list := f.list(h.Scope)
		kept := (*list)[:0]
		for _, e := range *list {
			if e.matchesIn(h.Event, h.Command, h.Scope) {
				res.Existed = true
				continue
			}
			kept = append(kept, e)
		}
		*list = append(kept, res.Entry)
	})
	res.Backup, res.TextOnly = backup, t.Opaque
	return res, err
}

// Revoke removes every entry whose command is exactly command, for any
// event and any scope (global and project approvals alike), and returns how
// many it removed. The file is rewritten even when
// nothing matched, so a fresh home gets its directory, lock file and an
// empty allowlist, as with Hermes.
func (s *Store) Revoke(command string) (removed int, err error) {
	r, err := s.RevokeDetail(command)
	return r.Removed, err
}

// RevokeDetail is Revoke, also reporting whether an invalid file was moved
// aside.
func (s *Store) RevokeDetail(command string) (RevokeResult, error) {
	return s.RevokeSelected(command, nil, nil)
}

// RevokeSelected is RevokeDetail for the approvals whose event the
// predicate event accepts (nil: every event; `revoke --event E` revokes
// that one) and that pick accepts (nil: all of them); the command's other
// entries stay and are listed in Kept. The
// pick is made under the lock, on the file as it is then: `revoke` in a
// project takes that project's approvals (Entry.OfProject) and the
// global ones, never another repository's of the same command text,
// which is a different hook (Scope).
func (s *Store) RevokeSelected(command string, event func(string) bool, pick func(Entry) bool) (RevokeResult, error) {
	var res RevokeResult
	backup, err := s.mutate(0, func(f *File) {
		for _, list := range []*[]Entry{&f.Approvals, &f.Projects} {
			kept := (*list)[:0]
			for _, e := range *list {
				if e.commandIs(command) && (event == nil || e.Event != "" && event(e.Event)) {
					if pick == nil || pick(e) {
						res.Removed++
						res.Entries = append(res.Entries, e)
						continue
					}
					res.Kept = append(res.Kept, e)
				}
				kept = append(kept, e)
			}
			*list = kept
		}
	})
	res.Backup = backup
	return res, err
}

// mutate runs one locked read-modify-write cycle and returns the path of the
// backup it made of an invalid file, if any. lockWait bounds the wait for
// the lock (0: wait as long as it takes, for the CLI's approve and revoke,
// which a person can interrupt).
func (s *Store) mutate(lockWait time.Duration, change func(*File)) (backup string, err error) {
	if err := os.MkdirAll(s.home, 0o700); err != nil {
		return "", fmt.Errorf("create allowlist directory: %w", err)
	}
	unlock, err := s.lock(lockWait)
	if err != nil {
		return "", fmt.Errorf("lock allowlist: %w", err)
	}
	defer unlock()

	path := s.Path()
	f := &File{}
	data, err := fsutil.ReadFile(path)
	switch {
	case err == nil:
		f = parseFile(data)
	case errors.Is(err, fs.ErrNotExist):
	default:
		// Moving an unreadable file aside could lose approvals to a
		// transient error (too many open files, EIO); refusing the change
		// leaves everything as it was and the caller warns the user.
		return "", fmt.Errorf("read allowlist: %w", err)
	}
	if f.Invalid != nil && len(bytes.TrimSpace(pyjson.SkipBOM(data))) > 0 {
		// Never overwrite what the user may have hand-edited and
		// broken; keep it next to the new file.
		backup, err = s.backupCorrupt(path)
		if err != nil {
			return "", err
		}
		f = &File{}
	}
	s.removeStaleTemps()

	change(f)
	if err := s.writeAtomic(f.encode()); err != nil {
		return backup, err
	}
	return backup, nil
}

// lock takes the allowlist's lock, waiting at most wait when it is set.
func (s *Store) lock(wait time.Duration) (unlock func(), err error) {
	if wait <= 0 {
		return fsutil.Lock(s.LockPath())
	}
	f, err := fsutil.OpenLockFile(s.LockPath())
	if err != nil {
		return nil, err
	}
	release, err := fsutil.FlockWithin(f, wait)
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { release(); f.Close() }, nil
}

// backupCorrupt renames the invalid allowlist to a unique
// ".corrupt-<UTC time>" name. It runs under the lock, so checking that the
// name is free before renaming cannot race with another writer of ours.
func (s *Store) backupCorrupt(path string) (string, error) {
	stamp := s.now().UTC().Format("20060102T150405.000000000Z")
	for i := 0; ; i++ {
		name := path + ".corrupt-" + stamp
		if i > 0 {
			name += fmt.Sprintf("-%d", i)
		}
		if _, err := os.Lstat(name); err == nil {
			continue
		}
		if err := os.Rename(path, name); err != nil {
			return "", fmt.Errorf("back up invalid allowlist: %w", err)
		}
		return name, nil
	}
}

// removeStaleTemps deletes temporary files left by writers that were killed
// between creating and renaming them. Failure is harmless: the files only
// take space.
func (s *Store) removeStaleTemps() {
	names, err := filepath.Glob(filepath.Join(s.home, tempPattern))
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-staleTempAge)
	for _, name := range names {
		if fi, err := os.Lstat(name); err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(cutoff) {
			_ = os.Remove(name)
		}
	}
}

// writeAtomic replaces the allowlist with data so that, whatever happens
// (crash, SIGKILL, full disk), the file holds either its old or its new
// content (see fsutil.WriteAtomic).
func (s *Store) writeAtomic(data []byte) error {
	if err := fsutil.WriteAtomic(s.Path(), data, 0o600, tempPattern, s.createTemp); err != nil {
		return fmt.Errorf("write allowlist: %w", err)
	}
	return nil
}

// PersistWarning is the warning to show when an approval could not be
// written. It keeps Hermes' wording so that users (and log greps) recognise
// it.
func PersistWarning(path string, err error) string {
	return fmt.Sprintf("Failed to persist shell hook allowlist to %s: %v. The approval holds for this run only; you will be asked again (re-prompt) next time.", path, err)
}

// BackupNotice tells the user that an invalid allowlist was moved aside.
func BackupNotice(path, backup string) string {
	return fmt.Sprintf("shell hook allowlist %s was not valid JSON; it was kept as %s and a new allowlist was written", path, backup)
}

// ApproveCommandHint is the command line that approves (event, command)
// without a prompt, quoted for a POSIX shell.
func ApproveCommandHint(event, command string) string {
	return commandHint(event, command, "")
}

// ApproveTextOnlyHint is the command that approves a hook by its text only,
// knowingly (see Entry.TextOnlyAck).
func ApproveTextOnlyHint(event, command string) string {
	return commandHint(event, command, " --text-only")
}

// NeedsTextOnlyAck reports whether a hook that runs t needs an approval
// given knowingly by text only before it may guard (fail_closed): its
// files cannot be determined, so its approval pins nothing it runs. An
// http endpoint is exempt: what it sends is pinned (Target.Spec), and no
// approval could pin the code of a remote server.
func NeedsTextOnlyAck(failClosed bool, t *cmdpin.Target) bool {
	return failClosed && t.Opaque != "" && t.Spec == ""
}
