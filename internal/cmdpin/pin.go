package cmdpin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// How a checked hook is started so that what was checked is what runs:
//
//   - A binary the kernel starts directly is started through the descriptor
//     that was hashed (/proc/self/fd/N): a rename cannot swap it, and the
//     kernel refuses to start a file open for writing (ETXTBSY) and refuses
//     writes while it runs.
//   - A script of a POSIX shell or of Python — run by its #! line or named
//     to its interpreter (bash x.sh, python3 x.py) — is read into memory,
//     hashed, and copied into a sealed, private memory file (elsewhere than
//     Linux: an unlinked temporary file, which no name reaches); the
//     interpreter is handed that copy as /proc/self/fd/3 (/dev/fd/3). Neither a rename
//     nor an edit of the script after the check can change what runs. The
//     script sees /proc/self/fd/3 as its own path, so this is done only
//     when it does not ask where it lives ($0, BASH_SOURCE, __file__ …);
//     Python's import path gets the script's directory, as it would have.
//   - Any other file (a script that locates itself, another language, a
//     file passed as an argument) is started by its name, after checking
//     immediately before the start that the name still names the hashed,
//     unchanged file. The remaining window — from that check to the moment
//     the interpreter opens the file — is documented in docs/security.md.

// pinnedCopyMax bounds the scripts copied into memory: hook scripts are
// small, and a script larger than this is started by name.
const pinnedCopyMax = 1 << 20

// cacheMinSize is the size from which a directly executed binary's digest
// may come from the stat-keyed cache instead of being recomputed. Smaller
// files are hashed from their open descriptor on every dispatch: hashing
// them costs microseconds, and a stat identity cannot prove that content
// is unchanged (a shared writable mapping can change bytes without changing
// size, mtime or ctime). A binary this large costs about a millisecond to
// hash; it is started through the very descriptor that was checked.
const cacheMinSize = 512 << 10

// Pins holds the files a hook runs, open, each with the digest and the
// identity it had when it was checked. The runner calls Verify immediately
// before it starts the hook, and starts it as Start says, so what was
// checked is what runs. Close releases the descriptors; a nil *Pins is
// valid and pins nothing.
type Pins struct {
	files []pinned
	// exec is the index of the file the kernel starts directly (a binary
	// found at Target.Path), or -1.
	exec int
	// start is the pinned start of an interpreted primary script, or nil.
	start *Start
}

type pinned struct {
	path string
	f    *os.File // nil: the file did not exist (or is not a regular file)
	key  FileKey  // identity of the open file when it was hashed
	sum  string   // hex SHA-256; "" when f is nil
	elf  bool
	// copied: the primary script runs from its sealed in-memory copy, so
	// its name need not be verified before the start.
	copied bool
	// err: why an existing file could not be hashed (its sum is "").
	err error
}

// Start says how to start a hook so that its interpreter reads the pinned
// copy of its script.
type Start struct {
	// Path and Argv replace the Target's.
	Path string
	Argv []string
	// Script becomes the hook's file descriptor 3, which Argv names as
	// /proc/self/fd/3 (for Python, through pythonStart's bootstrap).
	Script *os.File
}

// procSelfFD reports whether /proc/self/fd can start a pinned binary (Linux
// with /proc mounted; never in the portable build, which must behave as
// macOS does even where /proc exists). It is checked once, on first use, so
// a no-match dispatch pays nothing for it.
var procSelfFD = sync.OnceValue(func() bool {
	if !fdPinning {
		return false
	}
	fi, err := os.Stat("/proc/self/fd")
	return err == nil && fi.IsDir()
})

// scriptDir is the directory through which a hook's interpreter opens its
// descriptors: /proc/self/fd on Linux; elsewhere /dev/fd (macOS, the BSDs
// with fdescfs; Linux in the portable build) when a probe shows that
// /dev/fd/N is the file open as N; "" when neither holds (Windows, a BSD
// without fdescfs): scripts then start by name. Checked once, on first
// use.
var scriptDir = sync.OnceValue(func() string {
	if procSelfFD() {
		return "/proc/self/fd"
	}
	if devFD() {
		return "/dev/fd"
	}
	return ""
})

