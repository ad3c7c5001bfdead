// Package cmdpin works out what a hook command runs and pins it, so that
// what was checked is what starts.
//
// # Contract
//
// [Resolve] turns a [Command] (its text, Hermes' word splitting or
// /bin/sh -c, the hook's own environment and directory) into a [Target]:
// the program to start, its argv, and every local file it runs (the
// program, the script an interpreter is handed, scripts named as
// arguments), or why it cannot be resolved exactly. The consent gate and
// the runner share that one Target, so they never disagree about which
// file runs. [Target.StartProblem] is the one verdict on why it cannot
// start.
//
// On Windows the rules are Windows' (winrules.go, winargs.go,
// winshells.go): a program is a file whose extension is in PATHEXT, found
// with `\`, drive letters and a case-insensitive environment; ~ is
// %USERPROFILE%; Hermes-dialect commands split as CommandLineToArgvW
// splits them; a batch file starts cmd.exe /d /s /c with a command line
// ([Target.CmdLine]) that refuses what cmd.exe would read as syntax; a
// .ps1 file starts pwsh (else powershell.exe) -File; Claude-dialect shell
// commands run through Git Bash.
//
// [Pin] opens and hashes a Target's files and keeps them open as [Pins];
// [Pins.Verify] immediately before the start, and [Pins.ExecPath] /
// [Pins.Start], make the hook run from the very bytes that were hashed (a
// binary through its descriptor, a small shell or Python script from a
// sealed in-memory copy), or fail. A missing file pins as the digest "",
// so that its later appearance counts as a change.
//
// [Cache] saves rehashing an unchanged large binary, in memory and, with
// Cache.File, in a digest file shared between processes; a digest is
// cached only where the file's stat identity vouches for its content
// (cachetrust.go). A cache never changes a verdict, only what it costs.
//
// This package decides nothing: whether a hook may run, and the approvals
// its digests are compared with, are package consent's. It imports no
// package of this module but internal/fsutil, internal/pyjson and
// internal/shquote.
package cmdpin
