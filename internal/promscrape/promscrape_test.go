package promscrape

import (
	"math"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/promtext"
)

// What promtext writes, Prometheus' parser reads back: HELP and label
// values escaped, infinities spelt as the format wants.
func TestWriteThenParse(t *testing.T) {
	var b promtext.Buffer
	b.Family("x_total", "counter", "Help with a \\ and a\nnewline.")
	b.Sample("x_total", []string{"command", "echo \"a\\b\"\nc", "event", "e"}, 3)
	b.Sample("x_total", []string{"command", "", "event", "e"}, 0)
	b.Family("g", "gauge", "")
	b.Sample("g", nil, math.Inf(-1))
	b.Sample("g", []string{"a", "1"}, 0.1)
	b.Family("h_seconds", "histogram", "How long.")
	for _, s := range []struct {
		le string
		n  float64
	}{{"0.5", 1}, {"1", 3}, {"+Inf", 4}} {
		b.Sample("h_seconds_bucket", []string{"cmd", "a", "le", s.le}, s.n)
	}
	b.Sample("h_seconds_sum", []string{"cmd", "a"}, 2.5)
	b.Sample("h_seconds_count", []string{"cmd", "a"}, 4)
	fams, err := Parse(b.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	x := fams["x_total"]
	if x.Type != "counter" || x.Help != "Help with a \\ and a\nnewline." {
		t.Errorf("family %+v", x)
	}
	if v, ok := x.Value("x_total", "command", "echo \"a\\b\"\nc"); !ok || v != 3 {
		t.Errorf("x_total{command=...} = %v %v\n%s", v, ok, b.String())
	}
	if v, ok := fams["g"].Value("g", "a", "1"); !ok || v != 0.1 {
		t.Errorf("g{a=1} = %v %v", v, ok)
	}
	if _, ok := fams["g"].Value("g", "a", "2"); ok {
		t.Error("g{a=2} found")
	}
	if v, ok := fams["g"].Value("g"); !ok || !math.IsInf(v, -1) {
		t.Errorf("g = %v", v)
	}
	h := fams["h_seconds"]
	if v, ok := h.Value("h_seconds_bucket", "cmd", "a", "le", "1"); !ok || v != 3 {
		t.Errorf("bucket le=1 = %v %v", v, ok)
	}
	if v, ok := h.Value("h_seconds_count", "cmd", "a"); !ok || v != 4 {
		t.Errorf("_count = %v %v", v, ok)
	}
}

// The checks the parser leaves to its caller.
func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"no TYPE", "g 1\n", "no TYPE"},
		{"series twice", "# TYPE g gauge\ng{a=\"1\"} 1\ng{a=\"1\"} 2\n", "twice"},
		{"negative counter", "# TYPE c counter\nc -1\n", "counter is -1"},
		{"not cumulative", "# TYPE h histogram\nh_bucket{le=\"1\"} 3\nh_bucket{le=\"2\"} 2\nh_bucket{le=\"+Inf\"} 3\nh_count 3\n", "not cumulative"},
		{"no +Inf", "# TYPE h histogram\nh_bucket{le=\"1\"} 3\nh_count 3\n", "+Inf"},
		{"count differs", "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 3\nh_count 4\n", "_count 4"},
		{"TYPE twice", "# TYPE g gauge\n# TYPE g gauge\ng 1\n", "TYPE"},
		{"bad escape", "# TYPE g gauge\ng{a=\"\\t\"} 1\n", "escape"},
	} {
		_, err := Parse([]byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
}

// FuzzWriteThenParse: any label value the server may write (a hook's
// command is arbitrary text) reads back unchanged. HELP texts are the
// server's constants, not fuzzed: the format cannot carry a leading blank.
func FuzzWriteThenParse(f *testing.F) {
	f.Add("echo \"a\\b\"\nexit 0", 1.5)
	f.Add("", math.Inf(1))
	f.Fuzz(func(t *testing.T, value string, v float64) {
		if math.IsNaN(v) || v < 0 {
			v = 0
		}
		value = strings.ToValidUTF8(value, "\uFFFD") // as the server does
		const help = "Help with a \\ and a\nnewline."
		var b promtext.Buffer
		b.Family("x_total", "counter", help)
		b.Sample("x_total", []string{"command", value}, v)
		fams, err := Parse(b.Bytes())
		if err != nil {
			t.Fatalf("%v\n%q", err, b.String())
		}
		x := fams["x_total"]
		if x.Help != help {
			t.Fatalf("help %q read as %q", help, x.Help)
		}
		if got, ok := x.Value("x_total", "command", value); !ok || got != v {
			t.Fatalf("x_total{command=%q} = %v %v, want %v\n%s", value, got, ok, v, b.String())
		}
	})
}