// scriptFD is the descriptor number a pinned script has in the hook.
const scriptFD = 3

// Pin opens and hashes every file of t. A file that is missing or not
// a regular file is recorded as such (its digest is ""), so that its later
// appearance counts as a change.
func Pin(t *Target, cache *Cache) *Pins {
	p := &Pins{exec: -1}
	var programs listIndex // a command may list thousands of both
	for i, path := range t.Files {
		pf := pinned{path: path}
		f, err := fsutil.OpenNoBlock(path)
		if err == nil {
			fi, serr := f.Stat()
			if serr != nil || !fi.Mode().IsRegular() {
				f.Close()
			} else {
				pf.f, pf.key = f, KeyOf(fi)
				primary := i == 0
				direct := primary && t.Direct
				program := direct || programs.contains(t.programs, path)
				var herr error
				pf.sum, pf.elf, herr = p.hash(&pf, t, direct, program, primary, cache)
				if herr != nil {
					f.Close()
					pf.f, pf.sum, pf.err = nil, "", herr
				} else if direct && pf.elf {
					p.exec = i
				}
			}
		}
		p.files = append(p.files, pf)
	}
	return p
}

var elfMagic = []byte{0x7f, 'E', 'L', 'F'}

// hash hashes the open file. Only a large binary that is executed (directly,
// or by its path as the wrapper or interpreter a command names: program)
// may use the stat-keyed cache (see cacheMinSize), and only where its
// identity vouches for its content (see cachetrust.go): hashing a 90 MiB
// node on every dispatch of `/usr/local/bin/node hook.js` would cost more
// than the hook. Such a binary that some process has open for writing is
// refused: the bytes hashed need not be the bytes that run. A primary script that can run from a sealed
// copy is read whole, and the digest is of those bytes, which are the ones
// that will run.
func (p *Pins) hash(pf *pinned, t *Target, direct, program, primary bool, cache *Cache) (sum string, elf bool, err error) {
	f, key := pf.f, pf.key
	var head [4]byte
	n, _ := f.ReadAt(head[:], 0)
	elf = n == 4 && bytes.Equal(head[:], elfMagic)
	var guard hashGuard
	if program && elf {
		if guard, err = guardHash(f); err != nil {
			return "", elf, fmt.Errorf("hash %s: %w", pf.path, err)
		}
		defer guard.finish()
	}
	cacheable := program && elf && key.size >= cacheMinSize && cache != nil && guard.trusted()
	if cacheable {
		if cache.File != "" {
			cache.loadShared()
		}
		if s, ok := cache.lookup(pf.path, key); ok {
			return s, true, nil
		}
	}
	var content []byte
	h := sha256.New()
	if primary && !elf && key.size <= pinnedCopyMax {
		content = make([]byte, key.size+1)
		n, rerr := f.ReadAt(content, 0)
		if rerr != nil && rerr != io.EOF {
			return "", elf, fmt.Errorf("hash %s: %w", pf.path, rerr)
		}
		content = content[:n]
		h.Write(content)
	} else if _, err := io.Copy(h, io.NewSectionReader(f, 0, 1<<62)); err != nil {
		return "", elf, fmt.Errorf("hash %s: %w", pf.path, err)
	}
	lease := guard.finish()
	fi, err := f.Stat()
	if err != nil {
		return "", elf, fmt.Errorf("hash %s: %w", pf.path, err)
	}
	if KeyOf(fi) != key || (content != nil && int64(len(content)) != key.size) || lease == leaseBroken {
		// Written to (or opened for writing) while we read it: whatever we
		// hashed is not a version anybody approved.
		return "", elf, fmt.Errorf("hash %s: %w", pf.path, errChanging)
	}
	sum = hex.EncodeToString(h.Sum(nil))
	if cache != nil {
		cache.computed.Add(1)
		if cacheable && guard.storable(lease, key) {
			cache.store(pf.path, key, sum)
			if cache.File != "" {
				cache.saveShared(pf.path, key, sum)
			}
		}
	}
	if content != nil {
		if st := pinnedStart(t, pf.path, content, direct); st != nil {
			p.start = st
			pf.copied = true
		}
	}
	return sum, elf, nil
}

