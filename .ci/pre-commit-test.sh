#!/usr/bin/env bash
# Runs the real pre-commit with the hooks of .pre-commit-hooks.yaml, built
# from this checkout at a commit, in a throw-away repository, and shows:
#   1. a valid commit passes (and a later valid successor too);
#   2. a commit that edits an accepted revision fails, naming the file;
#   3. a commit that adds a forked revision fails with chain/fork;
#   4. a merge of two branches that each add a valid successor to the same
#      head fails with chain/fork (the pre-merge-commit hook), and so does
#      the `git commit` that git suggests to finish it;
#   5. a commit that only deletes a revision fails;
# and that the hooks never modify a file.
#
# The hooks are installed the way users install them: pre-commit clones this
# repository at REV (default: HEAD of the checkout) and builds journal-lint
# with `go install ./...`. Only committed content is used, so commit first.
#
# Usage: .ci/pre-commit-test.sh [REV]
# Needs git and go; installs the Debian package pre-commit when it is missing
# (as root, with apt-get).
set -euo pipefail

checkout=$(cd "$(dirname "$0")/.." && pwd)
rev=$(git -C "$checkout" rev-parse --verify "${1:-HEAD}^{commit}")

if ! command -v pre-commit >/dev/null 2>&1; then
	echo "pre-commit-test: installing pre-commit (Debian package)"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit >/dev/null
fi
echo "pre-commit-test: $(pre-commit --version), hooks from $checkout at $rev"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo

# A private git and pre-commit configuration; the Go module cache of this
# machine (pre-commit sets GOPATH to its environment, which would otherwise
# download every module again).
export PRE_COMMIT_HOME=$tmp/pre-commit-home
export GIT_CONFIG_NOSYSTEM=1
export GIT_CONFIG_GLOBAL=$tmp/gitconfig
export GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)}
git config --global user.name "pre-commit test"
git config --global user.email "pre-commit-test@example.org"
git config --global init.defaultBranch main
# The checkout may belong to another user (CI runs as root).
git config --global --add safe.directory "$checkout"
git config --global --add safe.directory "$checkout/.git"

fail() {
	echo "pre-commit-test: FAIL: $*" >&2
	exit 1
}

# commit MSG: git commit with the installed hook; prints the output, stores
# the status in $status and the output in $out.
commit() {
	set +e
	out=$(git -C "$repo" commit -q -m "$1" 2>&1)
	status=$?
	set -e
	printf '%s\n' "$out" | sed 's/^/    | /'
}

# digest FILE: the revision digest of FILE.
digest() {
	echo "sha256:$(sha256sum "$1" | cut -d' ' -f1)"
}

mkdir -p "$repo/journals/com.example.widget"
git init -q "$repo"
cat >"$repo/.gitattributes" <<'EOF'
*.journal -text
*.journal.example -text
EOF
cat >"$repo/.journal-lint.yaml" <<'EOF'
root: journals
EOF
cat >"$repo/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $checkout
    rev: $rev
    hooks:
      - id: journal-lint
      - id: journal-lint-diff
EOF
w=$repo/journals/com.example.widget
cat >"$w/20260110T080000Z.journal" <<'EOF'
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
EOF
genesis=$(digest "$w/20260110T080000Z.journal")

(cd "$repo" && pre-commit install >/dev/null && pre-commit install --hook-type pre-merge-commit >/dev/null)
git -C "$repo" add -A

echo "pre-commit-test: 1. a valid commit passes (the first run builds the hooks)"
commit "genesis"
[ "$status" -eq 0 ] || fail "the valid commit was rejected"
echo "$out" | grep -q '^journal-lint\.*Passed$' || fail "the journal-lint hook did not run and pass"

echo "pre-commit-test: 1b. a valid successor passes, and the diff hook shows it"
cat >"$w/20260201T080000Z.journal" <<EOF
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260201T080000Z
PREDECESSOR $genesis
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333

RELEASE 1.1.0
LICENSE MIT
CONTENT widget-1.1.0.jar sha256:4444444444444444444444444444444444444444444444444444444444444444
EOF
git -C "$repo" add -A
commit "successor"
[ "$status" -eq 0 ] || fail "the valid successor was rejected"
echo "$out" | grep -q '1\.1\.0' || fail "the diff hook did not show the added release"

echo "pre-commit-test: 2. editing an accepted revision fails, naming the file"
sed -i 's/A tiny UI toolkit/A small UI toolkit/' "$w/20260110T080000Z.journal"
git -C "$repo" add -A
before=$(cd "$repo" && git status --porcelain && sha256sum journals/*/*)
commit "edit history"
[ "$status" -ne 0 ] || fail "the edit of an accepted revision was committed"
echo "$out" | grep -q 'journals/com.example.widget/20260110T080000Z.journal: error: accepted revision .* was modified' ||
	fail "the failure does not name the edited file"
echo "$out" | grep -q 'history/revision-modified' || fail "no history/revision-modified"
after=$(cd "$repo" && git status --porcelain && sha256sum journals/*/*)
[ "$before" = "$after" ] || fail "a hook modified files"
git -C "$repo" reset -q --hard

