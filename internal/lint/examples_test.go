package lint_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// docNow is the current time the doc examples are checked at.
var docNow = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// docTree is the tree the doc examples of the deps/ rules describe:
// org.example.core with releases 1.2.0 and 1.4.2.
func docTree(t *testing.T) *lint.StaticTree {
	t.Helper()
	tree := &lint.StaticTree{}
	tree.Add(mustCoordinate(t, "org.example.core"), mustVersion(t, "1.2.0"), mustVersion(t, "1.4.2"))
	return tree
}

func mustCoordinate(t *testing.T, s string) vt.Coordinate {
	t.Helper()
	c, err := vt.ParseCoordinate(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustVersion(t *testing.T, s string) vt.Version {
	t.Helper()
	v, err := vt.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func codes(l diag.List) string {
	var b strings.Builder
	for _, d := range l {
		fmt.Fprintf(&b, "\n\t%s", d)
	}
	return b.String()
}

func has(l diag.List, code string) bool {
	for _, d := range l {
		if d.Code == code {
			return true
		}
	}
	return false
}

func validityErrors(l diag.List) diag.List {
	var out diag.List
	for _, d := range l {
		if rules.IsValidity(d.Code) {
			out = append(out, d)
		}
	}
	return out
}

// TestDocExamples runs every journal example of every rule doc: a validity
// rule's failing example makes the parser report its code and its passing
// example is valid; a lint rule reports its failing example and not its
// passing one, which is also valid.
func TestDocExamples(t *testing.T) {
	for _, r := range rules.All() {
		t.Run(r.Code, func(t *testing.T) {
			exs, err := r.Examples()
			if err != nil {
				t.Fatal(err)
			}
			for i, ex := range exs {
				if ex.Lang != "journal" {
					continue
				}
				src, err := ex.Source()
				if err != nil {
					t.Fatal(err)
				}
				doc, parsed := syntax.Parse("example.journal", src)
				var got diag.List
				lr, isLint := lint.Lookup(r.Code)
				switch {
				case r.Kind == rules.Validity:
					got = parsed
				case isLint:
					got = lint.Run([]*syntax.Document{doc}, docTree(t), lint.RunConfig{Now: docNow, Rules: []lint.Rule{lr}})
				default:
					t.Fatalf("journal example %d in a %s rule, which no document alone triggers", i+1, r.Kind)
				}
				switch {
				case ex.Failing && !has(got, r.Code):
					t.Errorf("failing example %d: no %s diagnostic, got:%s\n%s", i+1, r.Code, codes(got), src)
				case !ex.Failing && has(got, r.Code):
					t.Errorf("passing example %d reports %s:%s\n%s", i+1, r.Code, codes(got), src)
				}
				if !ex.Failing {
					if errs := validityErrors(parsed); len(errs) > 0 {
						t.Errorf("passing example %d is not valid:%s\n%s", i+1, codes(errs), src)
					}
				}
			}
		})
	}
}
