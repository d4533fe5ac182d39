package cli

import (
	"io"
	"path/filepath"
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

// Every example of a --help that works on the repository's own example
// tree (it names data/nenjim/journals or its artifact net.example.quill)
// runs there and exits 0: copied into
// a shell at the top of a checkout, it works as shown.
func TestHelpExamplesOnTheExampleTreeRun(t *testing.T) {
	if testing.Short() {
		t.Skip("checks the example tree once per example")
	}
	top, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(top)
	t.Setenv("JOURNAL_LINT_CACHE", "off")
	app := newApp(io.Discard, io.Discard, nil)
	var examples []string
	var walk func(cmds []*ucli.Command)
	walk = func(cmds []*ucli.Command) {
		for _, c := range cmds {
			for line := range strings.SplitSeq(c.UsageText+"\n"+c.Description, "\n") {
				line = strings.TrimSpace(line)
				if strings.HasPrefix(line, "journal-lint ") && (strings.Contains(line, "data/nenjim/journals") || strings.Contains(line, "net.example.quill")) {
					examples = append(examples, line)
				}
			}
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
	if len(examples) < 4 {
		t.Fatalf("only %d examples name the example tree: %q", len(examples), examples)
	}
	for _, ex := range examples {
		var args []string
		for _, f := range strings.Fields(ex) {
			if strings.HasPrefix(f, "(") {
				break // a comment after the command
			}
			if strings.Contains(f, "*") { // as a shell expands it
				m, err := filepath.Glob(f)
				if err != nil || len(m) == 0 {
					t.Fatalf("%s: %s matches nothing", ex, f)
				}
				args = append(args, m...)
				continue
			}
			args = append(args, f)
		}
		var stderr strings.Builder
		if code := Main(args, io.Discard, &stderr); code != 0 {
			t.Errorf("%s: exit %d\n%s", ex, code, stderr.String())
		}
	}
}
