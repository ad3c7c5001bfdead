//go:build unix

package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/promscrape"
	"github.com/hermes-hooks/hermes-hooks/internal/serverstats"
)

// scrape GETs /metrics and reads it with promscrape (Prometheus' own parser plus strict checks): every
// sample typed, each family's lines together, no series twice, histogram
// buckets cumulative up to le="+Inf" equal to _count.
func (f *fixture) scrape() map[string]*promscrape.Family {
	f.t.Helper()
	r := f.do(http.MethodGet, "/metrics", nil)
	if r.status != http.StatusOK {
		f.t.Fatalf("GET /metrics: %d %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		f.t.Errorf("Content-Type %q", ct)
	}
	fams, err := promscrape.Parse(r.body)
	if err != nil {
		f.t.Fatalf("/metrics is not valid text exposition: %v\n%s", err, r.body)
	}
	return fams
}

func value(t *testing.T, fams map[string]*promscrape.Family, family, name string, labels ...string) float64 {
	t.Helper()
	v, ok := fams[family].Value(name, labels...)
	if !ok {
		t.Fatalf("no %s%v in /metrics", name, labels)
	}
	return v
}

// /metrics is valid Prometheus text with the server's families (names,
// TYPE and HELP as before the move off client_golang), label values
// escaped, the duration histogram in cumulative le buckets, the gauges and
// the per-hook series read at each scrape, and the Go and process metrics.
func TestMetricsScrape(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	ok := f.script("ok.sh", "cat >/dev/null\necho '{}'\n")
	block := f.script("block.sh", blockScript)
	for _, c := range []string{ok, block} {
		if _, err := f.store.Approve("pre_tool_call", c); err != nil {
			t.Fatal(err)
		}
	}
	// A command a label value must escape: quotes, a backslash, a newline.
	odd := "echo \"a\\b\"\nexit 0"
	f.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + ok + "\n    - command: " + block + "\n" +
		"    - command: " + strconv.Quote(odd) + "\n")
	f.waitGeneration(2)
	for range 2 {
		f.outcome("pre_tool_call", `{"tool_name":"terminal"}`)
	}

	fams := f.scrape()
	for _, fam := range []serverstats.Family{serverstats.FamMatched, serverstats.FamRuns, serverstats.FamBackground, serverstats.FamSkipped, serverstats.FamBlocks, serverstats.FamErrors, serverstats.FamTimeouts,
		serverstats.FamDuration, serverstats.FamDispatches, serverstats.FamGeneration, serverstats.FamInFlight} {
		if g := fams[fam.Name]; g == nil || g.Type != fam.Type || g.Help != fam.Help {
			t.Errorf("family %s: %+v", fam.Name, g)
		}
	}
	pre := func(command string) []string { return []string{"command", command, "event", "pre_tool_call"} }
	for _, c := range []struct {
		fam     serverstats.Family
		command string
		want    float64
	}{
		{serverstats.FamRuns, ok, 2}, {serverstats.FamMatched, ok, 2}, {serverstats.FamBlocks, block, 2}, {serverstats.FamRuns, block, 2},
		{serverstats.FamSkipped, odd, 2}, {serverstats.FamRuns, odd, 0}, {serverstats.FamErrors, ok, 0},
	} {
		if got := value(t, fams, c.fam.Name, c.fam.Name, pre(c.command)...); got != c.want {
			t.Errorf("%s{command=%q} = %v, want %v", c.fam.Name, c.command, got, c.want)
		}
	}
	if got := value(t, fams, serverstats.FamDispatches.Name, serverstats.FamDispatches.Name, "event", "pre_tool_call"); got != 2 {
		t.Errorf("dispatches_total = %v", got)
	}
	dur := serverstats.FamDuration.Name
	if n := value(t, fams, dur, dur+"_count", pre(ok)...); n != 2 {
		t.Errorf("ok.sh _count %v", n)
	}
	if inf := value(t, fams, dur, dur+"_bucket", append(pre(ok), "le", "+Inf")...); inf != 2 {
		t.Errorf("ok.sh le=+Inf %v", inf)
	}
	if sum := value(t, fams, dur, dur+"_sum", pre(ok)...); !(sum > 0) {
		t.Errorf("ok.sh _sum %v", sum)
	}
	if n := value(t, fams, dur, dur+"_count", pre(odd)...); n != 0 {
		t.Errorf("the skipped hook's _count %v", n)
	}
	if g := value(t, fams, serverstats.FamGeneration.Name, serverstats.FamGeneration.Name); g != 2 {
		t.Errorf("generation %v", g)
	}
	for _, name := range []string{"go_goroutines", "go_memstats_alloc_bytes", "process_resident_memory_bytes", "process_cpu_seconds_total", "process_open_fds"} {
		if fams[name] == nil || len(fams[name].Samples) != 1 {
			t.Errorf("no %s in /metrics", name)
		}
	}

	// Read at the scrape: after a reload that drops block.sh, the
	// generation is the new one and block.sh's series are gone.
	f.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + ok + "\n")
	f.waitGeneration(3)
	fams = f.scrape()
	if g := value(t, fams, serverstats.FamGeneration.Name, serverstats.FamGeneration.Name); g != 3 {
		t.Errorf("generation after the reload %v", g)
	}
	if _, found := fams[serverstats.FamRuns.Name].Value(serverstats.FamRuns.Name, "command", block); found {
		t.Error("block.sh still in /metrics after the reload dropped it")
	}

	r := f.do(http.MethodHead, "/metrics", nil)
	if r.status != http.StatusOK || len(r.body) != 0 || r.header.Get("Content-Length") == "" {
		t.Errorf("HEAD /metrics: %d, %d bytes, Content-Length %q", r.status, len(r.body), r.header.Get("Content-Length"))
	}
}

