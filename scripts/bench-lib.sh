# bench-lib: what bench-scale.sh and bench-git.sh share. Sourced, not run:
# sets SIZES, PAIRS, cache (where generated trees are kept) and bin (a
# temporary directory with journal-gen, removed on exit), and defines
# measure and median.
[ -x /usr/bin/time ] || { echo "$0: /usr/bin/time (GNU time) is missing: apt-get install time" >&2; exit 2; }
SIZES=${SIZES:-"10000 100000"}
PAIRS=${PAIRS:-5}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/journal-lint-bench
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/journal-gen" ./cmd/journal-gen

# measure CMD...: prints "wall cpu maxrss_kb" of one run; the wall time to
# the microsecond (git's answers take milliseconds), the CPU time user plus
# system.
measure() {
	local t0=$EPOCHREALTIME
	/usr/bin/time -f '%U %S %M' -o "$bin/t" "$@" > /dev/null 2>&1 || true
	local t1=$EPOCHREALTIME
	awk -v t0="$t0" -v t1="$t1" '{ printf "%.4f %.2f %s\n", t1 - t0, $1 + $2, $3 }' "$bin/t"
}

# median: the median of the numbers on standard input, one a line.
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
