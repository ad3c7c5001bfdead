package agenthooks

import (
	"embed"
	"io/fs"
	"strings"
)

// rulesFS is rules/*.yaml as they are in the tree: go:embed takes the
// files themselves, so the built-in copies cannot drift from them.
//
//go:embed rules/*.yaml
var rulesFS embed.FS

// ruleExt is the extension every rule file has, left out of its name.
const ruleExt = ".yaml"

// Rules are the names of the built-in rule files (rules/NAME.yaml without
// the .yaml), sorted.
func Rules() []string {
	entries, err := fs.ReadDir(rulesFS, "rules")
	if err != nil {
		return nil // cannot happen: the directory is embedded
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ruleExt); ok && !e.IsDir() {
			names = append(names, n)
		}
	}
	return names // ReadDir sorts by name
}

// Rule is the text of the built-in rule file name (as Rules lists it,
// without .yaml); false when there is none. Only the exact names Rules
// lists are answered: a path (../x, a/b, /x) never is, so nothing but
// the embedded files can be read through it.
func Rule(name string) ([]byte, bool) {
	for _, n := range Rules() {
		if n == name {
			data, err := rulesFS.ReadFile("rules/" + n + ruleExt)
			return data, err == nil
		}
	}
	return nil, false
}
