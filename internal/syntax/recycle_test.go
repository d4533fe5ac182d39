package syntax

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/longtest"
)

// TestRecycle parses texts one after another, recycling each document
// before the next Parse, and checks that every document equals the one a
// fresh parse gives: its directives with their arguments and ranges, its
// release blocks, its header and its diagnostics. The texts mix valid
// Journals, the errors testdata and every file of the shared vectors, so
// recycled slabs of every size meet texts of every shape. A recycled
// document keeps its text and model but no directives. A long test
// (longtest.Whole): one goroutine, several seconds under the race
// detector.
func TestRecycle(t *testing.T) {
	longtest.Whole(t)
	t.Parallel()
	paths, _ := filepath.Glob(filepath.Join(vectorDir, "*", "*", "*.journal*"))
	paths = append(paths, filepath.Join("testdata", "errors.journal"))
	corpus, _ := filepath.Glob("../../../shared/corpus/gomodules/*/*.journal")
	paths = append(paths, corpus...)
	var texts [][]byte
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, src)
	}
	texts = append(texts, []byte(""), []byte("JOURNAL_FORMAT 1\n"), []byte(strings.Repeat("RELEASE 1.0.0\nLICENSE MIT\n", 300)))
	want := make([]string, len(texts))
	for i, src := range texts {
		doc, ds := Parse(fmt.Sprint(i), src)
		want[i] = snapshot(doc, ds)
	}
	for round := range 3 {
		for i, src := range texts {
			doc, ds := Parse(fmt.Sprint(i), src)
			if got := snapshot(doc, ds); got != want[i] {
				t.Fatalf("round %d, text %d: the document differs after recycling:\n%s\nwant:\n%s", round, i, got, want[i])
			}
			revision, text := doc.Revision, doc.Src
			Recycle(doc)
			if doc.Directives != nil || doc.Releases != nil || doc.Header != (Header{}) {
				t.Fatalf("text %d: a recycled document still has directives", i)
			}
			if doc.Revision.Digest() != revision.Digest() || string(doc.Src) != string(text) {
				t.Fatalf("text %d: recycling lost the text or the model", i)
			}
			Recycle(doc) // a second time does nothing
		}
	}
}

// snapshot renders what Recycle's memory holds of doc, with ds.
func snapshot(doc *Document, ds diag.List) string {
	var b strings.Builder
	directive := func(d *Directive) {
		if d == nil {
			b.WriteString("<nil>\n")
			return
		}
		fmt.Fprintf(&b, "%+v %v %v\n", *d, d.Range(), d.KeywordRange())
		for _, a := range d.Args {
			fmt.Fprintf(&b, "  %+v %v\n", a, a.Range())
		}
	}
	for _, d := range doc.Directives {
		directive(d)
	}
	for _, r := range doc.Releases {
		fmt.Fprintf(&b, "release %v %v:\n", r.Version, r.VersionOK)
		directive(r.Release)
		for _, d := range r.Directives {
			directive(d)
		}
	}
	h := doc.Header
	b.WriteString("header:\n")
	for _, d := range []*Directive{h.Format, h.Artifact, h.JournalVersion, h.Predecessor, h.Description, h.Info, h.Policy} {
		directive(d)
	}
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %v\n", d, d.Range)
	}
	return b.String()
}
