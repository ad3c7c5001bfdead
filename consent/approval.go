package consent

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
)

// target is the hook's resolved command: the one the caller passed, or
// Resolve's answer.
func (h *Request) target() *cmdpin.Target {
	if h.Target != nil {
		return h.Target
	}
	t := cmdpin.Resolve(h.command())
	h.Target = &t
	return h.Target
}

// command describes h as Resolve needs it; Vars are applied over Env.
func (h *Request) command() cmdpin.Command {
	env := h.Env
	if env == nil {
		env = os.Environ()
	}
	if len(h.Vars) > 0 {
		env = append([]string{}, env...)
		for k, v := range h.Vars {
			env = append(env, k+"="+v)
		}
	}
	dir := h.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return cmdpin.Command{Text: h.Command, Shell: h.Shell, Env: env, Dir: dir, Argv: h.Argv, ShellPath: h.ShellPath}
}

// hermesScript is where Hermes looks for the hook's script (scriptPath with
// ~ and the hook's CLAUDE_PROJECT_DIR expanded): the file whose mtime the
// allowlist records, so that Hermes' own doctor reads the same one.
func (h *Request) hermesScript() string {
	c := h.command()
	vars := map[string]string{}
	if v, ok := cmdpin.Getenv(c.Env, "HOME"); ok {
		vars["HOME"] = v
	}
	if v, ok := cmdpin.Getenv(c.Env, "CLAUDE_PROJECT_DIR"); ok {
		vars["CLAUDE_PROJECT_DIR"] = v
	}
	return scriptFile(h.Command, vars, c.Dir)
}

// records turns pinned files into the approval's file records.
func records(t *cmdpin.Target, p *cmdpin.Pins) []FileRecord {
	sums := p.Sums()
	out := make([]FileRecord, len(t.Files))
	for i, f := range t.Files {
		out[i] = FileRecord{Path: f}
		if i < len(sums) {
			out[i].SHA256 = sums[i]
		}
	}
	return out
}

// compare checks what a hook runs now (t, its files hashed in p) against
// its approval e.
//
// An approval that lists its files must list exactly the files the command
// runs now, each with the same content (a file that did not exist must
// still not exist). An approval written by an earlier hermes-hooks, which
// pinned only the primary script, still holds when that script is the only
// file and is unchanged. An approval without any digest (written by Hermes
// or by hand) falls back to Hermes' rule: a newer mtime warns.
func compare(e Entry, h *Request, t *cmdpin.Target, p *cmdpin.Pins) Drift {
	if d, changed := compareSpec(e, t); changed {
		return d
	}
	if e.Files != nil {
		return compareFiles(e.Files, e.ScriptSHA256AtApproval, t, p)
	}
	sums := p.Sums()
	if was := e.ScriptSHA256AtApproval; was != "" {
		switch {
		case len(t.Files) == 0:
			// Nothing to pin: the text is all the command runs (an inline
			// interpreter, a builtin) or all that can be known of it.
			return Drift{Kind: DriftNone, Was: was, Now: was}
		case len(t.Files) > 1:
			return Drift{Kind: DriftHash, Was: was, Why: "approved by an earlier hermes-hooks, which pinned only one of the " +
				strconv.Itoa(len(t.Files)) + " files this command runs; re-approve it to pin them all"}
		case !strings.EqualFold(sums[0], was):
			return unchecked(Drift{Kind: DriftHash, Was: was, Now: sums[0]}, p.HashErr(0))
		}
		return Drift{Kind: DriftNone, Was: was, Now: sums[0]}
	}
	return mtimeDrift(e.ScriptMtimeAtApproval, h.hermesScript())
}

