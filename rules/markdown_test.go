package rules_test

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/rules"
)

var update = flag.Bool("update", false, "rewrite ../docs/rules.md from the registry")

const rulesDoc = "../docs/rules.md"

// TestRulesMarkdownUpToDate checks that docs/rules.md is what the registry
// renders; "go test ./rules -update" rewrites it.
func TestRulesMarkdownUpToDate(t *testing.T) {
	want := rules.Markdown(rules.All())
	if *update {
		if err := os.WriteFile(rulesDoc, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatalf("%v (run go test ./rules -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: run go test ./rules -update", rulesDoc)
	}
}

func TestMarkdownHasEveryRule(t *testing.T) {
	md := string(rules.Markdown(rules.All()))
	for _, r := range rules.All() {
		if !strings.Contains(md, "\n## "+r.Code+"\n") {
			t.Errorf("no section for %s", r.Code)
		}
		if !strings.Contains(md, "](#"+rules.Anchor(r.Code)+")") {
			t.Errorf("no index link for %s", r.Code)
		}
	}
	if !strings.Contains(md, "| `skew` | duration | `24h` |") {
		t.Error("the options of time/future-version are not listed")
	}
}
