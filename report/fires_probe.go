package report

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
)

// The probe: how doctor runs one installed entry as its agent runs it and
// reads the answer (fire, verdict), and asks each agent's CLI its release.
// The runs are independent processes, each answering in milliseconds, so
// they run a few at a time (probeParallel) rather than one after another:
// a machine with three agents installed has some thirty entries to prove.

// probeParallel bounds the entries proved at once: each is a shell and a
// hermes-hooks process.
const probeParallel = 4

// probeJob is one entry to prove: at, its index in the file's checks.
type probeJob struct {
	at          int
	entry       install.Entry
	run         shellRun
	cannot, why string
}

// fireAll proves the jobs, probeParallel at a time, writing each verdict
// into checks[job.at].
func (p probe) fireAll(ctx context.Context, in install.Installed, jobs []probeJob, checks []FireCheck) {
	sem := make(chan struct{}, probeParallel)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			fc := &checks[j.at]
			fc.Status, fc.Detail = p.fire(ctx, in, j.entry, j.run, j.cannot, j.why)
		}()
	}
	wg.Wait()
}

// agentVersions asks the CLI of each agent installed (once per agent, all
// at once: a Node CLI takes up to a second to say its version) its
// release, by agent name.
func agentVersions(ctx context.Context, installs []install.Installed) map[string]string {
	var asked []*agents.Agent
	for _, in := range installs {
		if !slices.ContainsFunc(asked, func(a *agents.Agent) bool { return a.Name == in.Agent.Name }) {
			asked = append(asked, in.Agent)
		}
	}
	got := make([]string, len(asked))
	var wg sync.WaitGroup
	for i, a := range asked {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = agentVersion(ctx, a)
		}()
	}
	wg.Wait()
	versions := make(map[string]string, len(asked))
	for i, a := range asked {
		versions[a.Name] = got[i]
	}
	return versions
}

// agentVersion asks a's CLI, found on PATH, its release ("" when a's
// events do not depend on it, or it cannot be told).
func agentVersion(ctx context.Context, a *agents.Agent) string {
	argv := a.VersionCommand()
	if argv == nil {
		return ""
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return ""
	}
	r := hookproc.Run(ctx, hookproc.Spec{Path: path, Argv: argv, Env: os.Environ(), Timeout: probeTimeout, Cap: 1 << 16})
	if !r.Exited || r.ExitCode != 0 {
		return ""
	}
	return agents.ParseVersion(r.Stdout)
}

// probe is doctor's token and the private file that holds it; shells,
// the PowerShells seen to run a command (or not).
type probe struct {
	token, file string
	shells      *shellChecks
}

// newProbe makes a fresh token in a file only this user can read, in a
// folder of its own (removed by cleanup).
func newProbe() (probe, func(), error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return probe{}, func() {}, err
	}
	dir, err := os.MkdirTemp("", agents.ProbeDirPrefix)
	if err != nil {
		return probe{}, func() {}, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	if err := restrictProbe(dir); err != nil {
		cleanup()
		return probe{}, func() {}, err
	}
	p := probe{token: hex.EncodeToString(b[:]), file: filepath.Join(dir, agents.ProbeFile), shells: &shellChecks{}}
	if err := os.WriteFile(p.file, []byte(p.token+"\n"), 0o600); err != nil {
		cleanup()
		return probe{}, func() {}, err
	}
	return p, cleanup, nil
}

// probeTimeout only catches a command line that hangs: a probe answers in
// milliseconds.
const probeTimeout = 60 * time.Second

