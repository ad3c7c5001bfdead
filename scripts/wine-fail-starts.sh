#!/bin/sh
# scripts/wine-fail-starts.sh PATTERN [EVERY]: a Wine whose CreateProcess
# fails as CI's Wine 8 now and then does ("Internal error.": the new
# process died in its set-up, before it ran), for every EVERYth start
# (default 3, the first included) of a program whose file name matches the
# extended regex PATTERN (case-insensitive). It prints the directory to
# give make test-windows as WINE_LIBDIR, to check that the tests' starts
# are retried (proctest's helpers, hookproc, TestWindowsScripts):
#
#   WINE_LIBDIR=$(sh scripts/wine-fail-starts.sh '\.test\.exe$') \
#     make test-windows WINE_PKGS=./protocol
#
# Only starts made through CreateProcess (a program named by a Windows
# path) fail, never the test binary go test starts. Each start it matched
# is logged in DIR/log; DIR/count holds how many. Debian's layout only.
#
# How: for every new process Wine execs DIR/wine64-preloader LOADER
# PROGRAM ARGS when the loader's directory holds one (Debian ships none,
# so Wine runs the loader itself). The stand-in written here exits 0
# before the loader ran, which the parent's CreateProcess reports as
# ERROR_INTERNAL_ERROR, or else runs the loader. The loader finds ntdll.so
# at ../x86_64-linux-gnu/wine and its data at ../../share/wine from its own
# directory, so the copy gets links at those places.
#
# Environment: WINE_LIBDIR (/usr/lib/wine: Debian's wine64 and
# wineserver), WINE_FAIL_DIR (bin/wine-fail/lib/wine in the repository).
set -eu

[ $# -ge 1 ] || {
	echo "usage: $0 PATTERN [EVERY]" >&2
	exit 2
}
pattern=$1
every=${2:-3}
case $every in '' | *[!0-9]* | 0)
	echo "$0: EVERY must be a positive number, not $every" >&2
	exit 2
	;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
src=${WINE_LIBDIR:-/usr/lib/wine}
dir=${WINE_FAIL_DIR:-$root/bin/wine-fail/lib/wine}
arch=$(dirname "$(readlink -f "$src")")/x86_64-linux-gnu/wine
share=$(dirname "$(dirname "$(readlink -f "$src")")")/share/wine
for need in "$src/wine64" "$src/wineserver" "$arch" "$share"; do
	[ -e "$need" ] || {
		echo "$0: no $need (Debian's wine64 layout is needed)" >&2
		exit 1
	}
done

mkdir -p "$dir" "$dir/../x86_64-linux-gnu" "$dir/../../share"
cp "$src/wine64" "$dir/wine64"
ln -sfn "$(readlink -f "$src/wineserver")" "$dir/wineserver"
ln -sfn "$arch" "$dir/../x86_64-linux-gnu/wine"
ln -sfn "$share" "$dir/../../share/wine"
printf '%s\n' "$pattern" >"$dir/pattern"
printf '%s\n' "$every" >"$dir/every"
: >"$dir/log"
echo 0 >"$dir/count"

cat >"$dir/wine64-preloader" <<'STANDIN'
#!/bin/sh
# scripts/wine-fail-starts.sh's stand-in for Wine's preloader: $1 is the
# loader, $2 the program.
d=$(dirname "$0")
case ${2:-} in
[A-Za-z]:\\*)
	name=${2##*\\}
	if printf '%s\n' "$name" | grep -Eqi -f "$d/pattern"; then
		# shellcheck disable=SC2016 # expanded by the inner sh
		n=$(flock "$d/count" sh -c 'n=$(cat "$1"); echo $((n + 1)) >"$1"; echo "$n"' sh "$d/count")
		if [ $((n % $(cat "$d/every"))) -eq 0 ]; then
			printf 'start %s failed: %s\n' "$n" "$2" >>"$d/log"
			exit 0
		fi
		printf 'start %s: %s\n' "$n" "$2" >>"$d/log"
	fi
	;;
esac
exec "$@"
STANDIN
chmod 755 "$dir/wine64-preloader"
echo "$dir"
