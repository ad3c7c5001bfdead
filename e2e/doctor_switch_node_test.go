//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testSwitchesGemini: Gemini CLI's hooksConfig, in the workspace's
// settings (the project, trusted for the run) and the user's, over the
// user's own install: enabled read as JavaScript reads it, the workspace's
// above the user's, comments blanked; disabled joined across the files.
func testSwitchesGemini(t *testing.T) {
	h := newGeminiHarness(t)
	t.Logf("hermes-hooks install gemini --user: %s", strings.TrimSpace(h.hermesHooks(t, "install", "gemini", "--user")))
	t.Logf("hermes-hooks uninstall gemini: %s", strings.TrimSpace(h.hermesHooks(t, "uninstall", "gemini")))
	user := filepath.Join(h.home, ".gemini", "settings.json")
	project := filepath.Join(h.project, ".gemini", "settings.json")
	mustMkdir(t, filepath.Dir(project))
	line := geminiUserLine(t, user)
	hooksConfig := func(members string) string { return `{"hooksConfig": {` + members + "}}\n" }
	runSwitchSteps(t, h, "rm -rf", []switchStep{
		{name: "None", set: writeFile(project, "{}\n")},
		{
			name: "ProjectEnabledFalse", off: true,
			set:  writeFile(project, hooksConfig(`"enabled": false`)),
			says: []string{`✗ this project's .gemini/settings.json turns all hooks off, including your guards: "hooksConfig"."enabled" is false; fix: a folder's settings outrank yours`},
		},
		// JavaScript's truth: 0 is false, the string "no" true; Gemini's
		// schema reads the string "false" as the boolean.
		{name: "ProjectEnabledZero", off: true, set: writeFile(project, hooksConfig(`"enabled": 0`))},
		{name: "ProjectEnabledStringFalse", off: true, set: writeFile(project, hooksConfig(`"enabled": "false"`))},
		{name: "ProjectEnabledStringNo", set: writeFile(project, hooksConfig(`"enabled": "no"`))},
		{name: "ProjectEnabledNull", set: writeFile(project, hooksConfig(`"enabled": null`))},
		// Comments blanked, numbers of any size.
		{name: "ProjectComment", off: true, set: writeFile(project, "// committed\n{\"hooksConfig\": {/* off */ \"enabled\": false}, \"e2eUnknownKey\": 1e400}\n")},
		{
			// The workspace's list names the line install wrote in the
			// user's file: Gemini joins the lists and skips it.
			name: "ProjectDisabledLine", off: true,
			set:  writeFile(project, hooksConfig(`"disabled": [`+line+`]`)),
			says: []string{`      BeforeTool: ✗ "hooksConfig"."disabled" names this line in this project's .gemini/settings.json`},
		},
		{name: "ProjectDisabledOther", set: writeFile(project, hooksConfig(`"disabled": ["e2e other"]`))},
		{
			name: "ProjectTrueOverUserFalse",
			set: func(t *testing.T) {
				setJSONKey(t, user, "hooksConfig", map[string]any{"enabled": false})
				mustWrite(t, project, hooksConfig(`"enabled": true`), 0o644)
			},
		},
		{
			name: "User", off: true,
			set:  writeFile(project, "{}\n"),
			says: []string{`      BeforeTool: ✗ "hooksConfig"."enabled" is false: Gemini CLI does not run this entry`},
		},
	})
	setJSONKey(t, user, "hooksConfig", map[string]any{})
	runInSubfolder(t, h, project, filepath.Join(h.project, "sub", ".gemini", "settings.json"), hooksConfig(`"enabled": false`))
}

// runInSubfolder: the workspace's settings are those of the folder the
// agent runs in, not the project's root: root's switch (at root) does
// not stop the guard in sub, sub's own does. doctor, run in the same
// folder, must say the same.
func runInSubfolder(t *testing.T, a agent, root, sub, off string) {
	h := a.base()
	// The project becomes a git repository, so that hermes-hooks (whose
	// guard reads the project's .hermes) finds it from sub.
	if out, err := exec.Command("git", "init", "-q", h.project).CombinedOutput(); err != nil {
		t.Skipf("skipped: git init: %v\n%s", err, out)
	}
	mustMkdir(t, filepath.Dir(sub))
	h.workDir = filepath.Dir(filepath.Dir(sub))
	defer func() { h.workDir = "" }()
	runSwitchSteps(t, a, "rm -rf", []switchStep{
		{name: "RootOffRunInSub", set: writeFile(root, off)},
		{
			name: "SubOffRunInSub", off: true,
			set:  func(t *testing.T) { mustWrite(t, root, "{}\n", 0o644); mustWrite(t, sub, off, 0o644) },
			says: []string{"✗ this project's sub/" + filepath.Base(filepath.Dir(sub)) + "/settings.json turns all hooks off"},
		},
	})
	mustRemove(t, sub)
}