// Two servers in one process keep their own counts: each has a set of
// its own, not the package's default one.
func TestMetricsPerServer(t *testing.T) {
	a := start(t, "hooks: {}\n", nil, nil)
	b := start(t, "hooks: {}\n", nil, nil)
	a.outcome("post_tool_call", `{"tool_name":"terminal"}`)
	a.outcome("post_tool_call", `{"tool_name":"terminal"}`)
	b.outcome("post_tool_call", `{"tool_name":"terminal"}`)
	for _, c := range []struct {
		f    *fixture
		want float64
	}{{a, 2}, {b, 1}} {
		if got := value(t, c.f.scrape(), serverstats.FamDispatches.Name, serverstats.FamDispatches.Name, "event", "post_tool_call"); got != c.want {
			t.Errorf("dispatches_total = %v, want %v", got, c.want)
		}
	}
}

// hermes_hooks_decisions_total counts answered dispatches per event and
// folded decision, and hermes_hooks_unapproved_skipped_total the
// repository hooks skipped for want of an approval: per event only, so a
// hostile repository listing many hooks (their labels would be its text)
// adds no series to the scrape, however many it lists.
func TestMetricsDecisionsAndUnapproved(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	ok := f.script("ok.sh", "cat >/dev/null\necho '{}'\n")
	// Claude's dialect has an allow; this one gives it for read_file, and
	// elsewhere decisions of its own invention, which must not become
	// label values.
	allow := f.script("allow.sh", `case "$(cat)" in *read_file*|*\"Read\"*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}' ;;`+
		` *) echo '{"decision":"evil\\"} 9","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"x\\ny"}}' ;; esac`+"\n")
	block := f.script("block.sh", blockScript)
	for _, c := range []string{ok, block, allow} {
		if _, err := f.store.Approve("pre_tool_call", c); err != nil {
			t.Fatal(err)
		}
	}
	// The repository's hooks: none approved. Their commands carry text a
	// label would have to hold.
	var repo strings.Builder
	repo.WriteString("hooks:\n  pre_tool_call:\n")
	const hostile = 50
	for i := range hostile {
		repo.WriteString("    - command: ./evil-" + strconv.Itoa(i) + ".sh \"x\\\"}\"\n      matcher: terminal\n")
	}
	if err := os.Mkdir(filepath.Join(f.dir, ".hermes"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeAtomic(t, filepath.Join(f.dir, ".hermes", "hooks.yaml"), repo.String(), 0o644)
	f.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + ok + "\n    - command: " + block + "\n      matcher: terminal\n" +
		"    - command: " + allow + "\n      dialect: claude\n")
	f.waitLog(`project_hooks=` + filepath.Join(f.dir, ".hermes", "hooks.yaml"))
	f.waitGeneration(2)
	fire := func(event, fields, want string, n int) {
		t.Helper()
		for range n {
			if o := f.outcome(event, fields); o["decision"] != want {
				t.Fatalf("%s %s: decision %v, want %s: %v", event, fields, o["decision"], want, o)
			}
		}
	}
	fire("pre_tool_call", `{"tool_name":"terminal"}`, "block", 3)
	fire("pre_tool_call", `{"tool_name":"web_search"}`, "none", 2)
	fire("pre_tool_call", `{"tool_name":"read_file"}`, "allow", 1)

	fams := f.scrape()
	for _, fam := range []serverstats.Family{serverstats.FamDecisions, serverstats.FamUnapproved} {
		if g := fams[fam.Name]; g == nil || g.Type != fam.Type || g.Help != fam.Help {
			t.Errorf("family %s: %+v", fam.Name, g)
		}
	}
	dec := serverstats.FamDecisions.Name
	for _, c := range []struct {
		event, decision string
		want            float64
	}{{"pre_tool_call", "block", 3}, {"pre_tool_call", "none", 2}, {"pre_tool_call", "allow", 1}} {
		if got := value(t, fams, dec, dec, "decision", c.decision, "event", c.event); got != c.want {
			t.Errorf("%s{decision=%q,event=%q} = %v, want %v", dec, c.decision, c.event, got, c.want)
		}
	}
	if n := len(fams[dec].Samples); n != 3 {
		t.Errorf("%s has %d series, want 3: %+v", dec, n, fams[dec].Samples)
	}
	for _, s := range fams[dec].Samples {
		if d := s.Labels["decision"]; d != "none" && d != "allow" && d != "ask" && d != "block" {
			t.Errorf("%s: decision label %q", dec, d)
		}
	}
	// The consent screen passes over the 50 repository hooks before any
	// matcher of theirs runs: each of the 6 dispatches skipped all 50.
	un := serverstats.FamUnapproved.Name
	if got := value(t, fams, un, un, "event", "pre_tool_call"); got != 6*hostile {
		t.Errorf("%s{event=pre_tool_call} = %v, want %d", un, got, 6*hostile)
	}
	for name, fam := range fams {
		for _, s := range fam.Samples {
			for _, v := range s.Labels {
				if strings.Contains(v, "evil-") {
					t.Fatalf("an unapproved repository hook reached the scrape: %s %v", name, s.Labels)
				}
			}
		}
	}
}
