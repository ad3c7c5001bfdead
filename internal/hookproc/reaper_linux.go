//go:build linux && !hermes_portable

package hookproc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// Escaped descendants. A hook runs in its own process group, and a hook
// that fails, times out or is cancelled has that group killed; but a
// descendant that calls setsid (a daemon, a `setsid sleep 3600 &`) leaves
// the group and would outlive everything. With BecomeSubreaper, such a
// process, once orphaned, is reparented to the dispatcher instead of to
// init, so the dispatcher can find it: every child of this process that is
// not a hook it is running is an escaped descendant. Each hook's (and
// worker's) environment carries HERMES_HOOKS_RUN, a tag that its
// descendants inherit, so the end of one run kills the escapees of that run
// only.
//
// A hook that exits 0 in time keeps what it detached (Hermes' and Codex'
// rule: a SessionStart hook may start a background service), so its tag is
// released when it ends and KillEscaped, at the dispatcher's exit, spares
// the processes carrying a released tag of this process. It kills the rest:
// those of runs still open (hooks being cancelled, live workers) and those
// that carry no tag of ours, which nothing proves a successful hook's.

const prSetChildSubreaper = 36

var (
	reaperOn atomic.Bool
	// spawnMu is held for reading while a hook is being started and
	// tracked, and for writing while escapees are killed, so a hook that
	// has just been forked is never mistaken for an escapee.
	spawnMu sync.RWMutex
	tracked sync.Map // pid → struct{}: hooks being run
	// dying holds the tracked hooks that were killed but had not died
	// when their run ended (result reaps them in the background). Until
	// such a hook has died, what it left behind is still its children,
	// not ours: killEscaped reads them there.
	dying    sync.Map // pid → struct{}
	runSeq   atomic.Uint64
	lastReap atomic.Int64
	// openRuns holds the tags of the runs under way (hooks running,
	// workers alive): KillEscaped kills their escapees. A run's tag leaves
	// it when the run ends, its tree killed unless the hook succeeded.
	openRuns sync.Map // tag → struct{}
	// tagPrefix starts every tag this process hands out.
	tagPrefix = strconv.Itoa(os.Getpid()) + "."
)

// BecomeSubreaper makes this process the reaper of its hooks' orphaned
// descendants (PR_SET_CHILD_SUBREAPER), so that a descendant that left its
// hook's process group is still killed at the hook's timeout and when the
// dispatcher exits (KillEscaped). The CLI calls it; a Go host that starts
// other children of its own should not, since their orphans would be
// reparented to it as well.
func BecomeSubreaper() error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return e
	}
	// The first sweep for zombies comes a second from now, not at the
	// first hook's end: a one-shot dispatch exits sooner, and KillEscaped
	// reaps what is left then (the sweep was about 0.2 ms of each one).
	lastReap.Store(time.Now().UnixNano())
	reaperOn.Store(true)
	return nil
}

func trackChild(pid int) {
	tracked.Store(pid, struct{}{})
	spawnMu.RUnlock()
}

func untrackChild(pid int) {
	tracked.Delete(pid)
	if reaperOn.Load() {
		// Orphans that died on their own are zombies of ours until reaped;
		// a long-running server must not collect them. At most once a
		// second, so a busy dispatcher pays nothing noticeable.
		now := time.Now().UnixNano()
		if last := lastReap.Load(); now-last > int64(time.Second) && lastReap.CompareAndSwap(last, now) {
			reapZombies()
		}
	}
}

// spawnLock is taken (for reading) before a hook is forked; trackChild
// releases it once the hook is tracked. A failed start calls spawnUnlock.
func spawnLock()   { spawnMu.RLock() }
func spawnUnlock() { spawnMu.RUnlock() }

// runTag returns a fresh tag for one hook run, or "" when escapees are not
// being tracked.
func runTag() string {
	if !reaperOn.Load() {
		return ""
	}
	return tagPrefix + strconv.FormatUint(runSeq.Add(1), 10)
}

// openRun marks a run as under way: until closeRun, KillEscaped kills its
// escapees.
func openRun(tag string) {
	if tag != "" {
		openRuns.Store(tag, struct{}{})
	}
}

// closeRun marks a run as over. A run whose tree is to die has it killed
// first (killEscaped); what is left carries a released tag.
func closeRun(tag string) {
	if tag != "" {
		openRuns.Delete(tag)
	}
}

