package install

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// TestScan: the scanner finds each member's key and the exact text of its
// value; anything but one strict JSON object is an error.
func TestScan(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // key=value text of the top-level members
	}{
		{`{}`, nil},
		{" \n{ }\n", nil},
		{`{"a":1}`, []string{`a=1`}},
		{`{"a" : [1, 2] ,"b":{"c":null}}`, []string{`a=[1, 2]`, `b={"c":null}`}},
		{"{\n  \"x\\\"y\": \"q\\\\\",\n  \"\\u00e9\": -1.5e3\n}\n", []string{`x"y="q\\"`, `é=-1.5e3`}},
		{`{"a":{},"a":[]}`, []string{`a={}`, `a=[]`}},
		{`{"s":"]},"}`, []string{`s="]},"`}},
	} {
		n, err := scan([]byte(tc.in))
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		var got []string
		for _, m := range n.members {
			got = append(got, m.key+"="+tc.in[m.val.start:m.val.end])
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: members %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{``, `[]`, `1`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1}x`, `{"a":tru}`, `{a:1}`,
		`{"a":[1,]}`, `{"a":"x` + "\n" + `"}`, `{"a":"\`, `{"a":1 2}`, `{"a":[1 2]}`, `{"\x":1}`, `{} {}`} {
		if _, err := scan([]byte(bad)); err == nil {
			t.Errorf("%q: scanned", bad)
		}
	}
}

// FuzzScan: the scanner reads every JSON object encoding/json reads and
// nothing else, and each value's text is that value.
func FuzzScan(f *testing.F) {
	for _, s := range []string{claudeSettings, cursorHooks, `{}`, `{"a":[1,{"b":"\u0041"}]}`, `{"a":1}x`, `[1]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		n, err := scan([]byte(in))
		v, derr := pyjson.DecodeOrdered([]byte(in))
		_, isObj := v.(pyjson.OrderedObject)
		if ok := derr == nil && isObj; ok != (err == nil) {
			// encoding/json takes invalid UTF-8 in strings, and so do we.
			t.Fatalf("%q: scan err %v, decode err %v (object %v)", in, err, derr, isObj)
		}
		if err != nil {
			return
		}
		e := &editor{data: []byte(in)}
		var walk func(n *node)
		walk = func(n *node) {
			if !json.Valid([]byte(in[n.start:n.end])) {
				t.Fatalf("%q: value text %q is not JSON", in, in[n.start:n.end])
			}
			for _, m := range n.members {
				walk(m.val)
			}
			for _, el := range n.elems {
				walk(el)
			}
		}
		walk(n)
		if !bytes.Equal(e.canon(n), canonical(v)) {
			t.Fatalf("%q: root reads %s, want %s", in, e.canon(n), canonical(v))
		}
	})
}

// The file of issue 24: compact arrays and objects, as people write them
// by hand, keep their exact bytes through install and uninstall (even
// without the backup that restores the file).
const compactSettings = `{
  "permissions": {"allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"], "deny": []},
  "env": {"FOO": "1"},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/hooks/guard.sh"}]}
    ]
  },
  "n": 1.50
}
`

func TestEditKeepsUntouchedBytes(t *testing.T) {
	claude, _ := agents.Lookup("claude")
	cursor, _ := agents.Lookup("cursor")
	for _, tc := range []struct {
		name     string
		agent    *agents.Agent
		original string
		kept     []string // text install must leave as it is
	}{
		{"compact values", claude, compactSettings, []string{
			"{\n  \"permissions\": {\"allow\": [\"Bash(npm run test:*)\", \"Read(~/.zshrc)\"], \"deny\": []},\n  \"env\": {\"FOO\": \"1\"},\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/.claude/hooks/guard.sh\"}]},\n      {\n        \"hooks\": [\n",
			"\n  },\n  \"n\": 1.50\n}\n",
		}},
		{"odd spacing outside hooks", claude, "{\"a\" :  [ 1,2 ],\n\n\t\"hooks\":{}, \"z\":{\"y\":[]}}", []string{
			"{\"a\" :  [ 1,2 ],\n\n\t\"hooks\":{\n\t\t\"PreToolUse\": [\n\t\t\t{\n\t\t\t\t\"hooks\": [",
			"\n\t\t]\n\t}, \"z\":{\"y\":[]}}",
		}},
		{"cursor, version added first", cursor, "{\n    \"hooks\": {\"afterFileEdit\": [{\"command\": \"./f.sh\"}]},\n    \"x\": [1,2]\n}", []string{
			"{\n    \"version\": 1,\n    \"hooks\": {\n        \"afterFileEdit\": [{\"command\": \"./f.sh\"}],\n        \"preToolUse\": [\n            {\n",
			"\n    },\n    \"x\": [1,2]\n}",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			writeFile(t, path, tc.original)
			out := run(t, tc.agent, path, false)
			for _, k := range tc.kept {
				if !strings.Contains(out, k) {
					t.Errorf("installed file lacks\n%s\nin\n%s", k, out)
				}
			}
			if !strings.HasPrefix(out, tc.kept[0]) || !strings.HasSuffix(out, tc.kept[len(tc.kept)-1]) {
				t.Errorf("installed file does not start and end as the original:\n%s", out)
			}
			// Without the backup, uninstall edits: what install did not
			// touch is still byte for byte the original.
			if err := os.Remove(path + BackupSuffix); err != nil {
				t.Fatal(err)
			}
			back := run(t, tc.agent, path, true)
			if tc.name == "compact values" && back != tc.original {
				t.Errorf("uninstall without a backup:\n%s\nwant the original:\n%s", back, tc.original)
			}
		})
	}
}

// A file in JSON.stringify's layout (how the agents write theirs) gets
// exactly the bytes a whole re-encoding would give: editing in place
// changes nothing there.
func TestEditOfStringifyLayoutIsTheLayout(t *testing.T) {
	for _, name := range agents.Names() {
		a, _ := agents.Lookup(name)
		for _, original := range []string{claudeSettings, cursorHooks, "{\n  \"hooks\": {}\n}\n", "{}"} {
			doc, err := parse(nil, "f", []byte(original))
			if err != nil {
				t.Fatal(err)
			}
			doc, _, err = a.Install(doc, command(name))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := edit(doc, []byte(original)), layout(doc, []byte(original)); !bytes.Equal(got, want) {
				t.Errorf("%s on %q:\n%s\nwant\n%s", name, original, got, want)
			}
		}
	}
}

// FuzzEdit: on any JSON object, the edited file reads as the edited
// document; every top-level member install does not own keeps its bytes;
// and a file in JSON.stringify's layout gets that layout.
func FuzzEdit(f *testing.F) {
	for _, s := range []string{claudeSettings, cursorHooks, compactSettings, `{}`, `{"hooks":{"Stop":[]}}`,
		`{"hooks":{"Stop":[{"hooks":[{"command":"x"}]},1,[2]]}, "a" : [ ]}`, `{"a":1,"a":2,"hooks":{"Stop":[{"command":"'/x' hook cursor stop"}]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		doc, err := parse(nil, "f", []byte(content))
		if err != nil {
			return
		}
		stringified := layout(doc, nil)
		for _, name := range agents.Names() {
			a, _ := agents.Lookup(name)
			for _, uninstall := range []bool{false, true} {
				for _, old := range []string{content, string(stringified)} {
					d, _ := parse(nil, "f", []byte(old))
					var changed bool
					if uninstall {
						d, changed = a.Uninstall(d)
					} else if d, changed, err = a.Install(d, command(name)); err != nil {
						continue
					}
					if !changed {
						continue
					}
					checkEdit(t, d, []byte(old), old == string(stringified))
				}
			}
		}
	})
}

func checkEdit(t *testing.T, doc pyjson.OrderedObject, old []byte, stringified bool) {
	t.Helper()
	out := edit(doc, old)
	v, err := pyjson.DecodeOrdered(out)
	if err != nil || !bytes.Equal(canonical(v), canonical(doc)) {
		t.Fatalf("edit of %q gave %q (%v), want the document %s", old, out, err, canonical(doc))
	}
	if stringified && !bytes.Equal(out, layout(doc, old)) {
		t.Fatalf("edit of the stringified %q gave\n%s\nnot its layout", old, out)
	}
	root, err := scan(old)
	if err != nil {
		return
	}
	for _, m := range root.members {
		if m.key != "hooks" && m.key != "version" && !bytes.Contains(out, old[m.keyStart:m.val.end]) {
			t.Fatalf("edit of %q lost the bytes of %q:\n%s", old, old[m.keyStart:m.val.end], out)
		}
	}
}
