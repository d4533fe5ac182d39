package cli

import (
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/config"
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

// TestTLogDocConfigurations holds docs/tlog.md's examples to the
// configuration: every YAML block of the page that has a tlog: block
// parses (its keys, the witnesses' keys and the quorum included), so that
// a block copied from the page works as written.
func TestTLogDocConfigurations(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/tlog.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```yaml\n(.*?)```")
	seen := 0
	for _, m := range block.FindAllStringSubmatch(string(doc), -1) {
		if !strings.Contains(m[1], "tlog:") {
			continue
		}
		seen++
		if _, err := config.Parse(".journal-lint.yaml", []byte(m[1])); err != nil {
			t.Errorf("docs/tlog.md: a YAML block does not parse: %v\n%s", err, m[1])
		}
	}
	if seen == 0 {
		t.Error("docs/tlog.md: no YAML block with a tlog: block")
	}
}
