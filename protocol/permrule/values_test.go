package permrule

import (
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestValuesBounded: lines built to make the values of their variables
// cost (many values, long ones, replacements, self-doubling assignments,
// chains, positional parameters) are read or refused within a bounded
// allocation, not in gigabytes: before the bounds, 64 KiB of
// ${X//a/$X} allocated 19 GB and took a minute, and ${X^^} of a 30 KB
// value 2.7 GB. The time bound only catches a hang. (The values of a read
// are bounded in work, not allocation: a here-string of 60,000 spaces took
// 8 s, each blank's rest trimmed again.)
func TestValuesBounded(t *testing.T) {
	lines := []string{
		assigns("X", 63) + strings.Repeat("rm $X;", (maxShellCommand-700)/6),
		"X=" + strings.Repeat("a", 1000) + ";" + strings.Repeat("echo ${X//a/$X};", (maxShellCommand-1010)/17),
		"X=" + strings.Repeat("a", 30000) + "; echo " + strings.Repeat("${X^^}", (maxShellCommand-30100)/6),
		"X=a; " + strings.Repeat("X=$X$X;", (maxShellCommand-10)/7) + "echo $X",
		"X=" + strings.Repeat("a", 60000) + "; Y=" + strings.Repeat("$X", 25) + "; Z=" + strings.Repeat("$Y", 12) + "; echo $Z",
		strings.Repeat("set -- $1 $1 $1 $1; ", maxShellCommand/21),
		"X=1;" + strings.Repeat("for x in $X $x; do :; done;", maxShellCommand/28),
		assigns("Y", 63) + assigns("X", 63) + strings.Repeat("X+=$Y;", (maxShellCommand-1500)/6) + "echo $X",
		assigns("Y", 63) + strings.Repeat("X=$X$Y;", (maxShellCommand-800)/7) + "echo $X",
		strings.Repeat("X=$Y$X; Y=$X$Y;", maxShellCommand/16) + "echo $X",
		// The second attack review's: brace words counted again for each
		// value on each round, and a thousand values built, not bounded.
		"X=a; " + strings.Repeat("Y=$X{1..1000}; ", maxShellCommand/16) + "echo $Y",
		assigns("A", 16) + assigns("B", 16) + strings.Repeat("C=$A$B; ", (maxShellCommand-400)/8) + "echo $C",
		assigns("A", 16) + assigns("B", 16) + strings.Repeat("for c in $A$B; do :; done; ", (maxShellCommand-400)/27),
		// The third's: chained values compared with thousands, and
		// thousands of names read by one command.
		"for X in {1..1000}; do :; done; " + strings.Repeat("X=$X; ", 40),
		strings.Repeat("X+=; ", maxShellCommand/6),
		// A group fed a long text once, read by thousands of reads in it
		// (the fourth review's: seconds and gigabytes before read's bound).
		"{ " + strings.Repeat("read a b c d; ", 1700) + "} <<< '" + strings.Repeat("a ", 18000) + "'",
		"{ " + strings.Repeat("mapfile a; ", 2000) + "} <<< '" + strings.Repeat("a ", 18000) + "'",
		func() string {
			var b strings.Builder
			b.WriteString("{ " + strings.Repeat("read c; ", 1000) + "} <<< '")
			for i := 0; b.Len() < maxShellCommand-10; i++ {
				fmt.Fprintf(&b, "w%d ", i)
			}
			return b.String() + "'"
		}(),
		// Thousands of groups fed a here-string, each read inside.
		strings.Repeat("{ read c; } <<< rm; ", (maxShellCommand-20)/20) + "$c -rf /",
		strings.Repeat("{ ", 120) + "read c; $c -rf /" + strings.Repeat("; } <<< rm", 120),
		// Here-strings that expand values, read again each round: many
		// values, thousands of reads, reads of each other's values.
		assigns("A", 16) + assigns("B", 16) + strings.Repeat(`read a b c d <<< "$A$B"; `, (maxShellCommand-400)/26) + "rm $a",
		"X=" + strings.Repeat("a ", 20000) + "; { " + strings.Repeat("read c; ", 2000) + `} <<< "$X$X"`,
		strings.Repeat(`read a <<< "$b $b"; read b <<< "$a$a"; `, maxShellCommand/40) + "rm $a",
		assigns("X", 63) + strings.Repeat(`mapfile -t m <<< "$X$X"; `, (maxShellCommand-700)/26) + `rm "${m[@]}"`,
		assigns("A", 16) + assigns("B", 16) + strings.Repeat("read a b <<E\n$A $B$a\nE\n", (maxShellCommand-400)/20) + "rm $a",
		// A here-string of a long value read in thousands of command
		// strings, each with a read budget of its own (46 s, 4.4 GB).
		"T='" + strings.Repeat("a ", 4000) + "'; " + strings.Repeat(`eval 'read b <<< "$T"'; `, 2200) + "$b",
		"T='" + strings.Repeat("a ", 4000) + "'; " + strings.Repeat(`sh -c 'read b <<< "$T"'; `, 2200),
		// A long IFS made of values (8 KiB) over a long text: each
		// record rebuilt its set of characters (7 s, 1.2 GB for 333
		// bytes), and many IFS values over one text.
		func() string {
			var b strings.Builder
			b.WriteString("M0=zzzzzzzz; T0=abcdefgh; ")
			for i := 1; i <= 14; i++ {
				fmt.Fprintf(&b, "T%d=$T%d$T%d; ", i, i-1, i-1)
				if i <= 10 {
					fmt.Fprintf(&b, "M%d=$M%d$M%d; ", i, i-1, i-1)
				}
			}
			return b.String() + `IFS=$M10; read -n1 <<< "$T14"`
		}(),
		"IFS=a; IFS=b; IFS=c; IFS=d; IFS=e; IFS=f; IFS=g; X='" + strings.Repeat("ab ", 10000) + `'; read -n1 <<< "$X$X$X$X"`,
		// printf -v of values, read again each round.
		assigns("X", 63) + strings.Repeat(`printf -v b '%s' "$X$X"; `, (maxShellCommand-700)/26) + "$b",
		strings.Repeat(`printf -v a '%s%s' "$b" "$b"; printf -v b '%s%s' "$a" "$a"; `, 1000) + "$a",
		// A long run of blanks, each blank's rest trimmed again (8 s).
		"read c <<< '" + strings.Repeat(" ", maxShellCommand-20) + "x'; $c",
		"X='" + strings.Repeat(" ", maxShellCommand/2-40) + "'; read c <<< \"$X$X\"; $c",
		// printf -v: wide fields, many of them, the format again for each
		// argument, distinct values.
		"printf -v X " + strings.Repeat("%256s", (maxShellCommand-30)/5) + "; echo $X",
		"printf -v X %256s " + strings.Repeat("a ", (maxShellCommand-30)/2) + "; echo $X",
		func() string {
			var b strings.Builder
			for i := 0; b.Len() < maxShellCommand-100; i++ {
				fmt.Fprintf(&b, "printf -v X %%256s%%d x %d; ", i)
			}
			return b.String() + "rm $X"
		}(),
		func() string {
			var b strings.Builder
			for i := 0; i < 3000; i++ {
				fmt.Fprintf(&b, "V%d=1; ", i)
			}
			b.WriteString("echo")
			for i := 0; i < 3000 && b.Len() < maxShellCommand-8; i++ {
				fmt.Fprintf(&b, " $V%d", i)
			}
			return b.String()
		}(),
	}
	for i, line := range lines {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		_, err := Commands(line)
		runtime.ReadMemStats(&m1)
		if mb := (m1.TotalAlloc - m0.TotalAlloc) >> 20; mb > 256 {
			t.Errorf("line %d (%d bytes): %d MB allocated (%v)", i, len(line), mb, err)
		}
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("line %d: %v", i, d)
		}
	}
}

