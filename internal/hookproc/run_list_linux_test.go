//go:build linux && !hermes_portable

package hookproc

func runners() map[string]runner { return map[string]runner{"poll": runPoll, "exec": runExec} }
