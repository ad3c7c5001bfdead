//go:build e2e

package e2e

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDoctorSwitches: the settings that turn all of an agent's hooks off
// (agents/switches.go, docs/agents.md "Switches that turn hooks off"),
// each set as a user or a repository would, and then run: doctor's
// claim must be what the real agent did. doctor says "turns all hooks
// off" (or that the installed file's own setting stops an entry) exactly
// when the agent then ran the user's guard not at all; every step also
// says what the docs claim, so a run that contradicts them fails too.
// The hooks are the user's (install --user): what a repository's
// committed settings can silence.
func TestDoctorSwitches(t *testing.T) {
	t.Run("ClaudeCode", testSwitchesClaude)
	t.Run("Codex", testSwitchesCodex)
	t.Run("GeminiCLI", testSwitchesGemini)
	t.Run("QwenCode", testSwitchesQwen)
}

// switchStep is one arrangement of switch files, then a doctor run and
// an agent run of the guarded rm.
type switchStep struct {
	name string
	// set writes (or removes) the switch files of the step.
	set func(t *testing.T)
	// off: the docs say the agent runs none of the user's hooks.
	off bool
	// says: lines (substrings) doctor must print for this arrangement.
	says []string
	// overstated: a known false alarm (docs/agents.md): doctor says off,
	// the agent still runs the guard. Kept as a step so that a change
	// either way shows.
	overstated bool
}

// runSwitchSteps runs each step on a: doctor (the harness's, on the
// user's PATH), then the agent asked for rm on a directory of the project. In the first step the guard must fire:
// that is what makes a later silence mean something.
func runSwitchSteps(t *testing.T, a agent, rm string, steps []switchStep) {
	for i, st := range steps {
		ok := t.Run(st.name, func(t *testing.T) {
			st.set(t)
			out, _ := a.base().doctor(t, a.base().bin, os.Getenv("PATH"))
			says := doctorSaysOff(out, guardEvent(a))
			fired := guardFires(t, a, rm, "switch-"+strings.ToLower(st.name))
			t.Logf("%s: doctor says the hooks are %s; %s %s the user's guard", st.name, onOff(!says), a.spec().name, ranOrNot(fired))
			switch {
			case st.overstated:
				if !says || !fired {
					t.Errorf("the known false alarm changed: doctor says the hooks are %s and %s %s the user's guard (docs/agents.md says doctor says off, the agent runs it):\n%s", onOff(!says), a.spec().name, ranOrNot(fired), out)
				}
				return
			case says == fired:
				t.Errorf("doctor says the hooks are %s, but %s %s the user's guard:\n%s", onOff(!says), a.spec().name, ranOrNot(fired), out)
			}
			if st.off == fired {
				t.Errorf("docs/agents.md says this arrangement turns hooks %s, but %s %s the user's guard", onOff(!st.off), a.spec().name, ranOrNot(fired))
			}
			for _, s := range st.says {
				if !strings.Contains(out, s) {
					t.Errorf("doctor does not say %q:\n%s", s, out)
				}
			}
		})
		if !ok && i == 0 {
			t.Fatalf("the first step's guard must fire, else the other steps prove nothing")
		}
	}
}

// doctorSaysOff: doctor's output says the agent runs no entry of ours
// for event, its guard's: another file's switch turns all hooks off, or
// the entry is off.
func doctorSaysOff(out, event string) bool {
	return strings.Contains(out, "turns all hooks off") || !strings.Contains(out, "      "+event+": fires ✓\n")
}

