package permrule

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command's output that the shell then runs — eval "$(X)", sh -c
// "$(X)", source <(X), or $(X) as a command's name — is code no text of
// the line shows: eval "$(echo r''m -rf /)" runs rm -rf /, and the forms
// held only echo. Where X is a single command whose output its program
// writes itself (a shell's setup idioms: eval "$(ssh-agent -s)", source
// <(kubectl completion bash); a program lookup: $(which python3)),
// running that output is as opaque as running the program, which the
// analysis lets be; any other producer is a part it cannot read
// (stopped).

// setupForms are the programs whose output shell setup runs as code, by
// base name, with the operands that ask for that code ("": none); a
// completionPrograms' `completion` first operand (completionOperands) is
// one too.
var setupForms = map[string][]string{
	"ssh-agent": {"", "-s", "-c", "-k"}, "gpg-agent": {"--daemon"}, "dbus-launch": {"--sh-syntax"},
	"pyenv": {"init", "virtualenv-init"}, "rbenv": {"init"}, "nodenv": {"init"}, "goenv": {"init"},
	"jenv": {"init"}, "plenv": {"init"},
	"direnv": {"hook", "export"}, "brew": {"shellenv"}, "path_helper": {"-s", "-c"},
	"starship": {"init"}, "zoxide": {"init"}, "atuin": {"init"}, "mcfly": {"init"}, "oh-my-posh": {"init"},
	"fnm": {"env"}, "mise": {"activate", "env"}, "rtx": {"activate", "env"}, "fzf": {"--bash", "--zsh"},
	"conda": {"shell.bash", "shell.zsh", "shell.posix"}, "mamba": {"shell"}, "micromamba": {"shell"},
	"opam": {"env"}, "luarocks": {"path"}, "dircolors": {"", "-b", "--sh"}, "keychain": {"--eval"},
	"thefuck": {"--alias"}, "minikube": {"docker-env", "podman-env"}, "docker-machine": {"env"},
	"aws": {"configure export-credentials --format env", "configure export-credentials"}, "op": {"signin"}, "hub": {"alias"}, "poetry": {"env activate"},
	"pixi": {"shell-hook"}, "devbox": {"shellenv", "global shellenv"}, "pdm": {"venv activate"},
}

// completionPrograms print their own completion script for `completion`
// (or `completions` …). Not any program: `paste completion`, `sh
// completion`, `git completion` (an alias) print or run what a file or
// the repository holds.
var completionPrograms = map[string]bool{
	"kubectl": true, "helm": true, "gh": true, "glab": true, "docker": true, "podman": true, "npm": true,
	"pnpm": true, "yarn": true, "deno": true, "bun": true, "rustup": true, "poetry": true, "pip": true,
	"pip3": true, "pipx": true, "uv": true, "ruff": true, "just": true, "task": true, "op": true,
	"flux": true, "argocd": true, "istioctl": true, "oc": true, "k3d": true, "kind": true, "minikube": true,
	"kustomize": true, "eksctl": true, "doctl": true, "hugo": true, "golangci-lint": true, "cobra-cli": true,
	"skaffold": true, "tilt": true, "velero": true, "stern": true, "chezmoi": true, "restic": true,
	"rclone": true, "hcloud": true, "vercel": true, "supabase": true, "flyctl": true, "fly": true,
	"wrangler": true, "nx": true, "pulumi": true, "tailscale": true, "ollama": true, "mise": true,
	"fnm": true, "starship": true, "zoxide": true, "atuin": true, "cilium": true, "kubebuilder": true,
	"operator-sdk": true, "kn": true, "tkn": true, "gcloud": true, "az": true, "terraform-docs": true,
}

// completionOperands ask a program for its shell completion script
// (kubectl completion bash, rustup completions zsh, uv
// generate-shell-completion bash).
var completionOperands = map[string]bool{"completion": true, "completions": true, "--completion": true, "--completions": true,
	"generate-shell-completion": true}

