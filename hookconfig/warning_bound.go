package hookconfig

import (
	"strconv"
	"unicode/utf8"
)

// A repository's files are read, and their warnings printed, at every
// dispatch; a refusal's reason goes to the model. The warnings quote what
// the file says (an event name, a matcher, a timeout, a path), and a file
// of a megabyte could otherwise make each of them a megabyte, twice over
// when a name is both the key path and the message. The bound is applied
// once, to every warning Load returns, rather than at each of the places
// that quote a value: a new warning cannot forget it.

func (cfg *Config) warn(path, msg string) {
	cfg.Warnings = append(cfg.Warnings, Warning{Path: path, Message: msg, File: cfg.Path})
}

// warnKey is warn for a warning whose Path does not locate it (Hermes'
// wording names the key in the message).
func (cfg *Config) warnKey(key, path, msg string) {
	cfg.Warnings = append(cfg.Warnings, Warning{Path: path, Message: msg, File: cfg.Path, Key: key})
}

// warnMinor is warn for a minor warning (see Warning.Minor).
func (cfg *Config) warnMinor(path, msg string) {
	cfg.Warnings = append(cfg.Warnings, Warning{Path: path, Message: msg, File: cfg.Path, Minor: true})
}

// boundWarnings keeps at most maxWarningsPerFile warnings per file, and a
// last one per file saying how many more there were, and cuts each to
// maxWarningBytes as printed: one file of 100,000 unknown keys must not
// print 100,000 lines at every dispatch, nor drown another file's.
func boundWarnings(ws []Warning) []Warning {
	per := map[string]int{}
	var over []string // files with warnings left out, in order
	kept := ws[:0]
	for _, w := range ws {
		if per[w.File]++; per[w.File] > maxWarningsPerFile {
			if per[w.File] == maxWarningsPerFile+1 {
				over = append(over, w.File)
			}
			continue
		}
		w.Path = boundEcho(w.Path, maxWarningPathBytes)
		w.Key = boundEcho(w.Key, maxWarningPathBytes)
		w.File = boundEcho(w.File, maxWarningPathBytes)
		w.Message = boundEcho(w.Message, maxWarningBytes-maxWarningPathBytes-2)
		kept = append(kept, w)
	}
	for _, f := range over {
		shown := boundEcho(f, maxWarningPathBytes)
		kept = append(kept, Warning{Path: shown, File: shown, Message: strconv.Itoa(per[f]-maxWarningsPerFile) +
			" more warnings about this file are not shown; fix the ones above first"})
	}
	return kept
}

// unknownEvent is the warning for an unknown event name, worded by
// wording (with a did-you-mean, which compares the name with every
// event's: 0.1 ms) only while the file's warnings are still shown, and
// only for a name that could be near one (maxSuggestedName).
//
// maxSuggestedName: difflib's ratio of names n and c bytes long is at
// most 2c/(n+c), under the 0.6 cutoff once n > 7c/3; no event's name is
// 80 bytes. suggest passes over an event name so far from the name's
// length, so a megabyte-long name costs some 3 ms, not the ten seconds
// scoring it against every event once did. The bound stays for the
// wording: a name that long is near no event, and its warning is the
// plain "unknown hook event", without the list of every valid one.
const maxSuggestedName = 200

func (cfg *Config) unknownEvent(name string, wording func(string) string) string {
	if len(name) > maxSuggestedName || !cfg.maySearch() {
		return "unknown hook event '" + name + "'"
	}
	return wording(name)
}

// nearKey is nearKey within the file's did-you-mean searches: a key unlike
// any known one is no warning (it may be a newer agent's), but finding
// that out compares it with each known key, so 50,000 of them in a
// repository's file cost seconds at every dispatch while printing nothing.
func (cfg *Config) nearKey(k string, known []string) string {
	if !cfg.maySearch() {
		return ""
	}
	return nearKey(k, known)
}

// maySearch counts one did-you-mean search against the bound of the file
// and the files loaded with it (loadShare) and reports whether it may be
// made.
func (cfg *Config) maySearch() bool {
	s := cfg.shared()
	if s.searched >= maxSearchesPerFile || cfg.manyWarnings() {
		return false
	}
	s.searched++
	return true
}

// manyWarnings: the file has more warnings than will be shown, so a
// costly one (a did-you-mean) need not be worded.
func (cfg *Config) manyWarnings() bool { return len(cfg.Warnings) >= maxWarningsPerFile }

// boundEcho keeps s when it is at most max bytes, else its head and tail
// around a note of how much was left out: the tail holds what the message
// says about the value ("…'; skipped", "… is invalid"), the head what it
// is about. Cuts fall on rune boundaries.
func boundEcho(s string, max int) string {
	if len(s) <= max {
		return s
	}
	note := "…[" + strconv.Itoa(len(s)) + " bytes, cut]…"
	keep := (max - len(note)) / 2
	head, tail := keep, len(s)-keep
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + note + s[tail:]
}

// warnWritable warns of the user's own file at path that another user
// can write or replace (othersMayWrite): what it says is trusted as the
// user's (its rules run unapproved, hooks_auto_accept approves its hooks).
func (cfg *Config) warnWritable(path string) {
	if why := othersMayWrite(path); why != "" {
		cfg.Warnings = append(cfg.Warnings, Warning{Path: path, File: path,
			Message: why + "; what it says is trusted as yours (its rules run without approval): make it yours alone (chmod go-w, or move it)"})
	}
}
