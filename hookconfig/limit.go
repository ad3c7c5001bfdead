package hookconfig

import "fmt"

// entryLimit counts the hook definitions of one file against a cap.
type entryLimit struct {
	max, seen int // max 0: no cap
	warned    bool
}

// admit counts one hook definition of file and reports whether it may be
// read. Past the cap the rest of the file is ignored, with one warning:
// a repository must not be able to make every dispatch slow by listing
// tens of thousands of hooks (each costs a matcher and a consent check per
// event). What is left unread is asked one question, by the caller:
// whether a guard would vanish with it (pastCapGuard).
func (cfg *Config) admit(file string) bool {
	l := &cfg.limit
	if l.max <= 0 {
		return true
	}
	if l.seen < l.max {
		l.seen++
		return true
	}
	if !l.warned {
		l.warned = true
		cfg.warn(file, fmt.Sprintf("declares more than %d hooks; only the first %d are read (a repository's hook file may declare at most %d)", l.max, l.max, l.max))
	}
	return false
}
