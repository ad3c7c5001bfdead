package rule

import (
	"strings"
	"testing"
)

// Attack (issue 35): fromJSON of a string from the payload builds a value
// of ~24 bytes per 2 bytes of "0," — a 60 MB command decoded to a 30
// million element list, some 700 MB, none of it counted by expr's memory
// budget (it counts the elements of what a rule writes), and the decode
// runs on past the time bound in serve. So fromJSON refuses, before it
// decodes, JSON of more values than the budget's elements, as split
// refuses more pieces.
func TestFromJSONBoundsValues(t *testing.T) {
	many := "[" + strings.Repeat("0,", maxPieces) + "0]"
	objs := "[" + strings.Repeat(`{"a":1},`, maxPieces/2) + "{}]"
	for _, j := range []string{many, objs} {
		_, err := eval(t, `len(fromJSON(args.j)) > 0`, &Input{Args: map[string]any{"j": j}})
		if err == nil || !strings.Contains(err.Error(), "fromJSON would build") {
			t.Errorf("fromJSON of %d bytes: err = %v, want it refused before decoding", len(j), err)
		}
	}
	// Commas, brackets and braces inside strings are not values; an
	// honest document decodes as before.
	honest := `{"k": 2, "s": "` + strings.Repeat("[,{", 50_000) + `", "l": [1, 2, 3]}`
	ok, err := eval(t, `fromJSON(args.j).k == 2 && len(fromJSON(args.j).l) == 3`, &Input{Args: map[string]any{"j": honest}})
	if err != nil || !ok {
		t.Errorf("honest fromJSON = %v, %v; want true", ok, err)
	}
	if _, err := eval(t, `fromJSON(args.j) != nil`, &Input{Args: map[string]any{"j": "{"}}); err == nil {
		t.Error("fromJSON of invalid JSON: no error")
	}
	if _, err := eval(t, `fromJSON(args.j) != nil`, &Input{Args: map[string]any{"j": 5}}); err == nil || !strings.Contains(err.Error(), "string") {
		t.Errorf("fromJSON of a number: err = %v, want a type error", err)
	}
}
