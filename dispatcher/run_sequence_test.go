package dispatcher

import (
	"reflect"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// seqCodec is a codec that can run in sequence (only its dialect and
// NextFields are asked here); plainCodec one that cannot.
type seqCodec struct{ protocol.Codec }

func (seqCodec) NextFields(_ string, _ *protocol.Event, f map[string]any, _ *protocol.Contribution) map[string]any {
	return f
}

type plainCodec struct{ protocol.Codec }

// sequences: once one selected entry of a Sequencer codec asks for it,
// every selected entry of that codec runs in sequence, in order; entries
// of other dialects, and of a codec that cannot, start at once.
func TestSequences(t *testing.T) {
	seq := func(d string, sequential bool) Invocation {
		return Invocation{Entry: &hookconfig.Entry{Codec: seqCodec{}, Dialect: protocol.Dialect(d), Sequential: sequential}}
	}
	plain := func(d string, sequential bool) Invocation {
		return Invocation{Entry: &hookconfig.Entry{Codec: plainCodec{}, Dialect: protocol.Dialect(d), Sequential: sequential}}
	}
	claude := Invocation{Entry: &hookconfig.Entry{Dialect: protocol.Claude}}
	for _, tc := range []struct {
		name     string
		sel      []Invocation
		wantSeqs [][]int
		wantRest []int
	}{
		{"none asks", []Invocation{seq("g", false), claude, seq("g", false)}, nil, []int{0, 1, 2}},
		{"one asks: all of its codec", []Invocation{seq("g", false), claude, seq("g", true), seq("g", false)},
			[][]int{{0, 2, 3}}, []int{1}},
		{"two codecs, one asks", []Invocation{seq("g", true), seq("h", false), seq("g", false)},
			[][]int{{0, 2}}, []int{1}},
		{"two codecs, both ask", []Invocation{seq("h", true), seq("g", true), seq("h", false)},
			[][]int{{0, 2}, {1}}, nil},
		{"a codec that cannot", []Invocation{plain("p", true), plain("p", false)}, nil, []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			procs := make([]int, len(tc.sel))
			for i := range procs {
				procs[i] = i
			}
			seqs, rest := sequences(tc.sel, procs)
			if !reflect.DeepEqual(seqs, tc.wantSeqs) || !reflect.DeepEqual(rest, tc.wantRest) {
				t.Errorf("sequences = %v, rest %v; want %v, rest %v", seqs, rest, tc.wantSeqs, tc.wantRest)
			}
		})
	}
}
