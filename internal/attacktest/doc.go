// Package attacktest holds the regression tests of hermes-hooks' security
// promises that need real processes and many of them: a script swapped
// while one-shot dispatches run, descendants that escape their hook's
// process group, a dispatcher that dies. They drive the real binary, built
// once without the race detector (the attacks are timing games, and the
// race runtime would only slow the attacker down), and never touch the
// user's files.
//
// Set HERMES_HOOKS_TEST_BINARY to run them against another build, such as an
// older release, to see each attack succeed there.
package attacktest
