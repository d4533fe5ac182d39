package cli

import (
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTLogDocCommands holds docs/tlog.md to the tlog commands: every
// `journal-lint tlog SUB` it writes names a subcommand, with flags that
// subcommand has. (The scripts tlog_e2e and tlog_witness run the flows
// the page describes.)
func TestTLogDocCommands(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/tlog.md")
	if err != nil {
		t.Fatal(err)
	}
	app := newApp(io.Discard, io.Discard, nil)
	tl := app.Command("tlog")
	use := regexp.MustCompile("journal-lint tlog ([a-z-]+)([^`|\\n]*)")
	flag := regexp.MustCompile(`(?:^|\s)--([a-z-]+)`)
	seen := 0
	for _, m := range use.FindAllStringSubmatch(string(doc), -1) {
		sub := tl.Command(m[1])
		if sub == nil {
			t.Errorf("docs/tlog.md: no command journal-lint tlog %s", m[1])
			continue
		}
		seen++
		var names []string
		for _, f := range sub.Flags {
			names = append(names, f.Names()...)
		}
		for _, f := range flag.FindAllStringSubmatch(m[2], -1) {
			if !slices.Contains(names, f[1]) {
				t.Errorf("docs/tlog.md: journal-lint tlog %s has no flag --%s (%s)", m[1], f[1], strings.TrimSpace(m[0]))
			}
		}
	}
	if seen < 8 {
		t.Errorf("found only %d tlog commands in docs/tlog.md", seen)
	}
}