// guardEvent is a's event that runs the guard before a tool call.
func guardEvent(a agent) string {
	if a.spec().name == "Gemini CLI" {
		return "BeforeTool"
	}
	return "PreToolUse"
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func ranOrNot(fired bool) string {
	if fired {
		return "ran"
	}
	return "did not run"
}

// guardFires asks a's model for rm on a new directory dir of the project
// and reports whether the guard ran on that call. When it did, its
// refusal must have held: the directory survived and the model read the
// reason. When it did not, whether the agent ran rm is only logged (an
// agent may refuse a destructive command itself).
func guardFires(t *testing.T, a agent, rm, dir string) bool {
	t.Helper()
	h := a.base()
	marker, command := h.guardTarget(t, rm, dir)
	fake := a.newFake(t, guardPrompt(dir, command))
	a.requireSuccess(t, a.run(t, fake))
	fired := fileContains(t, filepath.Join(h.project, ".hermes", "guard.log"), marker)
	_, err := os.Stat(filepath.Join(marker, "keep.txt"))
	kept := err == nil
	got := a.toolResult(t, fake)
	switch {
	case fired && (!kept || !strings.Contains(got.text, guardReason)):
		t.Errorf("the guard saw %q but its refusal did not hold (directory kept: %v); the model read%s:\n%s", command, kept, got.note, got.text)
	case !fired:
		t.Logf("the guard never saw %q; the directory was %s; the model read%s: %s", command, map[bool]string{true: "kept", false: "deleted"}[kept], got.note, clip(got.text, 400))
	}
	return fired
}

// testSwitchesClaude: Claude Code's disableAllHooks, in each of the
// settings files it reads, and the precedence between them.
func testSwitchesClaude(t *testing.T) {
	h := &claudeHarness{claude: npmAgent(t, claudeTool)}
	h.harness = newHarness(t)
	out := h.hermesHooks(t, "install", "claude", "--user")
	t.Logf("hermes-hooks install claude --user: %s", strings.TrimSpace(out))
	h.writeHermesProject(t)

	user := filepath.Join(h.home, ".claude", "settings.json")
	project := filepath.Join(h.project, ".claude", "settings.json")
	local := filepath.Join(h.project, ".claude", "settings.local.json")
	mustMkdir(t, filepath.Dir(project))
	disable := func(v bool) string {
		return `{"disableAllHooks": ` + map[bool]string{true: "true", false: "false"}[v] + "}\n"
	}
	runSwitchSteps(t, h, "rm -rf", []switchStep{
		{name: "None", set: func(t *testing.T) {}},
		{
			// What a hostile repository commits.
			name: "Project", off: true,
			set:  func(t *testing.T) { mustWrite(t, project, disable(true), 0o644) },
			says: []string{`✗ this project's .claude/settings.json turns all hooks off, including your guards: "disableAllHooks" is true; fix: a project's settings outrank yours`},
		},
		{
			name: "ProjectLocal", off: true,
			set: func(t *testing.T) {
				mustRemove(t, project)
				mustWrite(t, local, disable(true), 0o644)
			},
			says: []string{`✗ this project's .claude/settings.local.json turns all hooks off, including your guards: "disableAllHooks" is true`},
		},
		{
			// Claude Code skips a byte order mark (doctor missed it once).
			name: "ProjectBOM", off: true,
			set: func(t *testing.T) {
				mustRemove(t, local)
				mustWrite(t, project, "\ufeff"+disable(true), 0o644)
			},
			says: []string{`✗ this project's .claude/settings.json turns all hooks off, including your guards: "disableAllHooks" is true`},
		},
		// What else a repository could commit: doctor reads only a JSON
		// boolean in a file that is a JSON object; the agent agrees.
		{name: "ProjectString", set: writeFile(project, `{"disableAllHooks": "true"}`)},
		{name: "ProjectNumber", set: writeFile(project, `{"disableAllHooks": 1}`)},
		{name: "ProjectArray", set: writeFile(project, `[{"disableAllHooks": true}]`)},
		{name: "ProjectTrailingComma", set: writeFile(project, `{"disableAllHooks": true,}`)},
		{name: "ProjectComment", set: writeFile(project, "// committed\n"+disable(true))},
		{name: "ProjectDuplicateKey", off: true, set: writeFile(project, `{"disableAllHooks": false, "disableAllHooks": true}`)},
		// Claude Code reads with JSON.parse: a number of any size
		// (encoding/json refused it, and doctor read no switch; attacker
		// review). Nesting past 10,000: ProjectDeepNesting below.
		{
			name: "ProjectHugeNumber", off: true,
			set:  writeFile(project, `{"disableAllHooks": true, "e2eUnknownKey": 1e400}`),
			says: []string{`✗ this project's .claude/settings.json turns all hooks off, including your guards: "disableAllHooks" is true`},
		},
		// Settings Claude Code does not know, or whose own values it
		// drops, leave the file's disableAllHooks in force.
		{name: "ProjectUnknownKey", off: true, set: writeFile(project, `{"disableAllHooks": true, "e2eUnknownKey": 5}`)},
		{name: "ProjectBadHooks", off: true, set: writeFile(project, `{"disableAllHooks": true, "hooks": 5}`)},
		{name: "ProjectBadEnv", off: true, set: writeFile(project, `{"disableAllHooks": true, "env": {"A": 5}}`)},
		// Another known setting of the wrong type: Claude Code ignores
		// the whole file, its disableAllHooks too; doctor, which does not
		// hold Claude Code's schema, still says off.
		{name: "ProjectBadModel", overstated: true, set: writeFile(project, `{"disableAllHooks": true, "model": 5}`)},
		{name: "ProjectBadPermissions", overstated: true, set: writeFile(project, `{"disableAllHooks": true, "permissions": 5}`)},
		{
			// The value left after precedence decides: the project's
			// false outranks the user's own true.
			name: "ProjectFalseOverUserTrue",
			set: func(t *testing.T) {
				setJSONKey(t, user, "disableAllHooks", true)
				mustWrite(t, project, disable(false), 0o644)
			},
		},
		{
			name: "User", off: true,
			set:  func(t *testing.T) { mustRemove(t, project) },
			says: []string{`      PreToolUse: ✗ "disableAllHooks" is true: Claude Code does not run this entry`},
		},
	})
	setJSONKey(t, user, "disableAllHooks", false)
	t.Run("ProjectDeepNesting", func(t *testing.T) { testSwitchesClaudeDeep(t, h, project) })
}

// testSwitchesCodex: Codex's [features] hooks (and its old name
// codex_hooks) in the user's config.toml and in a project's, trusted or
// not, and the precedence between them. The hooks are the user's
// (CODEX_HOME/hooks.json), reviewed in /hooks as Codex writes it; rm -r,
// since Codex itself refuses rm -f style commands.
func testSwitchesCodex(t *testing.T) {
	h := newCodexHome(t)
	out := h.hermesHooks(t, "install", "codex", "--user")
	t.Logf("hermes-hooks install codex --user: %s", strings.TrimSpace(out))
	h.writeHermesProject(t)
	h.trustHooks(t)

	user := filepath.Join(h.codexHome, "config.toml")
	project := filepath.Join(h.project, ".codex", "config.toml")
	mustMkdir(t, filepath.Dir(project))
	feature := func(line string) string { return "[features]\n" + line + "\n" }
	userFix := "fix: make that line hooks = true under [features], or remove it (Codex runs hooks by default)"
	runSwitchSteps(t, h, "rm -r", []switchStep{
		{name: "None", set: func(t *testing.T) {}},
		{
			// Codex reads no layer of a folder it does not trust.
			name: "UntrustedProject",
			set:  func(t *testing.T) { mustWrite(t, project, feature("hooks = false"), 0o644) },
		},
		{
			name: "TrustedProject", off: true,
			set: func(t *testing.T) { h.trustProject(t) },
			says: []string{"✗ this project's .codex/config.toml turns all hooks off, including your guards: [features] hooks = false; " +
				"fix: a trusted project's config outranks yours: start Codex with codex --enable hooks"},
		},
	})
	// doctor's fix for a project's switch: a session flag, which doctor
	// cannot see (it still says off), so checked here on the run alone.
	t.Run("TrustedProjectEnableFlag", func(t *testing.T) {
		h.execFlags = []string{"--enable", "hooks"}
		defer func() { h.execFlags = nil }()
		if !guardFires(t, h, "rm -r", "switch-enable-flag") {
			t.Errorf("doctor's fix for a trusted project's switch, codex --enable hooks, did not bring the guard back")
		}
	})
	// Its first step fires again: the trusted project's hooks = false
	// gives way to its hooks = true.
	runSwitchSteps(t, h, "rm -r", []switchStep{
		// Codex merges its layers key by key, then reads hooks, and
		// codex_hooks only where no layer sets hooks.
		{name: "ProjectHooksOverAlias", set: writeFile(project, feature("codex_hooks = false\nhooks = true"))},
		{
			name: "ProjectHooksFalseOverAlias", off: true,
			set:  writeFile(project, feature("codex_hooks = true\nhooks = false")),
			says: []string{"✗ this project's .codex/config.toml turns all hooks off, including your guards: [features] hooks = false"},
		},
		{
			name: "UserHooksOverProjectAlias", off: true,
			set: func(t *testing.T) {
				setCodexUserFeature(t, user, "hooks = false")
				mustWrite(t, project, feature("codex_hooks = true"), 0o644)
			},
			says: []string{user + " turns all hooks off, including your guards: [features] hooks = false; " + userFix},
		},
		{
			name: "ProjectAliasUnderUserHooks",
			set: func(t *testing.T) {
				setCodexUserFeature(t, user, "hooks = true")
				mustWrite(t, project, feature("codex_hooks = false"), 0o644)
			},
		},
		{
			// Codex skips a byte order mark (doctor missed it once).
			name: "ProjectBOM", off: true,
			set: func(t *testing.T) {
				setCodexUserFeature(t, user, "")
				mustWrite(t, project, "\ufeff"+feature("hooks = false"), 0o644)
			},
			says: []string{"✗ this project's .codex/config.toml turns all hooks off, including your guards: [features] hooks = false"},
		},
		{name: "ProjectDottedKey", off: true, set: writeFile(project, "features.hooks = false\n")},
		{
			// A trusted project's layer outranks the user's.
			name: "ProjectTrueOverUserFalse",
			set: func(t *testing.T) {
				mustWrite(t, project, feature("hooks = true"), 0o644)
				setCodexUserFeature(t, user, "hooks = false")
			},
		},
		{
			name: "User", off: true,
			set:  func(t *testing.T) { mustRemove(t, project) },
			says: []string{user + " turns all hooks off, including your guards: [features] hooks = false; " + userFix},
		},
		{
			name: "UserAlias", off: true,
			set: func(t *testing.T) { setCodexUserFeature(t, user, "codex_hooks = false") },
			says: []string{user + " turns all hooks off, including your guards: [features] codex_hooks = false; " +
				"fix: make that line codex_hooks = true under [features]"},
		},
		{
			// The user's config.toml after a byte order mark: its switch
			// still read.
			name: "UserBOM", off: true,
			set: func(t *testing.T) {
				setCodexUserFeature(t, user, "hooks = false")
				data, err := os.ReadFile(user)
				if err != nil {
					t.Fatal(err)
				}
				mustWrite(t, user, "\ufeff"+string(data), 0o644)
			},
			says: []string{user + " turns all hooks off, including your guards: [features] hooks = false; " + userFix},
		},
		{
			// The same file without the switch: Codex reads the folder's
			// and the hooks' trust in it as ever, and so does doctor.
			name: "UserBOMNoSwitch",
			set:  func(t *testing.T) { setCodexUserFeature(t, user, "") },
		},
	})
	// A switch that is not a boolean: Codex refuses to start, so a
	// repository cannot turn the guards off that way (doctor reads no
	// switch there).
	t.Run("ProjectNonBooleanStopsCodex", func(t *testing.T) {
		setCodexUserFeature(t, user, "")
		mustWrite(t, project, feature(`hooks = "false"`), 0o644)
		marker, command := h.guardTarget(t, "rm -r", "switch-nonboolean")
		fake := h.newFake(t, guardPrompt("switch-nonboolean", command))
		r := h.run(t, fake)
		if r.err == nil {
			t.Errorf("Codex started with [features] hooks = \"false\" in a trusted project's config.toml")
		}
		checkKept(t, marker, command)
		t.Logf("codex exec: %v; stderr:\n%s", r.err, clip(r.stderr, 2000))
	})
	mustRemove(t, project)
	t.Run("Profile", func(t *testing.T) { testSwitchesCodexProfile(t, h) })
	t.Run("Nested", func(t *testing.T) { testSwitchesCodexNested(t, h) })
	t.Run("Worktree", func(t *testing.T) { testSwitchesCodexWorktree(t, h) })
	t.Run("Markers", func(t *testing.T) { testSwitchesCodexMarkers(t, h) })
}

// e2eFeatures is the block setCodexUserFeature keeps at the end of the
// user's config.toml.
var e2eFeatures = regexp.MustCompile(`(?s)\n# e2e-switch\n\[features\]\n.*?\n# e2e-switch end\n`)

// setCodexUserFeature sets line under [features] in the user's
// config.toml, as a user edits it, keeping what Codex wrote there (the
// trust of the folder and of each hook).
func setCodexUserFeature(t *testing.T, file, line string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := e2eFeatures.ReplaceAllString(string(data), "")
	if strings.Contains(s, "[features]") {
		t.Fatalf("%s already has a [features] table:\n%s", file, s)
	}
	if line != "" {
		s = strings.TrimRight(s, "\n") + "\n\n# e2e-switch\n[features]\n" + line + "\n# e2e-switch end\n"
	}
	mustWrite(t, file, s, 0o644)
	t.Logf("%s now ends:\n%s", file, s[max(0, len(s)-600):])
}

// setJSONKey sets key to v in the JSON object in file, keeping its other
// members.
func setJSONKey(t *testing.T, file, key string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	doc[key] = v
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, file, string(out)+"\n", 0o644)
}

// writeFile is a step's set: file holds content.
func writeFile(file, content string) func(t *testing.T) {
	return func(t *testing.T) { mustWrite(t, file, content, 0o644) }
}

func mustRemove(t *testing.T, file string) {
	t.Helper()
	if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
}
