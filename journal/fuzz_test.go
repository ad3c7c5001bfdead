package journal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzVerify: whatever bytes a journal file holds, Scan and Verify answer
// without panicking, and a file Verify calls intact scans to the end.
func FuzzVerify(f *testing.F) {
	f.Add([]byte(`{"seq":1,"prev":"` + ZeroHash + `","event":"pre_tool_call"}` + "\n"))
	f.Add([]byte(`{"seq":1,"prev":"x"}` + "\n" + `{"seq":2,"prev":"y"}`))
	f.Add([]byte("\x00\x00\n{"))
	f.Add([]byte(`{"seq":1,"prev":"x","decision":{}}` + "\n" + `{"seq":"2"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "j.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, _ = Verify(path)
		// Each whole line is shown, said to be unread, or no record of
		// the chain at all: none is passed over in silence.
		var shown, unread []int
		_ = ScanUnread(path, func(l Line, _ *Entry) bool { shown = append(shown, l.N); return true },
			func(l Line, e *Entry, err error) {
				if err == nil || errors.Is(err, ErrNotRecord) || e == nil {
					t.Fatalf("line %d unread with %v", l.N, err)
				}
				unread = append(unread, l.N)
			})
		for i, line := range bytes.SplitAfter(data, []byte("\n")) {
			l := Line{N: i + 1, Complete: bytes.HasSuffix(line, []byte("\n")), Bytes: bytes.TrimSuffix(line, []byte("\n"))}
			_, err := l.Entry()
			in := slices.Contains(shown, l.N) || slices.Contains(unread, l.N)
			if (err == nil || !errors.Is(err, ErrNotRecord)) != in {
				t.Fatalf("line %d %q: %v, shown %v, unread %v", l.N, l.Bytes, err, shown, unread)
			}
		}
	})
}

// FuzzAppend: whatever bytes the live file holds, an append either fails
// and leaves them as they were, or keeps all of them but a torn tail cut at
// a line's end, and adds one record. A file with no record is cut to
// nothing only when it starts as a record would, or with NULs.
func FuzzAppend(f *testing.F) {
	f.Add([]byte(`{"seq":1,"prev":"` + ZeroHash + `","event":"pre_tool_call"}` + "\n"))
	f.Add([]byte(`{"seq":1,"prev":"x"}` + "\n" + `{"seq":2,"prev":"y"`))
	f.Add([]byte("\x00\x00\n"))
	f.Add([]byte("notes without a newline"))
	f.Add([]byte("a\nb\nc\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "j.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		w := newWriter(t, Options{Path: path})
		err := w.append([]byte(`{"event":"pre_tool_call"}`))
		got, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err != nil {
			if !bytes.Equal(got, data) {
				t.Fatalf("a failed append changed the file: %q → %q", data, got)
			}
			return
		}
		nl := bytes.LastIndexByte(got[:len(got)-1], '\n')
		kept, line := got[:nl+1], got[nl+1:]
		if !bytes.HasPrefix(data, kept) || !bytes.HasPrefix(line, []byte(recordStart)) {
			t.Fatalf("%q → %q", data, got)
		}
		if len(kept) == 0 && len(data) > 0 && data[0] != 0 && !bytes.HasPrefix([]byte(recordStart), data[:min(len(data), len(recordStart))]) {
			t.Fatalf("a file without a record was truncated: %q", data)
		}
	})
}
