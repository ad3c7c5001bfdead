package consent

import "github.com/hermes-hooks/hermes-hooks/internal/cmdpin"

// decideManaged runs a hook of the managed layer: the administrator's
// root-owned file is its approval (hookconfig refuses a file a user could
// write), so it runs, its files pinned as they are now, so that what is
// started is what was checked. A command whose files cannot be told is
// acknowledged by being in that file.
func (p *Policy) decideManaged(h *Request) Verdict {
	t := h.target()
	return Verdict{Run: true, Reason: reasonManaged, Approved: true, TextOnly: t.Opaque, TextOnlyAck: true, Pins: cmdpin.Pin(t, &p.hashes)}
}