echo "pre-commit-test: 3. a forked revision fails with chain/fork"
sed -e 's/20260201T080000Z/20260301T080000Z/' "$w/20260201T080000Z.journal" >"$w/20260301T080000Z.journal"
git -C "$repo" add -A
commit "fork"
[ "$status" -ne 0 ] || fail "the forked revision was committed"
echo "$out" | grep -q 'journals/com.example.widget/20260301T080000Z.journal:4:13: error: PREDECESSOR names 20260110T080000Z, which is not the head of com.example.widget .*\[chain/fork\]' ||
	fail "no chain/fork on the forked revision"
git -C "$repo" reset -q --hard

[ "$(git -C "$repo" rev-list --count HEAD)" -eq 2 ] || fail "expected exactly the two valid commits"

echo "pre-commit-test: 4. a merge that forks the chain fails with chain/fork"
successor=$(digest "$w/20260201T080000Z.journal")
# successor VERSION RELEASE: a valid successor of the head, with one more release.
successor() {
	cat <<EOF
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION $1
PREDECESSOR $successor
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333

RELEASE 1.1.0
LICENSE MIT
CONTENT widget-1.1.0.jar sha256:4444444444444444444444444444444444444444444444444444444444444444

RELEASE $2
LICENSE MIT
CONTENT widget-$2.jar sha256:5555555555555555555555555555555555555555555555555555555555555555
EOF
}
git -C "$repo" checkout -q -b side
successor 20260301T080000Z 1.2.0 >"$w/20260301T080000Z.journal"
git -C "$repo" add -A
commit "side: 1.2.0"
[ "$status" -eq 0 ] || fail "the valid successor on the side branch was rejected"
# The diff hook shows only what the commit adds, never the history again.
echo "$out" | grep -q '20260201T080000Z → 20260301T080000Z' || fail "the diff hook did not show the added revision"
if echo "$out" | grep -q '20260110T080000Z → '; then
	fail "the diff hook printed a comparison the commit does not add"
fi
git -C "$repo" checkout -q main
successor 20260315T080000Z 1.3.0 >"$w/20260315T080000Z.journal"
git -C "$repo" add -A
commit "main: 1.3.0"
[ "$status" -eq 0 ] || fail "the valid successor on main was rejected"
head=$(git -C "$repo" rev-parse HEAD)
set +e
out=$(git -C "$repo" merge --no-edit side 2>&1)
status=$?
set -e
printf '%s\n' "$out" | sed 's/^/    | /'
[ "$status" -ne 0 ] || fail "the merge that forks the chain was committed"
echo "$out" | grep -q '^journal-lint\.*Failed$' || fail "the journal-lint hook did not run at the merge"
echo "$out" | grep -q 'journals/com.example.widget/20260315T080000Z.journal:4:13: error: PREDECESSOR names 20260201T080000Z, which is not the head of com.example.widget .*\[chain/fork\]' ||
	fail "no chain/fork on the merge"
[ "$(git -C "$repo" rev-parse HEAD)" = "$head" ] || fail "the merge commit was created"
# The forking revision is committed on main: the help says what works
# during a merge, not to change its PREDECESSOR.
echo "$out" | grep -q 'help: two branches each added a successor to the same revision, and a chain is linear: this merge cannot be finished as it is' ||
	fail "the fork's help does not say what to do during the merge"
# git says "Not committing merge; use 'git commit' to complete the merge":
# pre-commit then runs in its merge-conflict mode, with a file list that
# holds no file of this clean merge.
echo "pre-commit-test: 4b. finishing the stopped merge with git commit fails too"
commit "merge side"
[ "$status" -ne 0 ] || fail "the stopped merge was finished by git commit"
echo "$out" | grep -q '^journal-lint\.*Failed$' || fail "the journal-lint hook did not run when the merge was finished"
echo "$out" | grep -q '\[chain/fork\]' || fail "no chain/fork when the merge was finished"
[ "$(git -C "$repo" rev-parse HEAD)" = "$head" ] || fail "the merge commit was created by git commit"
git -C "$repo" merge --abort

echo "pre-commit-test: 5. a commit that only deletes a revision fails"
git -C "$repo" rm -q journals/com.example.widget/20260110T080000Z.journal
commit "delete the genesis"
[ "$status" -ne 0 ] || fail "the deletion of an accepted revision was committed"
echo "$out" | grep -q 'journals/com.example.widget/20260110T080000Z.journal: error: .*\[history/revision-deleted\]' ||
	fail "no history/revision-deleted on the deleted genesis"
[ "$(git -C "$repo" rev-parse HEAD)" = "$head" ] || fail "the deletion was committed"
git -C "$repo" reset -q --hard
echo "pre-commit-test: PASS"
