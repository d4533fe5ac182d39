package sdk

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// TestCursor checks the forward-scanning cursor of Directives and
// Document.Range against journal-lint's diag.LineIndex on texts with CRLF,
// multi-byte and invalid UTF-8, for offsets in file order, out of order
// and out of range.
func TestCursor(t *testing.T) {
	pieces := []string{"a", "bc ", "\n", "\r\n", "é", "日本", "\xff", "\xe6\x97", " ", "\"q\""}
	rnd := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 300; iter++ {
		var text []byte
		for n := rnd.IntN(40); n > 0; n-- {
			text = append(text, pieces[rnd.IntN(len(pieces))]...)
		}
		x := diag.NewLineIndex(text)
		d := &Document{Text: text}
		c := cursor{d: d, line: 1}
		var offs []int
		for n := rnd.IntN(30); n > 0; n-- {
			offs = append(offs, rnd.IntN(len(text)+3)-1)
		}
		if iter%2 == 0 {
			slices.Sort(offs)
		}
		for i := 0; i+1 < len(offs); i += 2 {
			s, e := offs[i], offs[i+1]
			got := c.rangeOf(s, e)
			want := d.Range(s, e)
			if got != want {
				t.Fatalf("text %q: range(%d, %d) = %v, want %v", text, s, e, got, want)
			}
			if want != rangeOf(x.Range(want.Start.Offset, want.End.Offset)) {
				t.Fatalf("text %q: Document.Range(%d, %d) = %v, LineIndex says %v", text, s, e, want, x.Range(s, e))
			}
		}
	}
}

func rangeOf(r diag.Range) Range { return Range{Start: Pos(r.Start), End: Pos(r.End)} }

// received returns doc as a pack receives it from journal-lint, with the
// parts in needs.
func received(t *testing.T, doc *syntax.Document, needs wire.Needs) *Document {
	t.Helper()
	var c protocol.Converter
	docs, err := wire.DecodeDocuments(wire.AppendDocument(nil, c.Document(doc, nil, needs), needs))
	if err != nil || len(docs) != 1 {
		t.Fatalf("%d documents, %v", len(docs), err)
	}
	return newDocument(docs[0])
}

// TestDirectives checks a document's directives and release blocks, as a
// pack gets them, against the parser's view of the text, and
// ReleaseBlock before and after Directives against each other.
func TestDirectives(t *testing.T) {
	src := "JOURNAL_FORMAT 1\r\nARTIFACT com.example.é\nJOURNAL_VERSION 20260110T080000Z\n" +
		"DESCRIPTION \"Ünïcode \\\"quoted\\\"\"\n\nRELEASE 1.0.0\nLICENSE MIT OR Apache-2.0\n" +
		"# comment\nRELEASE 2.0.0\nRELEASE 3.0.0\nDESCRIPTION \"three\"\nLICENSE MIT\nRELEASE \"4.0.0\"\n"
	sd, _ := syntax.Parse("a.journal", []byte(src))
	same(t, sd, received(t, sd, wire.NeedDirectives))
	d := received(t, sd, wire.NeedDirectives)
	var versions []string
	var sizes []int
	for _, b := range d.ReleaseBlocks() {
		versions = append(versions, b.Version)
		sizes = append(sizes, len(b.Directives))
		if cap(b.Directives) != len(b.Directives) {
			t.Errorf("block %s: directives not capped", b.Version)
		}
	}
	if !slices.Equal(versions, []string{"1.0.0", "2.0.0", "3.0.0", "4.0.0"}) || !slices.Equal(sizes, []int{1, 0, 2, 0}) {
		t.Errorf("blocks %v with %v directives", versions, sizes)
	}
	if l, ok := d.ReleaseBlocks()[2].Find("LICENSE"); !ok || l.Args[0].Text != "MIT" || l.Line != 12 {
		t.Errorf("Find(LICENSE) = %+v, %v", l, ok)
	}
}

// TestDocumentsOfTree checks the documents of a generated tree with
// faults, as a pack gets them, against the parser's view of each text.
func TestDocumentsOfTree(t *testing.T) {
	root := filepath.Join(t.TempDir(), "journals")
	if _, err := gen.WriteFaulted(root, gen.Options{Files: 200, Seed: 3}, gen.FaultOptions{InjectSeed: 30, Mutations: 20, MutateSeed: 40}); err != nil {
		t.Fatal(err)
	}
	lr, err := load.Load(context.Background(), root, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range lr.Files {
		if f.Doc != nil {
			same(t, f.Doc, received(t, f.Doc, wire.NeedDirectives))
			n++
		}
	}
	if n < 200 {
		t.Fatalf("%d documents", n)
	}
}

// same requires that d's directives and release blocks are those of the
// parse sd, and that ReleaseBlock gives the same block whether it is
// asked before or after the directives.
func same(t *testing.T, sd *syntax.Document, d *Document) {
	t.Helper()
	var versions []string
	for _, x := range sd.Directives {
		if x.Keyword == "RELEASE" {
			v := ""
			if len(x.Args) > 0 {
				v = wireText(x.Args[0])
			}
			versions = append(versions, v)
		}
	}
	var early []ReleaseBlock
	for _, v := range append(versions, "no-such-version") {
		b, ok := d.ReleaseBlock(v)
		if ok != (v != "no-such-version") {
			t.Fatalf("%s: ReleaseBlock(%q): %v", sd.Path, v, ok)
		}
		early = append(early, b)
	}
	dirs := d.Directives()
	if len(dirs) != len(sd.Directives) {
		t.Fatalf("%s: %d directives, want %d", sd.Path, len(dirs), len(sd.Directives))
	}
	for i, x := range sd.Directives {
		got := dirs[i]
		if got.Keyword != x.Keyword || got.Range != rangeOf(x.Range()) || got.KeywordRange != rangeOf(x.KeywordRange()) || got.Line != x.Range().Start.Line {
			t.Fatalf("%s: directive %d = %+v, want %+v", sd.Path, i, got, x)
		}
		if len(got.Args) != len(x.Args) {
			t.Fatalf("%s: directive %d: %d args, want %d", sd.Path, i, len(got.Args), len(x.Args))
		}
		for j, a := range x.Args {
			g := got.Args[j]
			if g.Raw != a.Raw || g.Text != wireText(a) || g.Quoted != a.Quoted || g.Range != rangeOf(a.Range()) {
				t.Fatalf("%s: directive %d arg %d = %+v, want %+v", sd.Path, i, j, g, a)
			}
		}
	}
	for i, v := range append(versions, "no-such-version") {
		late, _ := d.ReleaseBlock(v)
		if !slices.EqualFunc(append([]Directive{early[i].Release}, early[i].Directives...), append([]Directive{late.Release}, late.Directives...), equalDirective) ||
			early[i].Version != late.Version {
			t.Fatalf("%s: ReleaseBlock(%q) differs before and after Directives:\n%+v\n%+v", sd.Path, v, early[i], late)
		}
	}
}

func equalDirective(a, b Directive) bool {
	return a.Keyword == b.Keyword && a.Range == b.Range && a.KeywordRange == b.KeywordRange && a.Line == b.Line && slices.Equal(a.Args, b.Args)
}

// wireText is the text a pack gets for an argument: its raw text when
// bare, its decoded text made valid UTF-8 when quoted.
func wireText(a syntax.Arg) string {
	if !a.Quoted {
		return a.Raw
	}
	return strings.ToValidUTF8(a.Text, "\uFFFD")
}
