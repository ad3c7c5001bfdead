package journal

import (
	"encoding/json"
	"errors"
)

// FollowCheck checks the chain of the lines Follow hands on, line after
// line, as Verify checks a journal's: `log -f` warns where it breaks, as
// `log` does. Verify stops at the first break; FollowCheck goes on after
// it, so that each break is reported once and the records that chain on
// from it are not reported again. What only the journal's end can tell
// (the head record names a record that is gone) is Verify's: a follower
// never knows the end it reads is the last.
type FollowCheck struct {
	c chain
	// resync: the last line broke the chain and was no record; the next
	// record is where the chain goes on from (a record replaced by junk
	// is one break, not that and the gap after it).
	resync bool
}

// NewFollowCheck starts checking the journal at path, whose head record
// is read now (a rotation records where the files it began start, and
// the first line Follow hands on is checked against that).
func NewFollowCheck(path string) *FollowCheck {
	h, herr := readHead(path)
	if herr != nil && !errors.Is(herr, errBadHead) {
		h, herr = nil, nil // unreadable now: checked as a journal without one
	}
	return &FollowCheck{c: chain{h: h, herr: herr, head: HeadPath(path)}}
}

// Next checks l, the line Follow handed on after the ones given before,
// and returns where the chain breaks (nil when l follows on). After a
// break the chain goes on from the record that broke it, or from the next
// record when the line that broke it is none.
func (k *FollowCheck) Next(l Line) *Location {
	if k.resync {
		if seq, ok := recordSeq(l); ok {
			k.resync = false
			k.c.take(l, seq)
			return nil
		}
	}
	bad, _ := k.c.step(l, false)
	if bad == nil {
		return nil
	}
	if seq, ok := recordSeq(l); ok {
		k.c.take(l, seq)
	} else {
		k.resync = true
	}
	return bad
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
