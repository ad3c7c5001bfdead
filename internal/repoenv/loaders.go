package repoenv

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// A repository's file can also put code into the user's hooks without
// switching a guard off: a variable that makes the programs a hook starts
// load code besides their own — bash's start-up file (BASH_ENV), a
// function bash imports from the environment (BASH_FUNC_jq%%, which then
// runs for every `jq` the guard script calls), node's NODE_OPTIONS
// --require, the dynamic loader's LD_PRELOAD. An approval pins the hook's
// own files, not that code, which runs inside the guard and can answer for
// it. `hook AGENT` keeps such a variable out of every hook's environment
// when a repository's file put it there (Loaders finds which; the CLI's
// hookLoaders keeps them out), and says so; doctor
// names the file. A value the user set themselves (their shell, their own
// settings) is passed on as before: it is the user's choice, like the rest
// of the environment a hook inherits.

// loaderNames are the variables Loads names, besides those loaderPrefixes
// start and those that route requests (routeNames).
var loaderNames = []string{
	// bash (non-interactive) and sh (interactive) source this file first.
	"BASH_ENV", "ENV",
	// bash's aliases and hashed commands are not imported; functions are
	// (funcPrefix), and so are SHELLOPTS and PS4 (not for root): xtrace in
	// SHELLOPTS traces every command, expanding PS4, a $(…) in it
	// included, for each (bash(1): SHELLOPTS, PS4, PROMPTING). A guard's
	// own set -x would expand a repository's PS4 too. PROMPT_COMMAND runs
	// only in an interactive shell.
	"SHELLOPTS", "PS4",
	"NODE_OPTIONS", "NODE_PATH",
	// PYTHONPYCACHEPREFIX: Python reads the bytecode of every module it
	// imports (the standard library's json too) from that tree, relative
	// to the hook's folder; an unchecked hash-based .pyc (PEP 552) there
	// is never compared with the source. PYTHONPLATLIBDIR moves the whole
	// standard library as PYTHONHOME does (prefix/PLATLIBDIR/pythonX.Y;
	// "../…/proc/self/cwd/x" is the hook's folder's x).
	// PYTHONWARNINGS imports the module a filter's category names
	// (all:0:antigravity.x:0:0: the standard library's antigravity opens
	// $BROWSER, a command). PYTHONINSPECT loads no code, but turns a
	// guard's sys.exit(2), a refusal, into exit 1 (Claude Code's
	// non-blocking error: the call goes through) and runs as Python what
	// the guard left unread of its stdin.
	"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "PYTHONPYCACHEPREFIX", "PYTHONPLATLIBDIR",
	"PYTHONWARNINGS", "PYTHONINSPECT",
	"PERL5OPT", "PERL5LIB", "PERLLIB",
	// RubyGems activates the newest version of a gem (json included) found
	// under GEM_HOME or GEM_PATH, and at every start evaluates, as Ruby,
	// the Gemfile RUBYGEMS_GEMDEPS names ("-": the nearest one up from
	// the hook's folder, the project's).
	"RUBYOPT", "RUBYLIB", "GEM_HOME", "GEM_PATH", "RUBYGEMS_GEMDEPS",
	// curl reads $CURL_HOME/.curlrc and wget the file WGETRC names: a
	// resolve, proxy or insecure line there sends a guard's call to its
	// policy service to a server that answers for it.
	"CURL_HOME", "WGETRC",
	"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "CLASSPATH",
	// zsh sources $ZDOTDIR/.zshenv even for zsh -c; OpenSSL's start-up
	// (node's, curl's) loads the engines OPENSSL_CONF's file names.
	"ZDOTDIR", "OPENSSL_CONF",
	// git runs the commands its configuration names (core.fsmonitor for
	// every git status a guard runs): configuration a file adds
	// (GIT_CONFIG_COUNT and its GIT_CONFIG_KEY_n, GIT_CONFIG_PARAMETERS,
	// GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, XDG_CONFIG_HOME's git/config,
	// another repository's through GIT_DIR), the diff program of git diff
	// (GIT_EXTERNAL_DIFF), the folder of git's own programs (GIT_EXEC_PATH).
	// And the commands git runs itself: for an ssh remote (GIT_SSH_COMMAND,
	// GIT_SSH: a guard's git fetch), a git:// proxy, a credential prompt
	// (GIT_ASKPASS: a hook has no terminal, so the program runs), an editor
	// (GIT_EDITOR, GIT_SEQUENCE_EDITOR: a commit or merge without a
	// message), the hooks a new repository gets (GIT_TEMPLATE_DIR). Not
	// git's fallbacks SSH_ASKPASS, VISUAL and EDITOR, nor less's LESSOPEN:
	// most shells set one of them, and each name here set in a hook call's
	// environment costs it a read of the project's files. Qwen Code refuses
	// all these but GIT_DIR from a project's files.
	"GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "XDG_CONFIG_HOME",
	"GIT_DIR", "GIT_EXTERNAL_DIFF", "GIT_EXEC_PATH",
	"GIT_SSH_COMMAND", "GIT_SSH", "GIT_PROXY_COMMAND", "GIT_ASKPASS", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_TEMPLATE_DIR",
	"LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH", "GCONV_PATH",
	"DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH",
}

