package cli

import (
	"fmt"
	"os"

	ucli "github.com/urfave/cli/v2"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

func digestCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "digest",
		Usage: "print the revision digest of each file (SHA-256 over its exact bytes)",
		UsageText: "journal-lint digest FILE...\n\n" +
			"Prints `sha256:<hex>  FILE` per file: the value a successor's PREDECESSOR must name.\n\n" +
			"Example:\n   journal-lint digest data/nenjim/journals/net.example.quill/*.journal.example",
		Action: func(c *ucli.Context) error {
			if c.NArg() == 0 {
				return usageErrorf("digest needs at least one FILE")
			}
			failed := false
			for _, f := range c.Args().Slice() {
				data, err := os.ReadFile(f)
				if err != nil {
					fmt.Fprintf(c.App.ErrWriter, "journal-lint: %v\n", err)
					failed = true
					continue
				}
				fmt.Fprintf(c.App.Writer, "%s  %s\n", vt.DigestOf(data), f)
			}
			if failed {
				return &exitError{code: ExitUsage}
			}
			return nil
		},
	}
}
