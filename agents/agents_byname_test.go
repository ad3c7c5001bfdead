package agents

// The agents by name, for the tests (the package builds them at first use).
var claude, codex, copilot, cursor, gemini, windsurf, cline, kiro = mustAgent("claude"), mustAgent("codex"), mustAgent("copilot"), mustAgent("cursor"), mustAgent("gemini"), mustAgent("windsurf"), mustAgent("cline"), mustAgent("kiro")

func mustAgent(name string) *Agent {
	a, ok := Lookup(name)
	if !ok {
		panic("no agent " + name)
	}
	return a
}
