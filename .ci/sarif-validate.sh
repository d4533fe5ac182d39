#!/usr/bin/env bash
# Validates journal-lint's SARIF with Microsoft's SARIF validator and
# GitHub's rules (Sarif.Multitool validate --rule-kind "Gh;Sarif", npm
# package @microsoft/sarif-multitool, a self-contained build: no .NET runtime
# needed) on trees with every kind of finding: one tree per validity fault
# journal-gen can inject, and a git repository with the append-only gate's
# findings, lint warnings and infos, a configuration warning and a finding
# about the repository as a whole. Any error or warning fails.
#
# The validator is installed once into a cache directory (about 100 MB);
# npm and node come from the Debian packages when they are missing.
#
# Usage: .ci/sarif-validate.sh
set -euo pipefail
cd "$(dirname "$0")/.."

MULTITOOL_VERSION=5.7.0
cache=${XDG_CACHE_HOME:-$HOME/.cache}/journal-lint-ci/sarif-multitool-$MULTITOOL_VERSION
tool=$cache/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
	echo "sarif-validate: installing nodejs and npm (Debian packages)"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
if [ ! -x "$tool" ]; then
	echo "sarif-validate: installing @microsoft/sarif-multitool@$MULTITOOL_VERSION"
	mkdir -p "$cache"
	# --ignore-scripts: the package's only script makes the binary executable.
	npm install --prefix "$cache" --no-audit --no-fund --ignore-scripts --loglevel=error \
		"@microsoft/sarif-multitool@$MULTITOOL_VERSION" >/dev/null
	chmod u+x "$tool"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/bin/journal-lint" ./cmd/journal-lint
go build -o "$tmp/bin/journal-gen" ./cmd/journal-gen
export PATH=$tmp/bin:$PATH
mkdir -p "$tmp/sarif"
export ALL=$tmp/all.sarif

# 1. One tree per fault journal-gen can inject (every fs/, syntax/, value/,
#    semantic/ and chain/ code it knows, the root's own codes included).
codes=$(journal-gen -help 2>&1 | sed -n '/^Fault codes:/,$p' | tail -n +2)
n=0
for code in $codes; do
	name=${code//\//_}
	if journal-gen -out "$tmp/trees/$name" -files 8 -seed 3 -fault "$code" >/dev/null 2>&1; then
		(cd "$tmp/trees" && journal-lint check --format sarif "$name" >"$tmp/sarif/$name.sarif") || test $? -eq 1
		n=$((n + 1))
	fi
done

# 2. A repository whose root is journals/: history/revision-modified,
#    -deleted and -renamed under --against, lint warnings and infos,
#    config/unused-ignore, repo/eol-conversion (about the repository), and
#    fs/unexpected-entry (a symbolic link and a stray file).
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.org GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.org
repo=$tmp/repo
journal-gen -out "$repo/journals" -files 12 -seed 5 >/dev/null
printf 'root: journals\nignore:\n  - code: style/crlf\n    reason: "nothing matches this"\n' >"$repo/.journal-lint.yaml"
git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" commit -q -m base
mapfile -t files < <(cd "$repo" && git ls-files 'journals/*.journal' | sort)
printf '# edited\n' >>"$repo/${files[0]}"
git -C "$repo" rm -q "${files[1]}"
git -C "$repo" mv "${files[2]}" "${files[2]%.journal}.old"
echo stray >"$repo/journals/notes.txt"
ln -s "../${files[3]#journals/}" "$repo/journals/link.journal"
(cd "$repo" && journal-lint check --against HEAD --format sarif >"$tmp/sarif/repo.sarif") || test $? -eq 1
n=$((n + 1))

for code in history/revision-modified history/revision-deleted history/revision-renamed config/unused-ignore repo/eol-conversion fs/unexpected-entry; do
	grep -q "\"ruleId\": \"$code\"" "$tmp/sarif/repo.sarif" || { echo "sarif-validate: the repository run lacks $code" >&2; exit 1; }
done

# One log with one run holding every result (rules merged, ruleIndex
# renumbered), so the validator starts once and GitHub's run limits apply.
node -e '
const fs = require("fs");
const logs = process.argv.slice(1).map(f => JSON.parse(fs.readFileSync(f, "utf8")));
const run = logs[0].runs[0];
const rules = [], index = new Map(), results = [];
for (const log of logs) for (const r of log.runs) {
	for (const res of r.results) {
		const rule = r.tool.driver.rules[res.ruleIndex];
		if (!index.has(rule.id)) { index.set(rule.id, rules.length); rules.push(rule); }
		res.ruleIndex = index.get(rule.id);
		results.push(res);
	}
}
run.tool.driver.rules = rules;
run.results = results;
logs[0].runs = [run];
fs.writeFileSync(process.env.ALL, JSON.stringify(logs[0], null, 2));
' "$tmp"/sarif/*.sarif

out=$("$tool" validate --rule-kind "Gh;Sarif" "$ALL" 2>&1) || { echo "$out" >&2; exit 1; }
if echo "$out" | grep -E ': (error|warning) [A-Z]+[0-9]+:' >&2; then
	echo "sarif-validate: FAIL: the validator reports the problems above" >&2
	exit 1
fi
echo "sarif-validate: $n trees, $(grep -c '"ruleId"' "$ALL") results: no error, no warning"
