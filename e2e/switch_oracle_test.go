//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// TestSwitchesReadAsTheAgents: doctor's reading of Gemini CLI's and Qwen
// Code's switches (agents.Agent.Switches, LinesOff) against the CLIs' own
// loadSettings, imported from their npm packages and run by node on the
// same user and workspace files: what each merges, and then what its
// config does with the merged value (Gemini: enableHooks ?? true, then a
// truth test, and disabled.includes(command); Qwen: disableAllHooks ??
// false, then a truth test). The agent runs in TestDoctorSwitches prove
// the last step; this covers the many shapes a file can take.
func TestSwitchesReadAsTheAgents(t *testing.T) {
	const line = "exec hermes-hooks hook gemini BeforeTool"
	gemini := []string{
		`{}`, `{"hooksConfig": {"enabled": false}}`, `{"hooksConfig": {"enabled": true}}`,
		`{"hooksConfig": {"enabled": 0}}`, `{"hooksConfig": {"enabled": 1}}`, `{"hooksConfig": {"enabled": ""}}`,
		`{"hooksConfig": {"enabled": "false"}}`, `{"hooksConfig": {"enabled": "FALSE"}}`, `{"hooksConfig": {"enabled": "True"}}`,
		`{"hooksConfig": {"enabled": "no"}}`, `{"hooksConfig": {"enabled": null}}`, `{"hooksConfig": {"enabled": []}}`,
		`{"hooksConfig": {"enabled": {}}}`, `{"hooksConfig": {"enabled": -0}}`, `{"hooksConfig": {"enabled": 1e-400}}`,
		`{"hooksConfig": {"enabled": "${E2E_UNSET:-}"}}`, `{"hooksConfig": {"enabled": "${E2E_UNSET:-false}"}}`, `{"hooksConfig": {"enabled": "$E2E_UNSET"}}`,
		`{"hooksConfig": {}}`, `{"hooksConfig": 5}`, `{"hooksConfig": []}`, `{"hooksConfig": false}`,
		`{"hooksConfig": {"disabled": ["` + line + `"]}}`, `{"hooksConfig": {"disabled": "` + line + `"}}`,
		`{"hooksConfig": {"disabled": [1, "` + line + `"]}}`, `{"hooksConfig": {"disabled": ["other"]}}`,
		`{"hooksConfig": {"disabled": "x ` + line + ` y"}}`, `{"hooksConfig": {"disabled": []}}`,
		"// c\n{\"hooksConfig\": {/* x */ \"enabled\": false}, \"big\": 1e400}",
		`{"hooksConfig": {"enabled": false}, "hooksConfig": {"enabled": true}}`,
		`{"hooksConfig": {"enabled": true}, "hooksConfig": {"enabled": false}}`,
	}
	qwen := []string{
		`{}`, `{"disableAllHooks": true}`, `{"disableAllHooks": false}`, `{"disableAllHooks": 1}`,
		`{"disableAllHooks": 0}`, `{"disableAllHooks": "false"}`, `{"disableAllHooks": ""}`, `{"disableAllHooks": null}`,
		`{"disableAllHooks": []}`, `{"disableAllHooks": {}}`, `{"disableAllHooks": "${E2E_UNSET:-}"}`, `{"disableAllHooks": "${E2E_UNSET:-1}"}`, `{"disableAllHooks": 1e400}`, `{"disableAllHooks": 1e-400}`,
		"\ufeff// c\n{\"disableAllHooks\": true}", `{"disableAllHooks": false, "disableAllHooks": true}`,
	}
	t.Run("GeminiCLI", func(t *testing.T) {
		bin := npmAgent(t, npmTool{what: "Gemini CLI", pkg: "@google/gemini-cli", bin: "gemini",
			binEnv: "HERMES_E2E_GEMINI", versionEnv: "HERMES_E2E_GEMINI_VERSION", version: geminiVersion, slot: "gemini-npm"})
		module := settingsModule(t, filepath.Join(filepath.Dir(filepath.Dir(bin)), "@google", "gemini-cli", "bundle"), "function _doLoadSettings(")
		compareSettings(t, "gemini", ".gemini", module, pairs(gemini), line, `
const h = s.merged.hooksConfig;
const off = !(h.enabled ?? true);
const d = h?.disabled || [];
let lineOff = false;
try { lineOff = d.includes(line); } catch (e) { lineOff = 'crash'; }
return {off, lineOff};`)
	})
	t.Run("QwenCode", func(t *testing.T) {
		bin := npmAgent(t, npmTool{what: "Qwen Code", pkg: "@qwen-code/qwen-code", bin: "qwen",
			binEnv: "HERMES_E2E_QWEN", versionEnv: "HERMES_E2E_QWEN_VERSION", version: qwenVersion, slot: "qwen-npm"})
		module := settingsModule(t, filepath.Join(filepath.Dir(filepath.Dir(bin)), "@qwen-code", "qwen-code", "chunks"), "function loadSettings(workspaceDir")
		compareSettings(t, "qwen", ".qwen", module, pairs(qwen), line, `
return {off: !!(s.merged.disableAllHooks ?? false), lineOff: false};`)
	})
}

