#!/usr/bin/env bash
# journal-lint lsp in real editors, headless: Neovim and Emacs with eglot
# from Debian's packages (installed when missing, as root, with apt-get),
# each through the scenario of scripts/lsp-editors.sh with the
# configuration docs/editors.md gives.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvim >/dev/null 2>&1 || ! command -v emacs >/dev/null 2>&1 ||
	! emacs --batch --eval "(require 'eglot)" >/dev/null 2>&1; then
	echo "lsp-editors: installing neovim, emacs-nox and elpa-eglot (Debian packages)"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends neovim emacs-nox elpa-eglot >/dev/null
fi
scripts/lsp-editors.sh nvim eglot
