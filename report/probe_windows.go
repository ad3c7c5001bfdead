package report

import "github.com/hermes-hooks/hermes-hooks/internal/fsutil"

// restrictProbe gives doctor's probe folder an access list that lets this
// user alone in, inherited by the token file made in it: on Windows
// `hook` honours a probe only then (its Unix mode means nothing there).
func restrictProbe(dir string) error { return fsutil.RestrictToUser(dir, true) }
