package diag

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAmendCopiesWhatItAmends(t *testing.T) {
	t.Parallel()
	related := make([]Related, 1, 4) // room an append would write into
	related[0] = Related{Path: "a", Message: "first"}
	l := List{
		{Code: "chain/x", Path: "p", Message: "broken", Help: "h0", Related: related, Fixes: []Fix{{Title: "f"}}},
		{Code: "chain/y", Path: "q", Message: "other"},
	}
	before := List{l[0], l[1]}
	before[0].Related = append([]Related(nil), related...)
	got := Amend(l, []Note{
		{At: 0, Message: ": one", Help: "h1", Related: []Related{{Path: "b", Message: "second"}}},
		{At: 0, Message: "; two", Help: "h2", DropFixes: true},
	})
	if diff := cmp.Diff(before, l); diff != "" {
		t.Errorf("the list given changed (-before +after):\n%s", diff)
	}
	if got := related[:2][1]; got != (Related{}) {
		t.Errorf("the related array given was written: %v", got)
	}
	want := List{
		{Code: "chain/x", Path: "p", Message: "broken: one; two", Help: "h2",
			Related: []Related{{Path: "a", Message: "first"}, {Path: "b", Message: "second"}}},
		l[1],
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Amend (-want +got):\n%s", diff)
	}
	if got := Amend(l, nil); &got[0] != &l[0] {
		t.Error("no note: the list was copied")
	}
}
