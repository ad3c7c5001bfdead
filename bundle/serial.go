package bundle

import (
	"errors"
	"fmt"
	"strconv"
)

// Serial is a bundle's version: a whole number its signer raises with
// every bundle of that name they sign, compared as a number and nothing
// else (no dots, no pre-release tags, no build metadata: there is one
// order and no two spellings of one version). 0 is an unversioned bundle,
// whose manifest has no "serial" key (every bundle packed before serials
// existed); written, a serial is 1 to MaxSerial.
//
// It is what lets install refuse a rollback (Install): a bundle older than
// the installed one, however validly signed, would bring back the hole a
// later bundle fixed.
type Serial uint64

// MaxSerial is the largest serial: 2^53-1, the largest whole number a
// JSON reader using doubles (jq, JavaScript) reads exactly, so that a
// script comparing `bundle list --json` serials compares what install
// compares. A date-time stamp (202612031405) fits far below it.
const MaxSerial Serial = 1<<53 - 1

// Unversioned reports a bundle without a serial.
func (s Serial) Unversioned() bool { return s == 0 }

// String is the serial as people read it: its number, or "unversioned".
func (s Serial) String() string {
	if s == 0 {
		return "unversioned"
	}
	return strconv.FormatUint(uint64(s), 10)
}

// ParseSerial reads a serial as written on a command line or in a
// manifest: decimal digits only, no sign, no leading zero, 1 to MaxSerial.
func ParseSerial(text string) (Serial, error) {
	bad := func() (Serial, error) {
		return 0, fmt.Errorf("serial %q: a whole number from 1 to %d, in decimal digits (no sign, no leading zero, no exponent)", text, uint64(MaxSerial))
	}
	if text == "" || len(text) > 16 || text[0] == '0' {
		return bad()
	}
	for i := 0; i < len(text); i++ {
		if text[i] < '0' || text[i] > '9' {
			return bad()
		}
	}
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil || Serial(n) > MaxSerial {
		return bad()
	}
	return Serial(n), nil
}

// UnmarshalJSON reads a manifest's "serial": a JSON number that is a
// serial (ParseSerial). null, a string, a fraction, an exponent, 0 or a
// negative number are refused: the signed bytes spell a serial one way,
// and an unversioned manifest leaves the key out. A second "serial" key is
// refused too (encoding/json would take the last, other readers the
// first): the serial a signer signed is the one every reader sees. It is
// told by the field being set already, since a read serial is never 0.
func (s *Serial) UnmarshalJSON(data []byte) error {
	if *s != 0 {
		return errors.New("serial: given twice")
	}
	if string(data) == "null" {
		return errors.New("serial: null (leave the key out for an unversioned bundle)")
	}
	n, err := ParseSerial(string(data))
	if err != nil {
		return err
	}
	*s = n
	return nil
}