// routeNames choose where the requests of a hook's programs go rather
// than load code: the proxies curl, wget, Python's urllib and requests
// and Go's net/http send a guard's call through (curl reads http_proxy
// only in lower case; the others both), and glibc's resolver's search
// domain (LOCALDOMAIN), options (RES_OPTIONS: ndots:15 searches it first
// for every name) and aliases (HOSTALIASES): through a repository's, its
// server answers for a guard's http:// policy service. hermes-hooks' own
// http and opa posts take a proxy for https:// only (hookhttp), a tunnel
// it could refuse but not read; `hook AGENT` unsets a repository's for
// them too.
var routeNames = []string{"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
	"LOCALDOMAIN", "RES_OPTIONS", "HOSTALIASES"}

// Routes reports whether Loads names name for where it sends requests
// rather than for code: what is said of it differs.
func Routes(name string) bool {
	return slices.Contains(routeNames, name) || runtime.GOOS == "windows" && slices.Contains(routeNames, strings.ToUpper(name))
}

// funcPrefix starts the name of a function bash exports to (and imports
// from) the environment: BASH_FUNC_name%%.
const funcPrefix = "BASH_FUNC_"

// loaderPrefixes start the names of loaders that come numbered or named:
// bash's functions, and git's configuration pairs GIT_CONFIG_KEY_n and
// GIT_CONFIG_VALUE_n (a repository's pair replaces the user's where the
// user exports GIT_CONFIG_COUNT).
var loaderPrefixes = []string{funcPrefix, "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"}

// allLoaders is doctor's nameSet: every loader a file may set.
var allLoaders = nameSet{names: slices.Concat(loaderNames, routeNames), prefixes: loaderPrefixes}

// Loads reports whether name, in a hook's environment, makes a program the
// hook starts load code that is not the hook's own.
func Loads(name string) bool { return loads(name, runtime.GOOS == "windows") }

// loads is Loads, names compared regardless of case when fold is set: on
// Windows a settings file's node_options is the NODE_OPTIONS node reads.
// There HOME is a loader too: the home folder is USERPROFILE (HomeVar),
// but Git for Windows, its bash and jq read HOME first, and take
// USERPROFILE's when it is unset.
func loads(name string, fold bool) bool {
	if fold {
		name = strings.ToUpper(name)
		if name == "HOME" {
			return true
		}
	}
	return slices.Contains(loaderNames, name) || slices.Contains(routeNames, name) || slices.ContainsFunc(loaderPrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}

// LoadersSet are the variables of env (os.Environ's form) that Loads, set
// to a value (an empty one loads nothing), in env's order.
func LoadersSet(env []string) []string {
	var set []string
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		if v != "" && Loads(name) && !slices.Contains(set, name) {
			set = append(set, name)
		}
	}
	return set
}

// AnyLoader is doctor's Want for Loaders: any loader a file sets to a
// value.
func AnyLoader(name, value string, known bool) bool {
	return Loads(name) && (!known || value != "")
}

// Loaders reads the repository's files as Check does, for the loaders
// named (nil: every one), and returns those that set one want counts, or
// that cannot be read (then unreadable are the variables they might set).
// A hook call names the loaders set in its environment and wants those
// whose value is the file's (InEnv): the agent took them from there.
func Loaders(a *agents.Agent, dirs []string, home string, names []string, want Want, unreadable []string) []Finding {
	ns := allLoaders
	if names != nil {
		ns = nameSet{names: names}
	}
	return checkNames(a, dirs, home, ns, want, unreadable)
}

