package pyyaml

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// scalarCases are plain scalars as a Hermes config writes a value: the
// Python type PyYAML's safe_load gives each, and what Python's int() of
// that value is (Hermes' reading of timeout:), "err" where int() refuses
// it. yaml.v3 alone resolves YAML 1.2: it reads 0o10, 0X1E and 1e3 as
// numbers and 1:30 as text, where PyYAML (YAML 1.1) reads the first three
// as text and 1:30 as 90 (TestScalarsMatchPyYAML runs them through PyYAML
// itself when python3 has it).
var scalarCases = []struct {
	text, pyType, pyInt string
}{
	{"30", "int", "30"},
	{"+30", "int", "30"},
	{"-5", "int", "-5"},
	{"0", "int", "0"},
	{"1_000", "int", "1000"},
	{"010", "int", "8"},
	{"0_10", "int", "8"},
	{"0o10", "str", "err"},
	{"0O10", "str", "err"},
	{"0x1e", "int", "30"},
	{"0x_1E", "int", "30"},
	{"0X1E", "str", "err"},
	{"0b11", "int", "3"},
	{"0b1_1", "int", "3"},
	{"0B11", "str", "err"},
	{"-0b11", "int", "-3"},
	{"1:30", "int", "90"},
	{"190:30:10", "int", "685810"},
	{"-1:30", "int", "-90"},
	{"1:30.5", "float", "90"},
	{"1:60", "str", "err"},
	{"08", "str", "8"},
	{"30.9", "float", "30"},
	{"30.", "float", "30"},
	{".5", "float", "0"},
	{"-.5", "str", "err"},
	{"1_0.5", "float", "10"},
	{"1e3", "str", "err"},
	{"1.5e1", "str", "err"},
	{"1.5e+1", "float", "15"},
	{"1.5E-1", "float", "0"},
	{".inf", "float", "err"},
	{"-.Inf", "float", "err"},
	{".nan", "float", "err"},
	{".NaN", "float", "err"},
	{"nan", "str", "err"},
	{"yes", "bool", "1"},
	{"Off", "bool", "0"},
	{"TRUE", "bool", "1"},
	{"y", "str", "err"},
	{"~", "NoneType", "err"},
	{"null", "NoneType", "err"},
	{"Null", "NoneType", "err"},
	{"2026-01-02", "date", "err"},
	{"2026-1-2", "str", "err"},
	{"2026-01-02 10:00:00", "datetime", "err"},
	{"2026-1-2T3:04:05Z", "datetime", "err"},
	{"thirty", "str", "err"},
	{"0x", "str", "err"},
}

func resolvedScalar(t *testing.T, text string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("v: "+text+"\n"), &doc); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	Resolve(doc.Content[0])
	return doc.Content[0].Content[1]
}

func TestResolveAsPyYAML(t *testing.T) {
	for _, tc := range scalarCases {
		n := resolvedScalar(t, tc.text)
		if got := Type(n); got != tc.pyType {
			t.Errorf("%s: type %s, PyYAML gives %s", tc.text, got, tc.pyType)
		}
		got := "err"
		if v, ok := Int(n); ok {
			got = strconv.Itoa(v)
		}
		if got != tc.pyInt {
			t.Errorf("%s: int() %s, Python gives %s", tc.text, got, tc.pyInt)
		}
	}
}

// Quoted and explicitly tagged scalars are not resolved: they keep the
// tag they were written with, as for PyYAML.
func TestResolveLeavesQuotedAndTagged(t *testing.T) {
	for text, want := range map[string]string{`"30"`: "str", `'yes'`: "str", `!!str 30`: "str", `!!int "30"`: "int", `"~"`: "str"} {
		if got := Type(resolvedScalar(t, text)); got != want {
			t.Errorf("%s: type %s, want %s", text, got, want)
		}
	}
}

// TestScalarsMatchPyYAML: the expectations above are PyYAML's and
// Python's own.
func TestScalarsMatchPyYAML(t *testing.T) {
	if exec.Command("python3", "-c", "import yaml").Run() != nil {
		t.Skip("python3 with PyYAML is not installed")
	}
	texts := make([]string, len(scalarCases))
	for i, tc := range scalarCases {
		texts[i] = tc.text
	}
	in, _ := json.Marshal(texts)
	script := `import json, sys, yaml
for s in json.load(sys.stdin):
    v = yaml.safe_load("v: " + s + "\n")["v"]
    try:
        i = str(int(v))
    except (TypeError, ValueError, OverflowError):
        i = "err"
    print(type(v).__name__, i)
`
	cmd := exec.Command("python3", "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, tc := range scalarCases {
		if want := tc.pyType + " " + tc.pyInt; lines[i] != want {
			t.Errorf("%s: PyYAML and Python read %s, the test expects %s", tc.text, lines[i], want)
		}
	}
}

// FuzzImplicitTag: the first-character and plain-decimal shortcuts of
// ImplicitTag give the tag PyYAML's resolvers give, tried in its order
// with every pattern.
func FuzzImplicitTag(f *testing.F) {
	for _, s := range []string{"30", "0", "010", "0o10", "1:30", "1.5e+1", ".inf", "-", "+1", "2026-12-06", "yes", "~", "", "<<", "abc", "1_000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := "!!str"
		r := yaml11()
		switch {
		case isBoolWord(s):
			want = "!!bool"
		case r.float.MatchString(s):
			want = "!!float"
		case r.int.MatchString(s):
			want = "!!int"
		case s == "<<":
			want = "!!merge"
		case s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL":
			want = "!!null"
		case r.timestamp.MatchString(s):
			want = "!!timestamp"
		}
		if got := ImplicitTag(s); got != want {
			t.Fatalf("ImplicitTag(%q) = %s, PyYAML's resolvers in order: %s", s, got, want)
		}
	})
}
