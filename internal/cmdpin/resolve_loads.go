package cmdpin

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/shlex"
)

// Code a command loads besides its program and script: files named by an
// interpreter's options (node -r F, perl -I dir -MMod, ruby -r F,
// bash --rcfile F) and by environment assignments in the command itself
// (BASH_ENV=F, NODE_OPTIONS=--require=F, PERL5OPT, RUBYOPT, LD_PRELOAD).
// Each such file runs as part of the hook, so an edit to it must need a new
// approval like an edit to the script. They are collected in Target.loads
// while the command is analysed and appended to Files (after the primary
// script) by flushLoads.

// addLoad records a file the command loads.
func (t *Target) addLoad(p string) {
	if !t.idx().loads.contains(t.loads, p) {
		t.loads = append(t.loads, p)
	}
}

// addOptionalLoad pins p, which need not exist: one planted there later
// would run under the approval.
func (t *Target) addOptionalLoad(p string) {
	t.addLoad(p)
	if !t.idx().optional.contains(t.Optional, p) {
		t.Optional = append(t.Optional, p)
	}
}

// flushLoads appends the collected loads to Files, after the primary
// script, so that Files[0] stays the script the command is about.
func flushLoads(t *Target) {
	for _, p := range t.loads {
		if !t.idx().files.contains(t.Files, p) {
			t.Files = append(t.Files, p)
		}
	}
	t.loads = nil
	t.idx().loads = listIndex{}
}

// setOpaque records why the files a command runs cannot be determined,
// keeping the first reason.
func (t *Target) setOpaque(why string) {
	if t.Opaque == "" {
		t.Opaque = why
	}
}

// envLoads records the code named by environment assignments (NAME=value)
// made by the command itself: in front of it in the shell, or by an env
// wrapper. The hook's inherited environment is not the command's and is not
// looked at: it is the same for every hook and not part of what is approved.
func envLoads(t *Target, assigns []string) {
	var perlDirs, rubyDirs []string
	var perlMods, rubyLibs []string
	for _, a := range assigns {
		name, v, _ := strings.Cut(a, "=")
		if !t.idx().assigned.contains(t.assigned, name) {
			t.assigned = append(t.assigned, name)
		}
		switch name {
		case "BASH_ENV", "ENV":
			// bash (non-interactive) and sh (interactive) source this file
			// before anything else; bash expands the value first.
			if v == "" {
				continue
			}
			if strings.ContainsAny(v, "$`") {
				t.setOpaque(name + " names its file through an expansion done when it runs")
				continue
			}
			t.addLoad(absIn(v, t.Dir))
		case "NODE_OPTIONS":
			words, err := shlex.Split(v)
			if err != nil {
				t.setOpaque("NODE_OPTIONS cannot be split into options")
				continue
			}
			nodeLoads(t, words, false)
		case "PERL5OPT":
			d, m := perlOpts(strings.Fields(v), false)
			perlDirs, perlMods = append(perlDirs, d...), append(perlMods, m...)
		case "PERL5LIB", "PERLLIB":
			t.perlLib = append(t.perlLib, filepath.SplitList(v)...)
		case "RUBYOPT":
			d, r := rubyOpts(strings.Fields(v), false)
			rubyDirs, rubyLibs = append(rubyDirs, d...), append(rubyLibs, r...)
		case "RUBYLIB":
			t.rubyLib = append(t.rubyLib, filepath.SplitList(v)...)
		case "PYTHONSTARTUP":
			// Run before the first prompt of an interactive python (-i
			// reading its program from standard input).
			if v != "" {
				t.addLoad(absIn(v, t.Dir))
			}
		case "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH", "GCONV_PATH":
			// The loader looks every library the programs need up by name
			// there first (libc.so.6 too): which file loads is what is
			// found, as with PYTHONPATH.
			if v != "" {
				t.setOpaque(name + " names directories the dynamic loader takes libraries from")
			}
		case "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES":
			// The dynamic loader maps these into every program the hook
			// starts. A bare name is a system library (found like any
			// other shared library); a path is pinned.
			for _, lib := range strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ' ' }) {
				if strings.ContainsAny(lib, "$") {
					t.setOpaque(name + " names a library through $ORIGIN or $LIB, resolved when it runs")
					continue
				}
				if strings.Contains(lib, "/") {
					t.addLoad(absIn(lib, t.Dir))
				}
			}
		}
	}
	moduleLoads(t, append(perlDirs, t.perlLib...), perlMods, ".pm")
	moduleLoads(t, append(rubyDirs, t.rubyLib...), rubyLibs, ".rb")
}

