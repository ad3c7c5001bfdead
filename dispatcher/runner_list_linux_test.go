//go:build linux

package dispatcher

func runners() map[string]runner { return map[string]runner{"poll": runPoll, "exec": runExec} }
