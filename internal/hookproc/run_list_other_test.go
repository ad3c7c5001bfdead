//go:build unix && !linux

package hookproc

func runners() map[string]runner { return map[string]runner{"exec": runExec} }
