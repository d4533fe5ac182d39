package cli

import (
	"io"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

// Every command a user can run shows an example in its --help, as the
// README promises: "Example" (as in "Example:", "Examples:" or "Example
// (Neovim):") in its usage text or description; so does each command that
// groups others (tlog, cache, plugins), besides each of its subcommands.
func TestEveryCommandHasAnExample(t *testing.T) {
	app := newApp(io.Discard, io.Discard, nil)
	var walk func(path string, cmds []*ucli.Command)
	walk = func(path string, cmds []*ucli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			name := path + " " + c.Name
			// A command with subcommands shows an example too: its
			// --help is what a user asks first.
			text := c.UsageText + "\n" + c.Description
			if !strings.Contains(text, "Example") {
				t.Errorf("journal-lint%s --help shows no example", name)
			}
			walk(name, c.Subcommands)
		}
	}
	walk("", app.Commands)
}
