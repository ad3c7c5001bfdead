package promtext

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// checkFamily checks what a family's samples must be by its type.
func checkFamily(f *Family) error {
	if f.Type == "" {
		return fmt.Errorf("HELP without TYPE")
	}
	for _, s := range f.Samples {
		_, le := s.Labels["le"]
		_, q := s.Labels["quantile"]
		switch {
		case f.Type == "histogram" && le != (s.Name == f.Name+"_bucket"):
			return fmt.Errorf("%s: le belongs on a histogram's buckets, and only there", s.Name)
		case f.Type == "summary" && q != (s.Name == f.Name):
			return fmt.Errorf("%s: quantile belongs on a summary's quantiles, and only there", s.Name)
		case f.Type == "counter" && !(s.Value >= 0):
			return fmt.Errorf("counter %s is %v", s.Name, s.Value)
		}
	}
	if f.Type == "histogram" {
		return checkHistogram(f)
	}
	return nil
}

// checkHistogram: per series, buckets by increasing le, cumulative counts,
// the last at le="+Inf"; _count, when written, equal to that last count.
func checkHistogram(f *Family) error {
	type series struct {
		le, n      float64
		inf, count bool
		countV     float64
	}
	all := map[string]*series{}
	var order []string
	for _, s := range f.Samples {
		key := seriesKey(s.Labels)
		sr := all[key]
		if sr == nil {
			sr = &series{le: math.Inf(-1)}
			all[key] = sr
			order = append(order, key)
		}
		switch s.Name {
		case f.Name + "_bucket":
			le, err := parseValue(s.Labels["le"])
			if err != nil || math.IsNaN(le) {
				return fmt.Errorf("{%s}: bad le %q", key, s.Labels["le"])
			}
			if sr.inf || le <= sr.le || s.Value < sr.n || !(s.Value >= 0) {
				return fmt.Errorf("{%s}: bucket le=%q out of order or not cumulative", key, s.Labels["le"])
			}
			sr.le, sr.n, sr.inf = le, s.Value, math.IsInf(le, 1)
		case f.Name + "_count":
			sr.count, sr.countV = true, s.Value
		}
	}
	for _, key := range order {
		sr := all[key]
		if !sr.inf {
			return fmt.Errorf("{%s}: no le=\"+Inf\" bucket", key)
		}
		if sr.count && sr.countV != sr.n {
			return fmt.Errorf("{%s}: _count %v but le=\"+Inf\" %v", key, sr.countV, sr.n)
		}
	}
	return nil
}

// seriesKey names a histogram series: its labels but le, in a fixed order.
func seriesKey(labels map[string]string) string {
	var parts []string
	for n, v := range labels {
		if n != "le" {
			parts = append(parts, n+"="+strconv.Quote(v))
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}