// interpLoads records the files an interpreter's own options make it load
// before its script (kind and base as in analyze; args are the words after
// the interpreter).
func interpLoads(t *Target, kind, base string, args []string) {
	startupVars(t, kind, base, args)
	base = strings.TrimSuffix(strings.ToLower(base), ".exe") // bun.exe, Perl.exe
	switch {
	case kind == "uv":
		// uv run makes its own environment from the directory's files: the
		// Python that .python-version or uv.toml asks for, the project's
		// packages from pyproject.toml (building the project itself runs
		// its code), its .venv/bin first on PATH (uv run tool).
		t.setOpaque("uv run takes its Python, packages and PATH from the project's files (pyproject.toml, .python-version, .venv)")
	case base == "ts-node":
		tsNodeConfig(t, args)
		nodeLoads(t, args, true)
	case kind == "node" && base != "bun":
		nodeLoads(t, args, true)
	case kind == "sh":
		for i := 0; i+1 < len(args) && (strings.HasPrefix(args[i], "-") || strings.HasPrefix(args[i], "+")); i++ {
			switch {
			case args[i] == "--rcfile" || args[i] == "--init-file":
				// Read by an interactive bash (-i): pinned whenever named.
				t.addLoad(absIn(args[i+1], t.Dir))
				i++
			case takesArg("sh", args[i]):
				i++
			}
		}
	case base == "rscript":
		rStartup(t, args)
	case base == "bun":
		bunConfig(t)
		nodeLoads(t, args, true)
	case base == "perl" || strings.HasPrefix(base, "perl5"):
		if chdirOpt(args, "-x") {
			t.setOpaque("perl -xDIR runs its script in another directory")
		}
		dirs, mods := perlOpts(args, true)
		moduleLoads(t, append(dirs, t.perlLib...), mods, ".pm")
	case base == "ruby" || strings.HasPrefix(base, "ruby3"):
		if chdirOpt(args, "-C") {
			t.setOpaque("ruby -C runs its script in another directory")
		}
		dirs, libs := rubyOpts(args, true)
		moduleLoads(t, append(dirs, t.rubyLib...), libs, ".rb")
	}
}

// nodeLoads records the modules node's options preload: -r/--require,
// --import, --loader/--experimental-loader (as `--opt F` or `--opt=F`),
// and the --env-file it reads (which may set NODE_OPTIONS). A relative or
// absolute path is pinned; a bare specifier names a package in
// node_modules, which is not pinned, like the packages the script itself
// imports. stopAtScript: the words are a command line, whose options end
// at the script.
func nodeLoads(t *Target, words []string, stopAtScript bool) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		if stopAtScript && (w == "--" || !strings.HasPrefix(w, "-")) {
			return
		}
		opt, val, attached := strings.Cut(w, "=")
		switch opt {
		case "-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file", "--env-file-if-exists",
			"--preload", "--test-reporter", "--snapshot-blob":
			// (--preload: bun's -r; a test reporter is a module; a
			// snapshot blob is the heap node starts from.)
		case "--experimental-config-file", "--experimental-default-config-file", "--openssl-config":
			// A node.config.json names more options (imports, requires);
			// an OpenSSL configuration may load engines.
			t.setOpaque("node " + opt + " reads a file that can load other code")
			continue
		default:
			if stopAtScript && takesArg("node", w) {
				i++
			}
			continue
		}
		if !attached {
			if i+1 >= len(words) {
				return
			}
			i++
			val = words[i]
		}
		if strings.HasPrefix(opt, "--env-file") {
			// Pinned, and what it sets is not read here: its
			// NODE_OPTIONS=--require ./pre.js preloaded an unpinned file.
			t.addLoad(absIn(val, t.Dir))
			t.setOpaque("node " + opt + " sets variables (NODE_OPTIONS) from a file, which can load other code")
			continue
		}
		val = strings.TrimPrefix(val, "file://")
		if strings.HasPrefix(val, "./") || strings.HasPrefix(val, "../") || filepath.IsAbs(val) || val == "." || val == ".." {
			t.addLoad(absIn(val, t.Dir))
		}
	}
}

