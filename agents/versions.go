package agents

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Some agents learned hook events in a later release than others: an entry
// for an event the installed release does not know is dropped silently, a
// hook that never runs. doctor asks the agent's CLI its version (the
// command here) and says so.

// versionRule is how to ask an agent's CLI its version, and the events it
// knows only since a release.
type versionRule struct {
	argv  []string
	since map[string]string
}

var versionRules = map[string]versionRule{
	// Codex 0.171 added PreModelRequest and PostModelRequest; 0.169's
	// hooks/list does not know them [C-RUN-171, docs/agent-protocols.md].
	"codex": {argv: []string{"codex", "--version"}, since: map[string]string{
		"PreModelRequest": "0.171.0", "PostModelRequest": "0.171.0"}},
}

// VersionCommand is the command line that prints a's installed version
// (nil when the events a knows do not depend on it).
func (a *Agent) VersionCommand() []string { return versionRules[a.Name].argv }

// KnowsEvent reports whether a's release version (as ParseVersion reads
// it) knows event, and since which release it does; true when that cannot
// be told (no version, or an event every release knows).
func (a *Agent) KnowsEvent(version, event string) (known bool, since string) {
	since, ok := versionRules[a.Name].since[event]
	if !ok || version == "" {
		return true, ""
	}
	return compareVersions(version, since) >= 0, since
}

var versionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(\d{1,6})\.(\d{1,6})\.(\d{1,6})\b`)
})

// ParseVersion is the first MAJOR.MINOR.PATCH in a CLI's version output
// ("codex-cli 0.171.0" → "0.171.0"), "" when there is none.
func ParseVersion(out []byte) string {
	s := string(out)
	if len(s) > 4096 {
		s = s[:4096]
	}
	return versionRE().FindString(s)
}

// compareVersions compares two MAJOR.MINOR.PATCH versions numerically.
func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < 3; i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}
