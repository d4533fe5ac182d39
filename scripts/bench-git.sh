#!/usr/bin/env bash
# bench-git: the commands that go through git, on a generated tree committed
# to a repository, each next to git's own answer to the same question, in
# alternating runs, median of PAIRS (make bench-scale runs it after the
# on-disk check).
#
#   scripts/bench-git.sh                    # 10k and 100k trees, 5 pairs each
#   SIZES="100000" PAIRS=3 scripts/bench-git.sh
#   JL=/path/to/old/journal-lint scripts/bench-git.sh   # another build
#
# The repository holds the tree under journals/ (git gc done) with one
# successor revision drafted by `journal-lint new` and staged; the gate runs
# on a branch that commits it. Repositories are made once into the user's
# cache directory (${XDG_CACHE_HOME:-~/.cache}/journal-lint-bench/git-<files>)
# and reused. Needs GNU time (/usr/bin/time) for peak RSS.
#
# Each command is measured cold (--cache=off) and warm, with the persistent
# cache as the workflow before it leaves it, restored before every run:
#   hook, diff --staged, new   the previous commit's hook: `check --staged`
#                              of HEAD's tree (the draft not yet staged)
#   gate                       a check of the base's tree (main checked out)
#   check ROOT                 a check of the work tree before one file was
#                              added
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/bench-lib.sh
jl=${JL:-$bin/journal-lint}
[ -n "${JL:-}" ] || go build -o "$jl" ./cmd/journal-lint
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.org GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.org
export JOURNAL_LINT_CACHE=$bin/cache

# repo N: the repository of the N-file tree, made when missing, with the
# drafted revision staged on branch main and committed on branch gate.
repo() {
	local n=$1 r=$cache/git-$1
	if [ ! -d "$r/.git" ]; then
		rm -rf "$r"
		mkdir -p "$r"
		"$bin/journal-gen" -out "$r/journals" -files "$n" -seed 2 > /dev/null
		printf '*.journal -text\n' > "$r/.gitattributes"
		printf 'root: journals\n' > "$r/.journal-lint.yaml"
		git -C "$r" init -q -b main
		git -C "$r" config gc.auto 0
		git -C "$r" add -A
		git -C "$r" commit -q -m tree
		git -C "$r" gc -q
		# The first artifact directory, by a glob: `ls | head` fails under
		# pipefail when head exits before ls has written 28k names.
		local dirs=("$r"/journals/*) co
		co=${dirs[0]##*/}
		echo "$co" > "$r/.git/bench-coordinate"
		(cd "$r" && "$jl" new --cache off --version "$(date -u -d '-1 hour' +%Y%m%dT%H%M%SZ)" "$co")
		git -C "$r" checkout -q -b gate
		git -C "$r" add -A
		git -C "$r" commit -q -m successor
		git -C "$r" checkout -q main
		git -C "$r" checkout -q gate -- journals
	fi > /dev/null
	echo "$r"
}

# snapshot NAME CMD...: runs CMD (a state to leave the cache in) with an
# empty cache and keeps the cache it leaves as NAME.
snapshot() {
	local name=$1
	shift
	rm -rf "$JOURNAL_LINT_CACHE"
	"$@" > /dev/null 2>&1 || true
	rm -rf "$bin/snap-$name"
	cp -a "$JOURNAL_LINT_CACHE" "$bin/snap-$name"
}

# restore NAME: the cache as snapshot NAME left it (none: empty).
restore() {
	rm -rf "$JOURNAL_LINT_CACHE"
	if [ "$1" != none ]; then cp -a "$bin/snap-$1" "$JOURNAL_LINT_CACHE"; fi
}

# row N WHAT SNAP YARDSTICK CMD...: PAIRS alternating runs of CMD, each
# with the cache restored as snapshot SNAP ("none" for cold), and of the
# yardstick command (a string for sh -c), in the repository.
row() {
	local n=$1 what=$2 snap=$3 yard=$4
	shift 4
	: > "$bin/w"; : > "$bin/y"; : > "$bin/c"; : > "$bin/m"
	for _ in $(seq "$PAIRS"); do
		restore "$snap"
		read -r w c m < <(measure "$@")
		echo "$w" >> "$bin/w"; echo "$c" >> "$bin/c"; echo "$m" >> "$bin/m"
		read -r yw _ _ < <(measure sh -c "$yard")
		echo "$yw" >> "$bin/y"
	done
	w=$(median < "$bin/w"); y=$(median < "$bin/y"); c=$(median < "$bin/c"); m=$(median < "$bin/m")
	awk -v n="$n" -v what="$what" -v w="$w" -v y="$y" -v c="$c" -v m="$m" 'BEGIN {
		printf "%-8s %-30s %9.3f %9.3f %8.1f %8.2f %10.0f\n", n, what, w, y, (y > 0 ? w / y : 0), (w > 0 ? c / w : 0), m / 1024 }'
}

printf '%-8s %-30s %9s %9s %8s %8s %10s\n' files what wall_s yard_s ratio cpu/wall peak_MiB
for n in $SIZES; do
	r=$(repo "$n")
	co=$(cat "$r/.git/bench-coordinate")
	draft=$(git -C "$r" diff --cached --name-only)
	cd "$r"
	staged="git diff --cached --name-status > /dev/null"
	status="git status --porcelain > /dev/null"
	sha="find journals/ -type f -print0 | xargs -0 sha256sum > /dev/null"

	# The previous commit's hook saw HEAD's tree: the draft not staged.
	git reset -q -- "$draft"
	snapshot hook "$jl" check --staged --new-only
	git add -- "$draft"
	row "$n" "check --staged --new-only" none "$staged" "$jl" check --staged --new-only --cache off
	row "$n" "  warm" hook "$staged" "$jl" check --staged --new-only
	row "$n" "diff --staged" none "$staged" "$jl" diff --staged --fail-on none --cache off
	row "$n" "  warm" hook "$staged" "$jl" diff --staged --fail-on none
	v=$(date -u +%Y%m%dT%H%M%SZ)
	row "$n" "new COORD" none "$status" \
		sh -c "'$jl' new --cache off --version $v '$co' && rm journals/'$co'/$v.journal"
	row "$n" "  warm" hook "$status" \
		sh -c "'$jl' new --version $v '$co' && rm journals/'$co'/$v.journal"

	# The gate: a check of the base left the cache.
	git stash -q
	snapshot base "$jl" check --format json
	git checkout -q gate
	row "$n" "check --against main" none "$sha" "$jl" check --against main --format json --cache off
	row "$n" "  warm" base "$status" "$jl" check --against main --format json

	# The work tree, one file added since the last check.
	git checkout -q main
	snapshot before "$jl" check --format json
	git stash pop -q --index
	row "$n" "check, one file added, warm" before "$status" "$jl" check --format json
	cd - > /dev/null
done
