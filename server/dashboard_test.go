//go:build unix

package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/serverstats"
)

// dashboardPath is the Grafana dashboard the docs ship (docs/metrics.md).
var dashboardPath = filepath.Join("..", "docs", "grafana-dashboard.json")

// The parts of a Grafana dashboard the checks read.
type dashboard struct {
	Title         string           `json:"title"`
	UID           string           `json:"uid"`
	SchemaVersion int              `json:"schemaVersion"`
	Panels        []dashboardPanel `json:"panels"`
	Templating    struct {
		List []struct {
			Type       string          `json:"type"`
			Name       string          `json:"name"`
			Query      json.RawMessage `json:"query"`
			Definition string          `json:"definition"`
			Datasource *datasourceRef  `json:"datasource"`
		} `json:"list"`
	} `json:"templating"`
}

type datasourceRef struct{ Type, UID string }

type dashboardPanel struct {
	ID         int            `json:"id"`
	Type       string         `json:"type"`
	Title      string         `json:"title"`
	Datasource *datasourceRef `json:"datasource"`
	GridPos    struct{ X, Y, W, H int }
	Targets    []struct {
		RefID      string         `json:"refId"`
		Expr       string         `json:"expr"`
		Datasource *datasourceRef `json:"datasource"`
	} `json:"targets"`
}

// servedNames is every metric name a real serve's /metrics has after
// decisions of each kind (blocked, allowed, a failing hook, a skipped
// unapproved guard, a repository's unapproved hook), so each family has
// samples: a histogram's as its _bucket, _sum and _count series.
func servedNames(t *testing.T) map[string]bool {
	t.Helper()
	f := start(t, "hooks: {}\n", nil, nil)
	block := f.script("block.sh", blockScript)
	fail := f.script("fail.sh", "cat >/dev/null\nexit 3\n")
	unapproved := f.script("unapproved.sh", "cat >/dev/null\necho '{}'\n")
	for _, c := range []string{block, fail} {
		if _, err := f.store.Approve("pre_tool_call", c); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(f.dir, ".hermes"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeAtomic(t, filepath.Join(f.dir, ".hermes", "hooks.yaml"), "hooks:\n  pre_tool_call:\n    - command: ./nobody-approved.sh\n", 0o644)
	f.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + block + "\n      matcher: terminal\n    - command: " + fail + "\n    - command: " + unapproved + "\n")
	f.waitLog(`project_hooks=` + filepath.Join(f.dir, ".hermes", "hooks.yaml"))
	f.waitGeneration(2)
	f.outcome("pre_tool_call", `{"tool_name":"terminal"}`)
	f.outcome("pre_tool_call", `{"tool_name":"read_file"}`)
	names := map[string]bool{}
	for name, fam := range f.scrape() {
		names[name] = true
		for _, s := range fam.Samples {
			names[s.Name] = true
		}
	}
	return names
}

func readDashboard(t *testing.T) *dashboard {
	t.Helper()
	data, err := os.ReadFile(dashboardPath)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: not JSON: %v", dashboardPath, err)
	}
	return &d
}

// Every metric the shipped dashboard's queries name — its panels' target
// expressions and its variables' label_values queries — is one a real
// serve's /metrics has: a renamed or dropped family fails here, not on a
// team's empty panel.
func TestDashboardNamesServedMetrics(t *testing.T) {
	served := servedNames(t)
	d := readDashboard(t)
	used := map[string]bool{}
	check := func(where, expr string) {
		t.Helper()
		names, err := promqlMetricNames(expr)
		if err != nil {
			t.Errorf("%s: %v: %s", where, err, expr)
			return
		}
		if len(names) == 0 {
			t.Errorf("%s names no metric: %s", where, expr)
		}
		for _, n := range names {
			used[n] = true
			if !served[n] {
				t.Errorf("%s names %s, which /metrics does not serve: %s", where, n, expr)
			}
		}
	}
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			check(fmt.Sprintf("panel %q target %s", p.Title, tg.RefID), tg.Expr)
		}
	}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		arg, ok := labelValuesMetric(v.Definition)
		if !ok {
			t.Errorf("variable %s: query %q is not label_values(METRIC, LABEL)", v.Name, v.Definition)
			continue
		}
		check("variable "+v.Name, arg)
	}
	// What the dashboard is for: decisions, blocks, latency, failures
	// and skipped guards each have a query.
	for _, fam := range []serverstats.Family{serverstats.FamDecisions, serverstats.FamBlocks, serverstats.FamErrors,
		serverstats.FamTimeouts, serverstats.FamSkipped, serverstats.FamUnapproved} {
		if !used[fam.Name] {
			t.Errorf("no query of the dashboard reads %s", fam.Name)
		}
	}
	if !used[serverstats.FamDuration.Name+"_bucket"] {
		t.Errorf("no query reads the %s histogram's buckets (p95 per hook)", serverstats.FamDuration.Name)
	}
}