// compareFiles checks the files a hook runs now (t, hashed in p) against
// files, recorded by an approval or shown to the person approving: exactly
// those files, each with the same content (one that did not exist must
// still not exist). primary is the recorded primary script's digest, what
// the answer shows when nothing drifted.
func compareFiles(files []FileRecord, primary string, t *cmdpin.Target, p *cmdpin.Pins) Drift {
	sums := p.Sums()
	recorded := make(map[string]string, len(files))
	for _, r := range files {
		recorded[r.Path] = r.SHA256
	}
	now := make(map[string]bool, len(t.Files))
	for i, f := range t.Files {
		now[f] = true
		was, ok := recorded[f]
		if !ok {
			return Drift{Kind: DriftHash, File: f, Why: "what it runs changed since approval: it now runs " + f + ", which its approval does not cover (another directory, PATH or environment?)"}
		}
		if !strings.EqualFold(was, sums[i]) {
			d := Drift{Kind: DriftHash, Was: was, Now: sums[i]}
			if i > 0 {
				d.File = f
			}
			return unchecked(d, p.HashErr(i))
		}
	}
	for _, r := range files {
		if now[r.Path] {
			continue
		}
		why := "it no longer runs " + r.Path + ", which its approval pinned"
		if t.Opaque != "" {
			// It still runs them, most likely: what changed is that they
			// cannot be known from the command any more.
			why = "its files were pinned, and now they cannot be (" + t.Opaque + ")"
		}
		return Drift{Kind: DriftHash, File: r.Path, Why: "what it runs changed since approval: " + why}
	}
	return Drift{Kind: DriftNone, Was: primary, Now: primary}
}

// ruleSpecPrefix begins the Spec of a rule (the dispatcher's ruleSpec);
// no other kind's Spec does (dispatcher's TestSpecKindsDistinct).
const ruleSpecPrefix = "rule\n"

// opaSpecPrefix begins the Spec of an opa: entry (the dispatcher's
// opaSpec), whose allowed variables its config spells allowed_env_vars.
const opaSpecPrefix = "opa\n"

// envSpecMarker begins the part of a Spec that holds the variables a
// hook's own file sets for it (the dispatcher's envSpec): first, or after
// a PowerShell command's Spec.
const envSpecMarker = "env\n"

// specDigest is the hex SHA-256 of a Target's Spec, or "" for none.
func specDigest(spec string) string {
	if spec == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(spec))
	return hex.EncodeToString(sum[:])
}

// compareSpec checks a hook's Spec (an http hook's URL, headers and
// allowedEnvVars) against the digest its approval pinned. An approval
// without one (written before Specs were pinned, by hand, or for a command
// that now is an http hook) covers none: the headers it would send were
// never approved.
func compareSpec(e Entry, t *cmdpin.Target) (Drift, bool) {
	now := specDigest(t.Spec)
	if strings.EqualFold(now, e.SpecSHA256) {
		return Drift{}, false
	}
	d := Drift{Kind: DriftHash, Was: e.SpecSHA256, Now: now}
	ps := specDigest(cmdpin.PowerShellSpec)
	switch {
	case t.Spec == cmdpin.PowerShellSpec:
		d.Why = "what runs it changed since approval: it now runs through PowerShell, and was approved " + specWhat(e.SpecSHA256)
	case strings.EqualFold(e.SpecSHA256, ps):
		d.Why = "what runs it changed since approval: it was approved to run through PowerShell, and is not run by it now"
	case strings.HasPrefix(t.Spec, ruleSpecPrefix):
		// A rule (dispatcher's ruleSpec): its whole text is what it does.
		d.Why = "the rule changed since approval: " + ruleChange(t.Spec, e.SpecSHA256)
	case strings.HasPrefix(t.Spec, envSpecMarker) || strings.Contains(t.Spec, "\n"+envSpecMarker):
		// A command whose hook file sets variables for it (Gemini CLI's
		// env): they change what it does, a guard switched off.
		d.Why = "what it runs with changed since approval: the variables its hook file sets for it (env) differ from the approved ones"
	case e.SpecSHA256 == "":
		d.Why = "what it sends changed since approval: its approval covers only its URL, not the headers and allowedEnvVars it sends now; re-approve it to pin them"
	case now == "":
		d.Why = "what it runs changed since approval: it was approved as an http hook (or with variables its hook file set for it: env) and is not one now"
	case strings.HasPrefix(t.Spec, opaSpecPrefix):
		d.Why = "what it sends changed since approval: its URL, headers or allowed_env_vars differ from the approved ones"
	default:
		d.Why = "what it sends changed since approval: its URL, headers or allowedEnvVars differ from the approved ones"
	}
	return d, true
}

