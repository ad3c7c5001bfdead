package journal

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// Files lists the journal's files, oldest first: the rotated ones
// (PATH.n … PATH.1), then the live file if it exists.
func Files(path string) ([]string, error) {
	var rotated []string
	for n := 1; ; n++ {
		p := rotatedName(path, n)
		if _, err := os.Lstat(p); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			break
		}
		rotated = append(rotated, p)
	}
	out := make([]string, 0, len(rotated)+1)
	for i := len(rotated) - 1; i >= 0; i-- {
		out = append(out, rotated[i])
	}
	if _, err := os.Lstat(path); err == nil {
		out = append(out, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return out, nil
}

// Line is one line of a journal file.
type Line struct {
	File string
	// N is the line number in File, from 1.
	N int
	// Bytes are the line without its newline; Complete says it had one.
	Bytes    []byte
	Complete bool
	// TooLong says the line is longer than MaxLine, which no writer
	// writes: Bytes is then empty (it was not kept in memory).
	TooLong bool
}

// lines calls fn for each line of file, and says whether it is the file's
// last. Only a regular file is read (a FIFO at a journal's name would hold
// log up for ever), and no line longer than MaxLine is kept in memory.
func lines(file string, fn func(l Line, last bool) error) error {
	f, err := fsutil.OpenRegular(file, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	read := func(n int) (Line, bool, error) {
		b, tooLong, err := readLine(r)
		if len(b) == 0 && !tooLong && errors.Is(err, io.EOF) {
			return Line{}, false, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return Line{}, false, err
		}
		l := Line{File: file, N: n, Bytes: b, Complete: err == nil, TooLong: tooLong}
		if l.Complete && !tooLong {
			l.Bytes = b[:len(b)-1]
		}
		return l, true, nil
	}
	cur, ok, err := read(1)
	for ok && err == nil {
		var next Line
		var more bool
		next, more, err = read(cur.N + 1)
		if err != nil {
			return err
		}
		if err := fn(cur, !more); err != nil {
			return err
		}
		cur, ok = next, more
	}
	return err
}

// readLine is bufio's ReadBytes('\n') that keeps at most MaxLine bytes:
// past that it reads on to the newline and says the line was too long.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxLine+1 {
				line, tooLong = nil, true
			} else {
				line = append(line, chunk...)
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, tooLong, err
		}
	}
}

// errStop ends a scan early without an error.
var errStop = errors.New("stop")

// Scan calls fn with every record of the journal at path, oldest first,
// across rotated files. Lines that are not records (a torn tail) are
// passed over: Verify is the place that judges them. fn returning false
// stops the scan.
func Scan(path string, fn func(l Line, e *Entry) bool) error {
	return ScanUnread(path, fn, nil)
}

// ScanUnread is Scan that also calls unread, when not nil, with each line
// the chain counts as a record (JSON with a seq) that fn cannot be given,
// the Entry as far as it decoded, and why: a field of another type than
// an Entry's. Verify reads only seq
// and prev, so such a line can be a sound link of the chain, and a reader
// that shows records would pass over it in silence. A line that is no
// record at all (not JSON, too long, torn) is not unread: the chain check
// names it, or the next append repairs it.
func ScanUnread(path string, fn func(l Line, e *Entry) bool, unread func(l Line, e *Entry, err error)) error {
	files, err := Files(path)
	if err != nil {
		return err
	}
	for _, file := range files {
		more, err := scanFile(file, fn, unread)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			// A file rotated away between Files and here has only moved
			// on; anything else is an error.
			return err
		}
		if !more {
			return nil
		}
	}
	return nil
}

// ScanFile is Scan for one file; more is false when fn stopped it.
func ScanFile(file string, fn func(l Line, e *Entry) bool) (more bool, err error) {
	return scanFile(file, fn, nil)
}