// killTree kills the escaped descendants of the run tagged tag, and
// closes the run. (Its process group is the caller's to kill: only the
// caller knows whether it can still be named safely.)
func killTree(tag string) {
	if tag != "" {
		killEscaped(func(pid int, settle time.Time) bool { return hasTag(pid, tag, settle) })
		closeRun(tag)
	}
}

// children lists this process's children (every thread's), from
// /proc/self/task/*/children, or from a scan of /proc when the kernel does
// not provide that file.
func children() []int {
	if !hasChildren() {
		return nil
	}
	if out, ok := childrenOf("self"); ok {
		return out
	}
	self := os.Getpid()
	var out []int
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		if ppid, _ := statOf(pid); ppid == self {
			out = append(out, pid)
		}
	}
	return out
}

// childrenOf lists the children of process proc ("self" or a pid) from
// /proc/PROC/task/*/children; ok is false when the kernel does not provide
// that file (or the process is gone).
func childrenOf(proc string) (out []int, ok bool) {
	tasks, err := os.ReadDir("/proc/" + proc + "/task")
	if err != nil {
		return nil, false
	}
	for _, t := range tasks {
		data, err := readProc("/proc/" + proc + "/task/" + t.Name() + "/children")
		if err != nil {
			return out, false
		}
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out, true
}

// hasChildren reports whether this process has any child at all, alive or
// a zombie, without reaping one: waitid(P_ALL, WNOHANG|WNOWAIT) fails with
// ECHILD only when no thread of the process has a child. A one-shot
// dispatch whose hooks left nothing behind (the common case) then skips
// the /proc walk, an open and read per thread (~0.15 ms at every exit).
// Any other answer, an error included, means "look".
func hasChildren() bool {
	const (
		pAll    = 0
		wNoWait = 0x01000000
		wAll    = 0x40000000 // __WALL: children whatever their exit signal
	)
	var info [128]byte // siginfo_t
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pAll, 0, uintptr(unsafe.Pointer(&info[0])),
			syscall.WEXITED|syscall.WNOHANG|wNoWait|wAll, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		return e != syscall.ECHILD
	}
}

// readProc reads a /proc file with plain system calls: no *os.File, whose
// open registers with the poller and stats the file first. KillEscaped
// reads one file per thread at every one-shot dispatch's exit.
func readProc(path string) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return out, nil
		}
		out = append(out, buf[:n]...)
	}
}

// statOf reads a process's parent and state from /proc/PID/stat.
func statOf(pid int) (ppid int, state byte) {
	data, err := readProc("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0
	}
	// The command name is in parentheses and may hold anything; the fields
	// after its last ')' are "state ppid …".
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return 0, 0
	}
	f := strings.Fields(string(data[i+2:]))
	if len(f) < 2 {
		return 0, 0
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[0][0]
}

// readEnviron reads a process's initial environment (a variable: tests
// stand in for an exec's window).
var readEnviron = func(pid int) ([]byte, error) { return readProc("/proc/" + strconv.Itoa(pid) + "/environ") }

// execSettle bounds how long one killEscaped, for all the processes it
// looks at together, reads again environments that read empty (tagOf).
const execSettle = 50 * time.Millisecond

// tagOf returns the run tag in the process's initial environment, "" when
// it has none (or cannot be read). A process in the middle of an exec
// reads an empty environment for a moment: the kernel has switched it to
// its new image's memory and not yet placed that image's environment. So
// an empty read is tried again, until settle (one killEscaped's
// execSettle, shared, so a hook that leaves a thousand processes with no
// environment cannot stall it a thousand times): read once, a successful
// hook's helper caught exec'ing (`sh -c '…; exec sleep 3600'`) showed no
// tag and was killed as nobody's, and a failed hook's escapee showed none
// and was spared.
func tagOf(pid int, settle time.Time) string {
	var data []byte
	for {
		var err error
		data, err = readEnviron(pid)
		if err != nil {
			return ""
		}
		if len(data) > 0 || !time.Now().Before(settle) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	prefix := []byte(runTagVar + "=")
	for _, kv := range bytes.Split(data, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, prefix); ok {
			return string(v)
		}
	}
	return ""
}

// hasTag reports whether the process's initial environment holds tag.
func hasTag(pid int, tag string, settle time.Time) bool { return tagOf(pid, settle) == tag }

// released reports whether the process belongs to a run of this process
// that has ended with its tree kept: a successful hook's helper.
func released(pid int, settle time.Time) bool {
	tag := tagOf(pid, settle)
	if !strings.HasPrefix(tag, tagPrefix) {
		return false
	}
	_, open := openRuns.Load(tag)
	return !open
}

