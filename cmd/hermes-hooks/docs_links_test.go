package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// docFiles are the Markdown files people read, relative to the repository
// root: the README, every docs/ page, and the ones next to code.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	files := []string{"README.md", "AGENTS.md", "BENCHMARKS.md", "agent-hooks/README.md", "clients/python/README.md"}
	for _, p := range pages {
		files = append(files, "docs/"+filepath.Base(p))
	}
	return files
}

// mdLine is one line of a Markdown file outside its fenced code blocks.
type mdLine struct {
	n    int
	text string
}

// proseLines returns the lines of a Markdown file that are not inside a
// fenced code block (where `](` is code, not a link, and `#` a comment).
func proseLines(body string) []mdLine {
	var out []mdLine
	open := ""
	for i, l := range strings.Split(body, "\n") {
		if m := fenceRE.FindStringSubmatch(l); m != nil {
			switch {
			case open == "":
				open = m[1]
			case strings.TrimSpace(m[2]) == "" && len(m[1]) >= len(open):
				open = ""
			}
			continue
		}
		if open == "" {
			out = append(out, mdLine{i + 1, l})
		}
	}
	return out
}

var (
	fenceRE   = regexp.MustCompile("^(`{3,})(.*)$")
	headingRE = regexp.MustCompile(`^#{1,6}[ \t]+(.*?)[ \t]*$`)
	// A code span: its text is never a link.
	codeSpanRE = regexp.MustCompile("`+[^`]*`+")
	linkRE     = regexp.MustCompile(`\]\(([^()\s]*)\)`)
)

// slug is the anchor GitHub gives a heading: lower case, every character
// but letters, digits, marks, '-' and '_' dropped, spaces made '-'.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns every heading anchor of a Markdown file; a repeated
// heading gets -1, -2 … as on GitHub.
func anchors(body string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range proseLines(body) {
		m := headingRE.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+strconv.Itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Install":                             "install",
		"Five-minute tutorial":                "five-minute-tutorial",
		"Workers: no process start per event": "workers-no-process-start-per-event",
		"Hermes: three hook systems, all for shell scripts": "hermes-three-hook-systems-all-for-shell-scripts",
		"hermes-hooks serve":     "hermes-hooks-serve",
		"`block-rm-rf.sh`":       "block-rm-rfsh",
		"Events → catalog (v2)":  "events--catalog-v2",
		"Über snake_case":        "über-snake_case",
		"  The outcome JSON   ":  "the-outcome-json",
		"What's new? (2.1.197+)": "whats-new-21197",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
	got := anchors("# A\n## A\n```\n## A\n```\n## A\n")
	for _, want := range []string{"a", "a-1", "a-2"} {
		if !got[want] {
			t.Errorf("anchors: no %q in %v", want, got)
		}
	}
	if len(got) != 3 {
		t.Errorf("anchors: a heading inside a code block counted: %v", got)
	}
}

// Every relative link of the documentation resolves: the file or directory
// exists, and an #anchor names a heading of the page it points at (the
// README was split into docs/ pages; a moved section must not leave a
// dead link behind).
func TestDocsLinksResolve(t *testing.T) {
	root := filepath.Join("..", "..")
	cache := map[string]map[string]bool{}
	anchorsOf := func(path string) (map[string]bool, error) {
		if a, ok := cache[path]; ok {
			return a, nil
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		cache[path] = anchors(string(body))
		return cache[path], nil
	}
	checked := 0
	for _, f := range docFiles(t) {
		path := filepath.Join(root, filepath.FromSlash(f))
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range proseLines(string(body)) {
			text := codeSpanRE.ReplaceAllString(l.text, "")
			for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
				target := m[1]
				if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				file, frag, _ := strings.Cut(target, "#")
				dest := path
				if file != "" {
					dest = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link %q: no such file or directory", f, l.n, target)
						continue
					}
				}
				if frag == "" {
					continue
				}
				if !strings.HasSuffix(dest, ".md") {
					t.Errorf("%s:%d: link %q: an #anchor into a file that is not Markdown", f, l.n, target)
					continue
				}
				a, err := anchorsOf(dest)
				if err != nil {
					t.Errorf("%s:%d: link %q: %v", f, l.n, target, err)
					continue
				}
				if !a[frag] {
					t.Errorf("%s:%d: link %q: %s has no heading with the anchor #%s", f, l.n, target, file, frag)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d relative links found: the link reader is broken", checked)
	}
}
