package cmdpin

import (
	"path/filepath"
	"slices"
	"strings"
)

// What cmd.exe and PowerShell run when a hook command names them with
// options (`cmd /d /s /c guard.cmd`, `powershell -ExecutionPolicy Bypass
// -File guard.ps1`), so that consent pins the script behind the shell, as
// it pins x.sh behind `bash x.sh`. Both shells read options
// case-insensitively; PowerShell also takes any unambiguous prefix of a
// parameter's name. An option this file does not know, or a command line
// with syntax of the shell's own (cmd's & | < > ^ % !), makes the command
// opaque: approved by its text only, rather than pinned on a guess of what
// the shell would make of it. The parsers are pure; analyzeWinShell ties
// them to the file system.

// cmdOpaque is why a cmd.exe command line cannot be pinned.
const cmdOpaque = "runs a cmd.exe command line with its own syntax (& | < > ^ % ! or quotes)"

// psCommandOpaque is why PowerShell command text cannot be pinned.
const psCommandOpaque = "runs PowerShell command text (-Command): the files it runs cannot be determined"

// cmdArgs reads cmd.exe's arguments (after the program): its switches
// (/A /U /Q /D /E:… /F:… /V:… /T:… /S /X /Y, any case; written //x as
// Git Bash needs them), then /C, /R or /K and the command that follows.
// inner is that command's words; stdin reports that cmd.exe reads its
// commands from standard input (no /C, or /K: it goes on reading after its
// command); opaque says why what it runs cannot be known.
func cmdArgs(args []string) (inner []string, stdin bool, opaque string) {
	for i, a := range args {
		word, ok := cmdSwitch(a)
		if !ok {
			return nil, false, "runs cmd.exe with an argument it does not take before /c: " + a
		}
		sw := strings.ToLower(word)
		switch {
		case strings.HasPrefix(sw, "c") || strings.HasPrefix(sw, "r"):
			// /cCOMMAND: cmd.exe takes what follows the switch letter.
			rest := slices.Clone(args[i+1:])
			if tail := word[1:]; tail != "" {
				rest = append([]string{tail}, rest...)
			}
			if len(rest) == 0 {
				return nil, false, ""
			}
			for _, w := range rest {
				if strings.ContainsAny(w, "&|<>^%!()\"\r\n") {
					return nil, false, cmdOpaque
				}
			}
			for _, w := range rest[1:] {
				if strings.ContainsAny(w, " \t") {
					// Quoted again by the runner: cmd.exe's quote
					// stripping would then decide what the line says.
					return nil, false, cmdOpaque
				}
			}
			return rest, false, ""
		case strings.HasPrefix(sw, "k"):
			return nil, true, stdinOpaque
		case sw == "a", sw == "u", sw == "q", sw == "d", sw == "s", sw == "x", sw == "y",
			len(sw) > 2 && sw[1] == ':' && strings.ContainsRune("efvt", rune(sw[0])):
		default:
			return nil, false, "runs cmd.exe with a switch it does not take before /c: " + a
		}
	}
	return nil, true, ""
}

// cmdSwitch reads a cmd.exe switch: what follows its "/" (or "//").
func cmdSwitch(a string) (string, bool) {
	s, ok := strings.CutPrefix(a, "/")
	if !ok {
		return "", false
	}
	s = strings.TrimPrefix(s, "/")
	return s, s != ""
}

// cmdBuiltin says what one of cmd.exe's built-in commands does with the
// words after it: run the command it names (call), run nothing of its own
// (echo, rem …), or something that cannot be pinned (start, for, if …).
// ok is false for a name that is no builtin.
func cmdBuiltin(name string) (runs, nothing, ok bool) {
	switch strings.ToLower(name) {
	case "call":
		return true, false, true
	case "echo", "rem", "ver", "vol", "cls", "title", "exit", "set", "cd", "chdir", "dir", "type", "pause", "verify", "path", "prompt", "color":
		return false, true, true
	case "start", "for", "if", "goto", "pushd", "popd", "setlocal", "endlocal", "shift", "assoc", "ftype",
		"copy", "move", "ren", "rename", "del", "erase", "md", "mkdir", "rd", "rmdir", "mklink", "date", "time", "break", "dpath":
		return false, false, true
	}
	return false, false, false
}

