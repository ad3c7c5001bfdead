package hookconfig

import (
	"strconv"
	"strings"
	"testing"
)

// What reading a config costs, with pyyaml.Flatten in the path: a
// repository's file is parsed at every dispatch.
// go test -run XXX -bench BenchmarkParse -benchmem ./hookconfig

// benchDoc is a config of 50 guards, no merge.
func benchDoc() []byte {
	var b strings.Builder
	b.WriteString("model: x\nhooks:\n  pre_tool_call:\n")
	for i := 0; i < 50; i++ {
		b.WriteString("    - command: /bin/guard" + strconv.Itoa(i) + "\n      matcher: terminal\n      timeout: 10\n      fail_closed: true\n")
	}
	return []byte(b.String())
}

func BenchmarkParseTypical(b *testing.B) {
	d := benchDoc()
	for b.Loop() {
		if _, err := parseConfig(d, "/c.yaml", 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseWideEntry: one entry of 300,000 keys (TestRuleEntryManyKeysLinear).
func BenchmarkParseWideEntry(b *testing.B) {
	var s strings.Builder
	s.WriteString("hooks:\n  pre_tool_call:\n    - {rule: 'true', decision: block, message: m")
	for i := 0; i < 300_000; i++ {
		s.WriteString(",k" + strconv.FormatInt(int64(i), 36))
	}
	s.WriteString("}\n")
	d := []byte(s.String())
	for b.Loop() {
		parseConfig(d, "/c.yaml", MaxProjectEntries)
	}
}

// BenchmarkParseMergeBomb: nine levels each merging the one below nine
// times, merged into 1,000 entries (9^9 keys if expanded naively).
func BenchmarkParseMergeBomb(b *testing.B) {
	var s strings.Builder
	s.WriteString("l0: &l0 {command: x}\n")
	for i := 1; i <= 9; i++ {
		p := "*l" + strconv.Itoa(i-1)
		s.WriteString("l" + strconv.Itoa(i) + ": &l" + strconv.Itoa(i) + " {<<: [" + strings.Repeat(p+", ", 8) + p + "], k" + strconv.Itoa(i) + ": v}\n")
	}
	s.WriteString("hooks:\n  pre_tool_call:\n")
	for i := 0; i < 1000; i++ {
		s.WriteString("    - <<: [*l9, *l9, *l9]\n")
	}
	d := []byte(s.String())
	for b.Loop() {
		parseConfig(d, "/c.yaml", MaxProjectEntries)
	}
}
