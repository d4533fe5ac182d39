package lint_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/lint/rulestest"
)

// testTree is the tree of the testdata: org.example.core with 1.2.0 and
// 1.4.2 (as in the docs), and org.example.empty whose head has no release.
func testTree(t *testing.T) *lint.StaticTree {
	tree := docTree(t)
	tree.Add(mustCoordinate(t, "org.example.empty"))
	return tree
}

// TestLintRules runs every lint rule over its testdata directory,
// testdata/<code with "/" as "-">, with the expectations in the files.
func TestLintRules(t *testing.T) {
	for _, r := range lint.All() {
		t.Run(r.Code, func(t *testing.T) {
			dir := filepath.Join("testdata", strings.ReplaceAll(r.Code, "/", "-"))
			rulestest.Run(t, dir, r, rulestest.Config{Tree: testTree(t)})
		})
	}
}
