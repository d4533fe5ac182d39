#!/usr/bin/env bash
# Drives journal-lint lsp through real editors, headless, each with the
# configuration docs/editors.md gives for it (taken from the page: the
# code block after each `<!-- lsp-editors: NAME -->` line), through one
# scenario: open the Journal of the test tree whose PREDECESSOR forks;
# chain/fork at the line and column `journal-lint check` gives; the quick
# fix applied and the fork gone; hover on LICENSE; go to the definition of
# PREDECESSOR; a successor of the head created on disk, and the fork back.
#   scripts/lsp-editors.sh [nvim] [eglot]     (default: both)
# Needs Neovim 0.7 or later (Debian: neovim) and Emacs 28 or later with
# eglot (Debian: emacs-nox elpa-eglot); .ci/run installs them.
set -euo pipefail
cd "$(dirname "$0")/.."

editors=("$@")
[ ${#editors[@]} -gt 0 ] || editors=(nvim eglot)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/bin/journal-lint" ./cmd/journal-lint
export PATH="$tmp/bin:$PATH"

# config NAME: the code block that follows the marker NAME in docs/editors.md.
config() {
	awk -v marker="<!-- lsp-editors: $1 -->" '
		$0 == marker { found = 1; next }
		found && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }
	' docs/editors.md
}

for editor in "${editors[@]}"; do
	dir="$tmp/$editor"
	cp -R internal/lsp/testdata/tree "$dir"
	widget="$dir/journals/com.example.widget"
	fork="$widget/20260301T080000Z.journal"
	# Where check puts the fork.
	expect=$(cd "$dir" && journal-lint check --no-progress 2>/dev/null | sed -n 's|^journals/com.example.widget/20260301T080000Z.journal:\([0-9]*:[0-9]*\): error: .*\[chain/fork\]$|\1|p' || true)
	[ -n "$expect" ] || { echo "lsp-editors: check reported no chain/fork" >&2; exit 1; }
	# A successor of the head, to create on disk during the scenario.
	sed -e 's/^JOURNAL_VERSION .*/JOURNAL_VERSION 20260215T080000Z/' \
		-e "s/^PREDECESSOR .*/PREDECESSOR $(journal-lint digest "$widget/20260201T080000Z.journal" | cut -d' ' -f1)/" \
		"$widget/20260201T080000Z.journal" >"$tmp/successor.journal"
	export EXPECT="$expect" SUCCESSOR="$tmp/successor.journal" SUCCESSOR_TO="$widget/20260215T080000Z.journal"
	echo "== $editor"
	case $editor in
	nvim)
		# The page's configuration for this Neovim: 0.7, or 0.8 and later.
		which=nvim08
		case $(nvim --version | head -1) in "NVIM v0.7."*) which=nvim07 ;; esac
		echo "configuration: $which"
		config "$which" >"$tmp/init.lua"
		(cd "$dir" && HOME="$tmp" timeout 180 nvim --headless -u "$tmp/init.lua" -i NONE "$fork" \
			-c "luafile $OLDPWD/scripts/lsp-editors/nvim.lua")
		;;
	eglot)
		config eglot >"$tmp/init.el"
		(cd "$dir" && HOME="$tmp" JOURNAL="$fork" timeout 180 emacs --batch -l "$tmp/init.el" -l "$OLDPWD/scripts/lsp-editors/eglot.el")
		;;
	*)
		echo "lsp-editors: unknown editor $editor (nvim, eglot)" >&2
		exit 2
		;;
	esac
done