// fire runs entry e of in as its agent would (run, from runFor; cannot
// and why: runFor's status when it cannot be run), with the probe, and
// reads what came back.
func (p probe) fire(ctx context.Context, in install.Installed, e install.Entry, run shellRun, cannot, why string) (status, detail string) {
	payload, ok := in.Agent.Sample("", e.Event, "")
	if !ok {
		payload = []byte("{}")
	}
	spec := hookproc.Spec{Dir: in.Root, Stdin: payload, Timeout: probeTimeout,
		Env: append(os.Environ(), agents.ProbeEnv+"="+p.file)}
	switch {
	case e.Script != "":
		spec.Path, spec.Argv = e.Script, []string{e.Script}
		run.line = e.Command
	case cannot != "":
		return cannot, why
	default:
		if run.psCheck && p.shells != nil {
			if why := p.shells.check(ctx, run.path, os.Environ()); why != "" {
				return FireNotRun, in.Agent.Title + " runs it with " + run.path + ", which " + why
			}
		}
		spec.Path, spec.Argv, spec.CmdLine = run.path, run.argv, run.cmdLine
	}
	r := hookproc.Run(ctx, spec)
	return p.verdict(&r, run.line)
}

// lineForm reads line, a command line install wrote (POSIX, or a Windows
// form): the program it runs ("" for the PATH forms) and whether a
// prologue answers when that program is missing; own false for any other.
func lineForm(line string) (exe string, guarded, own bool) {
	if exe, own := agents.OwnProgram(line); own {
		return exe, agents.Guarded(line), true
	}
	return agents.OwnWindowsProgram(line)
}

// verdict reads a probe's result for line, the line run: our answer with
// the token is the proof; a prologue's refusal (the PATH form's, in
// cmd.exe's wording too, or the absolute form's when its program is not an
// executable file), a shell's 127 (cmd.exe's 9009: "is not recognized")
// or a prologue's silence mean hermes-hooks was not found.
func (p probe) verdict(r *hookproc.Result, line string) (status, detail string) {
	out := string(r.Stdout) + string(r.Stderr)
	exe, guarded, own := lineForm(line)
	guarded = own && guarded // a prologue answers when the program is missing
	pathForm, guardedExe := guarded && exe == "", guarded && exe != ""
	switch {
	case agents.IsProbeAnswer(r.Stdout, p.token) || agents.IsProbeAnswer(r.Stderr, p.token):
		return FireOK, ""
	case strings.Contains(out, agents.MissingReason) || strings.Contains(out, agents.MissingReasonCmd):
		return FireNotFound, "hermes-hooks not found: not on PATH, so the agent gets a refusal of every tool call"
	case strings.Contains(out, agents.MissingProgramReason):
		return FireNotFound, "hermes-hooks not found: " + exe + " is missing or not executable, so the agent gets a refusal of every tool call"
	case r.Exited && (r.ExitCode == 127 || r.ExitCode == cmdNotFound):
		return FireNotFound, "hermes-hooks not found (exit " + strconv.Itoa(r.ExitCode) + ": " + firstNonEmptyLine(out) + ")"
	case r.Exited && r.ExitCode == 0 && out == "" && pathForm:
		return FireNotFound, "hermes-hooks not found: not on PATH, so this event passes silently"
	case r.Exited && r.ExitCode == 0 && out == "" && guardedExe:
		return FireNotFound, "hermes-hooks not found: " + exe + " is missing or not executable, so this event passes silently"
	case r.SpawnError != "":
		return FireNoAnswer, "could not start: " + r.SpawnError
	case r.TimedOut:
		return FireNoAnswer, "no answer in " + probeTimeout.String()
	}
	detail = "no probe answer (exit " + strconv.Itoa(r.ExitCode) + ")"
	if l := firstNonEmptyLine(out); l != "" {
		detail += ": " + l
	}
	return FireNoAnswer, detail + "; an older hermes-hooks on PATH? run `hermes-hooks version` there"
}

// cmdNotFound is cmd.exe's exit code for a program it cannot find ("is
// not recognized as an internal or external command"); no POSIX shell can
// exit with it (exit codes end at 255 there).
const cmdNotFound = 9009

// firstNonEmptyLine is s's first non-empty line, trimmed and bounded.
func firstNonEmptyLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 200 {
				l = l[:200] + "…"
			}
			return l
		}
	}
	return ""
}
