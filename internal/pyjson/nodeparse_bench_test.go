package pyjson

import (
	"strings"
	"testing"
)

// BenchmarkParseNodeHostile: the largest switch file doctor reads (4 MiB)
// of what a repository would write to make a reader slow or deep.
func BenchmarkParseNodeHostile(b *testing.B) {
	const size = 4 << 20
	for _, bc := range []struct{ name, data string }{
		{"arrays", strings.Repeat("[", size/2) + strings.Repeat("]", size/2)},
		{"objects", strings.Repeat(`{"a":`, size/12) + "0" + strings.Repeat("}", size/12)},
		{"keys", "{" + strings.Repeat(`"k":1e400,`, size/10) + `"k":1}`},
		{"unclosed", strings.Repeat("[", size)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := []byte(bc.data)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				ParseNode(data)
			}
		})
	}
}
