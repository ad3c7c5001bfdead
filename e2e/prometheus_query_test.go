//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// promResult is the data of a /api/v1/query answer.
type promResult struct {
	ResultType string `json:"resultType"`
	Result     json.RawMessage
}

// promAPI GETs a Prometheus API path and returns its data; an answer whose
// status is not "success" (a PromQL parse error among them) is an error.
func promAPI(base, path string, params url.Values) (json.RawMessage, error) {
	resp, err := http.Get(base + path + "?" + params.Encode())
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var a struct {
		Status, Error, ErrorType string
		Data                     json.RawMessage
	}
	if err := json.Unmarshal(body, &a); err != nil || a.Status != "success" {
		return nil, fmt.Errorf("GET %s %v: %d %s", path, params, resp.StatusCode, clip(string(body), 2000))
	}
	return a.Data, nil
}

// promQuery runs an instant query: its samples' values (a scalar is one
// value), in the order Prometheus gives them.
func promQuery(base, query string) ([]float64, error) {
	data, err := promAPI(base, "/api/v1/query", url.Values{"query": {query}})
	if err != nil {
		return nil, err
	}
	var r promResult
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	var pairs [][2]any
	switch r.ResultType {
	case "vector":
		var v []struct{ Value [2]any }
		if err := json.Unmarshal(r.Result, &v); err != nil {
			return nil, err
		}
		for _, s := range v {
			pairs = append(pairs, s.Value)
		}
	case "scalar":
		var p [2]any
		if err := json.Unmarshal(r.Result, &p); err != nil {
			return nil, err
		}
		pairs = append(pairs, p)
	default:
		return nil, fmt.Errorf("%s: result type %s", query, r.ResultType)
	}
	out := make([]float64, len(pairs))
	for i, p := range pairs {
		s, _ := p[1].(string)
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: value %v", query, p[1])
		}
		out[i] = f
	}
	return out, nil
}

// queryScalar is the one value of query, and whether there is exactly one.
func queryScalar(t *testing.T, base, query string) (float64, bool) {
	t.Helper()
	v, err := promQuery(base, query)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != 1 {
		return 0, false
	}
	return v[0], true
}

// waitQuery polls Prometheus until query's one value is want.
func waitQuery(t *testing.T, base, query string, want float64) {
	t.Helper()
	var last []float64
	poll(t, fmt.Sprintf("%s == %v in Prometheus", query, want), func() bool {
		v, err := promQuery(base, query)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(v, last) {
			t.Logf("%s: %v", query, v)
			last = v
		}
		return len(v) == 1 && v[0] == want
	})
}

// grafanaVars are the values the dashboard's variables stand for here:
// every server and event, Grafana's own interval macros a minute (the
// rate window: 60 scrapes) and five (a panel's range).
var grafanaVars = map[string]string{"instance": ".*", "event": ".*", "__rate_interval": "1m", "__interval": "1m", "__range": "5m"}

var grafanaVarRe = regexp.MustCompile(`\$\{(\w+)\}|\$(\w+)`)

// checkDashboardQueries runs every target query of the shipped dashboard
// through Prometheus: each must parse (a PromQL error fails at once) and
// find data now that decisions were made. Its variables' label_values
// queries must list this server and the event fired.
func checkDashboardQueries(t *testing.T, prom, serveAddr string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "grafana-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string
			Targets []struct{ RefID, Expr string }
		}
		Templating struct {
			List []struct{ Type, Name, Definition string }
		}
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			var unknown []string
			q := grafanaVarRe.ReplaceAllStringFunc(tg.Expr, func(m string) string {
				name := strings.Trim(m, "${}")
				v, ok := grafanaVars[name]
				if !ok {
					unknown = append(unknown, name)
				}
				return v
			})
			if len(unknown) > 0 {
				t.Errorf("panel %q %s: variables %v the test does not know", p.Title, tg.RefID, unknown)
				continue
			}
			// A rate needs two samples of a series in its window: a
			// series that appeared with the decisions has them a
			// scrape later.
			poll(t, fmt.Sprintf("data for panel %q %s: %s", p.Title, tg.RefID, q), func() bool {
				v, err := promQuery(prom, q)
				if err != nil {
					t.Fatalf("panel %q %s: %v", p.Title, tg.RefID, err)
				}
				return len(v) > 0
			})
			n++
		}
	}
	t.Logf("Prometheus ran all %d queries of the dashboard, each with data", n)
	want := map[string]string{"instance": serveAddr, "event": "pre_tool_call"}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		m := regexp.MustCompile(`^label_values\((\w+), *(\w+)\)$`).FindStringSubmatch(v.Definition)
		if m == nil {
			t.Errorf("variable %s: %q is not label_values(METRIC, LABEL)", v.Name, v.Definition)
			continue
		}
		raw, err := promAPI(prom, "/api/v1/label/"+m[2]+"/values", url.Values{"match[]": {m[1]}})
		if err != nil {
			t.Fatal(err)
		}
		var values []string
		if err := json.Unmarshal(raw, &values); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(values, want[v.Name]) {
			t.Errorf("variable %s (%s): values %v lack %q", v.Name, v.Definition, values, want[v.Name])
		}
	}
}

// lintScrape runs `promtool check metrics` (Prometheus' linter for a
// scrape) on serve's /metrics: it must read it, and none of its
// complaints may name one of hermes-hooks' own families. The Go runtime
// and process families VictoriaMetrics/metrics writes carry no HELP text,
// and a few have names promtool questions: those are logged, not failed.
func lintScrape(t *testing.T, promtool, serveAddr string) {
	t.Helper()
	resp, err := http.Get("http://" + serveAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = bytes.NewReader(body)
	out, err := cmd.CombinedOutput()
	// promtool exits 3 when it has lint complaints, 1 when it cannot
	// read the scrape.
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 3) {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
	var others int
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		switch {
		case line == "":
		case strings.HasPrefix(line, "hermes_hooks_"):
			t.Errorf("promtool check metrics: %s", line)
		default:
			others++
		}
	}
	t.Logf("promtool check metrics: no complaint about hermes_hooks_ families; %d about the Go and process families VictoriaMetrics/metrics writes", others)
}
