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
}

// lines calls fn for each line of file, and says whether it is the file's
// last.
func lines(file string, fn func(l Line, last bool) error) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	read := func(n int) (Line, bool, error) {
		b, err := r.ReadBytes('\n')
		if len(b) == 0 && errors.Is(err, io.EOF) {
			return Line{}, false, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return Line{}, false, err
		}
		l := Line{File: file, N: n, Bytes: b, Complete: err == nil}
		if l.Complete {
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

// errStop ends a scan early without an error.
var errStop = errors.New("stop")

// Scan calls fn with every record of the journal at path, oldest first,
// across rotated files. Lines that are not records (a torn tail) are
// passed over: Verify is the place that judges them. fn returning false
// stops the scan.
func Scan(path string, fn func(l Line, e *Entry) bool) error {
	files, err := Files(path)
	if err != nil {
		return err
	}
	for _, file := range files {
		more, err := ScanFile(file, fn)
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
	err = lines(file, func(l Line, _ bool) error {
		var e Entry
		if !l.Complete || json.Unmarshal(l.Bytes, &e) != nil {
			return nil
		}
		if !fn(l, &e) {
			return errStop
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return false, nil
	}
	return err == nil, err
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
}

type chainRecord struct {
	Seq  *int64 `json:"seq"`
	Prev string `json:"prev"`
}

// Verify checks the chain across every file of the journal at path:
// each line a record, seqs consecutive, each prev the SHA-256 of the line
// before. It stops at the first bad line. A missing journal is an empty,
// intact one.
func Verify(path string) (Result, error) {
	var res Result
	files, err := Files(path)
	if err != nil {
		return res, err
	}
	res.Files = files
	var (
		prevHash string
		prevSeq  int64
		prevLoc  Line
	)
	for fi, file := range files {
		lastFile := fi == len(files)-1
		err := lines(file, func(l Line, last bool) error {
			atEnd := lastFile && last
			var r chainRecord
			switch {
			case !l.Complete && atEnd:
				res.Torn = &Location{file, l.N, "torn last line (no newline): a write was cut short; the next append truncates it"}
				return errStop
			case !l.Complete:
				res.Bad = &Location{file, l.N, "a line without its newline inside the journal"}
				return errStop
			case json.Unmarshal(l.Bytes, &r) != nil || r.Seq == nil:
				if atEnd {
					res.Torn = &Location{file, l.N, "torn last line (not a record): a write was cut short; the next append truncates it"}
				} else {
					res.Bad = &Location{file, l.N, "not a journal record (edited, or not written by hermes-hooks)"}
				}
				return errStop
			}
			seq := *r.Seq
			switch {
			case prevHash == "" && seq == 1 && r.Prev != ZeroHash:
				res.Bad = &Location{file, l.N, "the first record does not chain from the zero hash"}
				return errStop
			case prevHash == "":
				res.FirstSeq = seq
			case seq != prevSeq+1 && seq > prevSeq:
				res.Bad = &Location{file, l.N, fmt.Sprintf("seq %d follows seq %d: %d record(s) missing before this line (deleted or moved)", seq, prevSeq, seq-prevSeq-1)}
				return errStop
			case seq != prevSeq+1:
				res.Bad = &Location{file, l.N, fmt.Sprintf("seq %d follows seq %d: records out of order (moved or copied)", seq, prevSeq)}
				return errStop
			case r.Prev != prevHash:
				// The seqs run on, so the line before was changed in place
				// (or this record's prev was).
				res.Bad = &Location{prevLoc.File, prevLoc.N, fmt.Sprintf("changed after it was written: its SHA-256 is not the prev of the next record (%s:%d)", file, l.N)}
				return errStop
			}
			sum := sha256.Sum256(l.Bytes)
			prevHash, prevSeq, prevLoc = hex.EncodeToString(sum[:]), seq, Line{File: l.File, N: l.N}
			res.Records++
			return nil
		})
		if errors.Is(err, errStop) {
			return res, nil
		}
		if err != nil {
			return res, err
		}
	}
	return res, nil
}
