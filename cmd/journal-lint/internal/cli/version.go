package cli

import (
	"fmt"
	"runtime"

	ucli "github.com/urfave/cli/v2"
)

func versionCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "version",
		Usage:     "print the journal-lint version",
		UsageText: "journal-lint version\n\nExample:\n   journal-lint version",
		Action: func(c *ucli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("version takes no arguments")
			}
			printVersion(c)
			return nil
		},
	}
}

// printVersion writes the version line of journal-lint version, and of
// journal-lint --version (urfave/cli's VersionPrinter, set once, before
// any app runs).
func printVersion(c *ucli.Context) {
	fmt.Fprintf(c.App.Writer, "journal-lint %s (%s, %s/%s)\n", Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func init() { ucli.VersionPrinter = printVersion }