func scanFile(file string, fn func(l Line, e *Entry) bool, unread func(Line, *Entry, error)) (more bool, err error) {
	err = lines(file, func(l Line, _ bool) error {
		e, derr := l.Entry()
		if derr != nil {
			if unread != nil && !errors.Is(derr, ErrNotRecord) {
				unread(l, e, derr)
			}
			return nil
		}
		if !fn(l, e) {
			return errStop
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return false, nil
	}
	return err == nil, err
}

// ErrNotRecord is Entry's error for a line that is no record of the chain:
// torn, too long, not JSON, or without a seq.
var ErrNotRecord = errors.New("not a journal record")

// Entry decodes the line as a record. When it is none: ErrNotRecord for
// a line that is no record of the chain either, else what is wrong with
// it in JSON's words (a record of the chain whose fields are not an
// Entry's) and the Entry as far as it decoded, which a reader's filters
// can still judge (its time, its event). The line is parsed a second time
// only then.
func (l Line) Entry() (*Entry, error) {
	if !l.Complete || l.TooLong {
		return nil, ErrNotRecord
	}
	var e Entry
	err := json.Unmarshal(l.Bytes, &e)
	if err == nil {
		return &e, nil
	}
	if _, ok := recordSeq(l); !ok {
		return nil, ErrNotRecord
	}
	return &e, entryError(err)
}

// entryError is why a record of the chain is no Entry, in JSON's words and
// bounded: the decoder's own quote the value (a megabyte string once is
// a megabyte warning) and name Go types.
func entryError(err error) error {
	var te *json.UnmarshalTypeError
	var pe *time.ParseError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return fmt.Errorf("its %q is %s, where a record has %s", textutil.Truncate(te.Field, 64), jsonValue(te.Value), jsonKind(te.Type))
	case errors.As(err, &pe), strings.Contains(err.Error(), "Time.UnmarshalJSON"):
		return errors.New(`its "time" is no RFC 3339 time`)
	}
	return errors.New("its JSON is no record's: " + textutil.Truncate(err.Error(), 120))
}

// jsonValue names encoding/json's name of a JSON value ("object", "number
// 1.5", "bool") as a person would.
func jsonValue(v string) string {
	switch {
	case v == "bool":
		return "true or false"
	case strings.HasPrefix(v, "number "):
		return "the number " + textutil.Truncate(strings.TrimPrefix(v, "number "), 32)
	}
	return article(v)
}

// jsonKind names what JSON value decodes into a Go value of type t.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	if t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64 {
		return "a whole number"
	}
	if t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64 {
		return "a number"
	}
	return "another value"
}

// article puts "a" or "an" before encoding/json's name of a JSON value
// ("object", "number 1.5", "array").
func article(v string) string {
	if v != "" && strings.ContainsRune("aeiou", rune(v[0])) {
		return "an " + v
	}
	return "a " + v
}

// Location names a line of the journal and what is wrong with it.
type Location struct {
	File   string
	Line   int
	Reason string
}

func (l *Location) String() string { return fmt.Sprintf("%s:%d: %s", l.File, l.Line, l.Reason) }

// Result is what Verify found.
type Result struct {
	Files   []string
	Records int64
	// FirstSeq is the first record's seq: 1 for a journal that is whole,
	// more when older rotated files were removed (the chain is then
	// checked from that record on).
	FirstSeq int64
	// Torn is the live file's torn tail (a write cut short), which the
	// next append repairs; it is not tampering.
	Torn *Location
	// Bad is the first line that breaks the chain; nil when it is intact.
	Bad *Location
	// AfterHead counts the records after the one the head record names
	// (see HeadPath): a writer that died before updating it, or records
	// of a version that kept none; the next append moves it on.
	AfterHead int64
}

type chainRecord struct {
	Seq  *int64 `json:"seq"`
	Prev string `json:"prev"`
}

// Verify checks the chain across every file of the journal at path:
// each line a record, seqs consecutive, each prev the SHA-256 of the line
// before; and the chain's ends against the head record (HeadPath): a chain
// that starts after record 1 must start a file where a recorded rotation
// began one (whole older files may be removed, lines of them not), and the
// record the head names must be there, unchanged — so removing the newest
// records, or removing them and appending others, is found. It stops at
// the first bad line. A missing journal (without a head record) is an
// empty, intact one.
func Verify(path string) (Result, error) {
	var res Result
	files, err := Files(path)
	if err != nil {
		return res, err
	}
	res.Files = files
	h, herr := readHead(path)
	if herr != nil && !errors.Is(herr, errBadHead) {
		return res, herr
	}
	c := chain{h: h, herr: herr, head: HeadPath(path)}
	for fi, file := range files {
		lastFile := fi == len(files)-1
		err := lines(file, func(l Line, last bool) error {
			bad, torn := c.step(l, lastFile && last)
			res.Bad, res.Torn = bad, torn
			if bad != nil || torn != nil {
				return errStop
			}
			return nil
		})
		if errors.Is(err, errStop) {
			if res.Bad != nil {
				res.Records, res.FirstSeq = c.records, c.firstSeq
				return res, nil
			}
			break
		}
		if err != nil {
			return res, err
		}
	}
	res.Records, res.FirstSeq = c.records, c.firstSeq
	res.Bad = checkHead(path, h, herr, &res, c.prevSeq, c.prevLoc)
	return res, nil
}

// chain is Verify's walk along the journal's lines, oldest first, one
// line at a time (FollowCheck walks it as log -f reads): the record before
// and the head record (h; herr: why there is none) the chain's start is
// checked against.
type chain struct {
	h        *head
	herr     error
	head     string // the head record's path, for messages
	prevHash string
	prevSeq  int64
	prevLoc  Line
	records  int64
	firstSeq int64
}

