package check

import (
	"context"
	"fmt"
	"testing"

	"github.com/r35157/journal-lint/internal/gitrepo"
)

// TestEOLTable: the attributes of a path the index lists and of one it
// does not come back as set, equal sets compared by value; past 255
// distinct sets a path's last set still wins; a clone shares nothing
// that either writes.
func TestEOLTable(t *testing.T) {
	gitEnv(t)
	dir := t.TempDir()
	gitRepo(t, dir, map[string]string{"j/a/1.journal": "1", "j/a/2.journal": "2", "j/b/1.journal": "3"})
	repo, err := gitrepo.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	index, err := repo.Index(context.Background(), "j")
	if err != nil {
		t.Fatal(err)
	}
	set := func(text string) *eolAttr {
		return &eolAttr{text: text, eol: "unspecified", filter: "unspecified", ident: "unspecified", encoding: "unspecified"}
	}
	tab := newEOLTable(index, "j")
	tab.set("a/1.journal", set("unset"))
	tab.set("a/2.journal", set("unset")) // equal, another pointer
	tab.set("b/1.journal", set("set"))
	tab.set("c/untracked.journal", set("auto"))
	want := map[string]string{"a/1.journal": "unset", "a/2.journal": "unset", "b/1.journal": "set", "c/untracked.journal": "auto"}
	check := func(tab *eolTable, want map[string]string) {
		t.Helper()
		for p, text := range want {
			if a := tab.get(p); a == nil || a.text != text {
				t.Errorf("get(%q) = %+v, want text %s", p, a, text)
			}
		}
		if a := tab.get("d/none.journal"); a != nil {
			t.Errorf("get of a path never set = %+v", a)
		}
	}
	check(tab, want)
	if len(tab.sets) != 2 || len(tab.other) != 1 {
		t.Errorf("%d sets, %d other paths; want 2 and 1", len(tab.sets), len(tab.other))
	}
	c := tab.clone()
	c.set("a/1.journal", set("changed"))
	c.set("c/untracked.journal", set("changed"))
	check(tab, want)
	for i := range 300 {
		tab.set("b/1.journal", set(fmt.Sprint("v", i)))
	}
	want["b/1.journal"] = "v299"
	check(tab, want)
	tab.set("b/1.journal", set("unset")) // a set it already names: by position again
	want["b/1.journal"] = "unset"
	check(tab, want)
	if _, kept := tab.other["b/1.journal"]; kept {
		t.Error("a path back at its position is still in other")
	}
	if (*eolTable)(nil).get("a/1.journal") != nil || (*eolTable)(nil).clone() != nil {
		t.Error("a nil table holds something")
	}
}
