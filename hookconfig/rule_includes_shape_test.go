package hookconfig

import (
	"strings"
	"testing"
)

// rules: that is not a list of paths is refused saying what was given: an
// empty path was "got str", which reads as a refusal of the string the
// person did write.
func TestRuleIncludesShapeError(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{`rules: [""]`, "got an empty path"},
		{`rules: ["  "]`, "got an empty path"},
		{`rules: ""`, "got an empty path"},
		{`rules: [team.yaml, ""]`, "got an empty path"},
		{`rules: 5`, "got int"},
		{`rules: {a: b}`, "got dict"},
		{`rules: [[a]]`, "got list"},
	} {
		_, err := parseConfig([]byte(tc.yaml+"\n"), "/c.yaml", 0)
		if err == nil || !strings.Contains(err.Error(), "rules must be a list of rule file paths") || !strings.Contains(err.Error(), "; "+tc.want) {
			t.Errorf("%s: err = %v, want it to say %q", tc.yaml, err, tc.want)
		}
	}
}