// step checks l, the line after those stepped before (atEnd: the
// journal's last line, which a write cut short may have torn). bad is
// where the chain breaks (l, or the line before when that one was
// changed); torn is a torn last line, which is no break.
func (c *chain) step(l Line, atEnd bool) (bad, torn *Location) {
	file, h := l.File, c.h
	var r chainRecord
	switch {
	case l.TooLong:
		return &Location{file, l.N, fmt.Sprintf("a line longer than any journal record (%d MiB): not written by hermes-hooks", MaxLine>>20)}, nil
	case !l.Complete && atEnd:
		return nil, &Location{file, l.N, "torn last line (no newline): a write was cut short; the next append truncates it"}
	case !l.Complete:
		return &Location{file, l.N, "a line without its newline inside the journal"}, nil
	case json.Unmarshal(l.Bytes, &r) != nil || r.Seq == nil:
		if atEnd {
			return nil, &Location{file, l.N, "torn last line (not a record): a write was cut short; the next append truncates it"}
		}
		return &Location{file, l.N, "not a journal record (edited, or not written by hermes-hooks)"}, nil
	}
	seq := *r.Seq
	switch {
	case c.prevHash == "" && seq == 1 && r.Prev != ZeroHash:
		return &Location{file, l.N, "the first record does not chain from the zero hash"}, nil
	case c.prevHash == "" && seq > 1 && (l.N != 1 || h == nil || !h.hasStart(seq, r.Prev)):
		if h != nil || c.herr != nil {
			return &Location{file, l.N, fmt.Sprintf("the chain starts at record %d, and no recorded rotation began a file there: the records before it were removed", seq)}, nil
		}
		c.firstSeq = seq // no head record: judged by checkHead
	case c.prevHash == "":
		c.firstSeq = seq
	case seq != c.prevSeq+1 && seq > c.prevSeq:
		return &Location{file, l.N, fmt.Sprintf("seq %d follows seq %d: %d record(s) missing before this line (deleted or moved)", seq, c.prevSeq, seq-c.prevSeq-1)}, nil
	case seq != c.prevSeq+1:
		return &Location{file, l.N, fmt.Sprintf("seq %d follows seq %d: records out of order (moved or copied)", seq, c.prevSeq)}, nil
	case r.Prev != c.prevHash:
		// The seqs run on, so the line before was changed in place
		// (or this record's prev was).
		return &Location{c.prevLoc.File, c.prevLoc.N, fmt.Sprintf("changed after it was written: its SHA-256 is not the prev of the next record (%s:%d)", file, l.N)}, nil
	}
	c.take(l, seq)
	if h != nil && seq == h.Seq && c.prevHash != h.Hash {
		return &Location{file, l.N, fmt.Sprintf("record %d is not the one the head record %s names: the newest records were removed or replaced", seq, c.head)}, nil
	}
	return nil, nil
}

// take makes the record l (seq) the one the next line must follow.
func (c *chain) take(l Line, seq int64) {
	sum := sha256.Sum256(l.Bytes)
	c.prevHash, c.prevSeq, c.prevLoc = hex.EncodeToString(sum[:]), seq, Line{File: l.File, N: l.N}
	c.records++
}

// checkHead compares the end of an otherwise intact chain (its last
// record prevSeq, at last) with the head record h (herr: why there is
// none).
func checkHead(path string, h *head, herr error, res *Result, prevSeq int64, last Line) *Location {
	at := func(reason string) *Location {
		if res.Records == 0 {
			return &Location{HeadPath(path), 1, reason}
		}
		return &Location{last.File, last.N, reason}
	}
	switch {
	case herr != nil:
		return &Location{HeadPath(path), 1, "the head record cannot be read (" + herr.Error() + "): whether the newest records are all there cannot be told"}
	case h == nil && res.Records == 0:
		return nil
	case h == nil:
		return at("no head record (" + HeadPath(path) + ") beside the journal: whether its newest records are all there cannot be told (it was removed, or was not copied with the journal; a journal older than head records gets one at its next append)")
	case prevSeq < h.Seq && res.Records == 0:
		return at(fmt.Sprintf("the journal holds no records, but its head record names record %d: they were removed", h.Seq))
	case prevSeq < h.Seq:
		return at(fmt.Sprintf("the journal ends at record %d, but its head record names record %d: the newest %d record(s) were removed", prevSeq, h.Seq, h.Seq-prevSeq))
	case h.Seq > 0 && h.Seq < res.FirstSeq:
		return at(fmt.Sprintf("the head record names record %d, older than the chain's first (%d): it is not this journal's", h.Seq, res.FirstSeq))
	}
	res.AfterHead = prevSeq - h.Seq
	return nil
}
