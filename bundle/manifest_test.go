package bundle

import (
	"bytes"
	"strings"
	"testing"
)

const sum = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" // sha256("")

func TestParseManifest(t *testing.T) {
	row := func(p string) string { return `{"path":"` + p + `","sha256":"` + sum + `","size":0,"mode":"0644"}` }
	doc := func(name string, rows ...string) string {
		return `{"format":"` + Format + `","name":"` + name + `","files":[` + strings.Join(rows, ",") + `]}`
	}
	for _, tc := range []struct {
		name, in, want string // want "" accepts
	}{
		{"good", doc("corp", row("config.yaml"), row("hooks/a.sh")), ""},
		{"other format", strings.Replace(doc("corp", row("config.yaml")), Format, "hermes-hooks-bundle/2", 1), "format"},
		{"unknown key", strings.Replace(doc("corp", row("config.yaml")), `"name"`, `"extra":1,"name"`, 1), "unknown field"},
		{"trailing data", doc("corp", row("config.yaml")) + "{}", "data after"},
		{"no config", doc("corp", row("a.sh")), "no config.yaml"},
		{"bad name", doc("../x", row("config.yaml")), "bundle name"},
		{"hidden name", doc(".x", row("config.yaml")), "bundle name"},
		{"upper-case name", doc("Corp", row("config.yaml")), "bundle name"},
		{"dotdot", doc("corp", row("../config.yaml"), row("config.yaml")), "'..'"},
		{"absolute", doc("corp", row("/config.yaml"), row("config.yaml")), "absolute"},
		{"backslash", doc("corp", row(`a\\b`), row("config.yaml")), "backslash"},
		{"drive", doc("corp", row("C:x"), row("config.yaml")), "colon"},
		{"dot component", doc("corp", row("./config.yaml")), "'.'"},
		{"empty component", doc("corp", row("a//b"), row("config.yaml")), "empty"},
		{"option-like", doc("corp", row("config.yaml"), row("-rf")), "'-'"},
		{"unsorted", doc("corp", row("z.sh"), row("config.yaml")), "not sorted"},
		{"duplicate", doc("corp", row("config.yaml"), row("config.yaml")), "not sorted"},
		{"case twins", doc("corp", row("A.sh"), row("a.sh"), row("config.yaml")), "differ only in case"},
		{"file and dir", doc("corp", row("a"), row("a/b"), row("config.yaml")), "is a file and the directory"},
		{"bad digest", strings.Replace(doc("corp", row("config.yaml")), sum, strings.ToUpper(sum), 1), "sha256"},
		{"setuid mode", strings.Replace(doc("corp", row("config.yaml")), "0644", "4755", 1), "mode"},
		{"huge size", strings.Replace(doc("corp", row("config.yaml")), `"size":0`, `"size":99999999999`, 1), "size"},
		{"deep", doc("corp", row(strings.Repeat("d/", MaxPathDepth)+"x"), row("config.yaml")), "deeper"},
		// Windows opens a device for these names, whatever the extension,
		// and drops a trailing dot or space (two names, one file).
		{"device", doc("corp", row("config.yaml"), row("hooks/con")), "Windows"},
		{"device with extension", doc("corp", row("aux.sh"), row("config.yaml")), "Windows"},
		{"device upper-case", doc("corp", row("config.yaml"), row("hooks/LPT1.txt")), "Windows"},
		{"trailing dot", doc("corp", row("a.sh."), row("config.yaml")), "Windows"},
		{"trailing space", doc("corp", row("a.sh "), row("config.yaml")), "Windows"},
		{"device name", doc("nul", row("config.yaml")), "bundle name"},
		{"not a device", doc("corp", row("config.yaml"), row("hooks/com10.sh"), row("hooks/console.sh")), ""},
		// The serial (serial.go): absent, or one spelling of 1..2^53-1.
		{"serial", withSerial(doc("corp", row("config.yaml")), "7"), ""},
		{"largest serial", withSerial(doc("corp", row("config.yaml")), "9007199254740991"), ""},
		{"serial past 2^53-1", withSerial(doc("corp", row("config.yaml")), "9007199254740992"), "serial"},
		{"serial past uint64", withSerial(doc("corp", row("config.yaml")), "18446744073709551616"), "serial"},
		{"serial 0", withSerial(doc("corp", row("config.yaml")), "0"), "serial"},
		{"negative serial", withSerial(doc("corp", row("config.yaml")), "-1"), "serial"},
		{"fractional serial", withSerial(doc("corp", row("config.yaml")), "2.0"), "serial"},
		{"exponent serial", withSerial(doc("corp", row("config.yaml")), "1e3"), "serial"},
		{"leading zero", withSerial(doc("corp", row("config.yaml")), "07"), "invalid character"}, // not JSON
		{"string serial", withSerial(doc("corp", row("config.yaml")), `"7"`), "serial"},
		{"null serial", withSerial(doc("corp", row("config.yaml")), "null"), "serial"},
		// JSON readers disagree on a key given twice (the first, the last):
		// the signed document states one serial.
		{"serial twice", withSerial(withSerial(doc("corp", row("config.yaml")), "1"), "9"), "given twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseManifest([]byte(tc.in))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// withSerial adds "serial": value to a manifest document.
func withSerial(doc, value string) string {
	return strings.Replace(doc, `"files":`, `"serial":`+value+`,"files":`, 1)
}

// The serial a manifest states is the serial it parses to, and an
// unversioned manifest parses to 0 and encodes without the key, byte for
// byte as before serials (so an unversioned bundle packed today is one
// packed before).
func TestManifestSerial(t *testing.T) {
	base := `{"format":"` + Format + `","name":"corp","files":[{"path":"config.yaml","sha256":"` + sum + `","size":0,"mode":"0644"}]}`
	for _, tc := range []struct {
		in   string
		want Serial
	}{{base, 0}, {withSerial(base, "1"), 1}, {withSerial(base, "42"), 42}, {withSerial(base, "9007199254740991"), MaxSerial}} {
		m, err := ParseManifest([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if m.Serial != tc.want {
			t.Fatalf("%s: serial %d, want %d", tc.in, m.Serial, tc.want)
		}
		again, err := ParseManifest(m.Encode())
		if err != nil || again.Serial != tc.want {
			t.Fatalf("re-encoded: serial %v (%v)", again, err)
		}
	}
	m, _ := ParseManifest([]byte(base))
	if enc := string(m.Encode()); strings.Contains(enc, "serial") {
		t.Fatalf("an unversioned manifest encodes a serial:\n%s", enc)
	}
	if got := Serial(0).String(); got != "unversioned" {
		t.Fatalf("Serial(0) = %q", got)
	}
}

// FuzzParseManifest: no input panics, and an accepted manifest encodes to
// bytes that parse to the same files and serial (its paths all valid, its
// serial 0 or in 1..MaxSerial).
func FuzzParseManifest(f *testing.F) {
	f.Add(manifestFor("corp", good))
	f.Add([]byte(`{"format":"` + Format + `","name":"x","files":[]}`))
	f.Add([]byte(withSerial(string(manifestFor("corp", good)), "12")))
	f.Add([]byte(withSerial(string(manifestFor("corp", good)), "-0")))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(data)
		if err != nil {
			return
		}
		for _, fl := range m.Files {
			if CheckPath(fl.Path) != nil || strings.Contains(fl.Path, "..") && strings.Contains("/"+fl.Path+"/", "/../") {
				t.Fatalf("accepted path %q", fl.Path)
			}
		}
		if m.Serial > MaxSerial {
			t.Fatalf("accepted serial %d", m.Serial)
		}
		again, err := ParseManifest(m.Encode())
		if err != nil || len(again.Files) != len(m.Files) || again.Serial != m.Serial {
			t.Fatalf("re-encoded manifest: %v", err)
		}
	})
}

// FuzzRead: no archive panics or is accepted with a file the manifest
// does not list, or whose digest differs.
func FuzzRead(f *testing.F) {
	f.Add(craft(f, entry{name: "manifest.json", data: manifestFor("corp", good)},
		entry{name: "files/config.yaml", data: []byte(good["config.yaml"])},
		entry{name: "files/hooks/guard.sh", data: []byte(good["hooks/guard.sh"])}))
	f.Add(craft(f, entry{name: "manifest.json", data: manifestFor("corp", good)}, entry{name: "files/../x", data: []byte("x")}))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(a.Files) != len(a.Manifest.Files) {
			t.Fatalf("%d files for %d manifest rows", len(a.Files), len(a.Manifest.Files))
		}
		for p, c := range a.Files {
			fl, ok := a.Manifest.Lookup(p)
			if !ok || fl.SHA256 != Digest(c) {
				t.Fatalf("%s accepted against its manifest", p)
			}
		}
	})
}
