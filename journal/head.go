package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// The head record: PATH.head, a small JSON file beside the live journal
// that every append rewrites (atomically, under the journal's lock) with
// the seq and hash of the newest record, and that lists where each file of
// the chain began (every rotation). The chain alone cannot tell a journal
// whose newest records were deleted (or deleted and replaced by an
// append) from one that simply ends there, nor a journal whose oldest
// lines were cut from one whose oldest files were removed whole; with the
// head record, Verify can.
//
//	{"seq":812,"hash":"3f…","starts":[{"seq":401,"prev":"9c…"}]}
//
// A writer advances the head only from a journal that agrees with it: its
// last record is the head's, or follows from it (records appended by a
// writer that died before updating the head, or by a version that kept
// none). From a journal that does not — records after the head were
// removed — it appends as before but leaves the head alone, so that Verify
// keeps naming the loss. A journal with records and no head record (one
// written before head records existed) gets one at its next append, taken
// from the journal as it then is.

// HeadPath is the head record of the journal at path.
func HeadPath(path string) string { return path + ".head" }

// maxHeadBytes bounds what is read of a head record: a rotation adds ~90
// bytes, one per MaxBytes of journal.
const maxHeadBytes = 4 << 20

// head is the head record.
type head struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
	// Starts are the first records of the files rotations began: where
	// the chain may start once the files before were removed.
	Starts []chainStart `json:"starts,omitempty"`
}

// chainStart is a record a file begins with: its seq and prev.
type chainStart struct {
	Seq  int64  `json:"seq"`
	Prev string `json:"prev"`
}

// errBadHead is a head record that is not one.
var errBadHead = errors.New("not a journal head record")

// parseHead reads a head record; it never panics.
func parseHead(data []byte) (*head, error) {
	if h, ok := parseHeadCommon(data); ok {
		return h, nil
	}
	return decodeHead(data)
}

// decodeHead is parseHead by encoding/json, strictly.
func decodeHead(data []byte) (*head, error) {
	var h head
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%w: %v", errBadHead, err)
	}
	if dec.More() || h.Seq < 0 || !isHash(h.Hash) {
		return nil, errBadHead
	}
	for _, s := range h.Starts {
		if s.Seq < 1 || !isHash(s.Prev) {
			return nil, errBadHead
		}
	}
	return &h, nil
}

