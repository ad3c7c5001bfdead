package journal

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The head record finds what the chain alone cannot: the oldest lines cut
// from a file, the newest records removed, and the newest removed and
// replaced by an append.
func TestVerifyAgainstTheHeadRecord(t *testing.T) {
	for _, tc := range []struct {
		name string
		// edit changes the journal's five lines; then, when appendOne,
		// a writer appends a record.
		edit      func([]string) []string
		appendOne bool
		line      int
		reason    string
	}{
		{"oldest lines removed", func(l []string) []string { return l[2:] }, false, 1, "the chain starts at record 3, and no recorded rotation began a file there"},
		{"newest removed", func(l []string) []string { return l[:4] }, false, 4, "ends at record 4, but its head record names record 5"},
		{"newest two removed", func(l []string) []string { return l[:3] }, false, 3, "the newest 2 record(s) were removed"},
		{"newest removed, one appended", func(l []string) []string { return l[:4] }, true, 5, "record 5 is not the one the head record"},
		{"all removed", func([]string) []string { return nil }, false, 1, "holds no records, but its head record names record 5"},
		{"all removed, one appended", func([]string) []string { return nil }, true, 1, "ends at record 1, but its head record names record 5"},
	} {
		p := filepath.Join(t.TempDir(), DefaultFile)
		w := newWriter(t, Options{Path: p})
		for i := 0; i < 5; i++ {
			w.Record(context.Background(), record("m"))
		}
		ls := tc.edit(readLines(t, p))
		data := strings.Join(ls, "\n")
		if len(ls) > 0 {
			data += "\n"
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		if tc.appendOne {
			newWriter(t, Options{Path: p}).Record(context.Background(), record("after"))
		}
		res := mustVerify(t, p)
		if res.Bad == nil || res.Bad.Line != tc.line || !strings.Contains(res.Bad.Reason, tc.reason) {
			t.Errorf("%s: %+v", tc.name, res.Bad)
		}
	}
}

// Whole rotated files may be removed (the chain then starts where a
// recorded rotation began a file); lines cut from one may not.
func TestHeadRecordExplainsRotations(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p, MaxBytes: 4096})
	for i := 0; i < 40; i++ {
		w.Record(context.Background(), record(strings.Repeat("x", 200)))
	}
	files, _ := Files(p)
	if len(files) < 3 {
		t.Fatalf("files %v", files)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	res := mustVerify(t, p)
	if res.Bad != nil || res.FirstSeq <= 1 || res.Records >= 40 {
		t.Fatalf("oldest file removed: %+v first %d records %d", res.Bad, res.FirstSeq, res.Records)
	}
	ls := readLines(t, files[1])
	if err := os.WriteFile(files[1], []byte(strings.Join(ls[1:], "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if res := mustVerify(t, p); res.Bad == nil || res.Bad.File != files[1] || res.Bad.Line != 1 || !strings.Contains(res.Bad.Reason, "no recorded rotation") {
		t.Fatalf("a line cut from the oldest file: %+v", res.Bad)
	}
}

// A writer that died between its line and the head leaves the head one
// record behind: intact (noted), and the next append moves it on. So do
// records appended by a version that kept no head record.
func TestHeadBehindTheJournal(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p})
	w.Record(context.Background(), record("a"))
	w.Record(context.Background(), record("b"))
	old, err := os.ReadFile(HeadPath(p))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		w.Record(context.Background(), record("c"))
	}
	if err := os.WriteFile(HeadPath(p), old, 0o600); err != nil {
		t.Fatal(err)
	}
	if res := mustVerify(t, p); res.Bad != nil || res.AfterHead != 3 {
		t.Fatalf("head 3 behind: %+v after %d", res.Bad, res.AfterHead)
	}
	newWriter(t, Options{Path: p}).Record(context.Background(), record("d"))
	if res := mustVerify(t, p); res.Bad != nil || res.AfterHead != 0 || res.Records != 6 {
		t.Fatalf("after an append: %+v after %d", res.Bad, res.AfterHead)
	}
}

// A journal without a head record fails verify (its newest records cannot
// be vouched for) until its next append, which adopts one from it, with
// each file's start.
func TestHeadAdoptedByTheNextAppend(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p, MaxBytes: 4096})
	for i := 0; i < 30; i++ {
		w.Record(context.Background(), record(strings.Repeat("x", 200)))
	}
	// Closed first: Windows (without POSIX-semantics deletes, as under
	// Wine) keeps a removed file's name until its last handle closes.
	w.Close()
	if err := os.Remove(HeadPath(p)); err != nil {
		t.Fatal(err)
	}
	if res := mustVerify(t, p); res.Bad == nil || !strings.Contains(res.Bad.Reason, "no head record") {
		t.Fatalf("no head: %+v", res.Bad)
	}
	newWriter(t, Options{Path: p, MaxBytes: 4096}).Record(context.Background(), record("x"))
	files, _ := Files(p)
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	if res := mustVerify(t, p); res.Bad != nil || res.Records == 0 {
		t.Fatalf("adopted: %+v", res.Bad)
	}
}

