package journal

import (
	"bytes"
	"encoding/json"
	"errors"
)

// FollowCheck checks the chain of the lines Follow hands on, line after
// line, as Verify checks a journal's: `log -f` warns where it breaks, as
// `log` does. Verify stops at the first break; FollowCheck goes on after
// it, so that each break is reported once and the records that chain on
// from it are not reported again. What only the journal's end can tell
// (the head record names a record that is gone) is checked once, at the
// end of what was there when Follow started (CaughtUp): a follower never
// knows a later end it reads is the last.
type FollowCheck struct {
	c    chain
	path string
	// headUnread: the head record could not be read (not a bad one: an
	// error reading it), so the journal's end is not judged, as Verify,
	// which fails then, does not.
	headUnread bool
	// broke: a break was found before the last line handed on; the end
	// is then not judged (Verify stops at its first break).
	broke bool
	// tail: the last line handed on, when it broke the chain (else nil).
	// Verify calls a last line that is no record torn, not a break, and
	// still judges the end: CaughtUp does too when that line is the last
	// of what was there (its bytes are kept: Follow reuses its buffer).
	tail *Line
	// resync: the last line broke the chain and was no record; the next
	// record is where the chain goes on from (a record replaced by junk
	// is one break, not that and the gap after it).
	resync bool
}

// NewFollowCheck starts checking the journal at path, whose head record
// is read now, before Follow reads: a rotation records where the files it
// began start, and the first line Follow hands on is checked against
// that; and CaughtUp compares the end of Follow's first read with it (a
// record appended meanwhile reads as one after the head, as Verify says).
func NewFollowCheck(path string) *FollowCheck {
	h, herr := readHead(path)
	unread := herr != nil && !errors.Is(herr, errBadHead)
	if unread {
		h, herr = nil, nil // checked line by line as a journal without one
	}
	return &FollowCheck{c: chain{h: h, herr: herr, head: HeadPath(path)}, path: path, headUnread: unread}
}

// Next checks l, the line Follow handed on after the ones given before,
// and returns where the chain breaks (nil when l follows on). After a
// break the chain goes on from the record that broke it, or from the next
// record when the line that broke it is none.
func (k *FollowCheck) Next(l Line) *Location {
	if k.tail != nil { // a line followed it: a break after all
		k.broke, k.tail = true, nil
	}
	if k.resync {
		if seq, ok := recordSeq(l); ok {
			k.resync = false
			k.c.take(l, seq)
			return nil
		}
	}
	took := k.c.records
	bad, _ := k.c.step(l, false)
	if bad == nil {
		return nil
	}
	k.tail = &Line{File: l.File, N: l.N, Bytes: bytes.Clone(l.Bytes), Complete: l.Complete, TooLong: l.TooLong}
	if k.c.records == took { // else step took l, then found it is not the record the head names
		if seq, ok := recordSeq(l); ok {
			k.c.take(l, seq)
		} else {
			k.resync = true
		}
	}
	return bad
}

// CaughtUp checks the end of the lines handed on so far, Follow's first
// read (what was there when it started), against the head record, as
// Verify does at the journal's end: its newest records removed, or the
// head record bad or missing. Nil when that end is as the head says, or
// when it is not judged (a break before it, or the head unreadable). A
// last line Verify would call torn is no break before it: whether it
// would is asked of step itself, on a copy of the chain (a line that is
// no record leaves the chain as it was before that line).
func (k *FollowCheck) CaughtUp() *Location {
	if k.broke || k.headUnread {
		return nil
	}
	if k.tail != nil {
		c := k.c
		if _, torn := c.step(*k.tail, true); torn == nil {
			return nil
		}
	}
	res := Result{Records: k.c.records, FirstSeq: k.c.firstSeq}
	return checkHead(k.path, k.c.h, k.c.herr, &res, k.c.prevSeq, k.c.prevLoc)
}

// recordSeq is l's seq when l is a record (parsed again only after a
// break: step parses each line once).
func recordSeq(l Line) (int64, bool) {
	var r chainRecord
	if !l.Complete || l.TooLong || json.Unmarshal(l.Bytes, &r) != nil || r.Seq == nil {
		return 0, false
	}
	return *r.Seq, true
}
