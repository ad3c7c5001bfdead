package pyjson

import "testing"

// Expected values were produced with Python 3: json.dumps(json.loads(s)).
func TestPyNumber(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1.5", "1.5"}, {"1.50", "1.5"}, {"100.0", "100.0"}, {"1e5", "100000.0"},
		{"1E5", "100000.0"}, {"1e16", "1e+16"}, {"1e15", "1000000000000000.0"},
		{"123456789012345678.0", "1.2345678901234568e+17"}, {"0.0001", "0.0001"},
		{"0.00001", "1e-05"}, {"1.5e-5", "1.5e-05"}, {"-0.0", "-0.0"}, {"-0", "0"},
		{"0", "0"}, {"12345678901234567890", "12345678901234567890"}, {"1e22", "1e+22"},
		{"2.5e-300", "2.5e-300"}, {"-1.25e+300", "-1.25e+300"}, {"3.14159", "3.14159"},
		{"0.1", "0.1"}, {"9007199254740993.0", "9007199254740992.0"},
		{"1.7976931348623157e308", "1.7976931348623157e+308"}, {"5e-324", "5e-324"},
		{"0.5", "0.5"}, {"-12.0e1", "-120.0"},
		// Out of float64 range: Python writes Infinity, which is not JSON;
		// we keep the text so the file stays readable.
		{"1e400", "1e400"},
	} {
		if got := pyNumber(tc.in); got != tc.want {
			t.Errorf("pyNumber(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
