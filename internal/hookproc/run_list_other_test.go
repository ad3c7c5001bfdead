//go:build unix && (!linux || hermes_portable)

package hookproc

func runners() map[string]runner { return map[string]runner{"exec": runExec} }