// psParam is one PowerShell command-line parameter: its full name and
// aliases, and what it does with the words after it.
type psParam struct {
	name    string
	aliases []string
	kind    psKind
}

type psKind int

const (
	psSwitch   psKind = iota // no value
	psValue                  // takes the next word
	psLoad                   // takes a file PowerShell reads (pinned)
	psFile                   // the script; every later word is its argument
	psCommand                // command text: cannot be pinned
	psEncoded                // base64 command text: cannot be pinned
	psMayValue               // -Version: pwsh prints its version; powershell.exe takes one
)

// psParams are the parameters of pwsh and powershell.exe (about_Pwsh,
// about_PowerShell_exe).
var psParams = []psParam{
	{"file", []string{"f"}, psFile},
	{"command", []string{"c"}, psCommand},
	{"commandwithargs", []string{"cwa"}, psCommand},
	{"encodedcommand", []string{"e", "ec", "enc"}, psEncoded},
	{"encodedarguments", []string{"ea"}, psValue},
	{"executionpolicy", []string{"ex", "ep"}, psValue},
	{"configurationname", []string{"config"}, psValue},
	{"configurationfile", nil, psLoad},
	{"settingsfile", []string{"settings"}, psLoad},
	{"psconsolefile", nil, psLoad},
	{"custompipename", nil, psValue},
	{"inputformat", []string{"inp", "if"}, psValue},
	{"outputformat", []string{"o", "of"}, psValue},
	{"windowstyle", []string{"w"}, psValue},
	{"workingdirectory", []string{"wd", "wo"}, psValue},
	{"version", []string{"v"}, psMayValue},
	{"login", []string{"l"}, psSwitch},
	{"interactive", []string{"i"}, psSwitch},
	{"mta", nil, psSwitch},
	{"sta", nil, psSwitch},
	{"noexit", nil, psSwitch},
	{"nologo", []string{"nol"}, psSwitch},
	{"noninteractive", []string{"noni"}, psSwitch},
	{"noprofile", []string{"nop"}, psSwitch},
	{"noprofileloadtime", nil, psSwitch},
	{"sshservermode", []string{"sshs"}, psSwitch},
	{"servermode", []string{"s"}, psSwitch},
	{"namedpipeservermode", nil, psSwitch},
	{"socketservermode", nil, psSwitch},
}

// psLookup finds the parameter an option word names: an alias, a full
// name, or a prefix of exactly one full name (PowerShell refuses an
// ambiguous one, and so does this). The word starts with -, --, or a
// Unicode dash, or with / where slash is true (Windows).
func psLookup(word string, slash bool) (psParam, bool, bool) {
	s, isOpt := psOptionName(word, slash)
	if !isOpt {
		return psParam{}, false, false
	}
	s = strings.ToLower(s)
	var found []psParam
	for _, p := range psParams {
		if p.name == s || slices.Contains(p.aliases, s) {
			return p, true, true
		}
		if s != "" && strings.HasPrefix(p.name, s) {
			found = append(found, p)
		}
	}
	if len(found) == 1 {
		return found[0], true, true
	}
	return psParam{}, true, false
}

// psOptionName strips an option word's leading dash (or slash).
func psOptionName(word string, slash bool) (string, bool) {
	for _, d := range []string{"--", "-", "\u2013", "\u2014", "\u2015"} {
		if s, ok := strings.CutPrefix(word, d); ok {
			return s, true
		}
	}
	if slash {
		if s, ok := strings.CutPrefix(word, "/"); ok {
			return s, true
		}
	}
	return "", false
}

