package cmdpin

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// hostileCommandBytes is about what a repository's hooks file may hold
// (hookconfig.MaxProjectFileBytes, 1 MiB): one command that long is
// attacker-controlled text every dispatch resolves.
const hostileCommandBytes = 900 << 10

// repeatTo repeats item (formatted with its index) until the text is about
// n bytes long.
func repeatTo(n int, prefix, item, suffix string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, item, i)
	}
	return b.String() + suffix
}

// Resolve does work linear in the command's length, whatever it lists: a
// repository's hook command is hostile input that every dispatch
// resolves. Each list the resolver keeps without repeats (the files a
// command loads, the files pinned, the variables it assigns) was
// deduplicated by a scan of the list so far: a command naming tens of
// thousands of files or variables took seconds to minutes (900 KiB of
// `node -r ./mN.js`: ~40 s; of `BASH_ENV=./fN`: ~30 s). The bound is a
// hang guard, far above what linear work takes even under -race.
func TestResolveLinearInHostileCommands(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		shell bool
		text  string
	}{
		{"node -r, each file loaded", true, repeatTo(hostileCommandBytes, "node", " -r ./m%d.js", " ./y.js")},
		{"node -r, no shell", false, repeatTo(hostileCommandBytes, "node", " -r ./m%d.js", " ./y.js")},
		{"BASH_ENV assignments", true, repeatTo(hostileCommandBytes, "", "BASH_ENV=./f%d ", "./y.sh")},
		{"LD_PRELOAD libraries", true, repeatTo(hostileCommandBytes, "LD_PRELOAD=", "./l%d.so:", " ./y.sh")},
		{"distinct assignments", true, repeatTo(hostileCommandBytes, "", "V%d=x ", "./y.sh")},
		{"statements with assignments", true, repeatTo(hostileCommandBytes, "", "V%d=x ./y.sh; ", "./y.sh")},
		{"env wrapper", false, repeatTo(hostileCommandBytes, "env", " LD_PRELOAD=./l%d.so", " ./y.sh")},
	} {
		start := time.Now()
		// The system's PATH: node and env found are the common case.
		tg := Resolve(Command{Text: c.text, Shell: c.shell, Env: []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/h"}, Dir: dir})
		d := time.Since(start)
		t.Logf("%s (shell %v): %d bytes, %d files, %v", c.name, c.shell, len(c.text), len(tg.Files), d)
		if d > 20*time.Second {
			t.Errorf("%s: resolving a %d-byte command took %v", c.name, len(c.text), d)
		}
	}
}

// listIndex answers as a scan does while its list grows, is put in front
// of, is cut back or replaced (what the resolver does to its lists; none
// is rewritten in place): a wrong "listed already" would leave a file
// unpinned.
func TestListIndexAgreesWithScan(t *testing.T) {
	var x listIndex
	var list []string
	check := func(step string) {
		t.Helper()
		for i := 0; i < 3*indexFrom; i++ {
			p := fmt.Sprintf("p%d", i%(2*indexFrom))
			if got, want := x.contains(list, p), slices.Contains(list, p); got != want {
				t.Fatalf("%s: contains(%q) = %v, a scan says %v (list %q)", step, p, got, want, list)
			}
		}
	}
	for i := 0; i < 2*indexFrom; i += 2 {
		list = append(list, fmt.Sprintf("p%d", i))
		check("grown")
	}
	list = append([]string{"p1"}, list...)
	check("put in front")
	list = list[:indexFrom+1]
	check("cut back")
	list = nil
	for i := 1; i < 2*indexFrom; i += 2 {
		list = append(list, fmt.Sprintf("p%d", i))
	}
	check("replaced")
	list, x = append([]string{"p1"}, list[3:]...), listIndex{} // reset with its index (flushLoads)
	check("reset")
}
