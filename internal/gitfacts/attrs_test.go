package gitfacts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/r35157/journal-lint/internal/gitrepo"
)

// TestAttrTable: the attributes of a path the index lists and of one it
// does not come back as set, equal sets compared by value; past 255
// distinct sets a path's last set still wins; a clone shares nothing
// that either writes.
func TestAttrTable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for p, text := range map[string]string{"j/a/1.journal": "1", "j/a/2.journal": "2", "j/b/1.journal": "3"} {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A")
	repo, err := gitrepo.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	index, err := repo.Index(context.Background(), "j")
	if err != nil {
		t.Fatal(err)
	}
	set := func(text string) *Attrs {
		return &Attrs{Text: text, EOL: "unspecified", Filter: "unspecified", Ident: "unspecified", Encoding: "unspecified"}
	}
	tab := NewAttrTable(index, "j")
	tab.Set("a/1.journal", set("unset"))
	tab.Set("a/2.journal", set("unset")) // equal, another pointer
	tab.Set("b/1.journal", set("set"))
	tab.Set("c/untracked.journal", set("auto"))
	want := map[string]string{"a/1.journal": "unset", "a/2.journal": "unset", "b/1.journal": "set", "c/untracked.journal": "auto"}
	check := func(tab *AttrTable, want map[string]string) {
		t.Helper()
		for p, text := range want {
			if a := tab.Get(p); a == nil || a.Text != text {
				t.Errorf("Get(%q) = %+v, want text %s", p, a, text)
			}
		}
		if a := tab.Get("d/none.journal"); a != nil {
			t.Errorf("Get of a path never set = %+v", a)
		}
	}
	check(tab, want)
	if len(tab.sets) != 2 || len(tab.other) != 1 {
		t.Errorf("%d sets, %d other paths; want 2 and 1", len(tab.sets), len(tab.other))
	}
	c := tab.Clone()
	c.Set("a/1.journal", set("changed"))
	c.Set("c/untracked.journal", set("changed"))
	check(tab, want)
	for i := range 300 {
		tab.Set("b/1.journal", set(fmt.Sprint("v", i)))
	}
	want["b/1.journal"] = "v299"
	check(tab, want)
	tab.Set("b/1.journal", set("unset")) // a set it already names: by position again
	want["b/1.journal"] = "unset"
	check(tab, want)
	if _, kept := tab.other["b/1.journal"]; kept {
		t.Error("a path back at its position is still in other")
	}
	if (*AttrTable)(nil).Get("a/1.journal") != nil || (*AttrTable)(nil).Clone() != nil {
		t.Error("a nil table holds something")
	}
}

// TestCheckoutWritesCRLF: which attributes and configuration make a
// checkout write CRLF (gitattributes(5), "text" and "eol").
func TestCheckoutWritesCRLF(t *testing.T) {
	t.Parallel()
	plain := Attrs{Text: "unspecified", EOL: "unspecified"}
	off := Conversion{AutoCRLF: "false", EOL: "native"}
	for _, tt := range []struct {
		edit func(*Attrs)
		conv Conversion
		want bool
	}{
		{func(*Attrs) {}, off, false},
		{func(*Attrs) {}, Conversion{AutoCRLF: "true", EOL: "native"}, true},
		{func(*Attrs) {}, Conversion{AutoCRLF: "input", EOL: "native"}, false},
		{func(*Attrs) {}, Conversion{AutoCRLF: "false", EOL: "crlf"}, false}, // core.eol needs text
		{func(a *Attrs) { a.Text = "auto" }, off, false},
		{func(a *Attrs) { a.Text = "auto" }, Conversion{AutoCRLF: "false", EOL: "crlf"}, true},
		{func(a *Attrs) { a.Text = "set" }, Conversion{AutoCRLF: "true", EOL: "lf"}, true},
		{func(a *Attrs) { a.Text = "set" }, Conversion{AutoCRLF: "input", EOL: "crlf"}, false},
		{func(a *Attrs) { a.EOL = "crlf" }, off, true},
		{func(a *Attrs) { a.Text, a.EOL = "set", "lf" }, Conversion{AutoCRLF: "true", EOL: "crlf"}, false},
		{func(a *Attrs) { a.Text = "unset" }, Conversion{AutoCRLF: "true", EOL: "crlf"}, false},
	} {
		a := plain
		tt.edit(&a)
		if got := a.CheckoutWritesCRLF(tt.conv); got != tt.want {
			t.Errorf("%+v under %+v: CheckoutWritesCRLF = %v, want %v", a, tt.conv, got, tt.want)
		}
	}
}

func TestConvertsNothing(t *testing.T) {
	t.Parallel()
	plain := Attrs{Text: "unspecified", EOL: "unspecified", Filter: "unspecified", Ident: "unspecified", Encoding: "unspecified"}
	for _, tt := range []struct {
		edit     func(*Attrs)
		autocrlf string
		want     bool
	}{
		{func(*Attrs) {}, "", true},
		{func(*Attrs) {}, "false", true},
		{func(*Attrs) {}, "true", false},
		{func(*Attrs) {}, "input", false},
		{func(a *Attrs) { a.Text = "unset" }, "true", true},
		{func(a *Attrs) { a.Text = "set" }, "", false},
		{func(a *Attrs) { a.Text = "auto" }, "", false},
		{func(a *Attrs) { a.EOL = "lf" }, "", false},
		{func(a *Attrs) { a.Text, a.Filter = "unset", "lfs" }, "", false},
		{func(a *Attrs) { a.Text, a.Ident = "unset", "set" }, "", false},
		{func(a *Attrs) { a.Text, a.Encoding = "unset", "UTF-16" }, "", false},
	} {
		a := plain
		tt.edit(&a)
		if got := a.ConvertsNothing(tt.autocrlf); got != tt.want {
			t.Errorf("%+v under core.autocrlf=%q: ConvertsNothing = %v, want %v", a, tt.autocrlf, got, tt.want)
		}
	}
	if got := plain.Describe(); got != "no text attribute, so core.autocrlf and core.eol decide" {
		t.Errorf("Describe = %q", got)
	}
	if got := (&Attrs{Text: "auto", EOL: "unspecified"}).Describe(); got != "text: auto, eol: unspecified" {
		t.Errorf("Describe = %q", got)
	}
}
