// Package difftest loads the fixtures of the semantic diff engine for the
// tests of the engine (package diff) and of its renderers (package
// diffrender). A fixture is a directory testdata/<kind>[/noncase] of
// package diff with the subdirectories previous/ and current/.
package difftest

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
)

// Fixture is one pair of revisions: the last file of previous/ (in name
// order) is the old revision, the earlier ones its history, oldest first,
// and current/ holds the new revision.
type Fixture struct {
	// Dir is the fixture's directory as given to [Load].
	Dir string
	// History are the revisions before Old, oldest first.
	History []*syntax.Document
	// Old and New are the compared revisions.
	Old, New *syntax.Document
}

// ParseFile parses the file base/rel with [diff.Parse], under the path rel
// with forward slashes, and fails t when it cannot be read or is no valid
// Journal.
func ParseFile(t testing.TB, base, rel string) *syntax.Document {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(base, rel))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := diff.Parse(filepath.ToSlash(rel), src)
	if err != nil {
		t.Fatalf("fixture %s/%s: %v", base, rel, err)
	}
	return doc
}

// Load reads the fixture in dir (a path relative to the test's package or
// absolute). Documents get paths relative to dir, such as
// "current/20260201T080000Z.journal". It fails t when previous/ or current/
// holds no .journal file or a file is no valid Journal.
func Load(t testing.TB, dir string) Fixture {
	t.Helper()
	f := Fixture{Dir: dir}
	var prev []*syntax.Document
	for _, side := range []string{"previous", "current"} {
		names, err := filepath.Glob(filepath.Join(dir, side, "*.journal"))
		if err != nil || len(names) == 0 {
			t.Fatalf("%s/%s: no .journal files", dir, side)
		}
		sort.Strings(names)
		for _, n := range names {
			doc := ParseFile(t, dir, filepath.Join(side, filepath.Base(n)))
			if side == "previous" {
				prev = append(prev, doc)
			} else {
				f.New = doc
			}
		}
	}
	f.Old, f.History = prev[len(prev)-1], prev[:len(prev)-1]
	return f
}

// Compare diffs Old against New with History as [diff.Options.History] and
// fails t on an error.
func (f Fixture) Compare(t testing.TB) *diff.Result {
	t.Helper()
	var hist []model.Revision
	for _, d := range f.History {
		hist = append(hist, d.Revision)
	}
	r, err := diff.Compare(f.Old, f.New, diff.Options{History: hist})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
