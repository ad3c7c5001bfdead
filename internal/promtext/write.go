// Package promtext writes Prometheus' text exposition format (version
// 0.0.4): the server's own families in the body of serve's GET /metrics,
// next to the Go and process metrics VictoriaMetrics/metrics writes. A
// writer only: tests read the scrape back with internal/promscrape
// (Prometheus' own parser), which the binary does not link.
package promtext

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// Buffer is text exposition being written.
type Buffer struct{ bytes.Buffer }

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

// Family writes a family's HELP and TYPE lines, once before its samples.
func (b *Buffer) Family(name, typ, help string) {
	b.WriteString("# HELP " + name + " " + helpEscaper.Replace(help) + "\n")
	b.WriteString("# TYPE " + name + " " + typ + "\n")
}

// Sample writes one sample line; labels alternate names and values.
func (b *Buffer) Sample(name string, labels []string, v float64) {
	b.WriteString(name)
	if len(labels) > 0 {
		b.WriteByte('{')
		for i := 0; i+1 < len(labels); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(labels[i] + `="` + labelEscaper.Replace(labels[i+1]) + `"`)
		}
		b.WriteByte('}')
	}
	b.WriteString(" " + FormatFloat(v) + "\n")
}

// FormatFloat is a value as the format spells it: Go's shortest form,
// and +Inf, -Inf, NaN.
func FormatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
