package docs

import (
	"bytes"
	"os"
	"testing"
)

// pageLimits bounds the pages that describe what is, not how it came to
// be: the architecture in the style of a design note, performance as one
// page of targets, method, figures and known limits (the history of a
// figure belongs in commit messages). Paths relative to this directory.
var pageLimits = map[string]int{
	"architecture.md": 200,
	"performance.md":  250,
}

// The design and performance pages stay within their line budgets.
func TestPageLengths(t *testing.T) {
	for page, limit := range pageLimits {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("\n")); n > limit {
			t.Errorf("%s has %d lines, at most %d: say what is, and leave the history of a figure to the commit messages", page, n, limit)
		}
	}
}
