package repoenv

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

func TestLoads(t *testing.T) {
	for name, want := range map[string]bool{
		"BASH_ENV": true, "BASH_FUNC_jq%%": true, "GIT_CONFIG_KEY_3": true, "GIT_CONFIG_VALUE_0": true, "GIT_CONFIG": false, "NODE_OPTIONS": true, "LD_PRELOAD": true,
		"PYTHONPATH": true, "DYLD_INSERT_LIBRARIES": true, "SHELLOPTS": true, "PS4": true, "PYTHONPYCACHEPREFIX": true, "PYTHONPLATLIBDIR": true,
		"GIT_CONFIG_COUNT": true, "XDG_CONFIG_HOME": true, "GIT_DIR": true,
		"PYTHONWARNINGS": true, "PYTHONINSPECT": true,
		"GIT_SSH_COMMAND": true, "GIT_ASKPASS": true, "GIT_EDITOR": true, "GIT_TEMPLATE_DIR": true, "GIT_SSH_VARIANT": false,
		// Set by most shells: not looked for (each costs a call a read).
		"SSH_ASKPASS": false, "EDITOR": false, "VISUAL": false, "LESSOPEN": false,
		"PATH": false, "HOME": runtime.GOOS == "windows", // Git for Windows reads it first
		"GEM_PATH": true, "RUBYGEMS_GEMDEPS": true, "CURL_HOME": true, "WGETRC": true,
		"http_proxy": true, "HTTPS_PROXY": true, "ALL_PROXY": true, "all_proxy": true, "NO_PROXY": false,
		"LOCALDOMAIN": true, "RES_OPTIONS": true, "HOSTALIASES": true,
		"LANG": false, "NODE_OPTIONS_X": false,
		// Names keep their case, except on Windows (TestLoadsFoldsCaseOnWindows).
		"bash_env": runtime.GOOS == "windows",
	} {
		if got := Loads(name); got != want {
			t.Errorf("Loads(%q) = %v, want %v", name, got, want)
		}
	}
}

// On Windows a variable's name is one whatever its case: a settings
// file's node_options reaches node as NODE_OPTIONS.
func TestLoadsFoldsCaseOnWindows(t *testing.T) {
	for _, name := range []string{"node_options", "Bash_Env", "bash_func_jq%%", "HOME", "Home"} {
		if !loads(name, true) {
			t.Errorf("loads(%q, fold) = false", name)
		}
		if loads(name, false) {
			t.Errorf("loads(%q) = true where names keep their case", name)
		}
	}
}

func TestLoadersSet(t *testing.T) {
	env := []string{"PATH=/bin", "BASH_ENV=", "NODE_OPTIONS=--require=x", "BASH_FUNC_f%%=() { :; }", "NODE_OPTIONS=again", "LANG=C"}
	if got, want := LoadersSet(env), []string{"NODE_OPTIONS", "BASH_FUNC_f%%"}; !reflect.DeepEqual(got, want) {
		t.Errorf("LoadersSet = %v, want %v", got, want)
	}
	if got, want := Without(env, []string{"NODE_OPTIONS", "BASH_FUNC_f%%"}), []string{"PATH=/bin", "BASH_ENV=", "LANG=C"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Without = %v, want %v", got, want)
	}
}

// A hook call counts a loader whose value in its environment is the
// file's (the agent took it from there); doctor counts any the file sets
// to a value, a bash function by its prefix.
func TestLoaders(t *testing.T) {
	claude, _ := agents.Lookup("claude")
	gemini, _ := agents.Lookup("gemini")
	qwen, _ := agents.Lookup("qwen")
	for _, c := range []struct {
		agent *agents.Agent
		file  string
		body  string
		env   map[string]string // nil: doctor's reading
		want  []string
	}{
		{claude, ".claude/settings.json", `{"env": {"BASH_ENV": "./e.sh"}}`, map[string]string{"BASH_ENV": "./e.sh"}, []string{"BASH_ENV"}},
		{claude, ".claude/settings.json", `{"env": {"BASH_ENV": "./e.sh"}}`, map[string]string{"BASH_ENV": "/mine.sh"}, nil},
		{claude, ".claude/settings.local.json", `{"env": {"BASH_FUNC_jq%%": "() { :; }"}}`, map[string]string{"BASH_FUNC_jq%%": "() { :; }"}, []string{"BASH_FUNC_jq%%"}},
		// Claude Code makes any JSON value a string: its value is unknown.
		{claude, ".claude/settings.json", `{"env": {"NODE_OPTIONS": ["-r", "x"]}}`, map[string]string{"NODE_OPTIONS": "-r,x"}, []string{"NODE_OPTIONS"}},
		{claude, ".claude/settings.json", `{"env": {"BASH_FUNC_b%%": "x", "LANG": "C", "LD_PRELOAD": "./l.so", "BASH_FUNC_a%%": "y", "ENV": ""}}`, nil, []string{"LD_PRELOAD", "BASH_FUNC_a%%", "BASH_FUNC_b%%"}},
		{gemini, ".env", "NODE_OPTIONS=--require ./x.js\nLANG=C\n", map[string]string{"NODE_OPTIONS": "--require ./x.js"}, []string{"NODE_OPTIONS"}},
		{gemini, ".gemini/.env", "export PYTHONPATH=./lib # ours\n", nil, []string{"PYTHONPATH"}},
		{gemini, ".env", "LANG=C\n", nil, nil},
		// Qwen Code takes no loader of its own list from any env file.
		{qwen, ".env", "BASH_ENV=./e.sh\nNODE_OPTIONS=-r x\nPYTHONSTARTUP=s.py\nPYTHONPATH=./lib\n", nil, []string{"PYTHONPATH"}},
		{qwen, ".env", "BASH_ENV=./e.sh\n", map[string]string{"BASH_ENV": "./e.sh"}, nil},
		{qwen, ".qwen/settings.json", `{"env": {"BASH_FUNC_f%%": "() { :; }", "RUBYOPT": "-r./x"}}`, nil, []string{"RUBYOPT"}},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, filepath.FromSlash(c.file))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		var got []Finding
		if c.env == nil {
			got = Loaders(c.agent, []string{dir}, "/nonexistent-home", nil, AnyLoader, nil)
		} else {
			var environ []string
			for k, v := range c.env {
				environ = append(environ, k+"="+v)
			}
			set := LoadersSet(environ)
			lookup := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
			got = Loaders(c.agent, []string{dir}, "/nonexistent-home", set, InEnv(set, lookup), set)
		}
		var vars []string
		for _, f := range got {
			if f.Err != nil {
				t.Errorf("%s %q: %v", c.file, c.body, f.Err)
			}
			vars = append(vars, f.Vars...)
		}
		if !reflect.DeepEqual(vars, c.want) {
			t.Errorf("%s %q (env %v): %v, want %v", c.file, c.body, c.env, vars, c.want)
		}
	}
}

