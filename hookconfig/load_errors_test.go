package hookconfig

import (
	"errors"
	"strings"
	"testing"
)

// Every rule entry that stops a config from loading is named (the first
// as the error, the rest in its More, bounded): validate lists them all.
func TestLoadErrorsAllNamed(t *testing.T) {
	var b strings.Builder
	b.WriteString("hooks:\n  pre_tool_call:\n")
	for range maxMoreLoadErrors + 10 {
		b.WriteString("    - rule: 'true'\n      decision: blok\n      message: m\n")
	}
	_, err := ParseConfig([]byte(b.String()), "c.yaml")
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err %v", err)
	}
	if ce.Line != 4 || len(ce.More) != maxMoreLoadErrors || ce.More[0].Line != 7 {
		t.Fatalf("first at line %d, %d more (first of them at %d)", ce.Line, len(ce.More), ce.More[0].Line)
	}
	if !strings.Contains(err.Error(), "(and 50 more: 'hermes-hooks validate' lists them)") {
		t.Fatalf("error %q", err)
	}
}
