package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeBlock is one fenced block of the README: its info string and text.
type readmeBlock struct {
	lang, text string
	line       int
}

// readmeSection returns the fenced blocks between the heading `from` and
// the next level-2 heading, in order.
func readmeSection(t *testing.T, from string) []readmeBlock {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(readme), "\n")
	var out []readmeBlock
	in, open := false, -1
	var lang string
	var body []string
	for i, l := range lines {
		switch {
		case l == from:
			in = true
			continue
		case in && open < 0 && strings.HasPrefix(l, "## "):
			return out
		case !in:
			continue
		}
		if open < 0 && strings.HasPrefix(l, "```") {
			open, lang, body = i+1, strings.TrimPrefix(l, "```"), nil
			continue
		}
		if open >= 0 && l == "```" {
			out = append(out, readmeBlock{lang: lang, text: strings.Join(body, "\n") + "\n", line: open})
			open = -1
			continue
		}
		if open >= 0 {
			body = append(body, l)
		}
	}
	if !in {
		t.Fatalf("README.md has no %q", from)
	}
	return out
}

// The five-minute tutorial is run as a new user would, in a throwaway HOME
// with nothing but the binary on PATH, and every console block must show
// what the binary prints (issue 24: the README matches what the binaries
// print). The sh block runs as written, the yaml block becomes
// ~/.hermes/config.yaml, and each `$ command` of a console block is run with
// bash from HOME; its output must equal the lines that follow it, with only
// the home directory (/home/you) and hook timings (elapsed=…s) read as
// placeholders. A command shown without output must succeed.
func TestReadmeTutorial(t *testing.T) {
	for _, tool := range []string{"bash", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the tutorial needs %s: %v", tool, err)
		}
	}
	blocks := readmeSection(t, "## Five-minute tutorial")
	if len(blocks) < 5 {
		t.Fatalf("the tutorial has %d code blocks, want the script, the config and the console sessions", len(blocks))
	}
	bin := plainBinDir(t)
	home := filepath.Join(t.TempDir(), "you")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=dumb"}
	run := func(script string) (string, error) {
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir, cmd.Env = home, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	elapsed := regexp.MustCompile(`elapsed=[0-9]+\.[0-9]+s`)
	normal := func(s string) string {
		s = strings.ReplaceAll(s, home, "/home/you")
		s = elapsed.ReplaceAllString(s, "elapsed=…s")
		var lines []string
		for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			lines = append(lines, strings.TrimRight(l, " "))
		}
		return strings.Join(lines, "\n")
	}
	for _, b := range blocks {
		switch b.lang {
		case "sh":
			if out, err := run("set -e\n" + b.text); err != nil {
				t.Fatalf("README.md:%d: the script block failed: %v\n%s", b.line, err, out)
			}
		case "yaml":
			cfg := filepath.Join(home, ".hermes", "config.yaml")
			if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cfg, []byte(b.text), 0o644); err != nil {
				t.Fatal(err)
			}
		case "console":
			for _, c := range consoleCommands(b) {
				got, err := run(c.command)
				if c.want == "" {
					if err != nil {
						t.Errorf("README.md:%d: $ %s\nfailed: %v\n%s", c.line, c.command, err, got)
					}
					continue
				}
				if normal(got) != normal(c.want) {
					t.Errorf("README.md:%d: $ %s\nprints:\n%s\nthe README shows:\n%s", c.line, c.command, normal(got), normal(c.want))
				}
			}
		default:
			t.Fatalf("README.md:%d: a %q block in the tutorial: the test does not know how to run it", b.line, b.lang)
		}
	}
}

type consoleCommand struct {
	command, want string
	line          int
}

// consoleCommands splits a console block into `$ command` lines and the
// output lines that follow each.
func consoleCommands(b readmeBlock) []consoleCommand {
	var out []consoleCommand
	for i, l := range strings.Split(strings.TrimSuffix(b.text, "\n"), "\n") {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			out = append(out, consoleCommand{command: c, line: b.line + 1 + i})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].want += l + "\n"
		}
	}
	return out
}

// Every fence of the README and the docs closes: one stray fence turns the
// rest of the file into a code block.
func TestReadmeFencesClose(t *testing.T) {
	for _, f := range docFiles(t) {
		body, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		open, openLine := "", 0
		for i, l := range strings.Split(string(body), "\n") {
			m := fenceRE.FindStringSubmatch(l)
			switch {
			case m == nil:
			case open == "":
				open, openLine = m[1], i+1
			case strings.TrimSpace(m[2]) == "" && len(m[1]) >= len(open):
				open = ""
			default:
				t.Errorf("%s:%d: a fence %q inside the block opened at line %d", f, i+1, l, openLine)
			}
		}
		if open != "" {
			t.Errorf("%s:%d: the block opened here never closes", f, openLine)
		}
	}
}
