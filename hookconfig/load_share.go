package hookconfig

import (
	"strconv"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
)

// loadShare is what the files of one load spend together: a config and
// the rule files it includes, nested ones too. A bound per file let a
// hooks file naming 64 rule files cost 64 times what one file may, on
// every dispatch for a repository's, before consent was asked about any
// of it: so the costly bounds are the load's.
type loadShare struct {
	// merges: the keys merge keys (<<) may still copy.
	merges *pyyaml.MergeBudget
	// searched counts the did-you-mean searches made, at most
	// maxSearchesPerFile.
	searched int
	// included counts the warnings the included files' parses gave that
	// are kept (maxWarningsPerFile), and dropped those left out past it.
	included, dropped int
	// skipBuiltinExamples: LoadOptions.SkipBuiltinExamples, for the load's
	// every file (a project's and a bundle's take the config's).
	skipBuiltinExamples bool
}

func newLoadShare() *loadShare {
	return &loadShare{merges: pyyaml.NewMergeBudget(0)}
}

// shared is cfg's load's share (one of its own for a Config that was not
// parsed within one).
func (cfg *Config) shared() *loadShare {
	if cfg.share == nil {
		cfg.share = newLoadShare()
	}
	return cfg.share
}

// skipsExamples says whether cfg, a file being parsed, is a built-in rule
// file whose examples its load does not read (SkipBuiltinExamples).
func (cfg *Config) skipsExamples() bool {
	return cfg.share != nil && cfg.share.skipBuiltinExamples && IsBuiltin(cfg.Path)
}

// keepWarnings is the warnings an included file's parse gave (ws) that
// its load still shows: together its included files show what one file
// may. Each file's are kept to maxWarningsPerFile already; 64 of them
// printed 6,000 warnings, megabytes, at every dispatch.
func (s *loadShare) keepWarnings(ws []Warning) []Warning {
	n := min(len(ws), max(maxWarningsPerFile-s.included, 0))
	s.included += n
	s.dropped += len(ws) - n
	return ws[:n]
}

// droppedWarning is the warning that says how many of the warnings of
// cfg's included files were left out (ok false: none was).
func (s *loadShare) droppedWarning(cfg *Config) (w Warning, ok bool) {
	if s.dropped == 0 {
		return Warning{}, false
	}
	return Warning{Path: cfg.Path, File: cfg.Path, Message: strconv.Itoa(s.dropped) +
		" more warnings about the rule files it includes are not shown; fix the ones above first"}, true
}
