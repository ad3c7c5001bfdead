package agents

import (
	"maps"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Gemini CLI 0.61's expandCommand and escapeShellArg (shell-quote's quote
// for bash, single quotes for PowerShell), value by value.
func TestGeminiExpandCommand(t *testing.T) {
	for _, tc := range []struct {
		text string
		v    protocol.HookVars
		want string
	}{
		{`'$GEMINI_PROJECT_DIR/.gemini/hooks/g.sh'`, protocol.HookVars{Project: "/w/p"}, `'/w/p/.gemini/hooks/g.sh'`},
		{`$GEMINI_CWD/g.sh $GEMINI_SESSION_ID $CLAUDE_PROJECT_DIR`, protocol.HookVars{Project: "/w", Session: "s-1"}, `/w/g.sh s-1 /w`},
		{`$GEMINI_PLANS_DIR/x`, protocol.HookVars{Project: "/w"}, `/x`},
		{`$GEMINI_PROJECT_DIR/g.sh`, protocol.HookVars{Project: "/my dir"}, `'/my dir'/g.sh`},
		{`$GEMINI_PROJECT_DIR`, protocol.HookVars{Project: "/it's"}, `"/it's"`},
		{`$GEMINI_PROJECT_DIR`, protocol.HookVars{Project: "/it's $x"}, `"/it's \$x"`},
		{`$GEMINI_PROJECT_DIR`, protocol.HookVars{Project: "/a(b)&c:d"}, `/a\(b\)\&c\:d`},
		{`$GEMINI_PROJECT_DIR`, protocol.HookVars{Project: "a::"}, `a:\:`},
		{`$GEMINI_PROJECT_DIR`, protocol.HookVars{Project: `/x\y`}, `'/x\y'`},
		{`$GEMINI_PROJECT_DIR`, protocol.HookVars{Project: "/a/:x"}, `/a/\:x`},
		{`$GEMINI_PROJECT_DIR\x`, protocol.HookVars{Project: `C:\w p`, PowerShell: true}, `'C:\w p'\x`},
		{`$GEMINI_SESSION_ID`, protocol.HookVars{Session: "abc-1.2", PowerShell: true}, `abc-1.2`},
		{`echo $HOME`, protocol.HookVars{Project: "/w"}, `echo $HOME`},
	} {
		if got := (geminiCodec{}).ExpandCommand(tc.text, tc.v); got != tc.want {
			t.Errorf("ExpandCommand(%q, %+v) = %q, want %q", tc.text, tc.v, got, tc.want)
		}
	}
	env := (geminiCodec{}).HookEnv(protocol.HookVars{Project: "/w", Session: "s"})
	if !maps.Equal(env, map[string]string{"GEMINI_SESSION_ID": "s"}) {
		t.Errorf("HookEnv = %v", env)
	}
}

// A hook's env reaches its environment as Node's spawn writes each value.
func TestGeminiHookEnv(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]string
		warn string
	}{
		{`{"command":"x"}`, nil, ""},
		{`{"env":{"STRICT":"1","N":2,"F":1.5,"B":false,"Z":null}}`, map[string]string{"STRICT": "1", "N": "2", "F": "1.5", "B": "false", "Z": "null"}, ""},
		{`{"env":{"A":"1","O":{"x":1}}}`, map[string]string{"A": "1"}, ".env.O is not"},
		{`{"env":"A=1"}`, nil, ".env must be an object"},
	} {
		v, _ := pyjson.Decode([]byte(tc.in))
		var warns []string
		got := geminiHookEnv(v.(map[string]any), func(s string) { warns = append(warns, s) })
		if !maps.Equal(got, tc.want) {
			t.Errorf("%s: env %v, want %v", tc.in, got, tc.want)
		}
		if w := strings.Join(warns, "|"); (tc.warn == "") != (w == "") || !strings.Contains(w, tc.warn) {
			t.Errorf("%s: warnings %q, want %q", tc.in, w, tc.warn)
		}
	}
}
