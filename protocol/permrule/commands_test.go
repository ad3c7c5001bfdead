package permrule

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestCommands: each command a line runs, however it is spelled or
// wrapped, as the argv it gets; and an error for what cannot be read.
func TestCommands(t *testing.T) {
	checkCommands(t, []commandsCase{
		{line: "rm -rf /", want: []string{"rm -rf /"}},
		{line: `r\m -r"f" '/'`, want: []string{"rm -rf /"}},
		{line: "rm -r \\\n  -f /", want: []string{"rm -r -f /"}},
		{line: "sudo /bin/rm -rf x", want: []string{"sudo /bin/rm -rf x", "/bin/rm -rf x", "rm -rf x"}},
		{line: "find . -name '*.o' -exec rm -rf {} +", want: []string{"rm -rf {}"}},
		{line: "find . -print0 | xargs -0 rm -rf", want: []string{"rm -rf"}},
		{line: "bash -c 'cd /tmp && rm -rf x'", want: []string{"cd /tmp", "rm -rf x"}},
		{line: "case $x in a) rm -rf /;; esac", want: []string{"rm -rf /"}},
		{line: "echo $(rm -rf /)", want: []string{"rm -rf /"}},
		{line: "X=1 env -i timeout 5 nice rm -rf /", want: []string{"rm -rf /"}},
		{line: "git commit -m 'rm -rf /'", want: []string{"git commit -m rm -rf /"}, not: []string{"rm -rf /"}},
		{line: "echo rm -rf /", not: []string{"rm -rf /"}},
		{line: "$X -rf /", want: []string{"$X -rf /"}},
		// A name only known when it runs may be empty (an unset $X, $@,
		// $(true) vanish unquoted) or a wrapper (X=sudo): bash then runs
		// the words after it, which are listed as an unknown wrapper's.
		{line: "$NOPE rm -rf /", want: []string{"$NOPE rm -rf /", "rm -rf /"}},
		{line: "${NOPE} rm -rf /", want: []string{"rm -rf /"}},
		{line: "$@ rm -rf /", want: []string{"rm -rf /"}},
		// A name that is a command's output may be any program
		// ($(echo rm) -rf /): what runs cannot be read (output_code.go).
		{line: "$(true) rm -rf /", err: "named by a command's output"},
		{line: "`true` rm -rf /", err: "named by a command's output"},
		{line: `"$W" sudo rm -rf /`, want: []string{"sudo rm -rf /", "rm -rf /"}},
		{line: "$X $Y rm -rf /", want: []string{"rm -rf /"}},
		{line: "RUN=echo; $RUN rm -rf /", want: []string{"echo rm -rf /"}, not: []string{"rm -rf /"}}, // the line's value
		// So may a word after the name: git then takes the next one for
		// its command. A word that cannot vanish stays.
		{line: "git $NOPE push --force", want: []string{"git $NOPE push --force", "git push --force"}},
		{line: "git $(true) push --force", want: []string{"git push --force"}},
		{line: `git "$@" push --force`, want: []string{"git push --force"}},
		{line: `git "$R" push`, not: []string{"git push"}},
		{line: `git x$R push`, not: []string{"git push"}},
		{line: "X=-rf; rm $X /", want: []string{"rm -rf /"}, not: []string{"rm /"}}, // the line's values expand it
		// A variable the line gives a value: each command is also listed
		// with each value it may have there (as written too).
		{line: "X=-rf; rm $X /", want: []string{"rm $X /", "rm -rf /"}},
		{line: `X="-r -f"; rm $X /`, want: []string{"rm -r -f /"}},
		{line: `X="-r -f"; rm "$X" /`, want: []string{"rm -r -f /"}, not: []string{"rm -r -f  /"}},
		{line: "X=rm; $X -rf /", want: []string{"$X -rf /", "rm -rf /"}},
		{line: "X=rm; sudo ${X} -rf /", want: []string{"rm -rf /"}},
		{line: "export F=f; rm -r$F /", want: []string{"rm -rf /"}},
		{line: "local a=-rf; rm $a x", want: []string{"rm -rf x"}},
		{line: "for o in -v -rf; do rm $o /; done", want: []string{"rm -v /", "rm -rf /"}},
		{line: "rm $X /; X=-rf", want: []string{"rm -rf /"}}, // a loop may run it after
		{line: "X=-r; X+=f; rm $X /", want: []string{"rm -rf /"}},
		{line: "X=-; X+=r; X+=f; rm $X /", want: []string{"rm -rf /"}},
		{line: "rm ${X:--rf} /", want: []string{"rm -rf /"}},
		{line: "X=-v; rm ${X:=-rf} /", want: []string{"rm -v /", "rm -rf /"}},
		{line: "rm ${X:+-rf} /", want: []string{"rm -rf /", "rm /"}},
		{line: "A=-r; rm $A$B /", want: []string{"rm -r /"}},
		{line: "X=-rf; bash -c \"rm $X /\"", want: []string{"rm -rf /"}},
		{line: "X=$(date); rm $X", want: []string{"rm $X"}},
		{line: "Y=-rf; X=$Y; rm $X /", want: []string{"rm $X /", "rm -rf /"}},
		{line: "A=-r; B=${A}f; C=\"$B /\"; rm $C", want: []string{"rm -rf /"}},
		{line: "X=-rf; set -- $X /; rm \"$@\"", want: []string{"rm -rf /"}},
		{line: "set -- -rf; rm $1 /", want: []string{"rm -rf /"}},
		{line: "X='-v -rf'; for o in $X; do rm $o /; done", want: []string{"rm -rf /"}},
		{line: "a=([5]=-rf); rm ${a[5]} /", want: []string{"rm -rf /"}},
		{line: "declare -A m=([k]=-rf); rm ${m[k]} /", want: []string{"rm -rf /"}},
		{line: "X=$X-r; X=${X}f; rm $X /", want: []string{"rm -rf /"}},
		{line: "for f in *.o; do rm $f; done", want: []string{"rm $f"}, not: []string{"rm *.o"}}, // a file's name, not the pattern
		{line: "X=-rf; echo ${#X} ${X/r/} ${X^^}", want: []string{"echo ${#X} ${X/r/} ${X^^}", "echo 3 -f -RF"}},
		// The second attack review's lines (each ran rm -rf in bash 5.2).
		{line: "X=-rf; eval 'rm $X x'", want: []string{"rm -rf x"}},
		{line: "export X=-rf; bash -c 'rm $X x'", want: []string{"rm -rf x"}},
		{line: "X=-rf; trap 'rm $X x' EXIT", want: []string{"rm -rf x"}},
		{line: "shopt -s expand_aliases\nalias r='rm $O'\nO=-rf; r x", want: []string{"rm -rf x"}},
		{line: "X=-rf; rm $Y$X x; Y=zz", want: []string{"rm -rf x"}},
		{line: "Y=zz true; X=-rf; rm $Y$X x", want: []string{"rm -rf x"}},
		{line: "X=-fr; rm $X x; IFS=r", want: []string{"rm -fr x"}},
		{line: "f() { local IFS=-; echo; }; X=-rf; rm $X x", want: []string{"rm -rf x"}},
		{line: "a=(-v -rf); i=1; rm ${a[i]} x", want: []string{"rm -rf x"}},
		{line: "rm=1; ${!r*} -rf x", want: []string{"rm -rf x"}},
		{line: "X=Y; Y=-rf; rm ${!X} x", want: []string{"rm -rf x"}},
		{line: "set -e -- -rf; rm $1 x", want: []string{"rm -rf x"}},
		{line: "command set -- -rf; rm $1 x", want: []string{"rm -rf x"}},
		{line: "set -- -v -rf; shift; rm $1 x", want: []string{"rm -rf x"}},
		{line: "set -- -rf; for o; do rm $o x; done", want: []string{"rm -rf x"}},
		{line: "declare -n X=Y; Y=-rf; rm $X x", want: []string{"rm -rf x"}},
		{line: "declare -l c=RM; $c -rf x", want: []string{"rm -rf x"}},
		{line: "X=-rf; rm $X x ${X:0:$((i++))}", want: []string{"rm -rf x"}},
		{line: "X='\\0'; Y=${X@E}; Z=${Y@Q}; rm $X", want: []string{"rm $X"}}, // mvdan.cc/sh panicked on Z
		{line: "X='\\0'; Y=${X@E}; rm ${Y@Q}", want: []string{"rm ${Y@Q}"}},   // the expander panics: no listing of it
		{line: "(( ${x:='\\0'}1 + ${y:=${x@E}}1 + ${y@Q}2 ))", not: []string{"x"}},
		{line: "a=(rm); a+=(-rf x); \"${a[@]}\"", want: []string{"rm -rf x"}},
		{line: "a=([1]=-rf [0]=rm); \"${a[@]}\" x", want: []string{"rm -rf x"}},
		{line: "a=([0x1]=-rf [0]=rm); rm ${a[1]} x", want: []string{"rm -rf x"}},
		{line: "a=(rm -v); a[1]=-rf; \"${a[@]}\" x", want: []string{"rm -rf x"}},
		{line: "a=(x -rf y); a=rm; \"${a[@]}\"", want: []string{"rm -rf y"}},
		{line: "a=(r -rf x); a+=m; \"${a[@]}\"", want: []string{"rm -rf x"}},
		{line: "X=-rf; a=($X x); rm \"${a[@]}\"", want: []string{"rm -rf x"}},
		{line: "declare -l c; c=RM; $c -rf x", want: []string{"rm -rf x"}},
		{line: "declare -a X='(rm -rf x)'; \"${X[@]}\"", want: []string{"rm -rf x"}},
		{line: "a=(x -v -rf); declare -i i=1; i+=1; rm ${a[$i]} x", want: []string{"rm -rf x"}},
		{line: "a=(-v -rf); ((i=1)); rm ${a[$i]} x", want: []string{"rm -rf x"}},
		{line: "a=(-v -rf); for ((i=0; i<${#a[@]}; i++)); do rm ${a[$i]} x; done", want: []string{"rm -rf x"}},
		{line: "sh -c 'rm $1 x' sh -rf", want: []string{"rm -rf x"}},
		{line: "eval X=-rf; rm $X x", want: []string{"rm -rf x"}},
		{line: "command declare X=-rf; rm $X x", want: []string{"rm -rf x"}},
		{line: "declare \"X=-rf\"; rm $X x", want: []string{"rm -rf x"}},
		{line: "getopts r o -r; rm -f$o x", want: []string{"rm -fr x"}},
		{line: ": -rf; rm $_ x", want: []string{"rm -rf x"}},
		{line: "[[ -rf =~ .* ]]; rm ${BASH_REMATCH[0]} x", want: []string{"rm -rf x"}},
		{line: "read X <<< -rf; rm $X x", want: []string{"rm -rf x"}},
		{line: "mapfile -t a <<< $'rm\\n-rf\\nx'; \"${a[@]}\"", want: []string{"rm -rf x"}},
		{line: "X=-r; rm ${X/r/&f} y", err: "patsub_replacement"},
		{line: "shopt -s nocasematch\nX=-Af; rm ${X//a/r} y", err: "nocasematch"},
		{line: "for i in 1 2 3 4 5 6 7 8 9 10 11; do rm $A x; A=$B; B=$C; C=$D; D=$E; E=$F; F=$G; G=$H; H=$I; I=$J; J=-rf; done", err: "values"},
		// The third attack review's.
		{line: "i=1; a=(rm); a[$i]=-rf; \"${a[@]}\" x", want: []string{"rm -rf x"}},
		{line: "i=1; a=([0]=rm [i]=-rf); \"${a[@]}\" x", want: []string{"rm -rf x"}},
		{line: "a=(-v -rf x); n=1; ((i=n)); rm ${a[$i]} y", want: []string{"rm -rf y"}},
		{line: "a=(-v -rf x); n=1; let i=n; rm ${a[$i]} y", want: []string{"rm -rf y"}},
		{line: "declare -i n; n=1+1; a=(x y -rf); rm ${a[n]} z", want: []string{"rm -rf z"}},
		{line: "IFS=, read -ra p <<< \"rm,-rf,x\"; \"${p[@]}\"", want: []string{"rm -rf x"}},
		{line: "declare -A m=([a]=-rf [b]=rm); ${m[@]} x", want: []string{"rm -rf x"}},
		{line: "getopts f: o -f-rf; rm $OPTARG x", want: []string{"rm -rf x"}},
		{line: "bash -c 'rm -r$0 x' f", want: []string{"rm -rf x"}},
		{line: "set -- a b -rf; rm ${!#} x", want: []string{"rm -rf x"}},
		{line: "X=-rf; eval \"Y=$X\"; rm $Y x", want: []string{"rm -rf x"}},
		{line: "[[ rm-rf =~ (rm)(-rf) ]]; ${BASH_REMATCH[1]} ${BASH_REMATCH[2]} x", want: []string{"rm -rf x"}},
		{line: "shopt -s ext''glob\nX=-xf; rm ${X/@(x|y)/r} y", err: "nocasematch or extglob"},
		{line: "A='&f'; X=-r; rm ${X/r/$A} y", err: "patsub_replacement"},
		{line: "git commit -m \"docs: mention extglob\"; f=main.go; echo \"${f%.go}\"", want: []string{"echo main"}},
		{line: "shopt -u extglob; f=main.go; echo \"${f%.go}\"", want: []string{"echo main"}},
		{line: "s='a & b'; s=${s//&/&amp;}; echo \"$s\"", want: []string{"echo a &amp; b"}},
		{line: "arr=(a b c); for i in \"${!arr[@]}\"; do echo \"$i ${arr[$i]}\"; done", want: []string{"echo 2 c"}},
		{line: "count=0; for f in *.go; do count=$((count+1)); done; echo \"avg $((1000 / count))\"", want: []string{"echo avg 1000"}},
		{line: "versions=(); for t in v1 v2 v3; do versions+=(\"$t\"); done; echo \"latest: ${versions[-1]}\"", want: []string{"echo latest: v3"}},
		{line: "passed=0; for t in tests/*; do ./$t && passed=$((passed+1)); done", want: []string{"./$t"}},
		{line: "for ((i=0; i<3; i++)); do for ((j=0; j<3; j++)); do echo \"$i$j\"; done; done", want: []string{"echo 22"}},
		// A function's arguments only read: the word a case matches, a file
		// a redirection names, what an inert command reads (the corpus
		// review's); a shell's input is not that.
		{line: "count_lines() { wc -l < \"$1\"; }; count_lines a.txt", want: []string{"wc -l"}},
		{line: "parse() { case \"$1\" in -e) E=\"$2\"; shift 2;; esac; }; parse -e x", want: []string{"parse -e x"}},
		{line: "usage() { cat <<EOF\nusage: $0 [-v]\nEOF\n}; usage", want: []string{"usage"}},
		{line: "f() { echo x > \"$1\"; }; f out.txt", want: []string{"f out.txt"}},
		{line: "f() { bash <<< \"$1\"; }; f 'rm -rf x'", err: "runs its arguments"},
		{line: "f() { sh < \"$1\"; }; f s.sh", err: "runs its arguments"},
		{line: "f() { case \"$1\" in *) \"$1\" -rf x;; esac; }; f rm", err: "runs its arguments"},
		// Everyday lines that must read (the review's false refusals).
		{line: "set -- a; set -- \"$@\" b; set -- \"$@\" c; echo \"$@\"", want: []string{"echo a b c"}},
		{line: "ARGS=-v; ARGS+=\" -race\"; ARGS+=\" -count=1\"; ARGS+=\" -run x\"; ARGS+=\" -p 2\"; ARGS+=\" -cpu 1\"; ARGS+=\" -short\"; go test $ARGS ./...",
			want: []string{"go test -v -race -count=1 -run x -p 2 -cpu 1 -short ./..."}},
		{line: "docker run -e A=${A:-a} -e B=${B:-b} -e C=${C:-c} -e D=${D:-d} -e E=${E:-e} -e F=${F:-f} -e G=${G:-g} -e H=${H:-h} -e I=${I:-i} img",
			want: []string{"docker run -e A=a -e B=b -e C=c -e D=d -e E=e -e F=f -e G=g -e H=h -e I=i img"}},
		{line: "for h in " + strings.Repeat("h ", 70) + "h; do ssh $h uptime; done", want: []string{"ssh h uptime"}},
		// Every expansion bash makes of a value, by mvdan.cc/sh's expand.
		{line: "a=(-rf /); rm \"${a[@]}\"", want: []string{"rm -rf /"}},
		{line: "a=(-v -rf); rm ${a[1]} /", want: []string{"rm -rf /"}},
		{line: "X=-RF; rm ${X,,} /", want: []string{"rm -rf /"}},
		{line: "X=x-rf; rm ${X#x} /", want: []string{"rm -rf /"}},
		{line: "X=-rX; rm ${X/X/f} /", want: []string{"rm -rf /"}},
		{line: "X=--rf; rm ${X:1} /", want: []string{"rm -rf /"}},
		{line: "IFS=,; X=-r,-f; rm $X /", want: []string{"rm -r -f /"}},
		// bash and sh start with IFS at space, tab and newline and never
		// take it from the environment: a line that gives IFS no value
		// still reads it as that.
		{line: "rm${IFS}-rf${IFS}/", want: []string{"rm${IFS}-rf${IFS}/", "rm -rf /"}},
		{line: "rm -Rf$IFS/", want: []string{"rm -Rf /"}},
		{line: "sudo rm$IFS-rf$IFS/tmp/v", want: []string{"rm -rf /tmp/v"}},
		{line: `"rm${IFS}-rf" /`, not: []string{"rm -rf /"}}, // quoted: one word, no rm
		{line: "IFS=_; X=rm_-rf_/; $X; rm${IFS}-v${IFS}x", want: []string{"rm -rf /", "rm -v x"}},
		{line: "bash -c 'rm${IFS}-rf${IFS}/'", want: []string{"rm -rf /"}},
		// read and mapfile from a here-document, and inside a loop or
		// group fed one.
		{line: "read c <<'EOF'\nrm\nEOF\n$c -rf /", want: []string{"rm -rf /"}},
		{line: "while read c; do $c -rf /; done <<< rm", want: []string{"rm -rf /"}},
		{line: "while read -r a b; do $a $b /; done <<'EOF'\nrm -rf\nEOF", want: []string{"rm -rf /"}},
		{line: "{ read c; $c -rf /; } <<< rm", want: []string{"rm -rf /"}},
		{line: "while read c; do $c; done <<'EOF'\necho hi\nr\\m -rf /\nEOF", want: []string{"rm -rf /"}},         // each line
		{line: "{ cat <<EOF; read c; $c -rf /; } <<< rm\na $(x)\nEOF", want: []string{"rm -rf /"}},                // a body's command comes later in the text
		{line: "while read c; do (read d < f; $c $d); done <<< rm", want: []string{"rm"}, not: []string{"rm rm"}}, // d: the file's
		{line: "while read c; do $c -rf /; done < list", want: []string{"$c -rf /"}},
		// env and sudo give the command they run its variables.
		{line: "env c=rm bash -c '$c -rf /'", want: []string{"rm -rf /"}},
		{line: "sudo -E c=rm bash -c '$c -rf /'", want: []string{"rm -rf /"}},
		{line: "sudo env -i c=rm o=-rf sh -c '$c $o /'", want: []string{"rm -rf /"}},
		{line: "env -u X c=rm bash -c 'echo $c'", want: []string{"echo rm"}},
		{line: "/usr/bin/env c=rm bash -c '$c -rf /'", want: []string{"rm -rf /"}},
		{line: "nice timeout 5 env c=rm bash -c '$c -rf /'", want: []string{"rm -rf /"}},
		{line: "sudo --user root c=rm bash -c '$c -rf /'", want: []string{"rm -rf /"}},
		{line: "env -iu X c=rm bash -c '$c -rf /'", want: []string{"rm -rf /"}},
		{line: "'env' c=rm bash -c '$c -rf /'", want: []string{"rm -rf /"}},
		// at and batch run the script their standard input holds, later.
		{line: "at now <<< 'rm -rf /'", want: []string{"rm -rf /"}},
		{line: "batch <<'EOF'\nrm -rf /srv\nEOF", want: []string{"rm -rf /srv"}},
		{line: "echo 'rm -rf /' | at now", err: "standard input"},
		{line: "at -l", want: []string{"at -l"}},
		{line: "at -V", want: []string{"at -V"}},
		{line: "at -f /dev/stdin now <<< 'rm -rf /'", want: []string{"rm -rf /"}},
		{line: "at -f <(echo 'rm -rf /') now", err: "descriptor"},
		{line: "at -f job.sh now", want: []string{"at -f job.sh now"}},
		// Wrappers that run the command in their operands.
		{line: "gdb -batch -ex run --args rm -rf /", want: []string{"rm -rf /"}},
		{line: "faketime now rm -rf /", want: []string{"rm -rf /"}},
		{line: "xterm -e rm -rf /", want: []string{"rm -rf /"}},
		// printf -v with static words: the value printf makes.
		{line: "printf -v c rm; $c -rf /", want: []string{"$c -rf /", "rm -rf /"}},
		{line: `printf -v c '\x72\x6d'; $c -rf /`, want: []string{"rm -rf /"}},
		{line: "printf -vc %s%s r m; $c -rf /", want: []string{"rm -rf /"}},
		{line: "printf -v o -- '-%s' r f; rm $o /", want: []string{"rm -r-f /"}},
		{line: "printf -v o '%b' '-\\x72f'; rm $o /", want: []string{"rm -rf /"}},
		{line: "printf -v c '%5s' rm; $c -rf /", want: []string{"rm -rf /"}}, // "   rm": split, rm
		// A format expand.Format does not make as bash does, or past the
		// bounds: the value cannot be told.
		{line: "printf -v c '%9999s' rm; $c -rf /", err: "c may hold values"},
		{line: "printf -v c %.2s rmx; $c -rf /", want: []string{"rm -rf /"}}, // a precision is cut as bash cuts it
		{line: "printf -v c %q rm; $c -rf /", err: "c may hold values"},
		{line: "printf -v c %q rm; echo done", want: []string{"echo done"}},   // where it is not expanded, no matter
		{line: "printf -v c 'rm%c'; $c -rf /", err: "c may hold values"},      // bash: a NUL, which ends the value
		{line: `printf -v c %b 'rm\c'; $c -rf /`, err: "c may hold values"},   // bash stops at \c
		{line: `printf -v c %b '\0162m'; $c -rf /`, err: "c may hold values"}, // bash: \0 and three digits
		{line: "printf -v c %05s rm; $c -rf /", err: "c may hold values"},     // bash pads a string with spaces
		{line: `printf -v c %d "'r"; $c -rf /`, err: "c may hold values"},     // bash: the code of r
		{line: "printf -v n %05d 42; touch f$n", want: []string{"touch f00042"}},
		{line: "printf -v c '%-3s|' rm; $c -rf /", want: []string{"rm | -rf /"}},
		{line: "printf -v c -v d rm; $d -rf /", want: []string{"rm -rf /"}}, // the last -v
		{line: "printf -v c %%300s; echo $c", want: []string{"echo %300s"}},
		{line: "printf -v c \"$x\"; $c -rf /", want: []string{"$c -rf /"}}, // a value only known when it runs
		{line: "X=-rf; rm $X$(true) /", want: []string{"rm -rf /"}},
		{line: "rm ${X:+-rf} ${Y:-/}", want: []string{"rm -rf /", "rm /", "rm -rf $Y"}},
		{line: "X=-rf; rm ~nobody/$X", want: []string{"rm ~nobody/-rf"}},
		{line: "X=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + strings.Repeat("a", 1100) + "; echo ${X//a/$X}", err: "expand to more text"},
		{line: "X=1; echo $X{1..2000}", err: "brace"},
		{line: assigns("X", 4096) + "X=-rf; rm $X /", err: "values"},
		{line: assigns("X", 4094) + "X=-rf; rm $X /", want: []string{"rm -rf /"}},
		{line: assigns("A", 15) + assigns("B", 15) + assigns("C", 15) + "echo $A $B $C", want: []string{"echo A9 B9 C9"}},
		// Past 4,096 assignments, plain values are taken one at a time, each
		// with every assignment of the others' other values.
		{line: assigns("A", 16) + assigns("B", 16) + assigns("C", 17) + "echo $A $B $C", want: []string{"echo A15 B0 C0", "echo A0 B0 C16"}},
		{line: assigns("A", 80) + "A=-r; " + assigns("B", 80) + "B=f; rm $A$B x", want: []string{"rm -rf x"}},
		{line: assigns("A", 80) + "A=-r; A=-v; " + assigns("B", 80) + "B=f; B=-x; " + assigns("C", 80) + "C=-f; C=-y; rm $A$B$C x", want: []string{"rm -rf-f x", "rm -r-x-f x"}},
		{line: "for i in {1..2000}; do echo \"line $i\" >> big.txt; done", want: []string{"echo line 2000"}},
		{line: "for ((i=0; i<100; i++)); do for ((j=0; j<100; j++)); do echo $((i*j)); done; done", want: []string{"echo 0"}},
		{line: "find . -maxdepth 0 -exec rm + -rf /tmp/v \\;", want: []string{"rm + -rf /tmp/v"}},
		{line: "find . -exec rm -rf {} + -exec ls ;", want: []string{"rm -rf {}", "ls"}},
		{line: "fakeroot rm -rf x", want: []string{"rm -rf x"}},
		{line: "taskset -c 0 rm -rf x", want: []string{"rm -rf x"}},
		{line: "strace -f -o /dev/null rm -rf x", want: []string{"rm -rf x"}},
		{line: `bash -c "r\m -r'f' x # $HOME"`, want: []string{"rm -rf x"}},
		{line: `eval "r\m -rf x # $HOME"`, want: []string{"rm -rf x"}},
		{line: "bash - <<< \"r\\m -rf x\"", want: []string{"rm -rf x"}},
		{line: "source /dev/stdin <<< 'rm -rf x'", want: []string{"rm -rf x"}},
		{line: "echo 'rm -rf x' | bash", err: "standard input"},
		{line: "env -S 'rm\\_-rf\\_/tmp/v'", err: "options this analysis does not read"},
		{line: "/bin/r? -rf x", err: "expands"},
		{line: "$'\\x{72}m' -rf x", err: "escape"},
		{line: "rm -r $'-\\x{66}' x", err: "escape"},
		{line: "echo " + strings.Repeat("(", maxNesting+1), err: "nests"},
		{line: "rm -{r,f} /tmp/v", want: []string{"rm -r -f /tmp/v"}},
		{line: "rm -r{,f} x", want: []string{"rm -r -rf x"}},
		{line: "{rm,-rf,/tmp/v}", want: []string{"rm -rf /tmp/v"}},
		{line: "rm '-{r,f}' x", want: []string{"rm -{r,f} x"}},
		{line: "touch f{1..2000}", err: "brace expansions"},
		{line: strings.Repeat("{0..999} ", 200), err: "brace expansions"},
		{line: "bash -c 'echo rm -rf x | sh' </dev/null", err: "standard input"},
		{line: "bash -c 'sh <&3' 3<<<'rm -rf x' <<<true", err: "standard input"},
		{line: "bash -c 'sh' <<< 'rm -rf x'", want: []string{"rm -rf x"}},
		{line: "[[ 1 -eq 'a[$(rm -rf ~)]+1'$'\\x{20}' ]]", err: "arithmetic"},
		{line: `f(){ sudo "${10}"; }; f`, err: "runs its arguments"},
		{line: `f() { echo "$(eval "$1")"; }; f 'rm -rf x'`, err: "runs its arguments"},
		{line: `f() { git "$@"; }; f -c alias.x='!rm -rf y' x`, err: "runs its arguments"},
		{line: `f() { (( $1 )); }; f x`, err: "runs its arguments"},
		{line: `f() { printf -v "$1" %s x; }; f y`, err: "runs its arguments"},
		{line: `f() { printf -v"$1" %s x; }; f y`, err: "runs its arguments"},
		{line: `f() { [ "$2" "$1" ]; }; f y -v`, err: "runs its arguments"},
		{line: `f() { sort "$@"; }; f --compress-program=rm big`, err: "runs its arguments"},
		{line: `X='$(rm -rf y)'; PS4=$X; set -x; :`, err: "PS4"},
		{line: `echo "[$(date)] ok"`, want: []string{"date"}},
		{line: "let 'x=a[$(rm -rf x)]'", err: "arithmetic"},
		{line: "shopt -s expand_aliases\nalias h=env\nh rm -rf y", want: []string{"env rm -rf y", "rm -rf y"}},
		{line: "alias ls='ls -l'\nls x", want: []string{"ls -l x"}},
		{line: "BASH_ALIASES[h]='rm -rf'\nh y", err: "BASH_ALIASES"},
		{line: `PS4='$(rm -rf y)' bash -xc :`, err: "PS4"},
		{line: `env 'BASH_FUNC_ls%%=() { rm -rf y; }' bash -c ls`, err: "BASH_FUNC_ls%%"},
		{line: `env x.y=1 rm -rf y`, want: []string{"rm -rf y"}},
		{line: `echo "${p@P}"`, err: "prompt"},
		{line: "set -o history\nhistory -s rm -rf y\nfc -s", err: "history"},
		{line: `bash //dev/stdin <<< 'rm -rf y'`, want: []string{"rm -rf y"}},
		{line: "cat <<EOF\nEO\\\nF\nrm -rf y\nEOF", err: "here-document"},
		{line: "x=$(cat <<'EOF'\nEOF)\nrm -rf y\nEOF\n)", err: "here-document"},
		{line: "cat <<'EOF'\n  EOF\nEOF", want: []string{"cat"}},
		{line: `git -C repo push --force`, want: []string{"git push --force"}},
		{line: `/usr/lib/git-core/git-push -f`, want: []string{"git push -f"}},
		{line: `alias sudo=echo; sudo rm -rf x`, want: []string{"echo rm -rf x", "rm -rf x"}},
		{line: `read -r PS4 <<< '$(rm -rf y)'`, err: "PS4"},
		{line: aliasFanOut(), err: "aliases"},
		{line: `echo "${arr[$((i+1))]}" "${a[$(rm -rf x)]}"`, want: []string{"rm -rf x"}},
		{line: "echo \"${arr['a[$(rm -rf x)]']}\"", err: "arithmetic"},
		{line: `let 'x=a['"$(date)"'$(rm -rf y)]'`, err: "arithmetic"},
		{line: `let "$x"'[$(rm -rf y)]'`, err: "arithmetic"},
		{line: "[[ 1 -eq 'a[$(rm -rf x)]' ]]", err: "arithmetic"},
		{line: "declare -i x='a[$(rm -rf x)]'", err: "arithmetic"},
		{line: "declare x='$(not run)'; let 'y=1+2'", want: []string{"declare x=$(not run)"}},
		{line: `bash -c 'r\m -rf y'"$X"`, want: []string{"rm -rf y$X"}},
		{line: `eval "r\m -rf y #" $HOME`, want: []string{"rm -rf y"}},
		{line: `watch -n1 "r\m -rf y"$X`, want: []string{"rm -rf y$X"}},
		{line: "eval $(ssh-agent -s)", want: []string{"ssh-agent -s"}},
		{line: "unset 'a[$(rm -rf y)]'", err: "arithmetic"},
		{line: "let $'a\\x5b$(rm -rf y)]'", err: "arithmetic"}, // the [ only in the value
		{line: "printf -v 'a[$(rm -rf y)]' x", err: "arithmetic"},
		{line: `let "x=a[\$(rm -rf y)]$Z"`, err: "arithmetic"},
		{line: "declare -i 'x=a[$(rm -rf y)]'", err: "arithmetic"},
		{line: "for ((i='a[$(rm -rf y)]';0;)); do :; done", err: "arithmetic"},
		{line: "bash /dev/fd/3 3<<<'rm -rf y' <<<ls", err: "descriptor"},
		{line: "source /dev/fd/3 3<<<'rm -rf y' <<<ls", err: "descriptor"},
		{line: "source -- /dev/stdin <<< 'rm -rf y'", want: []string{"rm -rf y"}},
		{line: "BASH_ENV=/dev/stdin bash -c true <<< 'rm -rf y'", err: "BASH_ENV"},
		{line: "env BASH_ENV=/dev/stdin bash -c true <<< 'rm -rf y'", err: "BASH_ENV"},
		{line: "bash --rcfile <(echo 'rm -rf y') -i </dev/null", err: "start-up file"},
		{line: "bash <(echo 'rm -rf y')", err: "descriptor"},
		{line: "printf 'rm -rf y' | xargs -0 sh -c", err: "not on the line"},
		{line: "taskset -c 0 sh -c 'true; r\\m -rf y'", want: []string{"rm -rf y"}},
		{line: "strace -f -o /dev/null bash -c 'r\\m -rf y'", want: []string{"rm -rf y"}},
		{line: "f(){ r\\m \"$@\"; }; f -rf y", err: "runs its arguments"},
		{line: "hash -p /bin/rm foo; foo -rf y", err: "hash -p"},
		{line: "git diff --name-only | xargs -o nvim", want: []string{"nvim"}},
		{line: "ssh host 'bash -s' < deploy.sh", want: []string{"bash -s"}},
		{line: "ssh host 'bash -s' <<'EOF'\nrm -rf /srv/old\nEOF", want: []string{"rm -rf /srv/old"}},
		{line: "cat <<'EOF' > x.sh\narr[$(date +%s)]=1\nEOF", want: []string{"cat"}},
		{line: "rm -rf / (", err: "cannot be read as Bash"},
		{line: "sh -c 'rm -rf / ('", err: "not all of the command can be read"},
		{line: strings.Repeat("x", maxShellCommand+1), err: "too long"},
		{line: `sh -c 'sh -c "rm -rf /"'`, want: []string{"rm -rf /"}},
	})
}

// TestCommandsDepth: a line nesting command strings deeper than the
// analysis follows is an error, not a list without what the innermost
// runs.
func TestCommandsDepth(t *testing.T) {
	line := "rm -rf /"
	for i := 0; i < maxRunDepth+1; i++ {
		line = "sh -c " + shQuote(line)
	}
	if got, err := Commands(line); err == nil {
		t.Fatalf("%d levels: %q, no error", maxRunDepth+1, got)
	}
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// FuzzCommands: no line makes Commands panic; what it lists is bounded,
// and a line it lists in full has each of its top-level commands' words
// in the list (the first word of a line of plain words is its command).
func FuzzCommands(f *testing.F) {
	for _, s := range []string{"rm -rf /", `sudo sh -c 'r\m -r"f" x'`, "find . -exec rm {} +", "a | b && c; $(d)", "sh -c '(' ", "x\\\n y",
		"zsh -c 'x=(a b); print ${x[@]} $X:r'", "sudo -s rm x", "git -c core.pager=less log", "git config alias.x '!ls'; git x",
		"su -s /bin/zsh -c 'ls'", "a=([0]=x); ${a[0]}; n=a; ${!n}", "echo {a,b}{c,d}", "set -- a b; echo \"$@\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		forms, err := Commands(line)
		if err != nil {
			return
		}
		n := 0
		for _, x := range forms {
			n += len(x)
		}
		if n > maxFormBytes+maxShellCommand {
			t.Fatalf("%q: %d bytes of forms", line, n)
		}
		if w := strings.Fields(line); len(w) > 0 && isPlain(line) && !slices.Contains(forms, strings.Join(w, " ")) {
			t.Fatalf("%q: %q does not list the line itself", line, forms)
		}
	})
}

// isPlain: letters, digits, spaces and - . / only: a single simple command
// with nothing the shell reads specially (not a keyword, not an assignment).
func isPlain(s string) bool {
	for _, c := range s {
		if !(c == ' ' || c == '-' || c == '.' || c == '/' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	w := strings.Fields(s)
	return len(w) > 0 && !shellKeyword(w[0]) && w[0] != "!"
}

// TestCommandsReadsEverydayLines: what an agent types every day is read,
// never an error (which a fail_closed rule on commands() turns into a
// refusal): each check added against an attack must leave these alone.
func TestCommandsReadsEverydayLines(t *testing.T) {
	checkReads(t, []string{
		"git status --short && git diff HEAD~1 -- src/",
		`git commit -am "fix: handle a[0] index"`,
		"git -C repo log --oneline -5 | head",
		"git -c user.name=bot commit -m 'x'",
		"npm run test -- --watch=false",
		"go test ./... -run TestFoo -count=1 2>&1 | tail -20",
		`grep -rn "TODO" src/ | head -20`,
		"find . -name '*.go' -not -path './vendor/*' | xargs wc -l",
		"find . -type f -name '*.py' -exec grep -l 'import os' {} +",
		`for f in *.go; do gofmt -l "$f"; done`,
		"for ((i=0; i<3; i++)); do echo $i; done",
		`i=$((i+1)); echo "${arr[$((i+1))]}" "${#arr[@]}" "${m[key]}"`,
		`[[ $n -eq 3 ]] && echo yes`,
		"cat <<'EOF' > /tmp/x.txt\nhello $(not run)\nEOF",
		"cat > Dockerfile <<EOF\nRUN apt-get update && \\\n    apt-get install -y jq\nEOF",
		"python3 - <<'PY'\nprint('hi')\nPY",
		`python3 -c "import json,sys; print(json.load(sys.stdin)['a'])" < data.json`,
		"awk '{print $1}' access.log | sort | uniq -c | sort -rn | head",
		"sed -i 's/a\\[0\\]/b[1]/g' file.txt",
		"sed -n '1,5p' f && sed -e 's/x/y/' -e '/^$/d' g",
		"jq '.items[0].name' data.json",
		"docker compose up -d && docker compose logs -f --tail 50 web",
		"tar -czf out.tgz dir && tar -xzf a.tgz -C /tmp",
		"rsync -avz -e 'ssh -p 2222' build/ host:/srv/app/",
		"GIT_PAGER=cat git log -3",
		"export PATH=\"$HOME/.local/bin:$PATH\"; which rg",
		"source .venv/bin/activate && pip install -r requirements.txt",
		"while read -r line; do echo \"$line\"; done < file.txt",
		"printf -v out '%s-%s' a b; echo \"$out\"",
		"read -r -p 'Name: ' name",
		"unset VAR; test -v HOME && echo set",
		"trap 'rm -f /tmp/lock' EXIT; touch /tmp/lock",
		`eval "$(ssh-agent -s)"`,
		"alias ll='ls -la'; ll",
		"declare -A m; m[key]=value; echo \"${m[key]}\"",
		"npx prettier --check . && npx -y create-vite app",
		"vim -c 'set ff=unix' -c wq f",
		"make -C sub test -j4",
		"fc -l",
		"tmux new-session -d -s dev 'npm run dev'",
		"PS4='+ ${BASH_SOURCE}:${LINENO}: ' bash -x ./build.sh",
		`export PS1='\u@\h$ '`,
		`compgen -c "$prefix"; mapfile -t "$name" < f`,
		"xargs --version",
		`check() { test -f "$1" && echo ok; }; check go.mod`,
		`usage() { [ "$1" = --help ] && printf '%s\n' "usage: $0"; }; usage -h`,
		`log() { echo "[$(date +%T)] $*"; }; log starting`,
		`f() { local src="$1" dst=$2; [[ -f $src ]] && cp "$src" "$dst"; }; f a b`,
	})
}

// checkReads fails for each line Commands refuses.
func checkReads(t *testing.T, lines []string) {
	t.Helper()
	for _, line := range lines {
		if _, err := Commands(line); err != nil {
			t.Errorf("%q: %v", line, err)
		}
	}
}

// aliasFanOut is a short line whose aliases expand to millions of
// commands: a0 runs a1 eight times, each a1 runs a2 eight times …
func aliasFanOut() string {
	var b strings.Builder
	b.WriteString("alias a7=true\n")
	for i := 6; i >= 0; i-- {
		n := "a" + string(rune('0'+i+1))
		b.WriteString("alias a" + string(rune('0'+i)) + "='" + strings.Repeat(n+";", 7) + n + "'\n")
	}
	b.WriteString("a0")
	return b.String()
}

// assigns is n assignments of distinct values to name: NAME=NAME0; …
func assigns(name string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s=%s%d; ", name, name, i)
	}
	return b.String()
}

// commandsCase is a line, what Commands must list for it and must not
// list, or the error it must give.
type commandsCase struct {
	line string
	want []string // each must be listed
	not  []string // none may be
	err  string
}

// checkCommands runs each case through Commands.
func checkCommands(t *testing.T, cases []commandsCase) {
	t.Helper()
	for _, tc := range cases {
		got, err := Commands(tc.line)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %q, %v; want an error with %q", tc.line, got, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %q does not list %q", tc.line, got, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("%q: %q lists %q", tc.line, got, n)
			}
		}
	}
}