// shadowSpecSuffix ends the Spec of a rule in mode: shadow (the
// dispatcher's ruleSpec): the one change of a rule its approval's digest
// can tell apart, since it is the change a rollout makes.
const shadowSpecSuffix = "\nmode \"shadow\""

// ruleChange words what changed of a rule whose Spec is spec since it was
// approved with the digest was: its mode alone (approved in mode: shadow,
// to record only, and now deciding, or the other way), else any of what
// its Spec holds.
func ruleChange(spec, was string) string {
	switch {
	case strings.EqualFold(specDigest(spec+shadowSpecSuffix), was):
		return "it was approved in mode: shadow, to record only, and now decides"
	case strings.HasSuffix(spec, shadowSpecSuffix) && strings.EqualFold(specDigest(strings.TrimSuffix(spec, shadowSpecSuffix)), was):
		return "it was approved to decide, and is now in mode: shadow"
	}
	return "its expression, decision, message, id or shadow mode differ from the approved ones"
}

// specWhat words what an approval whose Spec digest is was approved the
// hook as, for a hook that now runs through PowerShell.
func specWhat(was string) string {
	if was == "" {
		return "as a command of the POSIX shell (or bash)"
	}
	return "as an http hook"
}

// unchecked words a drift whose file exists but could not be hashed (it
// changed while being read, or another process has it open for writing):
// "unreadable" would send the user looking for a permission problem.
func unchecked(d Drift, err error) Drift {
	if err == nil {
		return d
	}
	what := "script"
	if d.File != "" {
		what = d.File
	}
	d.Why = what + " could not be checked against its approval (" + err.Error() + ")"
	return d
}

// Status is how one hook stands against an allowlist, for list, doctor and
// serve's change log: what it runs, its approval, and the comparison.
type Status struct {
	Target   cmdpin.Target
	Approved bool
	Approval Entry
	Drift    Drift
	// Elsewhere: the approval was given in another checkout of the
	// hook's repository (see portable.go).
	Elsewhere bool
}

// Inspect reports h against the allowlist f without running or approving
// anything.
func Inspect(h Request, f *File) Status {
	if h.Scope.Bundle != "" {
		return inspectBundle(&h)
	}
	t := h.target()
	st := Status{Target: *t}
	if h.Scope.Managed {
		// Approved by the managed config it is in (Policy.decideManaged).
		st.Approved, st.Approval = true, Entry{Event: h.Event, Command: h.Command, Scope: h.Scope, TextOnly: t.Opaque != "", TextOnlyAck: true}
		return st
	}
	e, ok := f.LookupIn(h.Event, h.Command, h.Scope)
	var exact *Entry
	if ok {
		exact = &e
	}
	others := f.elsewhere(&h, &defaultHashes)
	if !ok && len(others) == 0 {
		if e, ok := f.ruleApproval(&h); ok {
			// A rule of its id is approved here: it changed (rule_changed.go).
			st.Approved, st.Approval, st.Drift = true, e, ruleChangedDrift(&h, &e)
		}
		return st
	}
	pins := cmdpin.Pin(t, &defaultHashes)
	defer pins.Close()
	st.Approval, st.Drift, st.Elsewhere, st.Approved = approvalFor(exact, func() []Entry { return others }, &h, t, pins)
	return st
}
