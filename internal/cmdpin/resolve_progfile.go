package cmdpin

import (
	"path/filepath"
	"strings"
)

// Programs that are not interpreters by name but take their program from a
// file they are given: `jq -f policy`, `awk -f prog`, `sed -f prog`. That
// file is the hook's logic (a guard written in jq decides with it), so it
// is pinned like a script whatever its name: pinning by extension alone
// let a repository change `jq -n -f hooks/policy.jq` from deny to allow
// under the approval (consent_program_file.txtar).

// programFileLoads pins the program files base's options name (base is the
// program's file name, args the words after it).
func programFileLoads(t *Target, base string, args []string) {
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	var files []string
	switch base {
	case "jq", "gojq", "jaq":
		files = jqProgramFile(args)
	case "awk", "gawk", "mawk", "nawk", "original-awk":
		files = awkOpts.files(args)
	case "sed", "gsed":
		files = sedOpts.files(args)
	}
	for _, f := range files {
		p := absIn(f, t.Dir)
		if !t.idx().files.contains(t.Files, p) {
			t.Files = append(t.Files, p)
		}
	}
}

// runsFileDirectly reports a runner of a project's files given one file
// to run instead (swift g.swift, zig run g.zig, dotnet app.dll): no
// project file is read, and the file is pinned as any script argument is.
// Anything else it is given (an option first, a subcommand) stays text
// only.
func runsFileDirectly(base string, args []string) bool {
	first := func(i int, ext string) bool {
		return len(args) > i && strings.HasSuffix(strings.ToLower(args[i]), ext)
	}
	switch base {
	case "swift":
		return first(0, ".swift")
	case "zig":
		return len(args) > 1 && args[0] == "run" && first(1, ".zig")
	case "dotnet":
		return first(0, ".dll")
	}
	return false
}

// progOpts describes a program's options as getopt reads them, enough to
// find the words that name its program files.
type progOpts struct {
	fileShort string          // letters whose value is a program file (-f prog, -fprog, -nf prog)
	argShort  string          // other letters that take the rest of the word or the next word
	optShort  string          // letters whose optional value is only the rest of the word
	fileLong  map[string]bool // long options whose value is a program file
	argLong   map[string]bool // other long options that may take the next word
}

var (
	// awk's -f, and gawk's -E (--exec: the program file, the last
	// option); gawk's -i (--include) names a library found on AWKPATH,
	// usually its own (`-i inplace`), and is not pinned.
	awkOpts = progOpts{
		fileShort: "fE", argShort: "Fveil", optShort: "dDLoptW",
		fileLong: map[string]bool{"--file": true, "--exec": true},
		argLong:  map[string]bool{"--field-separator": true, "--assign": true, "--include": true, "--load": true, "--source": true},
	}
	// sed's -f (GNU and BSD); -i takes its suffix only attached.
	sedOpts = progOpts{
		fileShort: "f", argShort: "el", optShort: "i",
		fileLong: map[string]bool{"--file": true},
		argLong:  map[string]bool{"--expression": true, "--line-length": true},
	}
)

// files returns the values of the options that name a program file. Words
// are read as options up to `--`, also after operands, as GNU getopt reads
// them (`sed p in -f prog`): pinning a file too many costs an approval,
// one too few lets it change unnoticed.
func (o progOpts) files(args []string) []string {
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return files
		case strings.HasPrefix(a, "--"):
			name, v, hasV := strings.Cut(a, "=")
			switch {
			case o.fileLong[name] && hasV:
				files = append(files, v)
			case o.fileLong[name] && i+1 < len(args):
				files = append(files, args[i+1])
				i++
			case o.argLong[name] && !hasV:
				i++
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				c := a[j]
				if strings.IndexByte(o.optShort, c) >= 0 {
					break
				}
				file := strings.IndexByte(o.fileShort, c) >= 0
				if !file && strings.IndexByte(o.argShort, c) < 0 {
					continue
				}
				v := a[j+1:]
				if v == "" && i+1 < len(args) {
					i++
					v = args[i]
				}
				if file && v != "" {
					files = append(files, v)
				}
				break
			}
		}
	}
	return files
}

// jqArgOpts are jq's options followed by values (how many words): they are
// neither options nor its program.
var jqArgOpts = map[string]int{
	"--arg": 2, "--argjson": 2, "--slurpfile": 2, "--rawfile": 2,
	"--indent": 1, "-L": 1, "--library-path": 1,
}

// jqProgramFile is the file jq reads its program from: with -f or
// --from-file, jq takes its first operand as that file's name, wherever the
// option stands (`jq --from-file -c policy in.json`).
func jqProgramFile(args []string) []string {
	fromFile := false
	first := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			// Operands only from here (jq 1.7.1); options after --args
			// are still options, and its first operand still the program.
			if first == "" && i+1 < len(args) {
				first = args[i+1]
			}
			i = len(args)
		case a == "-f" || a == "--from-file":
			fromFile = true
		case jqArgOpts[a] > 0:
			i += jqArgOpts[a]
		case strings.HasPrefix(a, "-L") && len(a) > 2, strings.HasPrefix(a, "--"):
		case len(a) > 1 && a[0] == '-':
			// A cluster of flags (-nr, -nf).
			if strings.IndexByte(a[1:], 'f') >= 0 {
				fromFile = true
			}
		default:
			if first == "" {
				first = a
			}
		}
	}
	if !fromFile || first == "" {
		return nil
	}
	return []string{filepath.Clean(first)}
}

// scriptExts name files that are code: scripts, and what a program that is
// not recognised as an interpreter loads and runs (java -jar hook.jar,
// ./tool --plugin ./p.so).
var scriptExts = []string{
	".sh", ".bash", ".zsh", ".fish", ".py", ".pyw", ".pyz", ".rb", ".pl", ".pm", ".lua",
	".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".php", ".tcl", ".r", ".awk", ".ps1", ".psm1",
	".jar", ".java", ".class", ".groovy", ".kts", ".scala", ".clj", ".jl", ".ex", ".exs", ".swift",
	".go", ".rs", ".hs", ".ml", ".dart", ".nim", ".cr", ".zig", ".cs", ".csx", ".fsx", ".vbs", ".wsf",
	".el", ".vim", ".lisp", ".scm", ".rkt", ".nu", ".sed", ".scpt", ".wasm",
	// programs in languages whose runners are not interpreters by name:
	// the file holds the hook's logic (jq, OPA, XSLT, jsonnet, expect …)
	".jq", ".rego", ".xsl", ".xslt", ".jsonnet", ".libsonnet", ".cue", ".star", ".exp", ".gawk",
	".ksh", ".csh", ".tcsh", ".bats", ".coffee", ".raku", ".rakumod", ".p6", ".pl6", ".hy", ".xsh", ".erl", ".escript", ".nix", ".applescript",
	".so", ".dylib", ".dll",
}

func hasScriptExt(s string) bool {
	lower := strings.ToLower(s)
	for _, ext := range scriptExts {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}