// powerShellArgs reads PowerShell's arguments (after the program): the
// script of -File (or, for pwsh, of the first word that is no option, as
// -File is its default; powershell.exe's default is -Command), the script's
// own arguments, and the files -SettingsFile, -ConfigurationFile and
// -PSConsoleFile name. stdin reports that it reads its commands from
// standard input (-File -, -Command -, or neither a file nor a command).
func powerShellArgs(args []string, pwsh, slash bool) (script string, rest, loads []string, stdin bool, opaque string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		p, isOpt, known := psLookup(a, slash)
		if !isOpt {
			if !pwsh {
				return "", nil, nil, false, psCommandOpaque
			}
			p, i = psParam{kind: psFile}, i-1
		} else if !known {
			return "", nil, nil, false, "runs PowerShell with an option it does not know: " + a
		}
		switch p.kind {
		case psSwitch:
			continue
		case psMayValue:
			if pwsh {
				// pwsh -Version prints its version and exits.
				return "", nil, nil, false, ""
			}
		case psCommand, psEncoded:
			if p.kind == psCommand && i+1 < len(args) && args[i+1] == "-" {
				return "", nil, nil, true, stdinOpaque
			}
			return "", nil, nil, false, psCommandOpaque
		case psFile:
			if i+1 >= len(args) {
				return "", nil, nil, false, "runs PowerShell -File without a file"
			}
			if args[i+1] == "-" {
				return "", nil, nil, true, stdinOpaque
			}
			return args[i+1], args[i+2:], loads, false, ""
		}
		// A value: the next word.
		if i+1 >= len(args) {
			return "", nil, nil, false, "runs PowerShell with " + a + " but no value"
		}
		if p.kind == psLoad {
			loads = append(loads, args[i+1])
		}
		i++
	}
	return "", nil, loads, true, ""
}

// winShellKind names the Windows shell a program file is ("cmd", "ps"
// for PowerShell), or "". cmd is only cmd.exe on Windows.
func winShellKind(base string) (kind string, pwsh bool) {
	b := strings.ToLower(base)
	b = strings.TrimSuffix(b, ".exe")
	switch {
	case b == "pwsh" || b == "pwsh-preview":
		return "ps", true
	case b == "powershell":
		return "ps", false
	case b == "cmd" && onWindows:
		return "cmd", false
	}
	return "", false
}

// analyzeWinShell follows cmd.exe or PowerShell to what it runs. It returns
// the words to go on analysing (cmd /c's command) or nil when it has
// recorded everything in t.
func analyzeWinShell(t *Target, kind string, pwsh bool, argv, env []string) []string {
	if kind == "ps" {
		script, rest, loads, stdin, opaque := powerShellArgs(argv[1:], pwsh, onWindows)
		for _, l := range loads {
			t.addLoad(absIn(l, t.Dir))
		}
		switch {
		case opaque != "":
			t.Opaque, t.stdinProg = opaque, stdin
		case stdin:
			t.stdinProg = true
		case script != "":
			if len(t.Files) == 0 {
				t.ScriptArg, t.Interp = len(t.Argv)-len(rest)-1, "ps"
			}
			t.Files = append(t.Files, absIn(script, t.Dir))
			addScriptArgs(t, rest)
		}
		return nil
	}
	inner, stdin, opaque := cmdArgs(argv[1:])
	switch {
	case opaque != "":
		t.Opaque, t.stdinProg = opaque, stdin
		return nil
	case stdin:
		t.stdinProg = true
		return nil
	case len(inner) == 0:
		return nil
	}
	for {
		runs, nothing, builtin := cmdBuiltin(inner[0])
		switch {
		case !builtin:
		case runs && len(inner) > 1:
			inner = inner[1:] // call x.cmd
			continue
		case nothing:
			return nil
		default:
			t.Opaque = "runs cmd.exe's built-in " + strings.ToLower(inner[0])
			return nil
		}
		break
	}
	return cmdProgram(t, inner, env)
}

// cmdProgram finds the program of cmd /c's command as cmd.exe does: a bare
// name in the current directory first, then on PATH, each with PATHEXT's
// extensions. A name that is not found yet is opaque (a file appearing
// there later would run unpinned); one found on PATH pins the current
// directory's candidates as optional files, so that one appearing there,
// which cmd.exe would run instead, counts as a change.
func cmdProgram(t *Target, inner, env []string) []string {
	name := inner[0]
	if hasPathSep(name) {
		return inner
	}
	exts := pathExts(env)
	var here []string
	if hasExecExt(name, exts) {
		here = []string{absIn(name, t.Dir)}
	} else {
		for _, e := range exts {
			here = append(here, absIn(name+e, t.Dir))
		}
	}
	for _, p := range here {
		if isRegularFile(p) {
			return append([]string{p}, inner[1:]...)
		}
	}
	p, err := lookPath(name, env, t.Dir)
	if err != "" {
		t.Opaque = "runs " + name + " through cmd.exe, which is not a file here or on PATH"
		return nil
	}
	for _, h := range here {
		t.Optional = append(t.Optional, h)
		t.addLoad(h)
	}
	return append([]string{filepath.Clean(p)}, inner[1:]...)
}
