package diff_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/diff/difftest"
	"github.com/r35157/journal-lint/internal/syntax"
)

// resurrectedChain is the chain of the release-resurrected fixture, oldest
// first: 20260110T080000Z, 20260210T080000Z (drops a release) and
// 20260310T080000Z (brings it back).
func resurrectedChain(t *testing.T) []*syntax.Document {
	f := difftest.Load(t, filepath.Join("testdata", "release-resurrected"))
	return append(slices.Clone(f.History), f.Old, f.New)
}

func ptr(s string) *string { return &s }

// pairOf names a result by the Journal versions it compares.
func pairOf(r *diff.Result) string {
	return r.Old.JournalVersion.String() + ">" + r.New.JournalVersion.String()
}

func TestCompareSelected(t *testing.T) {
	t.Parallel()
	docs := resurrectedChain(t)
	tests := []struct {
		name  string
		sel   diff.Selection
		pairs []string
		// resurrected reports whether the one result holds
		// release-resurrected, which needs the history before the old
		// revision.
		resurrected bool
	}{
		{"head and predecessor", diff.Selection{},
			[]string{"20260210T080000Z>20260310T080000Z"}, true},
		{"to picks the new one", diff.Selection{To: ptr("20260210T080000Z")},
			[]string{"20260110T080000Z>20260210T080000Z"}, false},
		{"from and to", diff.Selection{From: ptr("20260110T080000Z"), To: ptr("20260310T080000Z")},
			[]string{"20260110T080000Z>20260310T080000Z"}, false},
		{"backwards has no history", diff.Selection{From: ptr("20260310T080000Z"), To: ptr("20260210T080000Z")},
			[]string{"20260310T080000Z>20260210T080000Z"}, false},
		{"all", diff.Selection{All: true},
			[]string{"20260110T080000Z>20260210T080000Z", "20260210T080000Z>20260310T080000Z"}, false},
	}
	for _, tt := range tests {
		rs, err := diff.CompareSelected(docs, tt.sel)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var got []string
		for _, r := range rs {
			got = append(got, pairOf(r))
		}
		if !slices.Equal(got, tt.pairs) {
			t.Errorf("%s: compared %v, want %v", tt.name, got, tt.pairs)
		}
		if len(rs) == 1 && hasKind(rs[0], diff.ReleaseResurrected) != tt.resurrected {
			t.Errorf("%s: release-resurrected %v, want %v (%v)", tt.name, !tt.resurrected, tt.resurrected, kindsOf(rs[0]))
		}
	}
	if rs, err := diff.CompareSelected(docs[:1], diff.Selection{All: true}); err != nil || len(rs) != 0 {
		t.Errorf("all pairs of a genesis alone = %v, %v; want none", rs, err)
	}
}

func TestCompareSelectedErrors(t *testing.T) {
	t.Parallel()
	docs := resurrectedChain(t)
	tests := []struct {
		name    string
		docs    []*syntax.Document
		sel     diff.Selection
		field   string // of the *SelectionError, or "" for another error
		message string
	}{
		{"unknown to", docs, diff.Selection{To: ptr("20990101T000000Z")}, "to", "no revision 20990101T000000Z in the chain"},
		{"bad from", docs, diff.Selection{From: ptr("yesterday")}, "from", ""},
		{"to is resolved first", docs, diff.Selection{From: ptr("x"), To: ptr("y")}, "to", ""},
		{"genesis has no predecessor", docs, diff.Selection{To: ptr("20260110T080000Z")}, "",
			"revision 20260110T080000Z of com.example.widget is the genesis and has no predecessor"},
		{"empty chain", nil, diff.Selection{}, "", "diff: no revision to compare"},
		{"all with a version", docs, diff.Selection{All: true, To: ptr("20260110T080000Z")}, "", "diff: a selection of all pairs names no revision"},
	}
	for _, tt := range tests {
		_, err := diff.CompareSelected(tt.docs, tt.sel)
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		var se *diff.SelectionError
		if got := errors.As(err, &se); got != (tt.field != "") || (got && se.Field != tt.field) {
			t.Errorf("%s: error %#v, want a SelectionError for %q", tt.name, err, tt.field)
		}
		if tt.message != "" && err.Error() != tt.message {
			t.Errorf("%s: %q, want %q", tt.name, err, tt.message)
		}
	}
	var ge *diff.GenesisError
	if _, err := diff.CompareSelected(docs[:1], diff.Selection{}); !errors.As(err, &ge) {
		t.Errorf("a genesis alone: %v, want a GenesisError", err)
	}
}
