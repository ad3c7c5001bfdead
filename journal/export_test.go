package journal

import "github.com/hermes-hooks/hermes-hooks/internal/fsutil"

func lockForTest(p string) (func(), error) { return fsutil.Lock(p) }
