package agents

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestGeminiCLIHome: GEMINI_CLI_HOME stands for Gemini CLI's home folder
// itself (its storage's homedir(): $GEMINI_CLI_HOME/.gemini/settings.json
// and trustedFolders.json), where CODEX_HOME stands for ~/.codex. Read as
// the agent's folder, install --user wrote ~/.gemini/settings.json, which
// Gemini never read, and doctor proved that file.
func TestGeminiCLIHome(t *testing.T) {
	gemini, _ := Lookup("gemini")
	codex, _ := Lookup("codex")
	env := func(k string) string {
		return map[string]string{"GEMINI_CLI_HOME": "/g", "CODEX_HOME": "/c"}[k]
	}
	if got, want := gemini.UserHookFile("/home/u", env), filepath.FromSlash("/g/.gemini/settings.json"); got != want {
		t.Errorf("gemini user file %s, want %s", got, want)
	}
	if got := gemini.UserHookFile("/home/u", nil); got != filepath.FromSlash("/home/u/.gemini/settings.json") {
		t.Errorf("gemini user file without the variable: %s", got)
	}
	if got := codex.UserHookFile("/home/u", env); got != filepath.FromSlash("/c/hooks.json") {
		t.Errorf("codex user file %s", got)
	}
	if got := gemini.TrustFile("/home/u", env); got != "/g/.gemini/trustedFolders.json" {
		t.Errorf("gemini trust file %s", got)
	}
	var user []string
	for _, f := range gemini.SwitchFiles() {
		if f.User {
			user = append(user, f.SwitchPath("/home/u", "/p", env))
		}
	}
	if !slices.Equal(user, []string{"/g/.gemini/settings.json"}) {
		t.Errorf("gemini's user switch files %q", user)
	}
	if !slices.Contains(PlacesEnv(), "GEMINI_CLI_HOME") {
		t.Errorf("PlacesEnv %q: a forwarded hook gemini must state GEMINI_CLI_HOME", PlacesEnv())
	}
	// Which files Gemini reads itself (a call's hook files left to it).
	at := Places{Home: "/home/u", Env: env, Start: []string{"/p"}}
	if !gemini.LoadsItself("/g/.gemini/settings.json", at) || gemini.LoadsItself("/home/u/.gemini/settings.json", at) {
		t.Errorf("LoadsItself: Gemini reads $GEMINI_CLI_HOME/.gemini/settings.json, not ~/.gemini's, when it is set")
	}
}