// geminiUserLine is the command of the user's BeforeTool entry in file,
// as a JSON string.
func geminiUserLine(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks struct {
			BeforeTool []struct {
				Hooks []struct{ Command string } `json:"hooks"`
			} `json:"BeforeTool"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Hooks.BeforeTool) == 0 || len(doc.Hooks.BeforeTool[0].Hooks) == 0 {
		t.Fatalf("%s: no BeforeTool entry (%v):\n%s", file, err, data)
	}
	out, _ := json.Marshal(doc.Hooks.BeforeTool[0].Hooks[0].Command)
	return string(out)
}

// testSwitchesQwen: Qwen Code's disableAllHooks in the workspace's
// settings and the user's, over the user's own install: any value
// JavaScript reads as true turns every hook off; the workspace's above
// the user's; comments and a byte order mark skipped.
func testSwitchesQwen(t *testing.T) {
	h := newQwenHarness(t)
	t.Logf("hermes-hooks install qwen --user: %s", strings.TrimSpace(h.hermesHooks(t, "install", "qwen", "--user")))
	t.Logf("hermes-hooks uninstall qwen: %s", strings.TrimSpace(h.hermesHooks(t, "uninstall", "qwen")))
	user := filepath.Join(h.home, ".qwen", "settings.json")
	project := filepath.Join(h.project, ".qwen", "settings.json")
	mustMkdir(t, filepath.Dir(project))
	disable := func(v string) string { return `{"disableAllHooks": ` + v + "}\n" }
	runSwitchSteps(t, h, "rm -rf", []switchStep{
		{name: "None", set: writeFile(project, "{}\n")},
		{
			name: "Project", off: true,
			set:  writeFile(project, disable("true")),
			says: []string{`✗ this project's .qwen/settings.json turns all hooks off, including your guards: "disableAllHooks" is true; fix: a folder's settings outrank yours`},
		},
		{name: "ProjectNumber", off: true, set: writeFile(project, disable("1"))},
		{name: "ProjectZero", set: writeFile(project, disable("0"))},
		{name: "ProjectCommentBOM", off: true, set: writeFile(project, "\ufeff// committed\n"+disable("true"))},
		{
			name: "ProjectFalseOverUserTrue",
			set: func(t *testing.T) {
				setJSONKey(t, user, "disableAllHooks", true)
				mustWrite(t, project, disable("false"), 0o644)
			},
		},
		{
			name: "User", off: true,
			set:  writeFile(project, "{}\n"),
			says: []string{`      PreToolUse: ✗ "disableAllHooks" is true: Qwen Code does not run this entry`},
		},
	})
	setJSONKey(t, user, "disableAllHooks", false)
	runInSubfolder(t, h, project, filepath.Join(h.project, "sub", ".qwen", "settings.json"), disable("true"))
}

// testSwitchesClaudeDeep: a project's settings with disableAllHooks and
// nesting past encoding/json's 10,000 under an unknown key. doctor, which
// read no switch there once, says off; Claude Code 2.1.197 then does
// nothing at all (it exits 0 before asking the model, printing nothing),
// so neither the guard nor the rm runs.
func testSwitchesClaudeDeep(t *testing.T, h *claudeHarness, project string) {
	mustWrite(t, project, `{"disableAllHooks": true, "e2eUnknownKey": `+strings.Repeat("[", 10001)+strings.Repeat("]", 10001)+`}`, 0o644)
	defer mustRemove(t, project)
	out, _ := h.doctor(t, h.bin, os.Getenv("PATH"))
	if !strings.Contains(out, `✗ this project's .claude/settings.json turns all hooks off, including your guards: "disableAllHooks" is true`) {
		t.Errorf("doctor does not say the project's switch turns the hooks off:\n%s", out)
	}
	marker, command := h.guardTarget(t, "rm -rf", "switch-deep")
	fake := h.newFake(t, guardPrompt("switch-deep", command))
	r := h.run(t, fake)
	t.Logf("claude -p: %v; stdout %q; stderr:\n%s", r.err, clip(r.stdout, 400), clip(r.stderr, 2000))
	if fileContains(t, filepath.Join(h.project, ".hermes", "guard.log"), marker) {
		t.Errorf("the guard ran under a project settings file doctor says turns hooks off")
	}
	checkKept(t, marker, command)
}