// TestCommandsOverArrayCopies: an array past its bound (a[0]=x; a[1]=x; …
// made more elements than maxArrayElems) is an error where used, and so
// is every name given a value made of it, however the line gives it: a
// copy read before the array was found over read it as empty, and
// `b=${a[1]}; rm $b /` was listed as rm / where bash runs rm -rf /. And an
// array whose words read an over name (a loop's 5,000 values) is over
// too, not empty.
func TestCommandsOverArrayCopies(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "a[%d]=x; ", i)
	}
	p := b.String() + "a[0]=rm; a[1]=-rf; "
	const over = "may hold values this analysis cannot tell"
	checkCommands(t, []commandsCase{
		{line: p + `rm "${a[@]}" /`, err: over},
		{line: p + "b=${a[1]}; rm $b /", err: over},
		{line: p + "b=${a[0]}; $b -rf /", err: over},
		{line: p + "c=${a[0]}; b=$c; $b -rf /", err: over},
		{line: p + `for x in "${a[@]}"; do rm $x /; done`, err: over},
		{line: p + `b=("${a[@]}"); rm "${b[@]}" /`, err: over},
		{line: p + `b+=("${a[@]}"); rm "${b[@]}" /`, err: over},
		{line: p + `b[0]=${a[0]}; ${b[0]} -rf /`, err: over},
		{line: p + `declare -n b=a; rm "${b[@]}" /`, err: over},
		{line: p + `set -- "${a[@]}"; rm "$@" /`, err: over},
		{line: p + `eval 'b=${a[0]}'; $b -rf /`, err: over},
		{line: "for X in {1..5000}; do :; done; X=rm; a=($X); ${a[0]} -rf /", err: over},
		{line: "for X in {1..5000}; do :; done; X=rm; a=(x); a+=($X); ${a[1]} -rf /", err: over},
		// An element at an index written whose value is not static text
		// cannot be told here either.
		{line: "X=rm; a=([0]=$X); ${a[0]} -rf /", err: over},
		{line: "X=rm; declare -a a='([0]=$X)'; ${a[0]} -rf /", err: over},
		// An element named through ${!n} or declare -n (the third review's).
		{line: `a[0]=rm; n="a[0]"; ${!n} -rf /`, err: over},
		{line: `a=(rm); n="a[0]"; ${!n} -rf /`, err: over},
		{line: `a[0]=rm; declare -n r="a[0]"; $r -rf /`, err: over},
		{line: `X=rm; n=X; ${!n} -rf /`, want: []string{"rm -rf /"}},
		// Arrays of a command's output are read as before (the sweep's).
		{line: `files=($(git diff --name-only)); gofmt -l "${files[@]}"`, want: []string{`gofmt -l "${files[@]}"`}},
		{line: `pids=($(pgrep -f worker)); kill "${pids[@]}"; echo ${#pids[@]}`, want: []string{`kill "${pids[@]}"`}},
		// What stays within the bounds is listed as before.
		{line: "a[0]=rm; a[1]=-rf; b=${a[1]}; rm $b /", want: []string{"rm -rf /"}},
		{line: "a=([0]=rm [1]=-rf); ${a[0]} ${a[1]} /", want: []string{"rm -rf /"}},
		{line: `a=(rm -rf); b=("${a[@]}"); declare -n c=b; "${c[@]}" /`, want: []string{"rm -rf /"}},
	})
}

