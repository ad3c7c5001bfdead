package hookconfig

import (
	"errors"
	"testing"
)

// checkNoPanic is the fuzz targets' "no input panics": the parsers
// recover a panic into a ConfigError, so a target that only runs them
// would pass on one.
func checkNoPanic(t *testing.T, err error) {
	t.Helper()
	var p *recoveredPanic
	if errors.As(err, &p) {
		t.Fatalf("%v\n%s", err, p.stack)
	}
}

// A recovered panic is still the refusal people read, and the fuzz
// targets' check sees it.
func TestRecoveredPanicSeen(t *testing.T) {
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &ConfigError{Path: "c.yaml", Err: recovered("YAML", r)}
			}
		}()
		var m map[string]int
		//lint:ignore SA5000 the runtime panic is what the test recovers
		m["x"] = 1
		return nil
	}()
	if want := "config c.yaml: cannot parse YAML: assignment to entry in nil map"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	var p *recoveredPanic
	if !errors.As(err, &p) || len(p.stack) == 0 {
		t.Fatalf("the panic is not told from a refusal: %#v", err)
	}
}
