package agents

import (
	"encoding/json"
	"math/rand"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// expandEnvCases are strings read as Gemini CLI and Qwen Code read them;
// TestExpandLikeNode checks them, and mutations of them, against the
// agents' own regular expressions in node.
var expandEnvCases = []string{
	"", "$", "$$", "${", "${}", "$}", "${a", "${a}", "$a", "$a$X", "$a_1-x", "$é", "${é}",
	"${a:-d}", "${X:-d}", "${:-d}", "${a:-}", "${:-}", "${a:-b:-c}", "${a:}", "${a:-${X}}", "${${X}}",
	"${$b${$b}", "${$a", "${SESSION_ID}", "$session_id", "${Session_Id:-k}", "$EMPTY", "${EMPTY:-d}",
	"${X:", "${X:-", "pre $X post ${a} ${nope:-dflt} $nope ${nope}", "{$X}", "$$X", "$${X}", "${ X }",
	"${1}", "$1x", "${_}", "${a:-}}", "}}${X}}", "${X:-x:-y}",
}

// expandEnvTestEnv is the environment of those cases.
var expandEnvTestEnv = map[string]string{
	"a": "<A>", "X": "<X>", "EMPTY": "", "SESSION_ID": "<SID>", "session_id": "<sid>",
	"a:-": "<A:->", "X:": "<X:>", "1": "<1>", "_": "<_>", "a:-b": "<A:-B>", "é": "<E>", "${X": "<$X>",
}

// expandNodeScript expands each string as Gemini CLI's and Qwen Code's
// resolveEnvVarsInString do, with their patterns and rules.
const expandNodeScript = `
const {texts, env} = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const has = (k) => Object.prototype.hasOwnProperty.call(env, k);
const kept = new Set(['SESSION_ID', 'QWEN_CODE_SESSION_ID', 'QWEN_SERVER_TOKEN', 'QWEN_DAEMON_TOKEN', 'QWEN_CODE_EXTERNAL_TOOL_GUARD_TOKEN']);
const gemini = (s) => s.replace(/\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g, (m, a, b, d) => {
  const n = a || b;
  if (has(n)) return env[n];
  if (d !== undefined) return d;
  return m;
});
const qwen = (s) => s.replace(/\$(?:(\w+)|{([^}]+)})/g, (m, a, b) => {
  const n = a || b;
  if (!kept.has(n.toUpperCase()) && has(n)) return env[n];
  return m;
});
process.stdout.write(JSON.stringify(texts.map((s) => [gemini(s), qwen(s)])));
`

// TestExpandLikeNode: expandString gives what the agents' own
// replace(regexp, …) gives, for the cases above and thousands of
// mutations of them (skipped where node is not installed).
func TestExpandLikeNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	texts := append([]string{}, expandEnvCases...)
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"$", "{", "}", ":", "-", ":-", "a", "X", "_", "1", "é", " ", "${", "$X", "SESSION_ID", "b"}
	for range 5000 {
		b := []byte(expandEnvCases[rng.Intn(len(expandEnvCases))])
		for k := rng.Intn(4) + 1; k > 0; k-- {
			at := rng.Intn(len(b) + 1)
			piece := alphabet[rng.Intn(len(alphabet))]
			if rng.Intn(3) == 0 && at < len(b) && b[at] < 0x80 {
				b = append(b[:at:at], b[at+1:]...)
			} else {
				b = append(b[:at:at], append([]byte(piece), b[at:]...)...)
			}
		}
		if s := string(b); strings.ToValidUTF8(s, "") == s {
			texts = append(texts, s)
		}
	}
	in, _ := json.Marshal(map[string]any{"texts": texts, "env": expandEnvTestEnv})
	cmd := exec.Command(node, "-e", expandNodeScript)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var want [][2]string
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(texts) {
		t.Fatalf("node's answer: %v (%d of %d)", err, len(want), len(texts))
	}
	lookup := func(k string) (string, bool) { v, ok := expandEnvTestEnv[k]; return v, ok }
	bad := 0
	for i, s := range texts {
		g, q := geminiEnv().expandString(s, lookup), qwenEnv().expandString(s, lookup)
		if g != want[i][0] || q != want[i][1] {
			if bad++; bad <= 20 {
				t.Errorf("%q: Gemini %q, node %q; Qwen %q, node %q", s, g, want[i][0], q, want[i][1])
			}
		}
	}
}

// hostileExpand is a 4 MiB string of "${" left unclosed, each followed by
// a $NAME: the regexp searched to the end for each one's '}'.
func hostileExpand() string { return strings.Repeat("${$b", 1<<20) }

// BenchmarkExpandHostile: the 4 MiB hostile string, each agent's way
// (BENCHMARKS.md). With the regexp, 64 KiB of it took 35 s.
func BenchmarkExpandHostile(b *testing.B) {
	s := hostileExpand()
	lookup := func(k string) (string, bool) { return "", k == "b" }
	b.SetBytes(int64(len(s)))
	for range b.N {
		geminiEnv().expandString(s, lookup)
		qwenEnv().expandString(s, lookup)
	}
}

// regexpExpand is expandString as it was, with the agents' patterns in
// RE2 (quadratic on unclosed "${", fine at fuzzing sizes): the oracle of
// FuzzExpandString.
func regexpExpand(x *expander, s string, lookup func(string) (string, bool)) string {
	re := regexp.MustCompile(`\$(?:([A-Za-z0-9_]+)|\{([^}]+)\})`)
	if x.defaults {
		re = regexp.MustCompile(`\$(?:([A-Za-z0-9_]+)|\{([^}]+?)(?::-([^}]*))?\})`)
	}
	return re.ReplaceAllStringFunc(s, func(m string) string {
		sub := re.FindStringSubmatch(m)
		name := sub[1] + sub[2]
		if v, ok := x.value(name, lookup); ok {
			return v
		}
		if x.defaults && strings.Contains(m[1:], ":-") && sub[2] != "" && len(sub[2])+3 < len(m) {
			return sub[3]
		}
		return m
	})
}

// FuzzExpandString: the scan gives what the agents' patterns give.
func FuzzExpandString(f *testing.F) {
	for _, c := range expandEnvCases {
		f.Add(c)
	}
	lookup := func(k string) (string, bool) { v, ok := expandEnvTestEnv[k]; return v, ok }
	f.Fuzz(func(t *testing.T, s string) {
		for _, x := range []*expander{geminiEnv(), qwenEnv()} {
			if got, want := x.expandString(s, lookup), regexpExpand(x, s, lookup); got != want {
				t.Fatalf("defaults %v: expandString(%q) = %q, the pattern: %q", x.defaults, s, got, want)
			}
		}
	})
}
