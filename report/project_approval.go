package report

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
)

// ProjectHook is one hook of a repository's config set as `approve
// --project` shows it before approving: what fires it, what it runs and
// the content an approval would record.
type ProjectHook struct {
	Event   string `json:"event"`
	Matcher string `json:"matcher,omitempty"`
	Command string `json:"command"`
	// Source is the file the hook is declared in (for a rule, the rule
	// file it is written in).
	Source string `json:"source"`
	// Decision and Message: a rule's, which its approval pins (empty for
	// anything else).
	Decision string `json:"decision,omitempty"`
	Message  string `json:"message,omitempty"`
	// ID and Shadow: a rule's id and mode: shadow, which its approval
	// pins too (a shadow rule decides nothing: its "decision: block"
	// alone would read as a guard the repository adds).
	ID     string       `json:"id,omitempty"`
	Shadow bool         `json:"shadow,omitempty"`
	Files  []FileDigest `json:"files"`
	// TextOnly says why the files it runs cannot be determined: it would
	// be approved by its text only.
	TextOnly string `json:"text_only,omitempty"`
	// State: "new" (not approved), "changed" (approved, but what it runs
	// changed since) or "approved" (nothing to do; Elsewhere when the
	// approval was given in another checkout of the repository).
	State     string `json:"state"`
	Elsewhere bool   `json:"approved_elsewhere,omitempty"`
	// Status is the hook's inspection, for the approval itself.
	Status *HookStatus `json:"-"`
}

// FileDigest is one file a hook runs, with the digest an approval would
// record ("" when it cannot be read; Problem says why).
type FileDigest struct {
	Path    string `json:"path"`
	SHA256  string `json:"sha256,omitempty"`
	Problem string `json:"problem,omitempty"`
}

// ProjectHooks picks the hooks a repository declares (its hooks file, its
// agents' settings and hook files: every entry with a project scope) out
// of statuses, skipping duplicates (approved with the entry they repeat),
// and reads the digest of every file they run.
func ProjectHooks(statuses []HookStatus) []ProjectHook {
	var hashes cmdpin.Cache
	var out []ProjectHook
	for i := range statuses {
		st := &statuses[i]
		e := st.Entry
		if e.Scope.Global() || e.Duplicate {
			continue
		}
		h := ProjectHook{Event: e.DeclaredAs, Matcher: e.Matcher, Command: e.Text(), Source: e.Scope.Source,
			TextOnly: st.TextOnly, State: "new", Status: st, Files: []FileDigest{}}
		if r := e.Rule(); r != nil {
			// What the approval pins besides the expression must be
			// shown before it is given: a context rule's message is
			// text put before the model.
			h.Decision, h.Message, h.ID, h.Shadow = r.Decision, r.Message, r.ID, e.Shadow
			if e.Source != "" {
				h.Source = e.Source
			}
		}
		switch {
		case st.Approved && st.Drift.Kind == consent.DriftHash:
			h.State = "changed"
		case st.Approved:
			h.State, h.Elsewhere = "approved", st.Elsewhere
		}
		for _, f := range st.Files {
			d := FileDigest{Path: f}
			if sum, err := hashes.Sum(f); err != nil {
				d.Problem = err.Error()
			} else {
				d.SHA256 = sum
			}
			h.Files = append(h.Files, d)
		}
		out = append(out, h)
	}
	return out
}

// Pending counts the hooks an approval would change (new or changed).
func Pending(hooks []ProjectHook) int {
	n := 0
	for _, h := range hooks {
		if h.State != "approved" {
			n++
		}
	}
	return n
}

// PrintProjectPlan lists a repository's hooks before `approve --project`
// approves them: event, matcher, command, the file it comes from, and each
// file it runs with a short digest (paths inside root relative to it). It
// reports whether it cut the text of a hook it would approve (a message
// too long to read here): then the plan is not the whole of what a "y"
// would approve.
func PrintProjectPlan(w io.Writer, root string, hooks []ProjectHook) (cut bool) {
	fmt.Fprintf(w, "Hooks of the project %s (%s, %d to approve):\n", show(root), Count(len(hooks), "hook", "hooks"), Pending(hooks))
	for _, h := range hooks {
		state := ""
		switch {
		case h.State == "changed":
			state = "  (changed since its approval)"
		case h.Elsewhere:
			state = "  (= approved in another checkout of this repository)"
		case h.State == "approved":
			state = "  (= already approved)"
		}
		matcher := ""
		if h.Matcher != "" {
			matcher = " matcher=" + PyRepr(h.Matcher)
		}
		fmt.Fprintf(w, "  [%s]%s %s%s\n", show(h.Event), show(matcher), show(h.Command), state)
		fmt.Fprintf(w, "      from %s\n", show(inRoot(root, h.Source)))
		if h.Decision != "" {
			// bounded: a message of a megabyte would scroll the rest of
			// the plan out of sight.
			msg := PyRepr(h.Message)
			shown := bounded(msg)
			cut = cut || shown != msg && h.State != "approved"
			fmt.Fprintf(w, "      decision: %s, message: %s\n", show(h.Decision), show(shown))
		}
		if h.ID != "" {
			fmt.Fprintf(w, "      id: %s\n", show(h.ID))
		}
		if h.Shadow {
			fmt.Fprintln(w, "      mode: shadow (it decides nothing: what it would decide goes to the journal)")
		}
		for _, f := range h.Files {
			switch {
			case f.Problem != "":
				fmt.Fprintf(w, "      runs %s  ✗ %s\n", show(inRoot(root, f.Path)), show(f.Problem))
			default:
				fmt.Fprintf(w, "      runs %s  sha256 %s…\n", show(inRoot(root, f.Path)), f.SHA256[:12])
			}
		}
		if h.Status.Entry.Rule() != nil && h.Status.StartProblem != "" {
			// Approved, it blocks what it matches where it says
			// fail_closed, else decides nothing: either way not the
			// guard the plan's other lines describe.
			fmt.Fprintf(w, "      ✗ it does not compile (%s): fix it before relying on it\n", show(bounded(h.Status.StartProblem)))
		}
		switch {
		case h.TextOnly != "" && h.Status != nil && !h.Status.Entry.RunsCommand():
			// An http hook or opa: entry runs no file; TextOnly says
			// what can change.
			fmt.Fprintf(w, "      ⚠ it would be approved by its text only (%s)\n", show(h.TextOnly))
		case h.TextOnly != "":
			fmt.Fprintf(w, "      ⚠ its files cannot be determined (%s): it would be approved by its text only\n", show(h.TextOnly))
		}
	}
	if loadsUnpinned(hooks) {
		// Said where the person decides: the plan's "runs" lines read as
		// all that is pinned, and a repository's later edit of a module
		// its approved script imports runs under the approval
		// (docs/security.md, "What an approval does not cover").
		fmt.Fprintln(w, `  ℹ an approval pins the files listed under "runs" only: what they load themselves (modules they import, files they source, packages, programs they start) can change without a new approval: review those too`)
	}
	return cut
}

// loadsUnpinned reports a hook the plan would approve that runs files:
// what those load by themselves is not pinned.
func loadsUnpinned(hooks []ProjectHook) bool {
	for _, h := range hooks {
		if h.State != "approved" && len(h.Files) > 0 {
			return true
		}
	}
	return false
}

// inRoot is p relative to root when it is inside it.
func inRoot(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}
