// Package promscrape reads a /metrics body the way a Prometheus server
// would, for tests: prometheus/common's text parser (what Prometheus
// scrapes with), plus the checks that parser leaves to its caller — every
// family typed, no series written twice, a histogram's buckets cumulative
// and ending at le="+Inf" equal to _count.
//
// Only tests import it. The hermes-hooks binary starts at every agent
// event and must not link prometheus/common and its protobuf runtime
// (internal/layout checks that); the server writes its text with
// VictoriaMetrics/metrics and internal/promtext.
package promscrape

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Family is one metric family as read: its TYPE (lower case, as written),
// HELP and samples, a histogram's as the _bucket, _sum and _count lines.
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

// Parse reads text exposition (format 0.0.4) and checks it; see the
// package comment.
func Parse(text []byte) (map[string]*Family, error) {
	p := expfmt.NewTextParser(model.LegacyValidation)
	mfs, err := p.TextToMetricFamilies(bytes.NewReader(text))
	if err != nil {
		return nil, err
	}
	out := make(map[string]*Family, len(mfs))
	for name, mf := range mfs {
		f, err := family(mf)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = f
	}
	return out, nil
}

func family(mf *dto.MetricFamily) (*Family, error) {
	f := &Family{Name: mf.GetName(), Help: mf.GetHelp()}
	seen := map[string]bool{}
	for _, m := range mf.GetMetric() {
		labels := map[string]string{}
		for _, lp := range m.GetLabel() {
			if _, dup := labels[lp.GetName()]; dup {
				return nil, fmt.Errorf("label %s twice", lp.GetName())
			}
			labels[lp.GetName()] = lp.GetValue()
		}
		if key := seriesKey(labels); seen[key] {
			return nil, fmt.Errorf("series {%s} twice", key)
		} else {
			seen[key] = true
		}
		add := func(name string, v float64, extra ...string) {
			l := labels
			if len(extra) > 0 {
				l = maps(labels, extra[0], extra[1])
			}
			f.Samples = append(f.Samples, Sample{Name: name, Labels: l, Value: v})
		}
		switch mf.GetType() {
		case dto.MetricType_COUNTER:
			f.Type = "counter"
			if v := m.GetCounter().GetValue(); !(v >= 0) {
				return nil, fmt.Errorf("counter is %v", v)
			}
			add(f.Name, m.GetCounter().GetValue())
		case dto.MetricType_GAUGE:
			f.Type = "gauge"
			add(f.Name, m.GetGauge().GetValue())
		case dto.MetricType_HISTOGRAM:
			f.Type = "histogram"
			h := m.GetHistogram()
			if err := checkBuckets(h); err != nil {
				return nil, fmt.Errorf("{%s}: %w", seriesKey(labels), err)
			}
			for _, b := range h.GetBucket() {
				add(f.Name+"_bucket", float64(b.GetCumulativeCount()), "le", formatFloat(b.GetUpperBound()))
			}
			if h.SampleSum != nil {
				add(f.Name+"_sum", h.GetSampleSum())
			}
			if h.SampleCount != nil {
				add(f.Name+"_count", float64(h.GetSampleCount()))
			}
		case dto.MetricType_SUMMARY:
			f.Type = "summary"
			s := m.GetSummary()
			for _, q := range s.GetQuantile() {
				add(f.Name, q.GetValue(), "quantile", formatFloat(q.GetQuantile()))
			}
			add(f.Name+"_sum", s.GetSampleSum())
			add(f.Name+"_count", float64(s.GetSampleCount()))
		default:
			// The parser types a family it saw no TYPE line for as
			// untyped; a scrape of ours types every family.
			return nil, fmt.Errorf("no TYPE line")
		}
	}
	return f, nil
}

// checkBuckets: bounds increasing, counts cumulative, the last bucket at
// +Inf holding every observation (_count, when written).
func checkBuckets(h *dto.Histogram) error {
	bs := h.GetBucket()
	if len(bs) == 0 || !math.IsInf(bs[len(bs)-1].GetUpperBound(), 1) {
		return fmt.Errorf(`no le="+Inf" bucket`)
	}
	for i := 1; i < len(bs); i++ {
		if bs[i].GetUpperBound() <= bs[i-1].GetUpperBound() || bs[i].GetCumulativeCount() < bs[i-1].GetCumulativeCount() {
			return fmt.Errorf("bucket le=%v out of order or not cumulative", bs[i].GetUpperBound())
		}
	}
	// _count may be left out (VictoriaMetrics does for the Go runtime's
	// histograms); when written it is the +Inf bucket.
	if last := bs[len(bs)-1].GetCumulativeCount(); h.SampleCount != nil && last != h.GetSampleCount() {
		return fmt.Errorf(`_count %d but le="+Inf" %d`, h.GetSampleCount(), last)
	}
	return nil
}

func maps(labels map[string]string, k, v string) map[string]string {
	l := make(map[string]string, len(labels)+1)
	for n, x := range labels {
		l[n] = x
	}
	l[k] = v
	return l
}

// seriesKey names a series: its labels in a fixed order.
func seriesKey(labels map[string]string) string {
	parts := make([]string, 0, len(labels))
	for n, v := range labels {
		parts = append(parts, n+"="+strconv.Quote(v))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

func formatFloat(v float64) string {
	if math.IsInf(v, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
