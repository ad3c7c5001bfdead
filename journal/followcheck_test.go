package journal

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// followAll hands every line of the journal at path to a FollowCheck, as
// Follow does, then says it caught up, and returns the breaks it reported.
func followAll(t *testing.T, path string) []*Location {
	t.Helper()
	files, err := Files(path)
	if err != nil {
		t.Fatal(err)
	}
	k := NewFollowCheck(path)
	var bad []*Location
	for _, f := range files {
		if err := lines(f, func(l Line, _ bool) error {
			if b := k.Next(l); b != nil {
				bad = append(bad, b)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if b := k.CaughtUp(); b != nil {
		bad = append(bad, b)
	}
	return bad
}

// log -f finds each tampering Verify finds, at the same place and in the
// same words (so that it warns as log does, and says a break both find
// once), and only that one: the records after the break that chain on
// from it are no new break.
func TestFollowCheckAgreesWithVerify(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func([]string) []string
		// torn: Verify calls the last line torn (no break) and judges
		// the end; log -f, which cannot know a line it reads is the
		// last, warns of it too, then of the end as Verify does.
		torn bool
	}{
		{"one byte", func(l []string) []string { l[2] = strings.Replace(l[2], `"mc"`, `"mC"`, 1); return l }, false},
		{"deleted", func(l []string) []string { return append(l[:2], l[3:]...) }, false},
		{"garbage", func(l []string) []string { l[1] = "{nope"; return l }, false},
		{"the first", func(l []string) []string { l[0] = strings.Replace(l[0], `"ma"`, `"mA"`, 1); return l }, false},
		// Only the end tells (CaughtUp, as Verify's head check).
		{"newest removed", func(l []string) []string { return l[:3] }, false},
		{"newest removed, junk last", func(l []string) []string { return append(l[:3], "\x00\x00\x00\x00") }, true},
	} {
		res := tamper(t, tc.edit)
		got := followAll(t, res.Files[len(res.Files)-1])
		want := 1
		if tc.torn {
			want = 2
		}
		if res.Bad == nil || len(got) != want || *got[want-1] != *res.Bad {
			t.Errorf("%s: verify %v, follow %v", tc.name, res.Bad, got)
			continue
		}
		if tc.torn && (res.Torn == nil || got[0].File != res.Torn.File || got[0].Line != res.Torn.Line) {
			t.Errorf("%s: verify's torn line %v, follow's first break %v", tc.name, res.Torn, got[0])
		}
	}
}

// Records out of place are found, from the first Verify finds, each
// place once; a journal without a break has none.
func TestFollowCheckBreaks(t *testing.T) {
	res := tamper(t, func(l []string) []string { l[1], l[2] = l[2], l[1]; return l })
	got := followAll(t, res.Files[len(res.Files)-1])
	if len(got) == 0 || *got[0] != *res.Bad {
		t.Fatalf("swapped: verify %v, follow %v", res.Bad, got)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Line <= got[i-1].Line {
			t.Errorf("swapped: a place said twice: %v", got)
		}
	}
	res = tamper(t, func(l []string) []string { return l })
	if got := followAll(t, res.Files[len(res.Files)-1]); res.Bad != nil || len(got) != 0 {
		t.Errorf("intact: verify %v, follow %v", res.Bad, got)
	}
}

// FuzzFollowCheck: whatever a journal file holds, log -f's check says each
// line at most once, and its first break, short of the file's last line
// (which Verify may call torn), is the one Verify names.
func FuzzFollowCheck(f *testing.F) {
	f.Add([]byte(`{"seq":1,"prev":"` + ZeroHash + `","event":"pre_tool_call"}` + "\n"))
	f.Add([]byte(`{"seq":1,"prev":"x"}` + "\n" + `{"seq":2,"prev":"y"}` + "\n" + `{"seq":4,"prev":"y"}` + "\n"))
	f.Add([]byte("\x00\x00\n{\n{\"seq\":3}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "j.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		res, err := Verify(path)
		if err != nil {
			t.Skip(err)
		}
		got := followAll(t, path)
		seen := map[Location]bool{}
		for _, l := range got {
			if seen[*l] {
				t.Fatalf("said twice: %v", l)
			}
			seen[*l] = true
		}
		lastLine := bytes.Count(data, []byte{'\n'})
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lastLine++
		}
		if len(got) > 0 && got[0].Line < lastLine && (res.Bad == nil || *res.Bad != *got[0]) {
			t.Fatalf("follow's first break %v, verify's %v", got[0], res.Bad)
		}
	})
}

// What log -f's check costs over a journal it reads from the start, and
// Verify's pass over it, which log -f ran beside its reading until
// FollowCheck.CaughtUp judged the end in its stead (the pass saved).
func BenchmarkFollowCheck(b *testing.B) {
	p := filepath.Join(b.TempDir(), DefaultFile)
	w := New(Options{Path: p, Version: "bench"})
	for range 5000 {
		w.Record(context.Background(), record(strings.Repeat("x", 100)))
	}
	w.Close()
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			if res, err := Verify(p); err != nil || res.Bad != nil {
				b.Fatal(err, res.Bad)
			}
		}
	})
	b.Run("followcheck", func(b *testing.B) {
		for b.Loop() {
			k := NewFollowCheck(p)
			if err := lines(p, func(l Line, _ bool) error {
				if bad := k.Next(l); bad != nil {
					b.Fatal(bad)
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A record that breaks the chain at the head record's check (it is not
// the one the head names) was taken once by step, then again by Next:
// counted twice, so the journal's end was judged on a wrong count.
func TestFollowCheckTakesARecordOnce(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p})
	for i := range 5 {
		w.Record(context.Background(), record("m"+string(rune('a'+i))))
	}
	k := &FollowCheck{c: chain{h: &head{Seq: 2, Hash: strings.Repeat("0", 64)}, head: HeadPath(p)}}
	var bad []*Location
	if err := lines(p, func(l Line, _ bool) error {
		if b := k.Next(l); b != nil {
			bad = append(bad, b)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(bad) != 1 || !strings.Contains(bad[0].Reason, "is not the one the head record") {
		t.Fatalf("breaks %v, want the head's record", bad)
	}
	if k.c.records != 5 {
		t.Errorf("%d records counted in a journal of 5", k.c.records)
	}
}

// A head record that cannot be read (here a folder at its name) makes
// Verify fail, and log -f, which warned of Verify's findings only, said
// nothing of the journal's end: CaughtUp does not judge it either (a
// journal read as one without a head record would be warned of as such).
func TestFollowCheckUnreadableHead(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p})
	for i := range 3 {
		w.Record(context.Background(), record("m"+string(rune('a'+i))))
	}
	w.Close()
	if err := os.Remove(HeadPath(p)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(HeadPath(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(p); err == nil {
		t.Fatal("Verify read a folder as the head record")
	}
	if got := followAll(t, p); len(got) != 0 {
		t.Errorf("breaks %v with an unreadable head record", got)
	}
}
