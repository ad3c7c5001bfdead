package consent

// Writing new approvals: an accept policy or a prompt answered yes records
// the hook in the allowlist (or, when that fails, in this process), and a
// prompt answered no is remembered. Policy.Decide, in policy.go, decides
// which path a hook takes.

import (
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
)

// approveLockWait bounds how long a dispatch waits for the allowlist's lock
// to record an approval (an accept channel, a prompt answered yes). A
// writer holds it for milliseconds; one that holds it longer is stuck, and
// the hook then runs on an approval kept in this process, with a warning
// (issue 23: no lock without a bound on the dispatch path).
const approveLockWait = 5 * time.Second

// approve records an approval and lets the hook run. The approval records
// the very files (and digests) the hook is then started from. When saving
// fails the approval still holds in this process, and the user is told that
// they will be asked again next time.
func (p *Policy) approve(h *Request, k pair, reason string) Verdict {
	t := h.target()
	pins := cmdpin.Pin(t, &p.hashes)
	res, err := p.Store.approvePinned(h, t, pins, approveLockWait)
	v := Verdict{Run: true, Reason: reason, Approved: true, Drift: DriftNone, TextOnly: t.Opaque, Pins: pins}
	if res.Backup != "" {
		p.warn(BackupNotice(p.Store.Path(), res.Backup))
	}
	if err != nil {
		v.Warning = PersistWarning(p.Store.Path(), err)
		p.warn(v.Warning)
		p.mu.Lock()
		if p.session == nil {
			p.session = make(map[pair]Entry)
		}
		p.session[k] = res.Entry
		p.mu.Unlock()
	}
	return v
}

// prompt asks at the terminal. Only one prompt is shown at a time; a caller
// that waited for another prompt re-checks first, since that prompt may
// have been about the same hook.
func (p *Policy) prompt(h *Request, k pair) Verdict {
	p.promptMu.Lock()
	defer p.promptMu.Unlock()
	if v, ok := p.decideApproved(h, k); ok {
		return v
	}
	p.mu.Lock()
	prev, asked := p.declined[k]
	p.mu.Unlock()
	if asked {
		return Verdict{Reason: declineReason(prev)}
	}
	ans := p.Prompter.Ask(h.Event, h.Command)
	if ans == AnswerYes {
		return p.approve(h, k, reasonPrompted)
	}
	p.mu.Lock()
	if p.declined == nil {
		p.declined = make(map[pair]Answer)
	}
	p.declined[k] = ans
	p.mu.Unlock()
	return Verdict{Reason: declineReason(ans)}
}

func declineReason(a Answer) string {
	switch a {
	case AnswerTimeout:
		return reasonPromptTimeout
	case AnswerEOF:
		return reasonPromptEOF
	}
	return reasonDeclined
}
