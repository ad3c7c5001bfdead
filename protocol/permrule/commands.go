package permrule

import "fmt"

// Commands lists what a Bash command line runs, as far as its text shows,
// for a rule to judge (internal/rule's commands()): every simple command
// in it (in pipelines, lists, subshells, if/for/case bodies, $(…)), and
// what each runs in turn through wrappers (sudo, env, xargs, timeout …),
// command strings (sh -c, eval, ssh), find -exec and the rest shellRuns
// follows. Each is its words with quotes removed and escapes resolved,
// joined by spaces — the argv it will get — and a command named by a path
// is also listed by its base name: `sudo /bin/rm -r"f" x` lists
// "sudo /bin/rm -rf x", "/bin/rm -rf x" and "rm -rf x". A command that
// expands a variable the line gives values is also listed with each of
// them (values.go); any other word only known when the line runs ($X from
// elsewhere, $(…)) stays as written, and a command whose name is one is
// followed as an unknown wrapper (the name may expand to nothing, or to
// sudo): `$X rm -rf /` lists "$X rm -rf /" and "rm -rf /"; a command
// is also listed without its words that may expand to nothing (vanish.go).
// A wrapper given options it does not know is not followed. An error is a line whose commands cannot all be listed: it (or a
// command string it runs) does not parse as Bash, is longer than 64 KiB,
// nests deeper than the analysis follows, or runs what its text does not
// show (a pipe into a shell, BASH_ENV, a subscript run as arithmetic …:
// stopped and hides list them) — bash would still run what came before
// the part that cannot be read.
func Commands(command string) ([]string, error) {
	return CommandsUntil(command, nil)
}

// CommandsUntil is Commands, ending early with an error once stop reports
// true (checked at each command and each round of the line's values; nil:
// never): a caller whose time bound passed (a rule's) gets the analysis
// to end within one command's work, not run on for its length.
func CommandsUntil(command string, stop func() bool) ([]string, error) {
	if len(command) > maxShellCommand {
		return nil, fmt.Errorf("the command is longer than %d bytes, too long to analyse", maxShellCommand)
	}
	runs, err := analyzeRunsUntil(command, stop)
	if err != nil {
		return nil, fmt.Errorf("the command cannot be read as Bash: %v", err)
	}
	if runs.lost != "" {
		return nil, fmt.Errorf("not all of the command can be read: %s", runs.lost)
	}
	return runs.forms, nil
}