// pairs is every (user, workspace) pair of files.
func pairs(files []string) [][2]string {
	var out [][2]string
	for _, w := range files {
		out = append(out, [2]string{`{}`, w})
	}
	for _, u := range files {
		for _, w := range files[:8] {
			out = append(out, [2]string{u, w})
		}
	}
	return out
}

// settingsModule is the file of the CLI's bundle that holds marker (its
// settings loader).
func settingsModule(t *testing.T, dir, marker string) string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err == nil && strings.Contains(string(data), marker) && strings.Contains(string(data), "loadSettings") {
			return n
		}
	}
	t.Fatalf("no file of %s holds %q", dir, marker)
	return ""
}

// settingsScript runs, for each case, the CLI's loadSettings on a fresh
// workspace and home, then decide (a function body of s, the loaded
// settings, and line).
const settingsScript = `
import fs from 'node:fs';
const [module, root, dot, line, decideBody] = process.argv.slice(1);
const m = await import(module);
const decide = new Function('s', 'line', decideBody);
const cases = JSON.parse(fs.readFileSync(0, 'utf8'));
const out = [];
// The user's file is where the CLI found it when it loaded (Gemini reads
// its path once); the workspace a new folder each time (both cache the
// settings per folder).
const home = process.env.HOME;
fs.mkdirSync(home + '/' + dot, {recursive: true});
for (let i = 0; i < cases.length; i++) {
  const ws = root + '/w' + i;
  fs.mkdirSync(ws + '/' + dot, {recursive: true});
  fs.writeFileSync(home + '/' + dot + '/settings.json', cases[i][0]);
  fs.writeFileSync(ws + '/' + dot + '/settings.json', cases[i][1]);
  try { out.push(decide(m.loadSettings(ws), line)); } catch (e) { out.push({error: String(e).split('\n')[0]}); }
}
process.stdout.write(JSON.stringify(out));
`

func compareSettings(t *testing.T, name, dot, module string, cases [][2]string, line, decide string) {
	t.Helper()
	root := t.TempDir()
	in, _ := json.Marshal(cases)
	cmd := exec.Command("node", "--input-type=module", "-e", settingsScript, module, root, dot, line, decide)
	cmd.Stdin = strings.NewReader(string(in))
	// The workspace is trusted (Gemini's folder trust is on by default;
	// doctor reads the workspace's file in any folder).
	cmd.Env = append(cleanEnv(), "GEMINI_CLI_TRUST_WORKSPACE=true", "HOME="+filepath.Join(root, "home"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, clip(stderr.String(), 3000))
	}
	var got []struct {
		Off     bool   `json:"off"`
		LineOff any    `json:"lineOff"`
		Error   string `json:"error"`
	}
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(cases) {
		t.Fatalf("node's answer: %v (%d of %d): %s", err, len(got), len(cases), out)
	}
	a, _ := agents.Lookup(name)
	checked := 0
	for i, c := range cases {
		if got[i].Error != "" {
			t.Logf("%s refuses user %s, workspace %s: %s", name, c[0], c[1], got[i].Error)
			continue
		}
		checked++
		parsed := []agents.ParsedFile{a.Parse([]byte(c[0])), a.Parse([]byte(c[1]))}
		_, off := a.SwitchesIn(a.SwitchFiles(), parsed)
		if off != got[i].Off {
			t.Errorf("user %s, workspace %s: doctor reads hooks off=%v, %s's own loadSettings off=%v", c[0], c[1], off, name, got[i].Off)
		}
		_, lineOff := a.LinesOff(a.SwitchFiles(), parsed)(line)
		if want, _ := got[i].LineOff.(bool); lineOff != want {
			t.Errorf("user %s, workspace %s: doctor reads the line off=%v, %s's own loadSettings: %v", c[0], c[1], lineOff, name, got[i].LineOff)
		}
	}
	t.Logf("%d of %d pairs compared with %s", checked, len(cases), module)
}
