package promtext

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Family is one metric family as read: its TYPE, HELP and samples in the
// order written.
type Family struct {
	Name, Type, Help string
	Samples          []Sample
}

// Sample is one sample line. Name is the line's own (a histogram's
// foo_bucket, foo_sum, foo_count).
type Sample struct {
	Name   string
	Labels map[string]string
	Value  float64
}

// Value is the value of the sample of f named name whose labels include
// every name=value pair of labels (alternating), and whether there is one.
func (f *Family) Value(name string, labels ...string) (float64, bool) {
	if f == nil {
		return 0, false
	}
next:
	for _, s := range f.Samples {
		if s.Name != name {
			continue
		}
		for i := 0; i+1 < len(labels); i += 2 {
			if v, ok := s.Labels[labels[i]]; !ok || v != labels[i+1] {
				continue next
			}
		}
		return s.Value, true
	}
	return 0, false
}

// Parse reads text exposition and checks it (see the package comment).
// The error names the line.
func Parse(text []byte) (map[string]*Family, error) {
	p := parser{fams: map[string]*Family{}, closed: map[string]bool{}, series: map[string]bool{}}
	lines := strings.Split(string(text), "\n")
	if len(text) > 0 && lines[len(lines)-1] != "" {
		return nil, fmt.Errorf("line %d: the last line does not end with a newline", len(lines))
	}
	for i, line := range lines[:len(lines)-1] {
		if err := p.line(line); err != nil {
			return nil, fmt.Errorf("line %d: %w: %q", i+1, err, line)
		}
	}
	for _, f := range p.fams {
		if err := checkFamily(f); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	return p.fams, nil
}

type parser struct {
	fams   map[string]*Family
	cur    string          // the family of the lines just read
	closed map[string]bool // families whose lines ended
	series map[string]bool // name and labels of every sample read
}

// enter makes name the current family: a family whose lines ended may
// not start again.
func (p *parser) enter(name string) error {
	if name == p.cur {
		return nil
	}
	if p.closed[name] {
		return fmt.Errorf("family %s again after other families", name)
	}
	if p.cur != "" {
		p.closed[p.cur] = true
	}
	p.cur = name
	return nil
}

var types = []string{"counter", "gauge", "histogram", "summary", "untyped"}

func (p *parser) line(line string) error {
	if strings.TrimLeft(line, " \t") == "" {
		return nil
	}
	if rest, ok := strings.CutPrefix(line, "#"); ok {
		fields := strings.Fields(rest)
		if len(fields) < 2 || (fields[0] != "HELP" && fields[0] != "TYPE") {
			return nil // a comment
		}
		name := fields[1]
		if !validName(name, true) {
			return fmt.Errorf("bad metric name")
		}
		if err := p.enter(name); err != nil {
			return err
		}
		f := p.fams[name]
		if f == nil {
			f = &Family{Name: name}
			p.fams[name] = f
		}
		if fields[0] == "HELP" {
			if f.Help != "" {
				return fmt.Errorf("second HELP")
			}
			_, help, _ := strings.Cut(strings.TrimLeft(rest, " \t")[len("HELP"):], name)
			f.Help = unescapeHelp(strings.TrimLeft(help, " \t"))
			return nil
		}
		if len(fields) != 3 || !slices.Contains(types, fields[2]) {
			return fmt.Errorf("bad TYPE")
		}
		if f.Type != "" || len(f.Samples) > 0 {
			return fmt.Errorf("TYPE twice, or after samples")
		}
		f.Type = fields[2]
		return nil
	}
	return p.sample(line)
}

func (p *parser) sample(line string) error {
	s, key, err := scanSample(line)
	if err != nil {
		return err
	}
	f := p.familyOf(s.Name)
	if f == nil {
		return fmt.Errorf("sample %s has no TYPE before it", s.Name)
	}
	if err := p.enter(f.Name); err != nil {
		return err
	}
	if p.series[key] {
		return fmt.Errorf("series written twice")
	}
	p.series[key] = true
	f.Samples = append(f.Samples, s)
	return nil
}

// familyOf is the typed family a sample name belongs to: its own, or a
// histogram's or summary's of which it is a _bucket, _sum or _count.
func (p *parser) familyOf(name string) *Family {
	if f := p.fams[name]; f != nil && f.Type != "" {
		return f
	}
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		base, ok := strings.CutSuffix(name, suffix)
		if f := p.fams[base]; ok && f != nil && (f.Type == "histogram" || f.Type == "summary" && suffix != "_bucket") {
			return f
		}
	}
	return nil
}