func TestOutsidePath(t *testing.T) {
	if filepath.Separator != '/' {
		t.Skip("POSIX paths")
	}
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "proj")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	// A ".." goes (the system takes it after a link, which the
	// repository may have made: dir/link/../../bin), and so does a folder
	// under /proc or /dev (/proc/self/cwd is each process's own folder).
	value := strings.Join([]string{"", ".", "./bin", "bin", dir + "/bin", dir, dir + "x/bin", "/usr/bin", "/usr/local/bin/../bin", dir + "/../other",
		"/proc/self/cwd/bin", "//proc/self/cwd", "/dev/fd/../cwd", "/dev", "/procx/bin", "/usr/..bin", "/opt/x../bin"}, ":")
	want := strings.Join([]string{dir + "x/bin", "/usr/bin", "/procx/bin", "/usr/..bin", "/opt/x../bin"}, ":")
	if got := OutsidePath(value, []string{dir}, false); got != want {
		t.Errorf("OutsidePath = %q, want %q", got, want)
	}
	// The project named through a link: its real folder's entries go
	// only when real paths are asked for.
	if got := OutsidePath(dir+"/bin:/bin", []string{link}, false); got != dir+"/bin:/bin" {
		t.Errorf("lexical: %q", got)
	}
	if got := OutsidePath(dir+"/bin:/bin", []string{link}, true); got != "/bin" {
		t.Errorf("real: %q", got)
	}
}

// TestShellReads: what the agent's shell loads before our command line
// runs, checked against bash 5.2 and dash 0.5.12 (a non-root user; bash
// imports no PS4 for root), and ld.so.
func TestShellReads(t *testing.T) {
	all := []string{"BASH_ENV", "BASH_FUNC_jq%%", "SHELLOPTS", "PS4", "LD_PRELOAD", "LD_LIBRARY_PATH", "NODE_OPTIONS"}
	for _, tc := range []struct {
		sh   Shell
		vars []string
		want []string
	}{
		{Shell{Name: "bash"}, all, []string{"BASH_ENV", "BASH_FUNC_jq%%", "SHELLOPTS", "PS4"}},
		{Shell{Name: "bash", DynamicLoader: true}, all, []string{"BASH_ENV", "BASH_FUNC_jq%%", "SHELLOPTS", "PS4", "LD_PRELOAD", "LD_LIBRARY_PATH"}},
		// dash reads none of bash's; its loader still loads LD_PRELOAD.
		{Shell{Name: "sh", DynamicLoader: true}, all, []string{"LD_PRELOAD", "LD_LIBRARY_PATH"}},
		{Shell{Name: "sh"}, all, nil},
		// bash as sh: no BASH_ENV, the rest.
		{Shell{Name: "sh", BashAsSh: true}, all, []string{"BASH_FUNC_jq%%", "SHELLOPTS", "PS4"}},
		// xtrace needs both: SHELLOPTS alone traces with the user's PS4,
		// a PS4 alone is never expanded.
		{Shell{Name: "bash"}, []string{"SHELLOPTS"}, nil},
		{Shell{Name: "bash"}, []string{"PS4", "NODE_OPTIONS"}, nil},
	} {
		if got := ShellReads(tc.sh, tc.vars); !slices.Equal(got, tc.want) {
			t.Errorf("ShellReads(%+v, %q) = %q, want %q", tc.sh, tc.vars, got, tc.want)
		}
	}
}
