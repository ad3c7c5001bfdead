package hookconfig

import (
	"errors"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// secondBOM refuses a YAML file that starts with two byte order marks.
// One is skipped by yaml.v3 as by PyYAML (Hermes' loader); past it,
// yaml.v3 skips more, while PyYAML keeps the second in the first key
// ("\ufeffhooks": Hermes would see no hooks at all). Loading hooks Hermes
// drops, or dropping them unsaid, would both hide the mistake.
func secondBOM(data []byte, path string) error {
	rest := pyjson.SkipBOM(data)
	if len(rest) == len(data) || len(pyjson.SkipBOM(rest)) == len(rest) {
		return nil
	}
	return &ConfigError{Path: path, Line: 1, Column: 1, Err: errors.New("starts with two byte order marks (U+FEFF): PyYAML, as Hermes reads YAML, takes the second as part of the first key"),
		Hint: "save the file as UTF-8 without them"}
}