// A here-string that expands the line's values is read with each of
// them, as an assignment is: it was read as unknown, and `X='rm -rf /';
// read b <<< "$X"; $b` listed only $b. One only known at run time is not,
// and one whose values cannot all be told makes what is read over.
func TestCommandsReadsHereStringValues(t *testing.T) {
	checkCommands(t, []commandsCase{
		{line: `X='rm -rf /tmp/v'; read b <<< "$X"; $b`, want: []string{"rm -rf /tmp/v"}},
		{line: `X=rm; while read c; do $c -rf /; done <<< "$X"`, want: []string{"rm -rf /"}},
		{line: `X=rm,-rf,x; IFS=, read -ra p <<< "$X"; "${p[@]}"`, want: []string{"rm -rf x"}},
		{line: `X='rm -rf /'; mapfile -t a <<< "$X"; ${a[0]}`, want: []string{"rm -rf /"}},
		{line: `for X in ls rm; do read c <<< "$X -rf"; $c /; done`, want: []string{"rm -rf /", "ls -rf /"}},
		{line: `read c <<< "${X:-rm}"; $c -rf /`, want: []string{"rm -rf /"}},
		{line: `X=rm; { read c; $c -rf /; } <<< $X`, want: []string{"rm -rf /"}},
		{line: "X=rm; read c <<EOF\n$X -rf\nEOF\n$c /", want: []string{"rm -rf /"}},
		{line: "X=rm; while read -r c; do $c -rf /; done <<-EOF\n\t${X}\n\tEOF", want: []string{"rm -rf /"}},
		{line: "X=rm; read c <<'EOF'\n$X\nEOF\n$c -rf /", want: []string{"$X -rf /"}, not: []string{"rm -rf /"}},
		{line: `X=$(cat f); read b <<< "$X"; $b`, want: []string{"$b"}},
		{line: `for X in {1..5000}; do :; done; read b <<< "$X"; rm $b`, err: "variable b may hold"},
		{line: `for X in {1..5000}; do :; done; while read b; do rm $b; done <<< "$X"`, err: "variable b may hold"},
	})
}

