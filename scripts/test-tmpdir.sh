#!/bin/sh
# test-tmpdir: prints the directory for make test's and make short's
# TMPDIR, made if missing. The tests remove what they make in it.
#
# The tests make and delete many small files (t.TempDir, testscript's work
# directories, generated trees). On an ext4 file system without a journal
# every new inode is then found by scanning past the recently deleted
# ones, and that scan was half of the CPU time of internal/check's tests.
# A tmpfs has no such cost. The directory is journal-lint-test-UID under,
# in this order: TEST_TMPDIR when set; /dev/shm (a tmpfs on Linux) when
# programs run from it, as the tests run journal-lint, test packs and git
# hooks from their temporary directories; TMPDIR; /tmp. Its name stays the
# same from run to run: go test caches a package's result only while the
# environment its tests read, TMPDIR included, stays the same.
set -eu

# usable prints dir, made under base, when programs run from it.
usable() {
	[ -d "$1" ] || return 1
	d="$1/journal-lint-test-$(id -u)"
	mkdir -p "$d" 2>/dev/null || return 1
	probe=$(mktemp "$d/probe.XXXXXX" 2>/dev/null) || return 1
	printf '#!/bin/sh\nexit 0\n' >"$probe" && chmod +x "$probe" && "$probe"
	ok=$?
	rm -f "$probe"
	[ "$ok" -eq 0 ] && echo "$d"
}

if [ -n "${TEST_TMPDIR:-}" ]; then
	usable "$TEST_TMPDIR" || { echo "test-tmpdir: TEST_TMPDIR=$TEST_TMPDIR: cannot make a directory that runs programs there" >&2; exit 1; }
elif [ -d /dev/shm ] && [ -w /dev/shm ] && usable /dev/shm; then
	:
else
	usable "${TMPDIR:-/tmp}"
fi
