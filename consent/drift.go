package consent

import (
	"fmt"
	"os"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
)

// DriftKind says how a script compares with its approval.
type DriftKind int

const (
	// DriftUnknown: nothing to compare (no hash and no usable mtime
	// recorded, the script is missing, or it is older than its approval).
	DriftUnknown DriftKind = iota
	// DriftNone: the script is unchanged since approval (same content
	// hash, or, for entries without one, the same mtime).
	DriftNone
	// DriftMtime: the entry has no content hash and the script's mtime is
	// later than recorded. Hermes' rule: warn, but run.
	DriftMtime
	// DriftHash: the recorded content hash no longer matches (or the
	// script can no longer be read). The hook must not run until it is
	// approved again.
	DriftHash
)

func (k DriftKind) String() string {
	switch k {
	case DriftNone:
		return "unchanged"
	case DriftMtime:
		return "mtime"
	case DriftHash:
		return "hash"
	default:
		return "unknown"
	}
}

// Drift is the result of comparing a script with its approval. Was and Now
// are what was compared: SHA-256 hex digests for DriftHash (Now is empty
// when the script cannot be read), timestamps in formatTimestamp form for
// the mtime rule.
type Drift struct {
	Kind     DriftKind
	Was, Now string
	// File is the file the drift is about when the command runs several
	// (or "" for the primary script).
	File string
	// Why, when set, replaces the standard wording (a file added to or
	// gone from what the command runs; an approval that predates pinning).
	Why string
}

// Message describes a drift for a person, or returns "" when there is
// nothing to say.
func (d Drift) Message() string {
	switch d.Kind {
	case DriftMtime:
		return fmt.Sprintf("script modified since approval (was %s, now %s)", d.Was, d.Now)
	case DriftHash:
		if d.Why != "" {
			return d.Why
		}
		what := "script"
		if d.File != "" {
			what = d.File
		}
		if d.Was == "" {
			return what + " appeared since approval (it did not exist then)"
		}
		now := "unreadable"
		if d.Now != "" {
			now = short(d.Now) + "…"
		}
		return fmt.Sprintf("%s changed since approval (sha256 %s… → %s)", what, short(d.Was), now)
	}
	return ""
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// checkDrift compares the script at path (see scriptFile) with entry e,
// using a process-wide hash cache. When e has a content hash, only content
// counts: a touched but unchanged script is DriftNone, and a missing or
// unreadable one is DriftHash, because a hook whose approved content cannot
// be confirmed must not run. Without a hash, the mtimes are compared as
// instants, not strings (Hermes #107513), so a recorded "12:00:00Z" equals
// an actual mtime of 12:00:00.000000.
func checkDrift(e Entry, path string) Drift {
	if was := e.ScriptSHA256AtApproval; was != "" {
		now, err := defaultHashes.Sum(path)
		if err != nil {
			return Drift{Kind: DriftHash, Was: was}
		}
		if strings.EqualFold(now, was) {
			return Drift{Kind: DriftNone, Was: was, Now: now}
		}
		return Drift{Kind: DriftHash, Was: was, Now: now}
	}
	return mtimeDrift(e.ScriptMtimeAtApproval, path)
}

// defaultHashes is the digest cache of this process's checks outside a
// Policy (Inspect, checkDrift).
var defaultHashes cmdpin.Cache

func mtimeDrift(recorded, path string) Drift {
	d := Drift{Kind: DriftUnknown, Was: recorded}
	if recorded == "" {
		return d
	}
	fi, err := os.Stat(path)
	if err != nil {
		return d
	}
	now := pyMtime(fi.ModTime())
	d.Now = formatTimestamp(now)
	at, err := parseTimestamp(recorded)
	if err != nil {
		return d
	}
	switch {
	case now.After(at):
		d.Kind = DriftMtime
	case now.Equal(at):
		d.Kind = DriftNone
	}
	return d
}