// A head record that is not one fails verify, and a writer leaves it as
// it is.
func TestUnreadableHead(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p})
	w.Record(context.Background(), record("a"))
	if err := os.WriteFile(HeadPath(p), []byte("{nope"), 0o600); err != nil {
		t.Fatal(err)
	}
	w2 := newWriter(t, Options{Path: p})
	w2.Record(context.Background(), record("b"))
	if w2.Failures() != 0 {
		t.Fatal("a bad head record stopped the journal")
	}
	if data, _ := os.ReadFile(HeadPath(p)); string(data) != "{nope" {
		t.Fatalf("head rewritten: %q", data)
	}
	if res := mustVerify(t, p); res.Bad == nil || !strings.Contains(res.Bad.Reason, "head record cannot be read") {
		t.Fatalf("%+v", res.Bad)
	}
}

// FuzzHead: no head record makes parseHead panic, and what it accepts
// has hashes where hashes belong.
func FuzzHead(f *testing.F) {
	f.Add([]byte(`{"seq":3,"hash":"` + ZeroHash + `","starts":[{"seq":2,"prev":"` + ZeroHash + `"}]}`))
	f.Add([]byte(`{"seq":-1,"hash":"x"}`))
	f.Add([]byte(`{} {}`))
	f.Add([]byte(`{"seq":812,"hash":"` + ZeroHash + `"}` + "\n   "))
	f.Add([]byte(`{"seq":0812,"hash":"` + ZeroHash + `"}`))
	f.Add([]byte(`{"seq":99999999999999999999,"hash":"` + ZeroHash + `"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := parseHead(data)
		if fast, ok := parseHeadCommon(data); ok {
			// The fast path reads only what the decoder reads the same.
			slow, err := decodeHead(data)
			if err != nil || !reflect.DeepEqual(fast, slow) {
				t.Fatalf("%q: fast %+v, decoder %+v, %v", data, fast, slow, err)
			}
		}
		if err != nil {
			return
		}
		if !isHash(h.Hash) || h.Seq < 0 {
			t.Fatalf("accepted %+v", h)
		}
	})
}

// TestParseHeadCommon: the head every append writes is read without the
// decoder, and what is not that shape exactly is left to it.
func TestParseHeadCommon(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		data string
		ok   bool
	}{
		{`{"seq":812,"hash":"` + hash + `"}`, true},
		{`{"seq":0,"hash":"` + hash + `"}` + "\n  \t", true},
		{`{"seq":812,"hash":"` + hash + `"}x`, false},
		{`{"seq":812,"hash":"` + hash + `","starts":[]}`, false},
		{`{"seq":-1,"hash":"` + hash + `"}`, false},
		{`{"seq":01,"hash":"` + hash + `"}`, false},
		{`{"seq":1234567890123456789,"hash":"` + hash + `"}`, false}, // 19 digits: the decoder's
		{`{"seq":1,"hash":"` + strings.ToUpper(hash) + `"}`, false},
		{`{"seq":1,"hash":"` + hash[1:] + `"}`, false},
		{`{"seq": 1,"hash":"` + hash + `"}`, false},
		{`{"seq":1,"hash":"` + hash + `"`, false},
	} {
		h, ok := parseHeadCommon([]byte(tc.data))
		if ok != tc.ok || ok && (h.Seq < 0 || h.Hash != hash) {
			t.Errorf("%q: %+v, %v; want ok %v", tc.data, h, ok, tc.ok)
		}
	}
}

// TestMarshalHead: the head is written as json.Marshal writes it, with
// and without starts, and a head with a string that is no hash (none
// should be) goes to json.Marshal.
func TestMarshalHead(t *testing.T) {
	hash := strings.Repeat("0f", 32)
	for _, h := range []*head{
		{Seq: 0, Hash: ZeroHash},
		{Seq: 812, Hash: hash},
		{Seq: 1 << 62, Hash: hash, Starts: []chainStart{{Seq: 401, Prev: ZeroHash}, {Seq: 9, Prev: hash}}},
		{Seq: 3, Hash: `x"\<`},
		{Seq: 3, Hash: hash, Starts: []chainStart{{Seq: 2, Prev: "</script>"}}},
	} {
		got, err := marshalHead(h)
		want, _ := json.Marshal(h)
		if err != nil || string(got) != string(want) {
			t.Errorf("%+v: %s, %v; want %s", h, got, err, want)
		}
	}
}