// read and mapfile are read as bash reads them: options grouped or
// attached (-rd';', -ar NAME, -td:), -n and -N cut, -d ends a record,
// fields split at the IFS the read has (its prefix, or each the line
// gives), the last name's rest trimmed, backslash-newline joined without
// -r; mapfile's -s, -O and -d. Each case listed no rm before (checked
// against bash 5 with printf probes); another descriptor (-u 3), a count
// only known when it runs, or an element as the target cannot be told.
func TestCommandsReadsAsBashReads(t *testing.T) {
	rm := []string{"rm -rf /"}
	checkCommands(t, []commandsCase{
		{line: `X=rmdir; read -n 2 b <<< "$X"; $b -rf /`, want: rm},
		{line: `X=rmx; read -N 2 b <<< "$X"; $b -rf /`, want: rm},
		{line: `X='rm;x'; read -d ';' b <<< "$X"; $b -rf /`, want: rm},
		{line: `X='rm;x'; read -rd';' b <<< "$X"; $b -rf /`, want: rm},
		{line: `X='rm -rf /,x'; IFS=, read -ra p <<< "$X"; ${p[0]}`, want: rm},
		{line: `IFS=, read -r a b <<< 'x,rm -rf /'; $b`, want: rm},
		{line: `X=x:rm; IFS=:; read a b <<< "$X"; $b -rf /`, want: rm},
		{line: `IFS=:; read a b <<< x:rm; $b -rf /`, want: rm},
		{line: `X=rm; mapfile -O 1 -t a <<< "$X"; ${a[1]} -rf /`, want: rm},
		{line: "X=$'x\\nrm'; mapfile -s 1 -t a <<< \"$X\"; ${a[0]} -rf /", want: rm},
		{line: `X=x:rm; mapfile -td: a <<< "$X"; ${a[1]} -rf /`, want: rm},
		{line: `X='rm -rf /'; read -ar x <<< "$X"; "${r[@]}"`, want: rm},
		{line: "read b <<< 'r\\\nm'; $b -rf /", want: rm},
		{line: `read b <<< 'rm   '; "$b" -rf /`, want: rm},
		{line: `p=X; Z=rm; for i in 1 2; do read b <<< "${!p}"; $b -rf /; read X <<< "$Z"; done`, want: rm},
		{line: `p=X; for i in 1 2; do b=${!p}; $b -rf /; X=rm; done`, want: rm},
		{line: "read -r -d '' S <<EOF\nrm -rf /tmp/v\nEOF\neval \"$S\"", want: []string{"rm -rf /tmp/v"}},
		{line: `X=rm; read -u 0 b <<< "$X"; $b -rf /`, want: rm},
		{line: `X=rm; while read c <&0; do $c -rf /; done <<< "$X"`, want: rm},
		{line: `read c <<< rm <&0; $c -rf /`, want: rm},
		{line: `read -u 3 b <<< rm; $b -rf /`, not: rm}, // fd 3, not the here-string
		{line: `X=rm; read -u 3 b 3<<< "$X"; $b -rf /`, want: rm},
		{line: `{ read -u 3 b; $b -rf /; } 3<<< rm`, want: rm},
		{line: `X=rm; while read -u 9 c; do $c -rf /; done 9<<< "$X"`, want: rm},
		{line: `exec 3<<< rm; read -u3 x; $x -rf /`, want: rm},
		{line: `while read -u 9 c; do $c -rf /; done 9< list`, want: []string{"$c -rf /"}, not: rm},
		{line: `n=b; read "$n" <<< rm; $b -rf /`, want: rm},
		{line: `read "$N" <<< rm; $b -rf /`, err: "named by a value only known when it runs"},
		{line: `read -p "$PROMPT" -t "$T" b <<< rm; $b -rf /`, want: rm},
		// set -euo pipefail: o takes the next word, no $1.
		{line: `set -euo pipefail; echo "$1"`, not: []string{"echo pipefail"}},
		// printf -v of the line's values, and into a name they give.
		{line: `X=rm; printf -v b '%s' "$X"; $b -rf /`, want: rm},
		{line: `X=r; printf -v b '%sm' $X; $b -rf /`, want: rm},
		{line: `n=b; printf -v "$n" rm; $b -rf /`, want: rm},
		{line: `printf -v "$N" rm; $b -rf /`, err: "named by a value only known when it runs"},
		{line: `X=rmx; printf -v c %.2s "$X"; $c -rf /`, want: rm},
		{line: `printf -v c %.2s rmx; $c -rf /`, want: rm},
		{line: `printf -v c 'r%sm'; $c -rf /`, want: rm},
		{line: `printf -v c '%.2d' 5; $c`, err: "c may hold values"},    // a precision on a number is not made here
		{line: `printf -v c '%3s' 'é'; "$c"`, err: "c may hold values"}, // bash pads by bytes in a C locale
		{line: `printf -v b '%s' "$(date)"; echo $b`, want: []string{"echo $b"}},
		{line: `f() { read -r "$1" <<< "$2"; }; f x y`, err: "runs its arguments"},
		{line: `IFS=$SEP; read a b <<< 'x,rm'; "$b" -rf /`, err: "variable b may hold"},
		{line: `IFS=$(cat sep); read a b <<< 'x,rm'; "$b" -rf /`, err: "variable b may hold"},
		{line: `SEP=,; IFS=$SEP; read a b <<< 'x,rm'; "$b" -rf /`, want: rm},
		{line: `OLD=$IFS; IFS=,; read a b <<< 'x,rm'; IFS=$OLD; "$b" -rf /`, want: rm},
		{line: `read -n "$N" b <<< rm; $b -rf /`, err: "variable b may hold"},
		{line: `IFS=$S read b <<< rm; $b -rf /`, err: "variable b may hold"},
		{line: `read 'a[0]' <<< rm; ${a[0]} -rf /`, err: "variable a may hold"},
		// The second review's (each checked with bash 5.2): mapfile keeps
		// the delimiter without -t; -a keeps an empty field between
		// non-blank IFS characters; an escaped delimiter or IFS character
		// is text; -N counts after escapes; -d ends at its first byte;
		// <<- drops the lines' leading tabs; mapfile -O keeps the rest
		// of the array; -aNAME attached is what cannot be told.
		{line: "mapfile a <<< $'echo x\\nrm -rf /'; eval \"${a[@]}\"", want: rm},
		{line: `IFS=, read -ra f <<< 'a,,rm'; "${f[2]}" -rf /`, want: rm},
		{line: `read -d , v <<< 'r\,m,'; "${v//,/}" -rf /`, want: rm},
		{line: `while read -N 2 x; do $x -rf /; done <<< '\abrm'`, want: rm},
		{line: "IFS= read -r c <<-EOF\n\trm\n\tEOF\n\"$c\" -rf /", want: rm},
		{line: `a=(r); mapfile -t -O 1 a <<< m; "${a[0]}${a[1]}" -rf /`, want: rm},
		{line: `N=2; read -aarr -n "$N" <<< rm; ${arr[0]} -rf /`, err: "variable arr may hold"},
		{line: `OLDIFS="$IFS"; IFS="$OLDIFS" read -r a b <<< "rm x"; $a -rf /`, want: rm},
		// What read -r keeps, and a count that cuts a command's name.
		{line: `read -r b <<< 'r\m'; $b -rf /`, want: []string{`r\m -rf /`}, not: rm},
		{line: `read -n 1 b <<< rm; $b -rf /`, not: rm},
	})
}