// valueOutput: argv's output is its program's own value (a path, a
// number, a name the machine gives), which a command string can have as
// an operand (sh -c "cd $(git rev-parse --show-toplevel) && make"), from
// a short list (valuePrograms): not a file's text, a download, what a
// program prints of its operands (echo) or of the environment (printenv),
// nor, of these, a form that prints names others chose (a branch's:
// git rev-parse --abbrev-ref; a process's command line: pgrep -a) or
// text of the line (date's %n, a newline). Left: `pwd` after a cd into a
// directory the line names, `go env` of a variable the line exports.
func valueOutput(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	ops, ok := valuePrograms[argv[0]]
	if !ok || ops != nil && (len(argv) < 2 || !slices.Contains(ops, argv[1])) {
		return false
	}
	for _, a := range argv[1:] {
		if otherText[a] || argv[0] == "date" && dateLine.MatchString(a) {
			return false
		}
	}
	return argv[0] != "docker" || slices.ContainsFunc(argv, func(a string) bool { return a == "-q" || a == "-aq" || a == "-qa" || a == "--quiet" })
}

var valuePrograms = map[string][]string{
	"pwd": nil, "nproc": nil, "whoami": nil, "id": nil, "hostname": nil, "uname": nil, "arch": nil,
	"mktemp": nil, "date": nil, "pgrep": nil,
	"git": {"rev-parse"}, "go": {"env", "list"}, "npm": {"bin", "root", "prefix"}, "yarn": {"bin"}, "pnpm": {"bin", "root"}, "brew": {"--prefix", "--cellar"},
	"pyenv": {"root", "prefix"}, "rbenv": {"root", "prefix"}, "xcode-select": {"-p", "--print-path"},
	"lsof": {"-t", "-ti"}, "docker": {"ps"},
}

// otherText are the value programs' options that print names or text
// others chose.
var otherText = map[string]bool{"--abbrev-ref": true, "--symbolic": true, "--symbolic-full-name": true,
	"--sq-quote": true, "--parseopt": true, "-a": true, "-l": true, "--list-full": true, "--list-name": true,
	"--format": true, "-f": true}

// dateLine: a date format that makes a newline or a tab (%n, %-n, %10t).
var dateLine = regexp.MustCompile(`%[-_0^#]*[0-9]*[nt]`)

// pathFinders print where a program is: $(which X) as a command's name
// runs X.
var pathFinders = map[string][]string{"which": nil, "command": {"-v"}, "type": {"-P", "-p"},
	"pyenv": {"which"}, "rbenv": {"which"}, "nodenv": {"which"}, "rustup": {"which"}, "xcrun": {"--find", "-f"}}

// producerArgv is the argv of the one command exp (a word's $(…) or `…`)
// runs, when it is a single simple command of plain words (no
// expansions, quotes or redirections but 2>/dev/null); isSubst says
// whether exp is a command substitution at all (not ${…} or $((…))).
func producerArgv(exp string) (argv []string, isSubst bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(exp), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 1 || len(call.Args[0].Parts) != 1 {
		return nil, false
	}
	var stmts []*syntax.Stmt
	switch p := call.Args[0].Parts[0].(type) {
	case *syntax.CmdSubst:
		stmts = p.Stmts
	case *syntax.ProcSubst:
		stmts = p.Stmts
	default:
		return nil, false
	}
	if len(stmts) != 1 || stmts[0].Negated || stmts[0].Background || stmts[0].Coprocess {
		return nil, true
	}
	for _, r := range stmts[0].Redirs {
		if r.N == nil || r.N.Value != "2" || r.Op != syntax.RdrOut || r.Word.Lit() != "/dev/null" {
			return nil, true
		}
	}
	c, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 || len(c.Args) == 0 {
		return nil, true
	}
	for _, w := range c.Args {
		lit := w.Lit()
		if !plainToken(lit) {
			return nil, true
		}
		argv = append(argv, lit)
	}
	return argv, true
}

// plainToken: a word of letters, digits and . _ - + = : / , @ % ~ only,
// which no shell reads as more than itself.
func plainToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("._-+=:/,@%~", r):
		default:
			return false
		}
	}
	return true
}

// setupCode: argv writes shell setup code of its program's own: its
// setup operands first, then only options or a shell's name (an operand
// more may be a command it runs: ssh-agent -s cat x.sh; a program that
// starts a command, agentPrograms, takes options only).
func setupCode(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	base := path.Base(argv[0])
	if len(argv) == 1 {
		return slices.Contains(setupForms[base], "")
	}
	if completionOperands[argv[1]] && completionPrograms[base] {
		if own, ok := completionBuiltins[base]; ok && argv[1] != own {
			return false
		}
		return setupRest(base, argv[2:])
	}
	for _, form := range setupForms[base] {
		words := strings.Fields(form) // aws configure export-credentials
		if len(words) > 0 && len(argv) > len(words) && slices.Equal(argv[1:1+len(words)], words) {
			return setupRest(base, argv[1+len(words):])
		}
	}
	return false
}

