#!/usr/bin/env bash
# Checks journal-lint lsp with a real editor: Neovim, headless, through its
# own LSP client (scripts/nvim-lsp-check.lua). It builds journal-lint, copies
# the test tree of internal/lsp/testdata into a temporary directory outside
# any git repository, opens its Journal with a fork, waits for the
# diagnostics, applies the quick fix and checks that the fork is gone, then
# hovers on a LICENSE; what Neovim saw is printed. Needs nvim (Debian:
# apt-get install neovim; 0.7 or later). Not part of CI.
#   scripts/nvim-lsp-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvim >/dev/null; then
	echo "nvim-lsp-check: nvim is not installed (Debian: apt-get install neovim)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/journal-lint" ./cmd/journal-lint
cp -R internal/lsp/testdata/tree "$tmp/tree"
cd "$tmp"
JOURNAL_LINT="$tmp/journal-lint" \
	JOURNAL="$tmp/tree/journals/com.example.widget/20260301T080000Z.journal" \
	timeout 120 nvim --headless --clean -c "luafile $OLDPWD/scripts/nvim-lsp-check.lua"
