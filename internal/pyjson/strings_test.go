package pyjson

import "testing"

// StringScan marks exactly the bytes after a string's opening quote
// through its closing one, escapes (\" and \\) included.
func TestStringScan(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:        `..xx...`,
		`["x\"y",2]`:     `..xxxxx...`,
		`"\\"1`:          `.xxx.`,
		`[NaN,"NaN"]`:    `......xxxx.`,
		`{"k":"a\\\"b"}`: `..xx..xxxxxxx.`,
	} {
		var s StringScan
		got := make([]byte, len(in))
		for i := 0; i < len(in); i++ {
			got[i] = '.'
			if s.In(in[i]) {
				got[i] = 'x'
			}
		}
		if string(got) != want {
			t.Errorf("%s:\n got  %s\n want %s", in, got, want)
		}
	}
}