// setupRest: the operands after a setup form are options or a shell's
// name, none a command (nor a long option's value: dbus-launch
// --exit-with-session CMD runs it).
func setupRest(base string, rest []string) bool {
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") && (!shellNames[a] || agentPrograms[base]) {
			return false
		}
	}
	return true
}

// agentPrograms run a command their operands name (ssh-agent -s bash).
var agentPrograms = map[string]bool{"ssh-agent": true, "gpg-agent": true, "dbus-launch": true}

// completionBuiltins are programs that run what their operands name (a
// package script) but for their own completion command.
var completionBuiltins = map[string]string{"npm": "completion", "pnpm": "completion", "deno": "completions", "bun": "completions"}

// shellNames are the operands that name the shell setup code is for.
var shellNames = map[string]bool{"bash": true, "zsh": true, "fish": true, "sh": true, "ksh": true, "posix": true,
	"powershell": true, "pwsh": true, "hook": true}

// foundProgram is the program argv prints the path of (which X, command
// -v X, type -P X), "" if it is no such lookup.
func foundProgram(argv []string) string {
	opts, ok := pathFinders[argv[0]]
	if !ok {
		return ""
	}
	rest := argv[1:]
	if opts != nil {
		if len(rest) == 0 || !slices.Contains(opts, rest[0]) {
			return ""
		}
		rest = rest[1:]
	}
	if len(rest) != 1 || strings.HasPrefix(rest[0], "-") {
		return ""
	}
	return rest[0]
}

// outputCode is why running w as code (eval w, sh -c w) runs text no part
// of the line shows: "" when none of its expansions is a command's output,
// or each is setup code (setupCode) or a program's own value
// (valueOutput). A value that is the string's command name is judged
// where the string is read (outputName): eval "$(pwd)" runs a program
// no text names.
func outputCode(w shellWord, text string) string {
	exps := slices.Clone(w.outputs)
	for i := 0; i+1 < len(w.blanks); i += 2 {
		exps = append(exps, substsIn(w.script[w.blanks[i]:w.blanks[i+1]])...)
	}
	for _, e := range exps {
		argv, isSubst := producerArgv(strings.TrimPrefix(e, dirMark))
		if isSubst && !setupCode(argv) && !valueOutput(argv) {
			return "`" + clip(text) + "` runs a command's output as commands, which the analysis cannot read"
		}
	}
	return ""
}

// outputName is, for a command's name that is a command's output alone
// ($(X), "$(X)", `X`): the program it names (X's lookup: $(which rm) is
// rm) and ok, or "" and ok where the analysis cannot tell the program
// (any other X). ok is false for a name that is not such an output, and
// for setup code (eval "$(ssh-agent -s)" reads its string as $(ssh-agent
// -s), a name only known when it runs, as opaque as the program).
func outputName(w shellWord) (program string, ok bool) {
	if len(w.blanks) != 2 || w.blanks[0] != 0 || w.blanks[1] != len(w.script) {
		return "", false
	}
	// X=$(which rm); $X -rf /, and what the name itself runs:
	// $(curl …/$X) is curl's output, whatever X holds.
	var dirs, exps []string
	for _, e := range w.outputs {
		if d, ok := strings.CutPrefix(e, dirMark); ok {
			dirs = append(dirs, d)
		} else {
			exps = append(exps, e)
		}
	}
	exps = append(exps, substsIn(w.script)...)
	for i, e := range exps {
		found := outputTail(e)
		if found != "" && w.split && splitUnreadable(dirs) {
			return "", true // X=$(curl …)/tool; $X: its output split into words
		}
		if found == "" {
			argv, isSubst := producerArgv(e)
			if !isSubst || setupCode(argv) {
				return "", false
			}
			if argv != nil {
				found = foundProgram(argv)
			}
		}
		if i > 0 && found != program {
			return "", true // it names programs of several lookups
		}
		program = found
	}
	return program, len(exps) > 0
}

// splitUnreadable: some of exps, split into words where they stand, may
// make any words (what is not a program's own value or a lookup's path).
func splitUnreadable(exps []string) bool {
	for _, e := range exps {
		argv, isSubst := producerArgv(strings.TrimPrefix(e, dirMark))
		if isSubst && (argv == nil || !valueOutput(argv) && foundProgram(argv) == "") {
			return true
		}
	}
	return false
}

// dirMark marks an output that is a path's directory (X=$(…)/tool).
const dirMark = "dir:"