// perlOpts reads perl's -Idir (or -I dir on a command line) and
// -MModule / -mModule options.
func perlOpts(words []string, stopAtScript bool) (dirs, mods []string) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		if stopAtScript && (w == "--" || !strings.HasPrefix(w, "-") || isInlineOpt("other", w)) {
			return dirs, mods
		}
		switch {
		case w == "-I" && i+1 < len(words):
			i++
			dirs = append(dirs, words[i])
		case strings.HasPrefix(w, "-I"):
			dirs = append(dirs, w[2:])
		case w == "-d" || strings.HasPrefix(w, "-d:") || strings.HasPrefix(w, "-dt:") || w == "-dt":
			// -d loads the debugger, perl5db.pl; -d:Mod loads Devel::Mod,
			// both from @INC like -M.
			_, m, named := strings.Cut(w, ":")
			if !named {
				mods = append(mods, "perl5db.pl")
				continue
			}
			m, _, _ = strings.Cut(m, "=")
			m, _, _ = strings.Cut(m, ",")
			if m != "" {
				mods = append(mods, "Devel/"+strings.ReplaceAll(m, "::", "/"))
			}
		case strings.HasPrefix(w, "-M") || strings.HasPrefix(w, "-m"):
			m := strings.TrimPrefix(w[2:], "-") // -M-Mod: `no Mod`, still loaded
			m, _, _ = strings.Cut(m, "=")
			m, _, _ = strings.Cut(m, " ")
			if m != "" {
				mods = append(mods, strings.ReplaceAll(m, "::", "/"))
			}
		}
	}
	return dirs, mods
}

// rubyOpts reads ruby's -Idir / -I dir and -rlib / -r lib options.
func rubyOpts(words []string, stopAtScript bool) (dirs, libs []string) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		if stopAtScript && (w == "--" || !strings.HasPrefix(w, "-") || isInlineOpt("other", w)) {
			return dirs, libs
		}
		for _, o := range []string{"-I", "-r"} {
			if !strings.HasPrefix(w, o) {
				continue
			}
			v := w[2:]
			if v == "" && i+1 < len(words) {
				i++
				v = words[i]
			}
			if o == "-I" {
				dirs = append(dirs, v)
			} else if v != "" {
				libs = append(libs, v)
			}
		}
	}
	return dirs, libs
}

// moduleLoads records the files a perl module or ruby library names: a
// path (./x, /x) as such; a name, in every directory the command adds to
// the search path, since the first of those holding it is what loads (a
// missing candidate is pinned as missing, so that its appearance counts as
// a change). A name found in none of them comes from the system's own
// library directories, which are not pinned.
func moduleLoads(t *Target, dirs, mods []string, ext string) {
	for _, m := range mods {
		if filepath.Ext(m) == "" {
			m += ext
		}
		if strings.HasPrefix(m, "./") || strings.HasPrefix(m, "../") || filepath.IsAbs(m) {
			t.addLoad(absIn(m, t.Dir))
			continue
		}
		for _, d := range dirs {
			if d != "" {
				t.addOptionalLoad(absIn(filepath.Join(d, m), t.Dir))
			}
		}
	}
}

