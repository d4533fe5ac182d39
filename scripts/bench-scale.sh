#!/usr/bin/env bash
# bench-scale: journal-lint check and ServiceManager.Start on generated trees
# of 10,000 and 100,000 Journal files, each next to the hash floor
# (sha256sum over the same files), in alternating runs, median of PAIRS.
#
#   make bench-scale                 # 10k and 100k trees, 5 pairs each
#   SIZES="1000000" PAIRS=3 make bench-scale   # the documented 1M run
#
# Trees are generated once into the user's cache directory
# (${XDG_CACHE_HOME:-~/.cache}/journal-lint-bench/<files>) and reused.
# The check runs without the persistent cache (--cache off): these rows
# measure the engine; bench-git.sh measures the cache.
# Needs GNU time (/usr/bin/time, Debian package "time") for peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/bench-lib.sh
go build -o "$bin/journal-lint" ./cmd/journal-lint
go test -c -o "$bin/ref.test" ./journal/impl/ref

printf '%-8s %-10s %9s %9s %7s %8s %10s\n' files what wall_s sha_s ratio cpu/wall peak_MiB
for n in $SIZES; do
	tree=$cache/$n
	if [ ! -d "$tree" ]; then
		mkdir -p "$cache"
		"$bin/journal-gen" -out "$tree" -files "$n" -seed 2 > /dev/null
	fi
	bytes=$(find "$tree/" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
	for what in check start; do
		: > "$bin/w"; : > "$bin/s"; : > "$bin/c"; : > "$bin/m"
		for _ in $(seq "$PAIRS"); do
			if [ "$what" = check ]; then
				read -r w c m < <(measure "$bin/journal-lint" check --cache off --format json "$tree")
			else
				read -r w c m < <(JOURNAL_BENCH_ROOT=$tree measure "$bin/ref.test" -test.run '^$' -test.bench BenchmarkStartTree -test.benchtime 1x)
			fi
			echo "$w" >> "$bin/w"; echo "$c" >> "$bin/c"; echo "$m" >> "$bin/m"
			read -r sw _ _ < <(measure sh -c "find '$tree/' -type f -print0 | xargs -0 sha256sum")
			echo "$sw" >> "$bin/s"
		done
		w=$(median < "$bin/w"); s=$(median < "$bin/s"); c=$(median < "$bin/c"); m=$(median < "$bin/m")
		awk -v n="$n" -v what="$what" -v w="$w" -v s="$s" -v c="$c" -v m="$m" -v b="$bytes" 'BEGIN {
			printf "%-8s %-10s %9.2f %9.2f %7.2f %8.2f %10.0f  (peak RSS %.2f x text)\n", n, what, w, s, w / s, c / w, m / 1024, m * 1024 / b }'
	done
done
