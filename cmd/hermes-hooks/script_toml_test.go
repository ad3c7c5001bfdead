package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// many-tables FILE N writes a TOML file of at most N bytes made of small
// tables ([t0] a=1 [t1] a=1 …): the shape go-toml's parse takes in time
// that grows with the square of the tables, for the scripts that commit
// one in a hostile repository (doctor_switches_toml_attack.txtar).
func init() {
	scriptCmds["many-tables"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: many-tables FILE N")
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			ts.Fatalf("many-tables: %v", err)
		}
		var b strings.Builder
		for i := 0; ; i++ {
			t := "[t" + strconv.Itoa(i) + "]\na=1\n"
			if b.Len()+len(t) > n {
				break
			}
			b.WriteString(t)
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
	}
}