// startupVars makes the command text-only when it sets a variable naming a
// directory its interpreter loads code from as it starts, by names the
// command does not state: Python imports sitecustomize, usercustomize and
// even the standard library's encodings from PYTHONPATH, runs the .pth files
// of the user site under PYTHONUSERBASE or HOME, and takes its whole library
// from PYTHONHOME; zsh sources $ZDOTDIR/.zshenv (default $HOME) before any
// script; fish its config.fish under XDG_CONFIG_HOME (default $HOME/.config);
// a login or interactive shell its profile or rc file in $HOME. Which file
// (a .py, a .pyc, a package, an extension module) is what the interpreter
// finds there, so no list of files pins it: a planted sitecustomize.py ran
// under the old approval (consent_loads_more.txtar).
func startupVars(t *Target, kind, base string, args []string) {
	b := strings.TrimSuffix(strings.ToLower(base), ".exe")
	var names []string
	switch {
	case kind == "python" || kind == "uv":
		names = []string{"PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "HOME"}
	case b == "zsh":
		names = []string{"ZDOTDIR", "HOME"}
	case b == "fish":
		names = []string{"XDG_CONFIG_HOME", "HOME"}
	case kind == "sh" && loginOrInteractive(args):
		names = []string{"HOME"}
	}
	for _, n := range names {
		if slices.Contains(t.assigned, n) {
			t.setOpaque("it sets " + n + ", a directory " + b + " loads code from as it starts")
			return
		}
	}
}

// loginOrInteractive reports a shell's -l, --login or -i among its options
// (also in a cluster such as -il): such a shell reads start-up files from
// $HOME.
func loginOrInteractive(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--login" || a == "--interactive":
			return true
		case a == "--" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return false
		case takesArg("sh", a):
			i++
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "il"):
			return true
		}
	}
	return false
}

// chdirOpt reports an interpreter option (perl -xDIR, ruby -C DIR or
// -CDIR) that changes directory before the script is found: the script
// named on the command line is then another file than the one pinned.
// perl's -x alone (no directory) only skips leading text.
func chdirOpt(args []string, opt string) bool {
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") || isInlineOpt("other", a) {
			return false
		}
		if a == opt && opt == "-C" || strings.HasPrefix(a, opt) && len(a) > len(opt) {
			return true
		}
	}
	return false
}

// bunConfig: bun reads bunfig.toml from the directory it starts in, whose
// preload list runs any module before the script. One that exists makes the
// command text-only (what it preloads is the file's to say); one that does
// not is pinned as missing, so that one added later needs a new approval.
func bunConfig(t *Target) {
	p := absIn("bunfig.toml", t.Dir)
	if _, err := os.Lstat(p); err == nil {
		t.setOpaque("bun reads bunfig.toml, which can preload other code")
		return
	}
	t.addOptionalLoad(p)
}

// rStartup pins the start-up files R reads from the directory it starts in
// before its script (R's ?Startup): .Renviron (variables, unless
// --no-environ), then .Rprofile (R code, unless --no-init-file); --vanilla
// skips both. A .Rprofile is code and is pinned, and one that does not
// exist yet is pinned as missing, as one committed later would run under
// the approval. A .Renviron can name another profile or library directory
// (R_PROFILE_USER, R_LIBS_USER), which no list of files pins: text only.
func rStartup(t *Target, args []string) {
	environ, profile := true, true
	for _, a := range args {
		if !strings.HasPrefix(a, "--") {
			if a == "-e" || !strings.HasPrefix(a, "-") {
				break
			}
			continue
		}
		switch a {
		case "--vanilla":
			environ, profile = false, false
		case "--no-environ":
			environ = false
		case "--no-init-file":
			profile = false
		}
	}
	if environ {
		p := absIn(".Renviron", t.Dir)
		if _, err := os.Lstat(p); err == nil {
			t.setOpaque("Rscript reads .Renviron, which can point R at other start-up code")
		} else {
			t.addOptionalLoad(p)
		}
	}
	if profile {
		p := absIn(".Rprofile", t.Dir)
		if _, err := os.Lstat(p); err == nil {
			t.addLoad(p)
		} else {
			t.addOptionalLoad(p)
		}
	}
}

// tsNodeConfig: ts-node finds and loads a tsconfig.json by itself (searched
// as tsc searches, from its script's directory up), and that file's
// "ts-node" object can name modules to require, a compiler or a
// transpiler to load (typestrong.org/ts-node/docs/configuration): code no
// list of files pins, one committed after approval included. Unless it is
// told to skip that search (--skipProject), it is approved by its text.
func tsNodeConfig(t *Target, args []string) {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			break
		}
		if a == "--skipProject" || a == "--skip-project" {
			return
		}
	}
	t.setOpaque("ts-node loads a tsconfig.json it finds, whose \"ts-node\" options can load other code (--skipProject skips it)")
}