// pinnedStart builds the start of an interpreted primary script from its
// sealed in-memory copy, or returns nil when the script must be started by
// name (see the comment at the top of this file).
func pinnedStart(t *Target, path string, content []byte, direct bool) *Start {
	var st Start
	kind, name := "", ""
	switch {
	case direct:
		interp, arg, ok := parseShebang(content)
		if !ok {
			return nil
		}
		base := filepath.Base(interp)
		if base == "env" {
			// #!/usr/bin/env bash: env finds the interpreter.
			if arg == "" || strings.HasPrefix(arg, "-") {
				return nil
			}
			base = arg
		}
		kind = interpreterKind(base)
		st.Path = interp
		st.Argv = []string{interp}
		if arg != "" {
			st.Argv = append(st.Argv, arg)
		}
		st.Argv = append(st.Argv, scriptDir()+"/"+strconv.Itoa(scriptFD))
		st.Argv = append(st.Argv, t.Argv[1:]...)
		name = t.Argv[0]
	case t.ScriptArg > 0 && t.ScriptArg < len(t.Argv):
		kind, name = t.Interp, t.Argv[t.ScriptArg]
		st.Path = t.Path
		st.Argv = append([]string{}, t.Argv...)
		st.Argv[t.ScriptArg] = scriptDir() + "/" + strconv.Itoa(scriptFD)
	default:
		return nil
	}
	if (kind != "sh" && kind != "python") || selfLocating(kind, content) || scriptDir() == "" {
		return nil
	}
	if strings.HasSuffix(filepath.Base(st.Path), "fish") || strings.HasSuffix(filepath.Base(st.Path), "busybox") {
		return nil
	}
	f, err := sealedCopy(filepath.Base(path), content)
	if err != nil {
		return nil
	}
	st.Script = f
	if kind == "python" {
		pythonStart(&st, filepath.Dir(path), name)
	}
	return &st
}

// parseShebang reads a #! line as the kernel does: the interpreter, then at
// most one argument (the rest of the line, trimmed).
func parseShebang(content []byte) (interp, arg string, ok bool) {
	interp, arg, ok = shebangLine(content)
	return interp, arg, ok && filepath.IsAbs(interp)
}

// shebangLine is parseShebang's reading of the line, the interpreter as
// written (the kernel takes a relative one against the working directory).
func shebangLine(content []byte) (interp, arg string, ok bool) {
	if !bytes.HasPrefix(content, []byte("#!")) {
		return "", "", false
	}
	line := content[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	} else {
		return "", "", false
	}
	s := strings.Trim(string(line), " \t")
	if s == "" || strings.ContainsAny(s, "\r\x00") {
		return "", "", false
	}
	interp, arg, _ = strings.Cut(s, " ")
	if i := strings.IndexByte(interp, '\t'); i >= 0 {
		interp, arg = interp[:i], interp[i+1:]+" "+arg
	}
	arg = strings.Trim(arg, " \t")
	return interp, arg, interp != ""
}

// selfLocating reports whether a script refers to its own path: run from
// /proc/self/fd/3 it would look for its neighbours in the wrong place, so
// it is started by name instead.
func selfLocating(kind string, content []byte) bool {
	var words []string
	switch kind {
	case "sh":
		words = []string{"$0", "${0", "BASH_SOURCE", "BASH_ARGV0", "ZSH_SCRIPT", "ZSH_ARGZERO", "%x", "%N", "$_"}
	case "python":
		words = []string{"__file__", "argv[0]", "__spec__", "__loader__", "__cached__", "inspect", "sys.argv"}
	default:
		return true
	}
	for _, w := range words {
		if bytes.Contains(content, []byte(w)) {
			return true
		}
	}
	return false
}

