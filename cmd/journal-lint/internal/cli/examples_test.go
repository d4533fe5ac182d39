package cli

import (
	"io"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

// Every command a user can run shows an example in its --help, as the
// README promises: "Example" (as in "Example:", "Examples:" or "Example
// (Neovim):") in its usage text or description. Commands that only group others (tlog, cache, plugins)
// are held to it through their subcommands.
func TestEveryCommandHasAnExample(t *testing.T) {
	app := newApp(io.Discard, io.Discard, nil)
	var walk func(path string, cmds []*ucli.Command)
	walk = func(path string, cmds []*ucli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			name := path + " " + c.Name
			if len(c.Subcommands) > 0 {
				walk(name, c.Subcommands)
				continue
			}
			text := c.UsageText + "\n" + c.Description
			if !strings.Contains(text, "Example") {
				t.Errorf("journal-lint%s --help shows no example", name)
			}
		}
	}
	walk("", app.Commands)
}