func isHash(s string) bool {
	if len(s) != len(ZeroHash) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// readHead reads the head record of the journal at path: nil, nil when
// there is none. It reads under the journal's lock (bounded: a stuck
// writer only risks a torn read, which then fails to parse), since writers
// rewrite the record in place.
func readHead(path string) (*head, error) {
	f, err := fsutil.OpenRegular(HeadPath(path), os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if lf, err := fsutil.OpenRegular(path+".lock", os.O_RDONLY, 0); err == nil {
		if unlock, err := fsutil.FlockWithin(lf, time.Second); err == nil {
			defer unlock()
		}
		defer lf.Close()
	}
	h, _, err := readHeadFile(f)
	return h, err
}

// readHeadFile reads the head record in f and its size: nil for an empty
// file (one a writer has just created).
func readHeadFile(f *os.File) (*head, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if st.Size() == 0 {
		return nil, 0, nil
	}
	if st.Size() > maxHeadBytes {
		return nil, st.Size(), fmt.Errorf("%w: larger than %d bytes", errBadHead, maxHeadBytes)
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, st.Size(), err
	}
	h, err := parseHead(data)
	return h, st.Size(), err
}

// writeHead rewrites the head record in f (whose content is size bytes
// long) in place, with one write at its start, padded with spaces over
// what it replaces: a record of a few hundred bytes fits a page, which one
// write replaces whole. Renaming a new file over it instead would be
// atomic on a crash too, but costs a journal append a millisecond on ext4
// (a rename over a file flushes the new one), sixty times the append
// itself. It is not synced: the journal's lines are not either, and a
// head that lags them by a record after a crash is what the next append
// (and Verify) expect.
func writeHead(f *os.File, size int64, h *head) (int64, error) {
	data, err := marshalHead(h)
	if err != nil {
		return size, err
	}
	data = append(data, '\n')
	for int64(len(data)) < size {
		data = append(data, ' ')
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return size, err
	}
	return int64(len(data)), nil
}

// adoptHead makes the head record of a journal that has none: its newest
// record t, and the first record of each of its files as a start (any of
// them may be where the chain starts once older files are removed).
func adoptHead(path string, t tail) *head {
	h := &head{Seq: t.seq, Hash: t.hash}
	files, _ := Files(path)
	for _, file := range files {
		if s, ok := firstRecord(file); ok && s.Seq > 1 {
			h.Starts = append(h.Starts, s)
		}
	}
	return h
}

// firstRecord is the seq and prev of file's first line, if it is a record.
func firstRecord(file string) (chainStart, bool) {
	var s chainStart
	found := false
	_ = lines(file, func(l Line, _ bool) error {
		var r chainRecord
		if l.Complete && json.Unmarshal(l.Bytes, &r) == nil && r.Seq != nil {
			s, found = chainStart{Seq: *r.Seq, Prev: r.Prev}, true
		}
		return errStop
	})
	return s, found
}

// hasStart reports whether the head lists (seq, prev) as a file's start.
func (h *head) hasStart(seq int64, prev string) bool {
	for _, s := range h.Starts {
		if s.Seq == seq && s.Prev == prev {
			return true
		}
	}
	return false
}

// follows reports whether the journal's last record t descends from the
// head's record: the one before it is the head's (a writer died between
// its line and the head), or, further back, a record with the head's seq
// has the head's hash (records appended by a version that kept no head).
// The search reads back from the end and stops at the head's seq.
func follows(path string, t tail, h *head) bool {
	if t.seq == h.Seq+1 {
		return t.prev == h.Hash
	}
	files, err := Files(path)
	if err != nil {
		return false
	}
	for i := len(files) - 1; i >= 0; i-- {
		hash, seq, found := recordBack(files[i], h.Seq)
		if found {
			return hash == h.Hash
		}
		if seq != 0 && seq < h.Seq {
			return false
		}
	}
	return false
}

// recordBack looks for the record numbered seq in file, reading lines back
// from its end: its hash when found, else the lowest seq it read (0: none).
func recordBack(file string, seq int64) (hash string, lowest int64, found bool) {
	f, err := fsutil.OpenRegular(file, os.O_RDONLY, 0)
	if err != nil {
		return "", 0, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", 0, false
	}
	// Just after the last newline: a torn tail is no record.
	last, err := prevNewline(f, st.Size(), st.Size()-MaxLine-1)
	if err != nil {
		return "", 0, false
	}
	end := last + 1
	for end > 0 {
		nl, err := prevNewline(f, end-1, end-2-MaxLine)
		if err != nil || end-1-(nl+1) > MaxLine {
			return "", lowest, false // longer than any record: not a journal
		}
		start := nl + 1
		if s, _, h, ok := recordAt(f, start, end-1); ok {
			if s == seq {
				return h, s, true
			}
			lowest = s
			if s < seq {
				return "", lowest, false
			}
		}
		end = start
	}
	return "", lowest, false
}

// parseHeadCommon reads the head record every writer writes between
// rotations, {"seq":N,"hash":"H"} and the padding writeHead adds, without
// encoding/json: decoding into a struct costs a one-shot `hook` the
// reflection over its type (a tenth of what recording a firing costs).
// Any other text — starts listed, other spacing or order, anything odd —
// is not read here (ok false) but by parseHead's decoder, which then
// decides; where this reads a head, the decoder reads the same one
// (FuzzParseHead).
func parseHeadCommon(data []byte) (*head, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(`{"seq":`))
	if !ok {
		return nil, false
	}
	n := 0
	for n < len(rest) && n <= 18 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 18 || n > 1 && rest[0] == '0' {
		return nil, false // 18 digits never overflow an int64
	}
	seq, err := strconv.ParseInt(string(rest[:n]), 10, 64)
	if err != nil {
		return nil, false
	}
	rest, ok = bytes.CutPrefix(rest[n:], []byte(`,"hash":"`))
	if !ok || len(rest) < len(ZeroHash)+2 {
		return nil, false
	}
	hash := string(rest[:len(ZeroHash)])
	if !isHash(hash) || rest[len(ZeroHash)] != '"' || rest[len(ZeroHash)+1] != '}' {
		return nil, false
	}
	for _, c := range rest[len(ZeroHash)+2:] {
		if c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			return nil, false
		}
	}
	return &head{Seq: seq, Hash: hash}, true
}

// marshalHead is json.Marshal(h), which it writes itself for the same
// reason parseHeadCommon reads it: every field is a number or a hash
// (hex, nothing to escape); a head that holds another string (none
// should) goes to json.Marshal.
func marshalHead(h *head) ([]byte, error) {
	ok := isHash(h.Hash)
	for _, s := range h.Starts {
		ok = ok && isHash(s.Prev)
	}
	if !ok {
		return json.Marshal(h)
	}
	b := make([]byte, 0, 96+len(h.Starts)*96)
	b = strconv.AppendInt(append(b, `{"seq":`...), h.Seq, 10)
	b = append(append(append(b, `,"hash":"`...), h.Hash...), '"')
	if len(h.Starts) > 0 {
		b = append(b, `,"starts":[`...)
		for i, s := range h.Starts {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(append(b, `{"seq":`...), s.Seq, 10)
			b = append(append(append(b, `,"prev":"`...), s.Prev...), `"}`...)
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}