var errChanging = errors.New("the file changed while it was being read")

// Sums returns each pinned file's digest ("" for a missing one), in the
// order of the Target's Files.
func (p *Pins) Sums() []string {
	if p == nil {
		return nil
	}
	out := make([]string, len(p.files))
	for i, f := range p.files {
		out[i] = f.sum
	}
	return out
}

// HashErr returns why the i-th file could not be hashed, or nil.
func (p *Pins) HashErr(i int) error {
	if p == nil || i >= len(p.files) {
		return nil
	}
	return p.files[i].err
}

// errPinChanged is returned by Verify when a pinned file changed between
// the consent check and the start of the hook.
var errPinChanged = errors.New("changed between the consent check and the start of the hook")

// Verify checks that every pinned path the hook will open by name still
// names the file that was hashed, and that the file is unchanged since
// (same size, mtime and ctime; same absence for a file that did not
// exist); for the binary started through its descriptor, only the latter. The runner calls it immediately before it starts the hook, and
// not after Close.
func (p *Pins) Verify() error {
	if p == nil {
		return nil
	}
	for i, pf := range p.files {
		switch {
		case pf.copied:
			// Started from the very bytes checked.
			continue
		case i == p.exec:
			// Started through the very descriptor checked, which no rename
			// can swap; a write since the check can still change it.
			if fi, err := pf.f.Stat(); err != nil || KeyOf(fi) != pf.key {
				return fmt.Errorf("%s %w (written to)", pf.path, errPinChanged)
			}
			continue
		case pf.f == nil:
			if fi, err := os.Stat(pf.path); err == nil && fi.Mode().IsRegular() {
				return fmt.Errorf("%s %w (it appeared)", pf.path, errPinChanged)
			}
			continue
		}
		now, err := os.Stat(pf.path)
		if err != nil {
			return fmt.Errorf("%s %w (%v)", pf.path, errPinChanged, err)
		}
		fi, err := pf.f.Stat()
		// os.SameFile too: where the file identity holds no inode
		// (Windows: volume and file index, which FileInfo's Sys lacks),
		// a rename of a same-size, same-time file over the pinned one
		// would otherwise pass.
		if k := KeyOf(now); k.dev != pf.key.dev || k.ino != pf.key.ino || (err == nil && !os.SameFile(now, fi)) {
			return fmt.Errorf("%s %w (replaced)", pf.path, errPinChanged)
		}
		if err != nil || KeyOf(fi) != pf.key {
			return fmt.Errorf("%s %w (written to)", pf.path, errPinChanged)
		}
	}
	return nil
}

// ExecPath returns a path that starts exactly the pinned binary —
// /proc/self/fd/N, which the kernel resolves to the open file however its
// name changed — or "" when the hook is not a pinned binary.
func (p *Pins) ExecPath() string {
	if p == nil || p.exec < 0 || p.files[p.exec].f == nil || !procSelfFD() {
		return ""
	}
	return "/proc/self/fd/" + strconv.Itoa(int(p.files[p.exec].f.Fd()))
}

// Start returns how to start an interpreted primary script from its sealed
// copy, or nil when the hook starts as its Target says.
func (p *Pins) Start() *Start {
	if p == nil {
		return nil
	}
	return p.start
}

// Close releases the descriptors. It is safe to call more than once.
func (p *Pins) Close() {
	if p == nil {
		return
	}
	for i := range p.files {
		if p.files[i].f != nil {
			p.files[i].f.Close()
			p.files[i].f = nil
		}
	}
	if p.start != nil && p.start.Script != nil {
		p.start.Script.Close()
		p.start.Script = nil
	}
}
