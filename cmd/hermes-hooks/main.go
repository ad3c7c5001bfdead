// Command hermes-hooks is the shell-hook dispatcher for AI agents. This
// binary is the front agents start once per event: it answers
// `hermes-hooks dispatch EVENT` and `hermes-hooks hook AGENT` itself, and
// hands every other command (list, test, approve, revoke, doctor, serve,
// install, log, …, and every --help) to the complete program,
// hermes-hooks-full, installed beside it.
//
// Why two binaries: Go runs every linked package's initialisation and
// touches a binary's tables at each start, whether a command uses them or
// not. The complete program links the server, the metrics, cobra and the
// report code; this one links only what a one-shot dispatch needs
// (package oneshot), which is most of what an event costs when no hook
// matches.
package main

import (
	"os"

	"github.com/hermes-hooks/hermes-hooks/internal/oneshot"
)

func main() {
	os.Exit(oneshot.Front(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