// pathTail is the literal end of a word after its last expansion that
// makes it a path under a directory: /tool, "/bin/tool".
var pathTail = regexp.MustCompile(`^"?(/[A-Za-z0-9._+@-]+)+"?$`)

// noteOutputs keeps, by variable, the command substitutions whose output
// sources give it (X=$(…), for X in `…`): a command string or a command
// name that reads the variable runs that output.
func (v *lineValues) noteOutputs(sources []valueSource, src string) {
	for _, s := range sources {
		if s.w == nil {
			continue
		}
		var outs []string
		end := uint(0)
		syntax.Walk(s.w, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CmdSubst); ok {
				outs, end = append(outs, src[c.Pos().Offset():c.End().Offset()]), c.End().Offset()
				return false
			}
			return true
		})
		if len(outs) > 0 && pathTail.MatchString(src[end:s.w.End().Offset()]) {
			// BIN=$(mktemp -d)/tool: a directory, and a program the
			// line names (outputTail).
			// Its substitutions are kept too, marked: text spliced into
			// code (eval "${BIN%/tool}") is judged by them.
			for i := range outs {
				outs[i] = dirMark + outs[i]
			}
			outs = append(outs, src[s.w.Pos().Offset():s.w.End().Offset()])
		}
		for _, o := range outs {
			v.addOutput(s.name, o)
		}
	}
}

// addOutput adds text to name's outputs; past maxVarValues of them, one
// that cannot be read stands for the rest.
func (v *lineValues) addOutput(name, text string) {
	if v.outputs == nil {
		v.outputs = map[string][]string{}
	}
	switch outs := v.outputs[name]; {
	case slices.Contains(outs, text):
	case len(outs) >= maxVarValues:
		v.outputs[name] = append(outs[:maxVarValues:maxVarValues], "$(…)")
	default:
		v.outputs[name] = append(outs, text)
	}
}

// markOutputs gives words, what the word w of a command makes, the
// outputs of the variables w reads.
func markOutputs(words []shellWord, w *syntax.Word, v *lineValues) []shellWord {
	if len(v.outputs) == 0 {
		return words
	}
	var outs []string
	syntax.Walk(w, func(n syntax.Node) bool {
		if p, ok := n.(*syntax.ParamExp); ok && p.Param != nil {
			outs = append(outs, v.outputs[p.Param.Value]...)
		}
		return true
	})
	for i := range words {
		if !words[i].static {
			words[i].outputs = outs
		}
	}
	return words
}

// substsIn are the command substitutions exp (a word's expansion) holds,
// however deep in it (${u:-$(…)}), each as written; not inside one.
func substsIn(exp string) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(exp), "")
	if err != nil {
		return []string{"$(…)"} // cannot be read: judged as a producer that cannot
	}
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			out = append(out, exp[n.Pos().Offset():n.End().Offset()])
			return false
		}
		return true
	})
	return out
}

// setupScript: p, a <(…) a shell runs as its script, is setup code.
func setupScript(p string) bool {
	argv, _ := producerArgv(p)
	return setupCode(argv)
}

// outputTail is the program a variable's value $(…)/bin/tool names by
// its literal end ("" if it has none).
func outputTail(value string) string {
	i := strings.LastIndexAny(value, ")`")
	if i < 0 {
		return ""
	}
	return tailBase(value[i+1:])
}

// tailBase is the program a word's literal end after its last expansion
// names (/bin/tool, "/tool": tool); "" when that end is no pathTail or
// names no file (/.., /.).
func tailBase(tail string) string {
	if !pathTail.MatchString(tail) {
		return ""
	}
	base := path.Base(strings.Trim(tail, `"`))
	if base == "." || base == ".." {
		return ""
	}
	return base
}

// tailProgram is the program a name only known when it runs names by
// its literal end: rm in "$(echo /bin)"/rm, "$D"/rm, $(npm bin)/eslint —
// a program the line names, under a directory it does not ("" if none);
// unreadable where an unquoted output before it may split into any words.
func tailProgram(w shellWord) (program string, unreadable bool) {
	n := len(w.blanks)
	if n == 0 {
		return "", false
	}
	base := tailBase(w.script[w.blanks[n-1]:])
	if base == "" {
		return "", false
	}
	if w.split && splitUnreadable(append(substsIn(w.script), w.outputs...)) {
		return "", true // $(curl …)/x: the output split, rm -rf ~ /x
	}
	return base, false
}
