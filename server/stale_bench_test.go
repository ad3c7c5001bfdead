//go:build unix

package server

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
)

// BenchmarkStaleConflict is what the stale-config check adds to each
// forwarded call: a stat of every file the config in service was read
// from (here a config including one rule file; the files counted are
// reported as files/op).
//
//	go test ./server -run '^$' -bench StaleConflict -benchtime 20000x -count 5
func BenchmarkStaleConflict(b *testing.B) {
	dir := b.TempDir()
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	for _, d := range []string{home, work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			b.Fatal(err)
		}
	}
	config := filepath.Join(home, "config.yaml")
	if err := os.WriteFile(filepath.Join(home, "rules.yaml"), []byte(rmrfRule), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(config, []byte("rules: [rules.yaml]\n"+rmrfRule), 0o644); err != nil {
		b.Fatal(err)
	}
	s, err := New(Options{ConfigPath: config, Cwd: work, Store: consent.NewStore(home),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer s.release()
	b.ResetTimer()
	for range b.N {
		if c := s.staleConflict(s.cur.Load()); c != "" {
			b.Fatal(c)
		}
	}
	b.ReportMetric(float64(len(s.disk.Load().files)), "files/op")
}