// The read and mapfile idioms people type stay readable.
func TestCommandsReadsEverydayReads(t *testing.T) {
	checkReads(t, []string{
		`OLDIFS="$IFS"; IFS="$OLDIFS" read -r a b <<< "x y"; echo "$a"`,
		`IFS="$IFS," read -ra parts <<< "a,b c"; echo "${parts[@]}"`,
		"read -r -d '' SCRIPT <<EOF\ncd $HOME && ls\nEOF\necho \"$SCRIPT\"",
		`while IFS= read -r line; do echo "$line"; done <<< "$(git status --short)"`,
		`mapfile -t files < <(git ls-files '*.go'); gofmt -l "${files[@]}"`,
		`read -p "Continue? " ans; [ "$ans" = y ] && make`,
		`read -t 5 -n 1 -r key; echo "$key"`,
		`IFS=. read -r major minor patch <<< "$version"; echo "$major.$((minor+1)).0"`,
		`readarray -t pkgs <<< "$(go list ./...)"; go test "${pkgs[@]}"`,
		`while read -r f; do wc -l "$f"; done < files.txt`,
		`while read -u 9 line; do echo "$line"; done 9< list`,
		`IFS=, read -r name email <<< "$row"; git commit --author="$name <$email>" -m x`,
		"cat <<-EOF > out.txt\n\tline $USER\n\tEOF",
		`printf -v pct "%.1f" "$x"; echo "$pct%"`,
		`printf -v q "%q" "$f"; ssh host "cat $q"`,
		`printf -v line "%*s" "$width" ""; echo "${line// /-}"`,
		`printf -v ts "%(%F)T" "$now"; echo $ts`,
		`x=$(du -s . | cut -f1); printf -v h '%.1f' "$x"; echo "$h"`,
		`n=42; printf -v out '%X' "$n"; echo "$out"`,
		`for f in *.txt; do printf -v q '%q' "$f"; echo "$q"; done`,
		"set -euo pipefail\nname=${1:-x}\nprintf -v safe '%q' \"$name\"\nssh host \"mkdir -p $safe\"",
		`IFS="$SEP" read -r a b <<< "$line"; echo $a`,
		`IFS=$SEP; read -r a b <<< "$line"; echo $a`,
	})
}

