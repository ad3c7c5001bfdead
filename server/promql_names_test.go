package server

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// promqlMetricNames lists the metric names a PromQL expression selects,
// in order of first use: a careful tokenizer rather than Prometheus' own
// parser (a heavy dependency, for one test). An identifier is a metric
// name unless a '(' follows it (a function or an aggregation's
// parameters) or it is a keyword; label matchers ({…}, of which only a
// __name__ matcher names a metric), range and subquery brackets ([…]),
// the label lists of by, without, on, ignoring, group_left and
// group_right, strings, numbers and durations, and Grafana's variables
// ($name, ${name}) are passed over.
func promqlMetricNames(expr string) ([]string, error) {
	var names []string
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	i := 0
	for i < len(expr) {
		c := expr[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			end, err := skipString(expr, i)
			if err != nil {
				return nil, err
			}
			i = end
		case c == '{':
			end, name, err := labelMatchers(expr, i)
			if err != nil {
				return nil, err
			}
			if name != "" {
				add(name)
			}
			i = end
		case c == '[':
			end := strings.IndexByte(expr[i:], ']')
			if end < 0 {
				return nil, errors.New("unterminated [")
			}
			i += end + 1
		case c == '$':
			i++
			if i < len(expr) && expr[i] == '{' {
				end := strings.IndexByte(expr[i:], '}')
				if end < 0 {
					return nil, errors.New("unterminated ${")
				}
				i += end + 1
			} else {
				i = identEnd(expr, i)
			}
		case isDigit(c) || c == '.' && i+1 < len(expr) && isDigit(expr[i+1]):
			// A number or a duration (5m, 1h30m, 1e-3, 0x1F).
			for i < len(expr) && (isIdentChar(expr[i]) || expr[i] == '.' ||
				(expr[i] == '-' || expr[i] == '+') && (expr[i-1] == 'e' || expr[i-1] == 'E')) {
				i++
			}
		case isIdentStart(c):
			end := identEnd(expr, i)
			word := expr[i:end]
			next := end
			for next < len(expr) && isSpace(expr[next]) {
				next++
			}
			paren := next < len(expr) && expr[next] == '('
			lower := strings.ToLower(word)
			switch {
			case labelListKeywords[lower] && paren:
				close := strings.IndexByte(expr[next:], ')')
				if close < 0 {
					return nil, errors.New("unterminated label list after " + word)
				}
				end = next + close + 1
			case paren, promqlKeywords[lower]:
			default:
				add(word)
			}
			i = end
		default:
			i++
		}
	}
	return names, nil
}

// labelListKeywords take a parenthesised list of label names.
var labelListKeywords = map[string]bool{"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true}

// promqlKeywords are PromQL's words that are no metric: operators,
// modifiers, aggregations (which may be followed by by (…) before their
// parameters) and the number literals.
var promqlKeywords = map[string]bool{
	"and": true, "or": true, "unless": true, "atan2": true, "bool": true, "offset": true,
	"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true,
	"sum": true, "min": true, "max": true, "avg": true, "group": true, "stddev": true, "stdvar": true,
	"count": true, "count_values": true, "bottomk": true, "topk": true, "quantile": true,
	"limitk": true, "limit_ratio": true, "inf": true, "nan": true,
}

// skipString returns the index after the string literal starting at i.
func skipString(s string, i int) (int, error) {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\' && q != '`':
			j++
		case s[j] == q:
			return j + 1, nil
		}
	}
	return 0, errors.New("unterminated string")
}

// labelMatchers reads the matchers {…} starting at i: the index after
// them, and the metric a __name__="…" matcher names.
func labelMatchers(s string, i int) (end int, name string, err error) {
	j := i + 1
	for {
		for j < len(s) && (isSpace(s[j]) || s[j] == ',') {
			j++
		}
		if j >= len(s) {
			return 0, "", errors.New("unterminated {")
		}
		if s[j] == '}' {
			return j + 1, name, nil
		}
		if !isIdentStart(s[j]) {
			return 0, "", errors.New("label name expected in {…}")
		}
		k := identEnd(s, j)
		label := s[j:k]
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		op := k
		for k < len(s) && strings.IndexByte("=!~", s[k]) >= 0 {
			k++
		}
		if k == op {
			return 0, "", errors.New("matcher operator expected after " + label)
		}
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		if k >= len(s) || strings.IndexByte("\"'`", s[k]) < 0 {
			return 0, "", errors.New("quoted value expected after " + label)
		}
		after, err := skipString(s, k)
		if err != nil {
			return 0, "", err
		}
		if label == "__name__" && s[op:op+1] == "=" && s[op:min(op+2, len(s))] != "=~" {
			name = s[k+1 : after-1]
		}
		j = after
	}
}

func identEnd(s string, i int) int {
	for i < len(s) && isIdentChar(s[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isIdentStart(c byte) bool {
	return c == '_' || c == ':' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

func TestPromQLMetricNames(t *testing.T) {
	for _, c := range []struct {
		expr string
		want []string
		err  bool
	}{
		{expr: `up`, want: []string{"up"}},
		{expr: `sum by (decision) (rate(hermes_hooks_decisions_total{instance=~"$instance", event=~"$event"}[$__rate_interval])) * 60`,
			want: []string{"hermes_hooks_decisions_total"}},
		{expr: `histogram_quantile(0.95, sum by (le, command, event) (rate(a_bucket{x="y"}[5m])))`, want: []string{"a_bucket"}},
		{expr: `sum(rate(a_total[1m])) by (command) / on(instance) group_left(job) b`, want: []string{"a_total", "b"}},
		{expr: `topk(10, sum without (le) (increase(x[$__range])))`, want: []string{"x"}},
		{expr: `{__name__="by_name", job="count"}`, want: []string{"by_name"}},
		{expr: `{__name__=~"re.*"}`, want: nil},
		{expr: `x offset 5m and y unless z or bool_metric`, want: []string{"x", "y", "z", "bool_metric"}},
		{expr: `x > bool 1e-3 + 0x1F - .5 - Inf`, want: []string{"x"}},
		{expr: `rate(x{a="}\"["}[1h30m:1m]) + ${var} + $v + 'quoted {b}' + ` + "`raw`", want: []string{"x"}},
		{expr: `a:rule:rate5m + a:rule:rate5m`, want: []string{"a:rule:rate5m"}},
		{expr: `x{`, err: true},
		{expr: `x{a=}`, err: true},
		{expr: `x{a}`, err: true},
		{expr: `x[5m`, err: true},
		{expr: `"open`, err: true},
		{expr: `sum by (le`, err: true},
	} {
		got, err := promqlMetricNames(c.expr)
		if (err != nil) != c.err {
			t.Errorf("%s: error %v, want error %v", c.expr, err, c.err)
			continue
		}
		if !c.err && !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.expr, got, c.want)
		}
	}
}

// Whatever it is given, the tokenizer ends, and every name it returns is
// a metric name (an identifier, no keyword).
func FuzzPromQLMetricNames(f *testing.F) {
	for _, s := range []string{`sum by (a) (rate(x{a="b"}[5m]))`, `{__name__="n"}`, `x offset 5m`, `$__range ${v}`, "\"\\`} {"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		names, err := promqlMetricNames(expr)
		if err != nil {
			return
		}
		for _, n := range names {
			if n == "" {
				t.Fatalf("%q: an empty name", expr)
			}
			if promqlKeywords[strings.ToLower(n)] && !strings.Contains(expr, "__name__") {
				t.Fatalf("%q: keyword %q taken for a metric", expr, n)
			}
		}
	})
}
