package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// rotatedName is the n-th rotated file: hook-journal.jsonl →
// hook-journal.n.jsonl.
func rotatedName(path string, n int) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "." + strconv.Itoa(n) + ext
}

// countRotated is how many rotated files the journal at path has (PATH.1
// up to the first missing one); more than MaxRotated is an error.
func countRotated(path string) (int, error) {
	for n := 0; ; n++ {
		if _, err := os.Lstat(rotatedName(path, n+1)); err != nil {
			return n, nil
		}
		if n+1 > MaxRotated {
			return 0, fmt.Errorf("more than %d rotated files beside the journal (up to %s): not rotated, so that no append shifts them all; move the oldest away", MaxRotated, filepath.Base(rotatedName(path, MaxRotated+1)))
		}
	}
}

// rotate shifts PATH.n … PATH.1 (n of them, countRotated) to PATH.n+1 …
// PATH.2, newest last so nothing is overwritten, then the live file to
// PATH.1.
func rotate(path string, n int) error {
	for i := n; i >= 1; i-- {
		if err := os.Rename(rotatedName(path, i), rotatedName(path, i+1)); err != nil {
			return err
		}
	}
	return os.Rename(path, rotatedName(path, 1))
}