// The third review's: descriptors as bash numbers and copies them (03 is
// 3; 3<&0 copies what standard input is fed), every exec feed (which ran
// last is only known when the line runs), -u "$fd", an IFS from outside
// read before the line gives it: each lists rm or is an error.
func TestCommandsReadsDescriptorsAsBash(t *testing.T) {
	rm := regexp.MustCompile(`^rm\s`)
	for _, line := range []string{
		"exec 3<<< ls; exec 3<<< rm; read -u 3 x; $x -rf /",
		"if false; then exec 3<<< ls; else exec 3<<< rm; fi; read -u 3 x; $x -rf /",
		"{ exec 3<<< rm; read -u 3 x; } 3<<< ls; $x -rf /",
		"f() { read -u 3 x; $x -rf /; }; exec 3<<< rm; f",
		`e\xec 3<<< rm; read -u 3 x; $x -rf /`, // exec however it is spelled
		`ex''ec 3<<< rm; read -u 3 x; $x -rf /`,
		"read -u 3 x 03<<< rm; $x -rf /",
		"read -u 03 x 3<<< rm; $x -rf /",
		"read -u 3 x <<< rm 3<&0; $x -rf /",
		"while read -u 3 x; do $x -rf /; done <<< rm 3<&0",
		"fd=3; read -u $fd x 3<<< rm; $x -rf /",
		"exec {fd}<<< rm; read -u $fd x; $x -rf /",
		"IFS=$OLD; OLD=$IFS; read a b <<< 'rmXfoo'; $a -rf /",
		"IFS=$((SEP)); read a b <<< 'rm1foo'; $a -rf /",
	} {
		cmds, err := Commands(line)
		if err == nil && !slices.ContainsFunc(cmds, rm.MatchString) {
			t.Errorf("%q: %q lists no rm and is no error", line, cmds)
		}
	}
}
