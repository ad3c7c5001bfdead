package promtext

import (
	"math"
	"slices"
	"strings"
	"testing"
)

const histogram = `# HELP h_seconds How long.
# TYPE h_seconds histogram
h_seconds_bucket{cmd="a",le="0.5"} 1
h_seconds_bucket{cmd="a",le="1"} 3
h_seconds_bucket{cmd="a",le="+Inf"} 4
h_seconds_sum{cmd="a"} 2.5
h_seconds_count{cmd="a"} 4
`

func TestParseAccepts(t *testing.T) {
	for _, c := range []struct{ name, text string }{
		{"empty", ""},
		{"counter", "# HELP c_total Things.\n# TYPE c_total counter\nc_total 3\n"},
		{"no HELP", "# TYPE g gauge\ng -1.5e-3\n"},
		{"empty HELP", "# HELP g\n# TYPE g gauge\ng 1\n"},
		{"comment and blank line", "# a comment\n\n# TYPE g gauge\ng NaN\n"},
		{"labels with escapes", "# TYPE g gauge\ng{a=\"x\\\"y\\\\z\\n\",b=\"\"} 1\n"},
		{"blanks in the braces, trailing comma", "# TYPE g gauge\ng{ a = \"1\" , b=\"2\", } 1\n"},
		{"timestamp", "# TYPE g gauge\ng 1 1700000000000\n"},
		{"histogram", histogram},
		{"histogram without _sum and _count", "# TYPE h histogram\nh_bucket{le=\"1\"} 0\nh_bucket{le=\"+Inf\"} 2\n"},
		{"summary", "# TYPE s summary\ns{quantile=\"0.5\"} 1\ns_sum 3\ns_count 2\n"},
		{"a counter named like a histogram's count", "# TYPE x_count counter\nx_count 1\n"},
	} {
		if _, err := Parse([]byte(c.text)); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"no TYPE", "g 1\n", "no TYPE"},
		{"HELP but no TYPE", "# HELP g x\ng 1\n", "no TYPE"},
		{"TYPE twice", "# TYPE g gauge\n# TYPE g gauge\ng 1\n", "TYPE twice"},
		{"TYPE after samples", "# TYPE g gauge\ng{a=\"1\"} 1\n# TYPE g gauge\n", "TYPE twice"},
		{"HELP twice", "# HELP g x\n# HELP g y\n# TYPE g gauge\n", "second HELP"},
		{"unknown type", "# TYPE g meter\ng 1\n", "bad TYPE"},
		{"family split", "# TYPE a gauge\n# TYPE b gauge\na 1\n", "again"},
		{"series twice", "# TYPE g gauge\ng{a=\"1\"} 1\ng{a=\"1\"} 2\n", "twice"},
		{"label twice", "# TYPE g gauge\ng{a=\"1\",a=\"2\"} 1\n", "label a twice"},
		{"bad escape", "# TYPE g gauge\ng{a=\"\\t\"} 1\n", "bad escape"},
		{"unclosed value", "# TYPE g gauge\ng{a=\"1} 1\n", "not closed"},
		{"unquoted value", "# TYPE g gauge\ng{a=1} 1\n", "not quoted"},
		{"bad label name", "# TYPE g gauge\ng{1a=\"1\"} 1\n", "bad label name"},
		{"bad metric name", "# TYPE g-h gauge\n", "bad metric name"},
		{"no value", "# TYPE g gauge\ng\n", "no value"},
		{"two values and a timestamp", "# TYPE g gauge\ng 1 2 3\n", "one value"},
		{"no blank before the value", "# TYPE g gauge\ng{a=\"1\"}1\n", "one value"},
		{"bad value", "# TYPE g gauge\ng 0x10\n", "bad value"},
		{"infinity spelt otherwise", "# TYPE g gauge\ng inf\n", "bad value"},
		{"bad timestamp", "# TYPE g gauge\ng 1 1.5\n", "bad timestamp"},
		{"no final newline", "# TYPE g gauge\ng 1", "newline"},
		{"negative counter", "# TYPE c counter\nc -1\n", "counter c is -1"},
		{"counter NaN", "# TYPE c counter\nc NaN\n", "counter c is NaN"},
		{"non-UTF-8 label", "# TYPE g gauge\ng{a=\"\xff\"} 1\n", "UTF-8"},
		{"bucket without le", "# TYPE h histogram\nh_bucket 1\n", "le belongs"},
		{"le on _sum", "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 1\nh_sum{le=\"1\"} 1\n", "le belongs"},
		{"no +Inf", "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_count 1\n", "no le=\"+Inf\""},
		{"not cumulative", "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n", "not cumulative"},
		{"le out of order", "# TYPE h histogram\nh_bucket{le=\"2\"} 0\nh_bucket{le=\"1\"} 0\nh_bucket{le=\"+Inf\"} 0\n", "out of order"},
		{"bucket after +Inf", "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 1\nh_bucket{le=\"5\"} 1\n", "out of order"},
		{"bad le", "# TYPE h histogram\nh_bucket{le=\"x\"} 1\n", "bad le"},
		{"_count not the +Inf count", strings.Replace(histogram, "h_seconds_count{cmd=\"a\"} 4", "h_seconds_count{cmd=\"a\"} 5", 1), "_count 5"},
		{"_bucket on a summary", "# TYPE s summary\ns_bucket{le=\"1\"} 1\n", "no TYPE"},
		{"summary without quantile", "# TYPE s summary\ns 1\n", "quantile belongs"},
	} {
		_, err := Parse([]byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// What Buffer writes, Parse reads back: escapes, special values, the
// value of a sample found by its labels.
func TestWriteThenParse(t *testing.T) {
	var b Buffer
	b.Family("x_total", "counter", "Help with a \\ and a\nnewline.")
	b.Sample("x_total", []string{"command", "echo \"a\\b\"\nc", "event", "e"}, 3)
	b.Sample("x_total", []string{"command", "", "event", "e"}, 0)
	b.Family("g", "gauge", "")
	b.Sample("g", nil, math.Inf(-1))
	b.Sample("g", []string{"a", "1"}, 0.1)
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
	if v := fams["g"].Samples[0].Value; !math.IsInf(v, -1) {
		t.Errorf("g = %v", v)
	}
}

// FuzzParse: Parse never panics, and what it accepts, written back with
// Buffer, reads back the same.
func FuzzParse(f *testing.F) {
	f.Add([]byte(histogram))
	f.Add([]byte("# HELP g x\\ny\n# TYPE g gauge\ng{a=\"\\\"\",b=\"2\",} -Inf 12\n# TYPE s summary\ns{quantile=\"1\"} 1\ns_count 1\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		fams, err := Parse(text)
		if err != nil {
			return
		}
		var b Buffer
		for _, fam := range fams {
			b.Family(fam.Name, fam.Type, fam.Help)
			for _, s := range fam.Samples {
				var labels []string
				for _, n := range sortedKeys(s.Labels) {
					labels = append(labels, n, s.Labels[n])
				}
				b.Sample(s.Name, labels, s.Value)
			}
		}
		again, err := Parse(b.Bytes())
		if err != nil {
			t.Fatalf("written back, not read: %v\n%s", err, b.String())
		}
		if len(again) != len(fams) {
			t.Fatalf("%d families, then %d", len(fams), len(again))
		}
		for name, fam := range fams {
			g := again[name]
			if g == nil || g.Type != fam.Type || g.Help != fam.Help || len(g.Samples) != len(fam.Samples) {
				t.Fatalf("family %s changed: %+v then %+v", name, fam, g)
			}
			for i, s := range fam.Samples {
				r := g.Samples[i]
				same := r.Value == s.Value || math.IsNaN(r.Value) && math.IsNaN(s.Value)
				if r.Name != s.Name || !same || len(r.Labels) != len(s.Labels) {
					t.Fatalf("sample changed: %+v then %+v", s, r)
				}
				for k, v := range s.Labels {
					if r.Labels[k] != v {
						t.Fatalf("label %s changed: %q then %q", k, v, r.Labels[k])
					}
				}
			}
		}
	})
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
