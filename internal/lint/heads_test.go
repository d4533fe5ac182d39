package lint_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/rules"
)

// TestJudgeHeadsIsExact runs the head-only rules on every testdata
// document against two trees, one rule at a time and both, and checks
// that JudgeHeads says "reports something" exactly when Run
// reports something, with the references kept in a RefsArena.
func TestJudgeHeadsIsExact(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join("testdata", "*", "*.journal"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	var docs []*syntax.Document
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := syntax.Parse(p, src)
		docs = append(docs, doc)
	}
	trees := map[string]*lint.StaticTree{"testdata": testTree(t), "empty": &lint.StaticTree{}, "own": lint.TreeOf(docs)}
	sets := map[string][]string{
		"unknown-artifact": {rules.DepsUnknownArtifact},
		"unsatisfiable":    {rules.DepsUnsatisfiable},
		"both":             {rules.DepsUnknownArtifact, rules.DepsUnsatisfiable},
		"none":             nil,
	}
	// The references are kept in an arena, as a streaming check keeps them.
	// So are those read back from a cache record (AppendHeadRefs,
	// RefsArena.Read) into another arena, as a later run reads them.
	var arena, later lint.RefsArena
	refs := make([]lint.HeadRefs, len(docs))
	read := make([]lint.HeadRefs, len(docs))
	for i, doc := range docs {
		refs[i] = arena.Keep(doc)
		w := codec.NewWriter(nil)
		lint.AppendHeadRefs(w, refs[i])
		r := codec.NewReader(w.Bytes())
		if read[i] = later.Read(r); r.Done() != nil {
			t.Fatalf("%s: the references do not read back: %v", doc.Path, r.Done())
		}
		// Numbered by the shared arena, they name the same artifacts as
		// numbered by their own.
		if got, want := refs[i].Coordinates(), headRefsOf(doc).Coordinates(); !slices.Equal(got, want) {
			t.Errorf("%s: kept references name %v, want %v", doc.Path, got, want)
		}
	}
	reported := 0
	for tn, tree := range trees {
		for sn, codes := range sets {
			cfg := lint.RunConfig{Enabled: func(code string) bool {
				for _, c := range codes {
					if c == code {
						return true
					}
				}
				return false
			}}
			judge := lint.JudgeHeads(tree, cfg)
			for i, doc := range docs {
				found := lint.Run([]*syntax.Document{doc}, tree, cfg)
				if got, want := judge(refs[i]), len(found) > 0; got != want {
					t.Errorf("tree %s, rules %s, %s: judgement %v, but Run reported %d diagnostics", tn, sn, doc.Path, got, len(found))
				}
				if got, want := judge(read[i]), len(found) > 0; got != want {
					t.Errorf("tree %s, rules %s, %s: judgement of the references read back %v, but Run reported %d diagnostics", tn, sn, doc.Path, got, len(found))
				}
				if len(found) > 0 {
					reported++
				}
			}
		}
	}
	if reported == 0 {
		t.Fatal("no document was reported on: the test proves nothing")
	}
}

// TestJudgeHeadsIsConservative: a head without a document, a custom
// rule set and an enabled rule without a judgement are always judged to
// report.
func TestJudgeHeadsIsConservative(t *testing.T) {
	t.Parallel()
	doc, _ := syntax.Parse("a.journal", []byte("JOURNAL_VERSION 20260101T000000Z\nARTIFACT org.example.a\nPOLICY allow\n"))
	hr := headRefsOf(doc)
	tree := &lint.StaticTree{}
	if !lint.JudgeHeads(tree, lint.RunConfig{})(headRefsOf(nil)) {
		t.Error("a head without a document was judged to report nothing")
	}
	if lint.JudgeHeads(tree, lint.RunConfig{Enabled: func(code string) bool { return rules.KindOf(code) == rules.ChainHead }})(hr) {
		t.Error("a head without references was judged to report")
	}
	if !lint.JudgeHeads(tree, lint.RunConfig{Rules: lint.All()})(hr) {
		t.Error("a custom rule set was judged")
	}
	if !lint.JudgeHeads(tree, lint.RunConfig{Enabled: func(code string) bool { return code == rules.StyleCRLF }})(hr) {
		t.Error("a rule without a judgement was judged")
	}
}

// TestHeadRefsCoordinates: the coordinates a judgement looks up are those
// the head's DEPENDS and PREFERS name, each once, in the order of their
// first reference; a head without a document has none.
func TestHeadRefsCoordinates(t *testing.T) {
	t.Parallel()
	doc, _ := syntax.Parse("a.journal", []byte("JOURNAL_FORMAT 1\nARTIFACT org.example.a\nJOURNAL_VERSION 20260101T000000Z\nDESCRIPTION \"a\"\n\n"+
		"RELEASE 1.0.0\nDEPENDS org.example.b [1.0.0,2.0.0)\nDEPENDS org.example.c\nPREFERS org.example.b 1.2.0\n\n"+
		"RELEASE 1.1.0\nDEPENDS org.example.c [1.0.0,)\nDEPENDS org.example.d\n"))
	var got []string
	for _, c := range headRefsOf(doc).Coordinates() {
		got = append(got, c.String())
	}
	if want := []string{"org.example.b", "org.example.c", "org.example.d"}; !slices.Equal(got, want) {
		t.Errorf("Coordinates() = %v, want %v", got, want)
	}
	if cs := headRefsOf(nil).Coordinates(); cs != nil {
		t.Errorf("a head without a document has coordinates %v", cs)
	}
}

// headRefsOf returns the references of doc kept by an arena of their own.
func headRefsOf(doc *syntax.Document) lint.HeadRefs {
	var a lint.RefsArena
	return a.Keep(doc)
}