// reapWait bounds how long one killEscaped, all its rounds together,
// waits for what it killed to become reapable. Per round it would let a
// process slow to die after SIGKILL (a big address space to free) cost it
// once per round; it may be reaped later, by reapZombies or the next call.
const reapWait = 100 * time.Millisecond

// killEscaped kills and reaps the escaped descendants that doom selects,
// with everything they started, and returns how many it selected. Zombies
// among this process's children are reaped whatever doom says.
//
// A round kills first and reaps after, so a hook that left a thousand
// escapees costs one wait, not a thousand (the old per-escapee wait let
// such a hook delay a refusal past the agent's deadline by seconds). Each
// escapee is killed with its whole subtree, read from /proc top down: the
// children of a killed process become this process's children only once
// it is dead, so a round that killed only its own children lost one link
// of a setsid'd chain per round, and a chain deeper than the rounds
// outlived everything. Rounds go on while one killed or reaped anything (a
// process forked between a read and a kill is reparented here, and found
// by the next).
func killEscaped(doom func(pid int, settle time.Time) bool) int {
	if !reaperOn.Load() {
		return 0
	}
	spawnMu.Lock()
	defer spawnMu.Unlock()
	killed := 0
	deadline := time.Now().Add(reapWait)
	settle := time.Now().Add(execSettle)
	for round := 0; round < 8; round++ {
		// A dying hook's children first, then ours: one that dies between
		// the two reads has had them reparented here by the second.
		for _, pid := range childrenOfDying() {
			if _, state := statOf(pid); state != 0 && state != 'Z' && doom(pid, settle) {
				killSubtree(pid)
				killed++
			}
		}
		var reap []int
		for _, pid := range children() {
			if _, ok := tracked.Load(pid); ok {
				continue
			}
			switch _, state := statOf(pid); {
			case state == 'Z':
				reap = append(reap, pid)
			case state != 0 && doom(pid, settle):
				killSubtree(pid)
				killed++
				reap = append(reap, pid)
			}
		}
		if len(reap) == 0 {
			break
		}
		for _, pid := range reap {
			reapChild(pid, deadline)
		}
	}
	return killed
}

// childrenOfDying lists the children of the hooks killed that had not died
// when their run ended. A dispatcher that answers at an agent's deadline
// exits right after: were a hung hook's escapees read only among its own
// children, those of a hook still dying then (a loaded machine, hundreds
// of orphans to hand over) would be reparented after the last look, to
// init, and outlive it.
func childrenOfDying() []int {
	var out []int
	dying.Range(func(k, _ any) bool {
		kids, _ := childrenOf(strconv.Itoa(k.(int)))
		out = append(out, kids...)
		return true
	})
	return out
}

// maxSubtree bounds the processes one killSubtree visits.
const maxSubtree = 1 << 16

// killSubtree SIGKILLs root, every process descended from it, and the
// process groups among them lead (an escapee leads its own: setsid), top
// down: each process's children are read before it is killed, while they
// are still its children.
func killSubtree(root int) {
	stack := []int{root}
	for n := 0; len(stack) > 0 && n < maxSubtree; n++ {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kids, _ := childrenOf(strconv.Itoa(pid))
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
		stack = append(stack, kids...)
	}
}

// reapChild reaps the child pid once it is dead, waiting until deadline at
// most.
func reapChild(pid int, deadline time.Time) {
	var ws syscall.WaitStatus
	for {
		wpid, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		if wpid == pid || (err != nil && err != syscall.EINTR) || !time.Now().Before(deadline) {
			return
		}
		if err == nil {
			time.Sleep(time.Millisecond)
		}
	}
}

// reapZombies reaps children that are neither running hooks nor alive:
// orphans of hooks that ended on their own.
func reapZombies() {
	spawnMu.Lock()
	defer spawnMu.Unlock()
	for _, pid := range children() {
		if _, ok := tracked.Load(pid); ok {
			continue
		}
		if _, state := statOf(pid); state == 'Z' {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
	}
}

// KillEscaped kills the escaped descendants of the hooks this process ran
// (see BecomeSubreaper) and reaps them — all but the helpers of hooks that
// succeeded (exit 0 in time), which outlive the dispatcher as they would
// outlive Hermes; the CLI calls it before it exits. It does nothing unless
// BecomeSubreaper was called.
func KillEscaped() int {
	return killEscaped(func(pid int, settle time.Time) bool { return !released(pid, settle) })
}
