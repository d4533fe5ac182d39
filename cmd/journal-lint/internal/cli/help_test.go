package cli

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// helpRuns are command lines that make urfave/cli add and run its help
// flag, its help command, the version flag and shell completion, at the
// top and in commands with and without subcommands.
var helpRuns = []string{
	"--help", "-h", "help", "help check", "help plugins list", "help help", "--version", "version",
	"check --help", "check help", "plugins --help", "plugins help list", "plugins list --help",
	"cache help", "completion fish", "check --fo --generate-bash-completion",
	"plugins --generate-bash-completion", "--generate-bash-completion", "chek", "check --formt json",
}

// TestMainInParallel runs the command lines of helpRuns at the same time,
// several times each, and requires each run to print what a run on its
// own prints. Under the race detector it finds any state that runs share
// (urfave/cli's help flag and help command; see help.go).
func TestMainInParallel(t *testing.T) {
	type result struct {
		stdout, stderr string
		code           int
	}
	run := func(line string) result {
		var stdout, stderr bytes.Buffer
		code := Main(append([]string{"journal-lint"}, strings.Fields(line)...), &stdout, &stderr)
		return result{stdout.String(), stderr.String(), code}
	}
	want := map[string]result{}
	for _, line := range helpRuns {
		want[line] = run(line)
	}
	// (Shell completion reads os.Args, not the arguments of Main: in this
	// process it prints nothing, but it sets up the commands all the same.)
	for line, text := range map[string]string{"--help": "COMMANDS:", "check help": "--help, -h", "plugins help list": "journal-lint plugins list"} {
		if !strings.Contains(want[line].stdout, text) {
			t.Errorf("%s does not print %q:\n%s", line, text, want[line].stdout)
		}
	}
	var wg sync.WaitGroup
	for range 3 {
		for _, line := range helpRuns {
			wg.Go(func() {
				if got := run(line); got != want[line] {
					t.Errorf("%s: in parallel it prints\n%+v\nalone\n%+v", line, got, want[line])
				}
			})
		}
	}
	wg.Wait()
}
