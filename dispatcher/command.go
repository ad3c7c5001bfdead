package dispatcher

import (
	"os"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// What a hook runs and how it is started.

// claudeEnvFile creates the hook's CLAUDE_ENV_FILE (empty, private) and
// returns its path and the hook's environment with it set; "" when it
// cannot be created (the hook then runs without one).
func claudeEnvFile(env []string) (string, []string) {
	f, err := os.CreateTemp("", "hermes-hooks-env-*.sh")
	if err != nil {
		return "", env
	}
	f.Close()
	return f.Name(), withEnv(env, "CLAUDE_ENV_FILE", f.Name())
}

// readEnvFile reads what the hook exported into its CLAUDE_ENV_FILE into
// its contribution, then removes the file.
func readEnvFile(path string, rep *protocol.HookReport) {
	defer os.Remove(path)
	data, err := fsutil.ReadRegular(path, "", 64<<10)
	if err != nil || len(data) == 0 {
		return
	}
	vars, note := protocol.ParseEnvFile(data)
	if note != "" {
		rep.Note = joinNote(rep.Note, note)
	}
	if vars == nil {
		return
	}
	if rep.Contribution == nil {
		rep.Contribution = &protocol.Contribution{}
	}
	rep.Contribution.Env = vars
}

// prepare turns a hook into a process to run, or a spawn error worded as
// Hermes words it. It starts what h.target names — the files the gate
// checked — and, when the gate pinned them, verifies them immediately
// before the start and starts a pinned binary through its descriptor.
func (d *Dispatcher) prepare(h Invocation) (hookproc.Spec, string) {
	e, t := h.Entry, &h.target
	spec := hookproc.Spec{Env: h.Env, Timeout: h.timeout(), Cap: d.opts.OutputCap, StopGrace: e.StopGrace}
	if h.pins != nil {
		spec.Verify = h.pins.Verify
	}
	if t.Err != "" {
		if e.ViaShell() && t.Shell && t.ShellPath != "" {
			// The shell reports it (exit 127 and its own words), as in
			// Claude Code.
			spec.Path, spec.Argv, spec.Dir = t.ShellPath, cmdpin.ShellArgv(*t, h.runText()), h.Dir
			return spec, ""
		}
		return spec, t.Err
	}
	if t.Shell {
		// Claude Code runs command strings through the shell ($VARS, pipes,
		// &&), in the session's working directory.
		spec.Path, spec.Argv, spec.Dir = t.ShellPath, cmdpin.ShellArgv(*t, h.runText()), h.Dir
		return spec, ""
	}
	spec.Path, spec.Argv, spec.Dir, spec.CmdLine = t.Path, t.Argv, t.Dir, t.CmdLine
	if len(t.Env) > 0 {
		spec.Env = append(slices.Clip(spec.Env), t.Env...)
	}
	if e.ViaShell() {
		// What /bin/sh would have done before starting the command: PWD
		// names the directory it runs in, and a script without a #! line
		// is run by the shell.
		spec.Env = withEnv(spec.Env, "PWD", t.Dir)
		spec.ShellFallback = true
	}
	if p := h.pins.ExecPath(); p != "" {
		spec.Path = p
	}
	if st := h.pins.Start(); st != nil {
		// The interpreter reads the sealed copy of the script that was
		// checked, not whatever its name holds by then.
		spec.Path, spec.Argv = st.Path, st.Argv
		if st.Script != nil {
			spec.ExtraFiles = []*os.File{st.Script} // its fd 3 (consent's scriptFD)
		}
	}
	return spec, ""
}

// hookFor decides where and how an entry runs for this firing: its
// directory ("" = the dispatcher's own), its environment and, for Claude
// hooks, CLAUDE_PROJECT_DIR (projectOf); then what its command runs there.
// Claude hooks run in the session's cwd, as in Claude Code; project-local
// hooks in their project root; other Hermes hooks where the dispatcher
// runs, as in Hermes.
// The gate checks the files of the same Target the runner starts, so what
// is approved is what runs.
func (d *Dispatcher) hookFor(e *hookconfig.Entry, f *protocol.Firing) Invocation {
	h := Invocation{Entry: e, Dir: e.WorkDir, Env: d.env, cwd: f.Cwd}
	if e.ViaShell() && !e.Scope.Managed {
		// A managed hook keeps its directory (the managed config's):
		// its relative script is the administrator's, never the
		// repository's.
		h.Dir = f.Cwd // bound: the host's cwd when a directory, else ours
	}
	if h.Dir == "" {
		// Always set, so the gate, the resolver and the runner agree on
		// one directory (Options.Cwd, given once).
		h.Dir = d.opts.Cwd
	}
	if e.ViaShell() {
		h.ProjectDir = projectOf(e, d.env, h.Dir)
		h.Env = projectEnv(e, d.env, h.ProjectDir)
	}
	h.kind = d.kindOf(e)
	if t := h.kind.fixed(e); t != nil {
		h.target = *t
	} else {
		c := commandOf(e, h.Env, h.Dir)
		spec := agentCommand(e, &c, h.ProjectDir, f.Session)
		h.Env, h.text = c.Env, c.Text
		h.target = resolveTarget(c, spec)
	}
	return h
}

// commandOf describes how an entry's command runs, for cmdpin.Resolve.
func commandOf(e *hookconfig.Entry, env []string, dir string) cmdpin.Command {
	c := cmdpin.Command{Text: e.Command, Shell: e.ViaShell(), Env: env, Dir: dir}
	x := e.Exec()
	if x.Args != nil {
		c.Shell, c.Argv = false, x.Args
	}
	switch x.Shell {
	case "bash":
		c.ShellPath = "bash"
	case "powershell":
		c.ShellPath = cmdpin.PowerShellShell
	}
	if c.Shell && e.Dialect == protocol.Claude && e.Codec == nil && c.ShellPath != cmdpin.PowerShellShell {
		// Claude Code hands a shell-form command to the program its
		// CLAUDE_CODE_SHELL_PREFIX names. The variable is the agent's
		// environment's, as PATH is, the user's to set: it needs no
		// approval of its own. But the program runs the hook, so
		// cmdpin resolves and pins what it starts with the command's
		// files: an approval that did not see it does not cover it
		// (docs/agents.md). A Codec's hooks follow their own agent.
		c.Prefix, _ = cmdpin.Getenv(env, shellPrefixVar)
	}
	return c
}

// runText is the command text the hook's shell runs: as its agent
// rewrote it (agentCommand), else the entry's.
func (h *Invocation) runText() string {
	if h.text != "" {
		return h.text
	}
	return h.Entry.Command
}

// shellPrefixVar is Claude Code's CLAUDE_CODE_SHELL_PREFIX.
const shellPrefixVar = "CLAUDE_CODE_SHELL_PREFIX"

// acceptChannels are the environment variables that approve hooks. Hooks
// never inherit them: a hook that runs hermes-hooks itself (a nested
// dispatch) must not approve whatever it meets on the way.
var acceptChannels = []string{"HERMES_ACCEPT_HOOKS"}

// hookBaseEnv is the environment every hook starts from: env (nil: the
// process's), with HERMES_HOOKS=1 — the recursion guard — and without the
// accept channels.
func hookBaseEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if reservedVar(name) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HERMES_HOOKS=1")
}

// reservedVar reports whether name is never handed to a hook as it came:
// an accept channel (a hook must not approve what a nested dispatch
// meets) or HERMES_HOOKS (the recursion guard, set by hookBaseEnv).
func reservedVar(name string) bool {
	return slices.Contains(acceptChannels, name) || name == "HERMES_HOOKS"
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// withEnv returns env with key=value set (replacing any earlier value),
// never modifying env itself.
func withEnv(env []string, key, value string) []string {
	prefix := key + "="
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, prefix) {
			out = append(out, kv)
		}
	}
	return append(out, prefix+value)
}
