package protocol

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// docs/conformance.md maps every upstream id a test cites to its behaviour
// and test. This test keeps it from falling behind: each Hermes checklist
// id and each Claude Code §7.2 case cited in a *_test.go or *.txtar file of
// the module must have a table row there.

// hermesSections is the upstream checklist's numbering: one global number
// per item, each section a contiguous run.
var hermesSections = []struct {
	letter   byte
	from, to int
}{
	{'A', 1, 18}, {'B', 19, 24}, {'C', 25, 33}, {'D', 34, 45}, {'E', 46, 60},
	{'F', 61, 62}, {'G', 63, 68}, {'H', 69, 83}, {'I', 84, 87}, {'J', 88, 103},
	{'K', 104, 119}, {'L', 120, 136}, {'M', 137, 147},
}

// claudeCases is the number of compatibility cases of the Claude Code
// reference §7.2, cited as C01…C14; they share the letter C with the Hermes
// matcher section, whose numbers start higher.
const claudeCases = 14

// hermesLetter is the section of checklist item n, or 0 if n is not one.
func hermesLetter(n int) byte {
	for _, s := range hermesSections {
		if n >= s.from && n <= s.to {
			return s.letter
		}
	}
	return 0
}

// citedID matches an id such as A01, TestD34_…, K111–K116, J92to94 or
// TestFoldL136…: a letter A–M not preceded by a capital or digit, an
// optionally zero-padded number, and an optional range end.
var citedID = regexp.MustCompile(`(?:^|[^A-Z0-9])([A-M])0*([0-9]{1,3})(?:(?:–|-|to)[A-M]?0*([0-9]{1,3}))?`)

// citedIDs returns the checklist ids and §7.2 cases in text, normalised
// ("A01" → "A1"), ranges expanded. Anything else that looks like an id
// (E2E, a C-number no section has) is skipped.
func citedIDs(text string) []string {
	var ids []string
	for _, m := range citedID.FindAllStringSubmatchIndex(text, -1) {
		if end := m[1]; end < len(text) && text[end] >= '0' && text[end] <= '9' {
			continue // a longer number: not an id
		}
		letter := text[m[2]]
		n, _ := strconv.Atoi(text[m[4]:m[5]])
		if m[6] >= 0 {
			last, _ := strconv.Atoi(text[m[6]:m[7]])
			if hermesLetter(n) == letter && hermesLetter(last) != 0 && last > n {
				for i := n; i <= last; i++ {
					ids = append(ids, string(hermesLetter(i))+strconv.Itoa(i))
				}
				continue
			}
		}
		switch {
		case hermesLetter(n) == letter:
			ids = append(ids, string(letter)+strconv.Itoa(n))
		case letter == 'C' && n >= 1 && n <= claudeCases:
			ids = append(ids, "C"+strconv.Itoa(n))
		}
	}
	return ids
}

// docRow matches the id cell that starts a table row of the document.
var docRow = regexp.MustCompile(`(?m)^\|\s*([A-M])0*([0-9]{1,3})\s*\|`)

func TestConformanceDocCoversCitedIDs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "conformance.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, m := range docRow.FindAllStringSubmatch(string(doc), -1) {
		n, _ := strconv.Atoi(m[2])
		rows[m[1]+strconv.Itoa(n)] = true
	}

	cited := map[string][]string{} // id → files citing it
	root := ".."
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") && !strings.HasSuffix(path, ".txtar") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, id := range citedIDs(string(b)) {
			if files := cited[id]; len(files) == 0 || files[len(files)-1] != rel {
				cited[id] = append(files, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cited) == 0 {
		t.Fatal("no cited ids found: the scan is broken")
	}

	var missing []string
	for id := range cited {
		if !rows[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	for _, id := range missing {
		t.Errorf("%s is cited by %s but has no row in docs/conformance.md", id, strings.Join(cited[id], ", "))
	}
}

func TestCitedIDs(t *testing.T) {
	for text, want := range map[string]string{
		"A01_decision_block":               "A1",
		"func TestD34_Slow":                "D34",
		"TestFoldL136ApproveAndBlock":      "L136",
		"checklist K109, K110, J96, J97.":  "K109 K110 J96 J97",
		"H69/H70 detail":                   "H69 H70",
		"checklist J88–J90 and":            "J88 J89 J90",
		"TestE55to60_FailClosed":           "E55 E56 E57 E58 E59 E60",
		`"C06b_pretool_keys", "C14_two"`:   "C6 C14",
		"E2E-PROMPT RE2 A1234 C20 K120":    "",
		"§7.2 case 8 and B19x":             "B19",
		"TestM137to140_ApproveExisted (x)": "M137 M138 M139 M140",
	} {
		if got := strings.Join(citedIDs(text), " "); got != want {
			t.Errorf("citedIDs(%q) = %q, want %q", text, got, want)
		}
	}
}
