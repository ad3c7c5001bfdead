package permrule

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The values read takes are checked against bash itself: random texts,
// IFS values, names and options (a fixed seed, so a failure repeats),
// run through a real bash with printf probes, and each value bash gives
// must be one the model has (readSplit, readRecords). Skipped without
// bash.

func bashFor(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH")
	}
	return bash
}

// TestReadSplitsAsBash: fields, what each name gets and read -a's array,
// under IFS values of blanks and other characters, with and without -r.
func TestReadSplitsAsBash(t *testing.T) {
	bash := bashFor(t)
	rng := rand.New(rand.NewSource(7))
	alpha := []string{"a", "b", " ", ",", "\\", "\t", ":"}
	ifsAlpha := []string{" ", ",", "\t", ":", "a"}
	bad := 0
	for range 300 {
		var tb, ib strings.Builder
		for k := rng.Intn(15); k > 0; k-- {
			tb.WriteString(alpha[rng.Intn(len(alpha))])
		}
		for k := rng.Intn(4); k > 0; k-- {
			ib.WriteString(ifsAlpha[rng.Intn(len(ifsAlpha))])
		}
		text, ifs := tb.String(), ib.String()
		words, flag := []string{"read"}, ""
		if rng.Intn(2) == 0 {
			words, flag = append(words, "-r"), "-r"
		}
		vars := []string{"v1", "v2", "v3"}[:1+rng.Intn(3)]
		script := `IFS="$TIFS" read ` + flag + ` ` + strings.Join(vars, " ") + ` <<< "$TTEXT"; printf '%s\0' "$` + strings.Join(vars, `" "$`) + `"` +
			`; printf '\1'; IFS="$TIFS" read ` + flag + ` -a arr <<< "$TTEXT"; printf '%s\0' "${#arr[@]}" "${arr[@]}"`
		cmd := exec.Command(bash, "-c", script)
		cmd.Env = append(os.Environ(), "TIFS="+ifs, "TTEXT="+text)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.SplitN(string(out), "\x01", 2)
		got := strings.Split(strings.TrimSuffix(parts[0], "\x00"), "\x00")
		arr := strings.Split(strings.TrimSuffix(parts[1], "\x00"), "\x00")[1:]
		rec := readRecords(parseRead(append(words, vars...)), text+"\n")[0]
		fields, lasts := readSplit(rec, newReadSep(ifs), len(vars))
		model := append(append([]string{rec.s, ""}, fields...), lasts...)
		for i, b := range got {
			if !slices.Contains(model, b) {
				bad++
				t.Errorf("IFS=%q read %s (%d names) <<< %q: bash gives v%d %q, not among %q", ifs, flag, len(vars), text, i+1, b, model)
			}
		}
		if !slices.Equal(arr, fields) && len(arr)+len(fields) > 0 {
			bad++
			t.Errorf("IFS=%q read %s -a <<< %q: bash %q, model %q", ifs, flag, text, arr, fields)
		}
		if bad > 10 {
			t.FailNow()
		}
	}
}

// TestReadRecordsAsBash: what a loop of reads reads, record by record,
// with -d, -n, -N, -r, escapes and a multibyte character, in a UTF-8
// and a C locale.
func TestReadRecordsAsBash(t *testing.T) {
	bash := bashFor(t)
	rng := rand.New(rand.NewSource(3))
	alpha := []string{"a", "b", ",", "\\", "\n", "é", " "}
	bad := 0
	for range 150 {
		var tb strings.Builder
		for k := rng.Intn(14); k > 0; k-- {
			tb.WriteString(alpha[rng.Intn(len(alpha))])
		}
		text, words := tb.String(), []string{"read"}
		if rng.Intn(2) == 0 {
			words = append(words, "-r")
		}
		switch rng.Intn(3) {
		case 0:
			words = append(words, "-d", ",")
		case 1:
			words = append(words, "-d", "")
		}
		switch rng.Intn(3) {
		case 0:
			words = append(words, "-n", fmt.Sprint(1+rng.Intn(3)))
		case 1:
			words = append(words, "-N", fmt.Sprint(1+rng.Intn(3)))
		}
		opts := ""
		for _, w := range words[1:] {
			opts += " '" + w + "'"
		}
		var model []string
		for _, r := range readRecords(parseRead(append(words, "x")), text+"\n") {
			model = append(model, r.s)
		}
		script := `while IFS= read` + opts + ` x; do printf '%s\0' "$x"; done <<< "$TTEXT"; printf '%s\0' "$x"`
		for _, loc := range []string{"C.UTF-8", "C"} {
			cmd := exec.Command(bash, "-c", script)
			cmd.Env = append(os.Environ(), "TTEXT="+text, "LC_ALL="+loc)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
				if g != "" && !slices.Contains(model, g) {
					bad++
					t.Errorf("LC_ALL=%s read%s <<< %q: bash reads %q, not among %q", loc, opts, text, g, model)
					break
				}
			}
		}
		if bad > 10 {
			t.FailNow()
		}
	}
}