// scanSample reads name{labels} value [timestamp], and returns it with a
// key that is the same for the same name and label set.
func scanSample(line string) (Sample, string, error) {
	s := Sample{Labels: map[string]string{}}
	end := strings.IndexAny(line, "{ \t")
	if end < 0 {
		return s, "", fmt.Errorf("no value")
	}
	s.Name, line = line[:end], line[end:]
	if !validName(s.Name, true) {
		return s, "", fmt.Errorf("bad metric name")
	}
	if trimmed := strings.TrimLeft(line, " \t"); strings.HasPrefix(trimmed, "{") {
		var err error
		if line, err = scanLabels(trimmed[1:], s.Labels); err != nil {
			return s, "", err
		}
	}
	fields := strings.Fields(line)
	if len(fields) < 1 || len(fields) > 2 || !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") {
		return s, "", fmt.Errorf("want a blank, one value and an optional timestamp after the name and labels")
	}
	v, err := parseValue(fields[0])
	if err != nil {
		return s, "", err
	}
	s.Value = v
	if len(fields) == 2 {
		if _, err := strconv.ParseInt(fields[1], 10, 64); err != nil {
			return s, "", fmt.Errorf("bad timestamp")
		}
	}
	names := make([]string, 0, len(s.Labels))
	for n := range s.Labels {
		names = append(names, n)
	}
	slices.Sort(names)
	key := s.Name
	for _, n := range names {
		key += "\xff" + n + "\xff" + s.Labels[n]
	}
	return s, key, nil
}

// scanLabels reads label pairs up to and past the closing brace into
// into, and returns what follows it.
func scanLabels(line string, into map[string]string) (string, error) {
	for {
		line = strings.TrimLeft(line, " \t")
		if rest, ok := strings.CutPrefix(line, "}"); ok {
			return rest, nil
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			return "", fmt.Errorf("bad label")
		}
		name := strings.TrimRight(line[:eq], " \t")
		if !validName(name, false) {
			return "", fmt.Errorf("bad label name %q", name)
		}
		if _, dup := into[name]; dup {
			return "", fmt.Errorf("label %s twice", name)
		}
		line = strings.TrimLeft(line[eq+1:], " \t")
		if !strings.HasPrefix(line, `"`) {
			return "", fmt.Errorf("label %s: value not quoted", name)
		}
		var v strings.Builder
		i := 1
		for ; i < len(line) && line[i] != '"'; i++ {
			if line[i] != '\\' {
				v.WriteByte(line[i])
				continue
			}
			if i++; i == len(line) {
				break
			}
			switch line[i] {
			case '\\', '"':
				v.WriteByte(line[i])
			case 'n':
				v.WriteByte('\n')
			default:
				return "", fmt.Errorf("label %s: bad escape \\%c", name, line[i])
			}
		}
		if i >= len(line) {
			return "", fmt.Errorf("label %s: value not closed", name)
		}
		if !utf8.ValidString(v.String()) {
			return "", fmt.Errorf("label %s: value not UTF-8", name)
		}
		into[name] = v.String()
		line = strings.TrimLeft(line[i+1:], " \t")
		if rest, ok := strings.CutPrefix(line, ","); ok {
			line = rest
		} else if !strings.HasPrefix(line, "}") {
			return "", fmt.Errorf("want , or } after label %s", name)
		}
	}
}

// validName: [a-zA-Z_][a-zA-Z0-9_]*, and ':' too in a metric name.
func validName(s string, metric bool) bool {
	for i, c := range []byte(s) {
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' || metric && c == ':'
		if !ok {
			return false
		}
	}
	return s != ""
}

func parseValue(s string) (float64, error) {
	switch s {
	case "+Inf":
		return math.Inf(1), nil
	case "-Inf":
		return math.Inf(-1), nil
	case "NaN":
		return math.NaN(), nil
	}
	if strings.Trim(s, "0123456789.eE+-") != "" {
		return 0, fmt.Errorf("bad value %q", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("bad value %q", s)
	}
	return v, nil
}

func unescapeHelp(s string) string {
	return strings.NewReplacer(`\\`, `\`, `\n`, "\n").Replace(s)
}
