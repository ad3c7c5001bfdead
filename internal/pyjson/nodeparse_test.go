package pyjson

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os/exec"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// nodeCases are texts JSON.parse reads or refuses, with what it reads
// (canonNode's form); "!" for a refusal. Checked against node itself
// in TestParseNodeLikeNode when node is installed.
var nodeCases = []struct{ in, want string }{
	{`{}`, `{}`},
	{` {"a" : [1, 2.5, -0, true, false, null]} `, `{a:[n3ff0000000000000,n4004000000000000,n8000000000000000,true,false,null]}`},
	{`1e400`, `n7ff0000000000000`},
	{`-1e400`, `nfff0000000000000`},
	{`1e-400`, `n0000000000000000`},
	{`123456789012345678901234567890`, `n45f8ee90ff6c373e`},
	{`{"a":1,"a":2}`, `{a:n4000000000000000}`},
	{`{"__proto__":1}`, `{__proto__:n3ff0000000000000}`},
	{`"\ud83d\ude00\ud800x\u00e9\/"`, `"f09f9880efbfbd78c3a92f"`},
	{"\"\xff\"", `"efbfbd"`},
	{"\"\xe2\x82\"", `"efbfbd"`},
	{`[` + strings.Repeat(`[`, 40) + strings.Repeat(`]`, 40) + `]`, `[` + strings.Repeat(`[`, 31) + `deep-array` + strings.Repeat(`]`, 32)},
	{``, `!`},
	{` `, `!`},
	{`{"a":1,}`, `!`},
	{`[1,]`, `!`},
	{`01`, `!`},
	{`1.`, `!`},
	{`.5`, `!`},
	{`+1`, `!`},
	{`1e`, `!`},
	{`-`, `!`},
	{`NaN`, `!`},
	{`Infinity`, `!`},
	{`'a'`, `!`},
	{`{a:1}`, `!`},
	{"\"a\tb\"", `!`},
	{`"\x"`, `!`},
	{`"\u12"`, `!`},
	{`"\u+123"`, `!`},
	{`tru`, `!`},
	{`nul`, `!`},
	{`{} {}`, `!`},
	{"\ufeff{}", `!`},
	{"\v{}", `!`},
	{"\u00a0{}", `!`},
	{`[`, `!`},
	{`{"a"}`, `!`},
	{`{"a":}`, `!`},
	{`{,}`, `!`},
	{`[,1]`, `!`},
	{`{"a":1 "b":2}`, `!`},
}

// canonNode is v, a ParseNode value, in a form node can print too:
// numbers as their float64 bits, strings as their UTF-8 in hex, keys
// sorted.
func canonNode(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprint(t)
	case float64:
		return fmt.Sprintf("n%016x", math.Float64bits(t))
	case string:
		return `"` + hex.EncodeToString([]byte(t)) + `"`
	case Deep:
		if t.Array {
			return "deep-array"
		}
		return "deep-object"
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = canonNode(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ":" + canonNode(t[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprintf("?%T", v)
}

func parseCanon(in string) string {
	v, ok := ParseNode([]byte(in))
	if !ok {
		return "!"
	}
	return canonNode(v)
}

func TestParseNode(t *testing.T) {
	for _, c := range nodeCases {
		if got := parseCanon(c.in); got != c.want {
			t.Errorf("ParseNode(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestParseNodeDeep: nesting far past encoding/json's 10,000 is read
// without recursion; unclosed, refused.
func TestParseNodeDeep(t *testing.T) {
	const n = 1 << 20
	if _, ok := ParseNode([]byte(strings.Repeat("[", n) + strings.Repeat("]", n))); !ok {
		t.Errorf("%d nested arrays refused", n)
	}
	if _, ok := ParseNode([]byte(strings.Repeat(`{"a":`, n) + "0" + strings.Repeat("}", n))); !ok {
		t.Errorf("%d nested objects refused", n)
	}
	if _, ok := ParseNode([]byte(strings.Repeat("[", n))); ok {
		t.Errorf("%d unclosed arrays read", n)
	}
}

// nodeCanonScript prints, for each base64 text on stdin (a JSON array),
// what JSON.parse read as canonNode writes it, or "!".
const nodeCanonScript = `
const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const f64 = (x) => { const b = Buffer.alloc(8); b.writeDoubleBE(x); return 'n' + b.toString('hex'); };
const canon = (v, d) => {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return f64(v);
  if (typeof v === 'string') return '"' + Buffer.from(v, 'utf8').toString('hex') + '"';
  if (d >= 32) return Array.isArray(v) ? 'deep-array' : 'deep-object';
  if (Array.isArray(v)) return '[' + v.map((e) => canon(e, d + 1)).join(',') + ']';
  const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return '{' + keys.map((k) => k + ':' + canon(v[k], d + 1)).join(',') + '}';
};
const out = texts.map((b64) => {
  const s = Buffer.from(b64, 'base64').toString('utf8');
  try { return canon(JSON.parse(s), 0); } catch (e) { return '!'; }
});
process.stdout.write(JSON.stringify(out));
`

// TestParseNodeLikeNode: ParseNode reads what node's JSON.parse reads,
// and the same values, for the cases above and thousands of mutations of
// them (skipped where node is not installed).
func TestParseNodeLikeNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	texts := []string{}
	for _, c := range nodeCases {
		texts = append(texts, c.in)
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"{", "}", "[", "]", ",", ":", `"`, `\`, "u", "0", "1", "-", "+", ".", "e", "E", " ", "\t", "\n", "a", "t", "n", "f", "\x00", "\xff", "é", "9", `\ud800`, `\udc00`}
	seeds := append([]string{}, texts...)
	for i := 0; i < 4000; i++ {
		b := []byte(seeds[rng.Intn(len(seeds))])
		for k := rng.Intn(3) + 1; k > 0; k-- {
			at := 0
			if len(b) > 0 {
				at = rng.Intn(len(b) + 1)
			}
			piece := alphabet[rng.Intn(len(alphabet))]
			switch rng.Intn(3) {
			case 0:
				b = append(b[:at:at], append([]byte(piece), b[at:]...)...)
			case 1:
				if at < len(b) {
					b = append(b[:at:at], b[at+1:]...)
				}
			default:
				if at < len(b) {
					b = append(b[:at:at], append([]byte(piece), b[at+1:]...)...)
				}
			}
		}
		texts = append(texts, string(b))
	}
	enc := make([]string, len(texts))
	for i, s := range texts {
		enc[i] = base64.StdEncoding.EncodeToString([]byte(s))
	}
	in, _ := json.Marshal(enc)
	cmd := exec.Command(node, "-e", nodeCanonScript)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(texts) {
		t.Fatalf("node's answer: %v (%d of %d)", err, len(want), len(texts))
	}
	bad := 0
	for i, s := range texts {
		if got := parseCanon(s); got != want[i] {
			if bad++; bad <= 20 {
				t.Errorf("ParseNode(%q) = %s, node: %s", s, got, want[i])
			}
		}
	}
}

// FuzzParseNode: never a panic; what encoding/json reads (valid UTF-8,
// shallow), ParseNode reads to the same value.
func FuzzParseNode(f *testing.F) {
	for _, c := range nodeCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := ParseNode(data)
		var want any
		if !utf8.Valid(data) || json.Unmarshal(data, &want) != nil || strings.Count(string(data), "[")+strings.Count(string(data), "{") > NodeBuildDepth {
			return
		}
		if !ok {
			t.Fatalf("ParseNode(%q) refused what encoding/json read", data)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("ParseNode(%q) = %#v, encoding/json: %#v", data, got, want)
		}
	})
}
