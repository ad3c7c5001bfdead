//go:build unix && !linux

package dispatcher

func runners() map[string]runner { return map[string]runner{"exec": runExec} }