// labelValuesMetric is the metric selector of a Grafana Prometheus
// variable query label_values(SELECTOR, LABEL).
func labelValuesMetric(q string) (string, bool) {
	inner, ok := strings.CutPrefix(strings.TrimSpace(q), "label_values(")
	if !ok || !strings.HasSuffix(inner, ")") {
		return "", false
	}
	inner = strings.TrimSuffix(inner, ")")
	i := strings.LastIndexByte(inner, ',')
	if i < 0 {
		return "", false
	}
	return strings.TrimSpace(inner[:i]), true
}

// The file is a dashboard Grafana imports: a title and uid, panels with a
// type, a place on the 24-column grid and targets, every panel and
// target on the datasource variable (so an import asks which Prometheus).
func TestDashboardIsAGrafanaDashboard(t *testing.T) {
	d := readDashboard(t)
	if d.Title == "" || d.UID == "" || d.SchemaVersion < 30 {
		t.Errorf("title %q, uid %q, schemaVersion %d", d.Title, d.UID, d.SchemaVersion)
	}
	dsVar := ""
	for _, v := range d.Templating.List {
		if v.Type == "datasource" && string(v.Query) == `"prometheus"` {
			dsVar = v.Name
		}
	}
	if dsVar == "" {
		t.Fatalf("no datasource variable of type prometheus in templating.list")
	}
	onVar := func(where string, ref *datasourceRef) {
		if ref == nil || ref.Type != "prometheus" || ref.UID != "${"+dsVar+"}" {
			t.Errorf("%s: datasource %+v, want the variable ${%s}", where, ref, dsVar)
		}
	}
	for _, v := range d.Templating.List {
		if v.Type == "query" {
			onVar("variable "+v.Name, v.Datasource)
		}
	}
	if len(d.Panels) == 0 {
		t.Fatal("no panels")
	}
	ids := map[int]bool{}
	for _, p := range d.Panels {
		where := "panel " + strconv.Quote(p.Title)
		if p.Title == "" || p.ID <= 0 || ids[p.ID] {
			t.Errorf("%s: id %d (a title and a unique id are needed)", where, p.ID)
		}
		ids[p.ID] = true
		if !slices.Contains([]string{"timeseries", "stat", "table", "bargauge", "gauge"}, p.Type) {
			t.Errorf("%s: type %q", where, p.Type)
		}
		if g := p.GridPos; g.W <= 0 || g.H <= 0 || g.X < 0 || g.X+g.W > 24 || g.Y < 0 {
			t.Errorf("%s: gridPos %+v off the 24-column grid", where, g)
		}
		onVar(where, p.Datasource)
		if len(p.Targets) == 0 {
			t.Errorf("%s: no targets", where)
		}
		refs := map[string]bool{}
		for _, tg := range p.Targets {
			if tg.RefID == "" || refs[tg.RefID] || strings.TrimSpace(tg.Expr) == "" {
				t.Errorf("%s: target %q (a unique refId and an expr are needed)", where, tg.RefID)
			}
			refs[tg.RefID] = true
			onVar(where+" target "+tg.RefID, tg.Datasource)
		}
	}
}
