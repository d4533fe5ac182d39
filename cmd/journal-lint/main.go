// Command journal-lint checks Nenjim Journal repositories: it loads a Journal
// tree through the same pipeline as the Journal service and reports every
// placement, digest, chain, syntax and semantic violation, plus lint rules,
// as text, JSON, SARIF or GitHub annotations. Run `journal-lint --help`.
package main

import (
	"os"

	"github.com/r35157/journal-lint/cmd/journal-lint/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args, os.Stdout, os.Stderr))
}
