package report

import (
	"errors"
	"io/fs"
	"os"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/consent"
)

// MissingScript is the file a hook runs that does not exist ("" when every
// one does, or it runs none of its own): approve refuses to approve a
// script that is not there.
func MissingScript(h consent.Request, st *HookStatus) string {
	if st != nil && !st.Entry.RunsCommand() {
		return "" // an http hook runs no file; a handler that cannot run here neither
	}
	t := consent.Inspect(h, nil).Target
	for _, f := range t.Files {
		if slices.Contains(t.Optional, f) {
			continue // a place a module may be, not where it must be
		}
		if _, err := os.Stat(f); errors.Is(err, fs.ErrNotExist) {
			return f
		}
	}
	return ""
}
