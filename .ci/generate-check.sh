#!/usr/bin/env bash
# CI drift check: regenerates plugins/proto into the tree and fails when the
# committed generated code differs. Installs protoc when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v protoc >/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq && apt-get install -y -qq protobuf-compiler >/dev/null
	else
		sudo apt-get update -qq && sudo apt-get install -y -qq protobuf-compiler >/dev/null
	fi
fi
.ci/generate.sh
if ! git diff --exit-code -- plugins/proto; then
	echo "generated code in plugins/proto is out of date: run make generate and commit" >&2
	exit 1
fi
if [ -n "$(git ls-files --others --exclude-standard -- plugins/proto)" ]; then
	echo "make generate created files that are not committed:" >&2
	git ls-files --others --exclude-standard -- plugins/proto >&2
	exit 1
fi
