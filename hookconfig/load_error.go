package hookconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// A config that does not load: its error, and the further problems of the
// same load that each would stop it too (those loadFail collects: rule
// entries, keys given twice, guards that would vanish; an alias bomb or an
// overlong rules: list stops at the first, as reading on would cost what
// the bound is for).

// errNamedMissing is a config named on purpose (LoadOptions.ConfigNamed)
// that is not there.
var errNamedMissing = errors.New("no such file (named by --config)")

// CheckNamed is Load's refusal of a named config that does not exist, for
// a caller that loads later (serve --user loads a project's config at its
// first request): nil when path exists, or cannot be looked at (Load
// reports that).
func CheckNamed(path string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return &ConfigError{Path: path, Err: errNamedMissing}
	}
	return nil
}

// ConfigError is a config that could not be read or parsed at all.
type ConfigError struct {
	Path string
	Line int // 0 when unknown
	// Column is the character on Line where the problem is (0: unknown).
	Column int
	Err    error
	Hint   string // what to do about it, when not "fix it, or --config"
	// More are the problems of the same kind found after this one in the
	// same load (at most maxMoreLoadErrors), each of which alone stops
	// it: validate lists them all, so that fixing one does not only show
	// the next.
	More []*ConfigError
	// Warnings are those of the file that failed, found before it did
	// (an unknown key, a matcher on an event without tools): validate
	// lists them beside the errors, not only once these are fixed.
	Warnings []Warning
	// Partial is what of the user's config did load, for validate to
	// check the rules and examples of its entries beside the errors (a
	// rule that does not compile, an example that fails): the entries
	// that parsed, and when the file parsed but a rule file it includes
	// did not, those read before. Nil when nothing did (a YAML syntax
	// error, a file that cannot be read). Nothing runs from it.
	Partial *Config
}

// maxMoreLoadErrors bounds ConfigError.More: a file of a thousand broken
// rules must not make a thousand-line error.
const maxMoreLoadErrors = 50

// loadFail records e as the load's error, or, when it has one, as one
// more of its problems.
func (cfg *Config) loadFail(e *ConfigError) {
	first, ok := cfg.loadErr.(*ConfigError)
	switch {
	case cfg.loadErr == nil:
		cfg.loadErr = e
	case ok && len(first.More) < maxMoreLoadErrors:
		first.More = append(first.More, e)
	}
}

// Error names the file once: "config PATH: no such file or directory",
// not Go's "config PATH: open PATH: …".
func (e *ConfigError) Error() string {
	more := ""
	if n := len(e.More); n > 0 {
		more = fmt.Sprintf(" (and %d more: 'hermes-hooks validate' lists them)", n)
	}
	if e.Line > 0 {
		return fmt.Sprintf("config %s:%d: %v%s", e.Path, e.Line, e.Err, more)
	}
	return fmt.Sprintf("config %s: %v%s", e.Path, fsutil.WithoutPath(e.Path, e.Err), more)
}

func (e *ConfigError) Unwrap() error { return e.Err }
