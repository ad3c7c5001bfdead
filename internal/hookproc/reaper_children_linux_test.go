//go:build linux && !hermes_portable

package hookproc

import (
	"os/exec"
	"testing"
)

// hasChildren is KillEscaped's shortcut past the /proc walk: it must see a
// live child and a zombie, and must not reap the zombie (its status
// belongs to whoever waits for it).
func TestHasChildrenSeesLiveAndZombieWithoutReaping(t *testing.T) {
	if hasChildren() {
		t.Skip("the test process already has children")
	}
	live := exec.Command("sleep", "60")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	if !hasChildren() {
		t.Error("hasChildren() = false with a live child")
	}
	_ = live.Process.Kill()
	_ = live.Wait()

	quick := exec.Command("true")
	if err := quick.Start(); err != nil {
		t.Fatal(err)
	}
	// Not yet waited for: alive or a zombie, a child either way.
	if !hasChildren() {
		t.Error("hasChildren() = false with an unwaited child")
	}
	if err := quick.Wait(); err != nil {
		t.Fatalf("the child's status was taken by hasChildren: %v", err)
	}
	if hasChildren() {
		t.Error("hasChildren() = true with every child reaped")
	}
}
