package rule

import (
	"context"
	"testing"
)

// A rule decides the same way for the same firing (replay compares what
// rules decide now with what they decided then): keys and values list a
// map in the order of its keys, not in Go's random map order.
func TestKeysAndValuesInKeyOrder(t *testing.T) {
	in := &Input{Args: map[string]any{"h": 8, "c": 3, "a": 1, "f": 6, "b": 2, "e": 5, "g": 7, "d": 4}}
	in.Payload = map[string]any{"tool_input": in.Args}
	for _, src := range []string{
		`keys(args) == ["a", "b", "c", "d", "e", "f", "g", "h"]`,
		`values(args) == [1, 2, 3, 4, 5, 6, 7, 8]`,
		`keys(payload.tool_input) == ["a", "b", "c", "d", "e", "f", "g", "h"]`,
		`values(payload.tool_input)[0] == 1`,
		`first(keys({"y": 1, "x": 2})) == "x"`,
	} {
		r, err := Compile(src)
		if err != nil {
			t.Fatalf("Compile(%s): %v", src, err)
		}
		for range 20 {
			if ok, err := r.Eval(context.Background(), in); !ok || err != nil {
				t.Fatalf("%s = %v, %v; want true every time", src, ok, err)
			}
		}
	}
}
