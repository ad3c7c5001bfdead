package cmdpin

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// StartProblem says why what t starts cannot start, in the words a user
// can act on ("" when nothing stops it, as far as can be told without
// starting it): the command is not found, the script is missing, not
// executable (started by the kernel) or not readable (handed to an
// interpreter), its #! line ends in a carriage return (CRLF line endings),
// or names an interpreter that does not exist. validate, doctor, test and
// the dispatcher's report all give this one verdict.
func (t *Target) StartProblem() string {
	if t.Err != "" {
		return t.Err
	}
	p := t.Primary()
	if p == "" {
		return ""
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p + ": no such file"
	case err != nil:
		return err.Error()
	case !fi.Mode().IsRegular():
		return p + ": not a regular file"
	}
	direct := t.Direct || p == t.Path
	if !direct {
		if !Accessible(p, false) {
			return p + ": permission denied (not readable)"
		}
		return ""
	}
	if !Accessible(p, true) {
		return notExecutableProblem(p)
	}
	if onWindows {
		return "" // Windows never reads a #! line
	}
	return shebangProblem(p)
}

// shebangProblem checks the #! line of a file the kernel starts.
func shebangProblem(path string) string {
	head := readHead(path, 256)
	if !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	if bytes.HasSuffix(line, []byte("\r")) {
		// The kernel takes the carriage return as part of the last word
		// of the #! line: the interpreter, or its one argument.
		words := strings.Fields(string(bytes.TrimSuffix(line, []byte("\r"))))
		what := "the kernel looks for the interpreter `/bin/sh\\r`"
		switch len(words) {
		case 0:
		case 1:
			what = "the kernel looks for the interpreter `" + words[0] + "\\r`"
		default:
			what = words[0] + " is handed `" + words[len(words)-1] + "\\r`"
		}
		return path + ": CRLF line endings: " + what + "; convert the file to LF line endings (dos2unix " + path + ")"
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	if _, err := os.Stat(fields[0]); err != nil {
		return path + ": bad interpreter: " + fields[0] + ": no such file"
	}
	return ""
}

// Executable reports whether what t starts can start, by the rule of
// Hermes' doctor: the primary script must be an existing regular file,
// executable when the kernel starts it, readable when it is handed to an
// interpreter. A command that runs through the shell or names no file needs
// only its program.
func (t *Target) Executable() bool {
	if t.Err != "" {
		return false
	}
	p := t.Primary()
	if p == "" {
		return true
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return Accessible(p, t.Direct || p == t.Path)
}

// NoLauncher says that what t starts directly (Direct, on a system that
// reads #! lines) is neither a script with a #! line nor a program the
// kernel knows, so starting it fails (exec format error); "" otherwise.
// Only where nothing falls back to a shell: a Claude Code command is run
// by the shell, which runs such a file itself, as Claude Code's does. It
// is asked once StartProblem found nothing (a file that is there and may
// be started), and reads only the file's first bytes.
func (t *Target) NoLauncher() string {
	if onWindows || t.Err != "" || t.Shell || !t.Direct && t.Primary() != t.Path {
		return ""
	}
	p := t.Primary()
	if p == "" {
		return ""
	}
	head := readHead(p, 5)
	if head == nil {
		return "" // not readable: StartProblem's to say
	}
	for _, magic := range programMagic {
		if bytes.HasPrefix(head, magic) {
			return ""
		}
	}
	if bytes.HasPrefix(head, []byte("\xef\xbb\xbf#!")) {
		return p + ": a byte order mark before its #! line, so the kernel reads no #! line (exec format error): save it as UTF-8 without a BOM"
	}
	return p + ": no #! line, and no program the kernel can start (exec format error): make its first line #!/bin/sh, or the interpreter it is written for"
}

// programMagic are the first bytes of files the kernel starts besides #!
// scripts: ELF, and Mach-O (both byte orders, 32 and 64 bits, universal).
var programMagic = [][]byte{
	[]byte("#!"), []byte("\x7fELF"),
	{0xfe, 0xed, 0xfa, 0xce}, {0xce, 0xfa, 0xed, 0xfe}, {0xfe, 0xed, 0xfa, 0xcf}, {0xcf, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe},
}

// readHead is the first n bytes of the file at path (fewer when it is
// shorter), nil when it cannot be opened; a FIFO is not waited on.
func readHead(path string, n int) []byte {
	f, err := fsutil.OpenNoBlock(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, n)
	k, _ := io.ReadFull(f, head)
	return head[:k]
}