// Shell is the shell an agent hands each hook's command line to, as
// SHELL -c COMMAND (agents.Agent.Shell), as it is on this system.
type Shell struct {
	// Name is "sh" or "bash".
	Name string
	// BashAsSh: sh is bash here (Fedora's, Arch's, macOS's /bin/sh), which
	// started as sh reads no BASH_ENV but still imports functions,
	// SHELLOPTS and PS4.
	BashAsSh bool
	// DynamicLoader: the shell is started by a dynamic loader that reads
	// LD_PRELOAD, LD_AUDIT and LD_LIBRARY_PATH (Linux, the BSDs; not
	// macOS, whose system shells drop DYLD_*, nor Windows).
	DynamicLoader bool
}

// ldVars are the dynamic loader's variables that load a library (ld.so(8)):
// a relative path is taken from the hook's folder, the project's.
var ldVars = []string{"LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH"}

// ShellReads are the variables of vars (those a file sets) through which
// sh loads code before COMMAND runs: bash runs the file BASH_ENV names
// (not as sh), imports the functions BASH_FUNC_name%% hold (one named
// hermes-hooks, or [, is then what the line calls), and with xtrace in
// SHELLOPTS expands PS4, a $(…) in it included, for the trace of the line
// (both needed); the dynamic loader loads LD_PRELOAD's library (and the
// others of ldVars) into the shell itself. dash reads none of bash's. Such a
// variable is beyond `hook AGENT`, which starts only after it ran.
func ShellReads(sh Shell, vars []string) []string {
	bash := sh.Name == "bash" || sh.Name == "sh" && sh.BashAsSh
	var out []string
	for _, v := range vars {
		switch {
		case sh.DynamicLoader && slices.Contains(ldVars, v),
			v == "BASH_ENV" && sh.Name == "bash",
			bash && strings.HasPrefix(v, funcPrefix),
			bash && (v == "SHELLOPTS" || v == "PS4") && slices.Contains(vars, "SHELLOPTS") && slices.Contains(vars, "PS4"):
			out = append(out, v)
		}
	}
	return out
}

// PathVar is the search path: a repository's file that sets it (Claude
// Code's settings "env" replaces the agent's own) puts the repository's
// programs before the system's for every name a hook runs (its jq, its
// bash). Not dropped (a hook needs one), but kept to its folders outside
// the project (OutsidePath).
const PathVar = "PATH"

// OutsidePath is the search path value less what a repository can fill:
// an empty or relative entry (the hook's folder, the project's), and one
// inside any of dirs (absolute folders), by their names and, real is
// set, their real paths. An entry's own links are not followed: naming
// the project through a link outside it takes a file the repository
// cannot commit. Two kinds of entry would name the project that way all
// the same, and go too: one with a ".." (the system takes it after the
// link before it, so proj/link/../../bin, out of the project by its text,
// is proj/bin when the repository's link points two folders deep), and
// one under /proc or /dev, whose links differ per process
// (/proc/self/cwd/bin is the hook's own folder's bin: the project's).
func OutsidePath(value string, dirs []string, real bool) string {
	var roots []string
	for _, d := range dirs {
		roots = append(roots, filepath.Clean(d))
		if r, err := filepath.EvalSymlinks(d); real && err == nil {
			roots = append(roots, r)
		}
	}
	var kept []string
	for _, e := range filepath.SplitList(value) {
		if e == "" || !filepath.IsAbs(e) || dotDot(e) || perProcess(e) ||
			slices.ContainsFunc(roots, func(r string) bool { return fsutil.InTree(e, r) }) {
			continue
		}
		kept = append(kept, e)
	}
	return strings.Join(kept, string(filepath.ListSeparator))
}

// PathInto is doctor's Want for PathVar: a PATH with a folder that
// OutsidePath drops, the project's being dirs.
func PathInto(dirs []string) Want {
	return func(name, value string, known bool) bool {
		return name == PathVar && (!known || OutsidePath(value, dirs, false) != value)
	}
}

// dotDot reports whether path has a ".." element.
func dotDot(path string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(path), "/"), "..")
}

// perProcess reports whether p (absolute) is under /proc or /dev,
// where a folder's name leads to each process's own (/proc/self,
// /dev/fd): no program a hook needs is there. Not on Windows, which has
// neither.
func perProcess(p string) bool {
	return runtime.GOOS != "windows" && (fsutil.InTree(p, "/proc") || fsutil.InTree(p, "/dev"))
}

// Without is env less the variables of drop (by name as the system
// compares them: on Windows "Path" is PATH).
func Without(env, drop []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(drop, func(d string) bool { return sameName(d, name) }) {
			out = append(out, kv)
		}
	}
	return out
}

func sameName(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
