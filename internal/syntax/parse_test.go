package syntax

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/longtest"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

func mustParse(t *testing.T, path string, src []byte) *Document {
	t.Helper()
	doc, ds := Parse(path, src)
	for _, d := range ds {
		t.Errorf("%s  %q", d, d.Range.Slice(src))
	}
	if !doc.RevisionOK {
		t.Fatalf("%s: RevisionOK is false", path)
	}
	return doc
}

// TestValidVectors parses every runtime file of the shared valid-basic
// vectors and checks the model values against the text.
func TestValidVectors(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(vectorDir, "valid-basic")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("shared vectors not present:", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.journal"))
	if len(files) != 4 {
		t.Fatalf("found %d vector files, want 4", len(files))
	}
	docs := map[string]*Document{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, f)
		doc := mustParse(t, filepath.ToSlash(rel), src)
		docs[filepath.ToSlash(rel)] = doc
		// Identity matches the placement ("Filesystem layout" in docs/journal-format.md).
		if got := doc.Coordinate.String(); got != filepath.Base(filepath.Dir(f)) || !doc.CoordinateOK {
			t.Errorf("%s: coordinate %q", rel, got)
		}
		if got := doc.JournalVersion.String() + ".journal"; got != filepath.Base(f) || !doc.JournalVersionOK {
			t.Errorf("%s: journal version %q", rel, got)
		}
		if doc.Digest != vt.DigestOf(src) || doc.Revision.Digest() != doc.Digest {
			t.Errorf("%s: digest", rel)
		}
		if doc.LineEnding != LF {
			t.Errorf("%s: line ending %v", rel, doc.LineEnding)
		}
	}

	// The chain: each PREDECESSOR is the exact digest of the previous text.
	g := docs["com.example.widget/20260110T080000Z.journal"]
	s := docs["com.example.widget/20260201T080000Z.journal"]
	h := docs["com.example.widget/20260301T080000Z.journal"]
	if g == nil || s == nil || h == nil {
		t.Fatal("widget vectors missing")
	}
	if g.PredecessorOK || !g.Revision.IsGenesis() {
		t.Error("genesis has a predecessor")
	}
	if !s.PredecessorOK || s.Predecessor != g.Digest || h.Predecessor != s.Digest {
		t.Errorf("chain digests: %v %v / %v %v", s.Predecessor, g.Digest, h.Predecessor, s.Digest)
	}

	r := h.Revision
	if r.Description() != `Widget "classic" edition: a tiny UI toolkit` {
		t.Errorf("description %q", r.Description())
	}
	if u, ok := r.Info(); !ok || u.String() != "git+https://git.example.org/widget.git" {
		t.Errorf("info %v %v", u, ok)
	}
	if p, ok := r.Policy(); !ok || p.Verdict() != vt.Allow {
		t.Errorf("header policy %v %v", p, ok)
	}
	rels := r.Releases()
	if len(rels) != 3 || len(h.Releases) != 3 {
		t.Fatalf("%d releases", len(rels))
	}
	r0, r1, r2 := rels[0], rels[1], rels[2]
	if r0.Version().String() != "1.0.0" || r0.License().String() != "MIT OR Apache-2.0" {
		t.Errorf("release 0: %v %v", r0.Version(), r0.License())
	}
	if d, ok := r0.Description(); !ok || d != "First public release" {
		t.Errorf("release 0 description %q", d)
	}
	if p, ok := r0.Policy(); !ok || p.Verdict() != vt.Deprecated {
		t.Errorf("release 0 policy %v", p)
	} else if reason, _ := p.Reason(); reason != "superseded by 1.1.0" {
		t.Errorf("release 0 reason %q", reason)
	}
	if ts, ok := r0.Published(); !ok || ts.String() != "20260101T000000Z" {
		t.Errorf("release 0 published %v", ts)
	}
	deps := r0.Dependencies()
	if len(deps) != 1 || deps[0].Coordinate().String() != "org.example.core" || deps[0].Constraint().String() != "[1.2.0,2.0.0)" {
		t.Errorf("release 0 depends %v", deps)
	} else if desc, _ := deps[0].Description(); desc != "runtime helpers" {
		t.Errorf("release 0 dependency description %q", desc)
	}
	if p := r1.EffectivePolicy(); p.Verdict() != vt.Deny {
		t.Errorf("release 1 effective policy %v", p.Verdict())
	}
	cs := r1.Contents()
	if len(cs) != 2 || cs[1].Name().String() != "widget-1.1.0-sources.jar" ||
		cs[1].Digest().String() != "sha256:5555555555555555555555555555555555555555555555555555555555555555" {
		t.Errorf("release 1 contents %v", cs)
	}
	if len(r1.Dependencies()) != 2 || len(r1.Exclusions()) != 1 || len(r1.Preferences()) != 1 {
		t.Errorf("release 1 lists %d %d %d", len(r1.Dependencies()), len(r1.Exclusions()), len(r1.Preferences()))
	}
	if e := r1.Exclusions()[0]; e.Coordinate().String() != "org.example.legacy-shim" {
		t.Errorf("exclusion %v", e.Coordinate())
	}
	if pr := r1.Preferences()[0]; pr.Coordinate().String() != "org.example.core" || pr.Version().String() != "1.4.2" {
		t.Errorf("preference %v %v", pr.Coordinate(), pr.Version())
	}
	if p := r2.EffectivePolicy(); p.Verdict() != vt.Allow {
		t.Errorf("release 2 inherits the header policy, got %v", p.Verdict())
	}
	if _, ok := r2.Description(); ok {
		t.Error("release 2 has no description")
	}
	if b := h.Releases[2]; !b.VersionOK || b.Version.String() != "1.1.1" || len(b.Directives) != 5 {
		t.Errorf("release block 2: %+v", b)
	}
	if h.Header.Policy == nil || h.Header.Info == nil || h.Header.Predecessor == nil {
		t.Error("header pointers")
	}
}

// TestCorpus parses the real Journals of the shared corpus: all clean.
func TestCorpus(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../../shared/corpus/gomodules/*/*.journal")
	if len(files) == 0 {
		t.Skip("shared corpus not present")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc := mustParse(t, f, src)
		if got := doc.JournalVersion.String() + ".journal"; got != filepath.Base(f) {
			t.Errorf("%s: journal version %s", f, got)
		}
	}
}

// TestValidVariants covers valid spellings of "Lines and encoding" in
// docs/journal-format.md: CRLF, no final terminator, indentation, trailing
// blanks, # inside values, the longest quoted string, escapes.
func TestValidVariants(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", MaxQuoted/2)
	tests := []struct {
		desc string
		in   string
		le   LineEnding
	}{
		{"lf", hdr + rel, LF},
		{"crlf", strings.ReplaceAll(hdr+rel, "\n", "\r\n"), CRLF},
		{"no final terminator", hdr + strings.TrimSuffix(rel, "\n"), LF},
		{"indentation and trailing blanks", "  JOURNAL_FORMAT\t1 \t\n\tARTIFACT   com.example.widget\nJOURNAL_VERSION 20260110T080000Z  \nDESCRIPTION  \"d\"\t\n", LF},
		{"comments and blank lines", "# top\n\n" + hdr + "   # indented comment\n \t\n" + rel, LF},
		{"hash inside a value", hdr + "INFO https://example.org/x#frag\n" + rel, LF},
		{"longest quoted string", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"" + long + "\"\n", LF},
		{"escapes", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"q\\\" b\\\\ s\\/ n\\n t\\t \\u00e9 \\ud83d\\ude80\"\n", LF},
		{"empty quoted string", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"\"\n", LF},
		{"release directives in any order", hdr + "RELEASE 2.0.0-rc.1\nPREFERS org.example.core 1.5.0 \"pin\"\nDEPENDS org.example.core [1.0.0,2.0.0)\nCONTENT b.zip " + dig + "\nPOLICY deny \"bad\"\nLICENSE MIT\nPUBLISHED 20260110T080000Z\nEXCLUDES org.example.x\n", LF},
		{"one line without terminator", "JOURNAL_FORMAT 1", NoTerminator},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			doc, ds := Parse("v.journal", []byte(tt.in))
			if tt.le == NoTerminator {
				// Only the missing header directives, no syntax error.
				for _, d := range ds {
					if d.Code != rules.SyntaxMissingDirective {
						t.Errorf("unexpected %s", d)
					}
				}
			} else {
				for _, d := range ds {
					t.Errorf("unexpected %s", d)
				}
				if !doc.RevisionOK {
					t.Error("RevisionOK false")
				}
			}
			if doc.LineEnding != tt.le {
				t.Errorf("line ending %v, want %v", doc.LineEnding, tt.le)
			}
		})
	}
	doc := mustParse(t, "v.journal", []byte("JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"q\\\" \\u00e9 \\ud83d\\ude80 t\\t\"\n"))
	if got := doc.Revision.Description(); got != "q\" é 🚀 t\t" {
		t.Errorf("decoded description %q", got)
	}
}

// TestDirectiveRanges pins the ranges of a directive, its keyword and its
// arguments, including LICENSE's rest-of-line argument and quoted strings.
func TestDirectiveRanges(t *testing.T) {
	t.Parallel()
	src := []byte(hdr + "RELEASE 1.0.0\n  LICENSE  MIT OR Apache-2.0 \t\nCONTENT a.jar " + dig + "\nDEPENDS  org.example.core 1.0.0   \"dé\"  \n")
	doc := mustParse(t, "r.journal", src)
	if len(doc.Directives) != 8 {
		t.Fatalf("%d directives", len(doc.Directives))
	}
	lic := doc.Directives[5]
	if lic.Kind != KindLicense || lic.Line != 6 || len(lic.Args) != 1 {
		t.Fatalf("license directive %+v", lic)
	}
	if got := string(lic.Range().Slice(src)); got != "LICENSE  MIT OR Apache-2.0" {
		t.Errorf("directive range covers %q", got)
	}
	if a := lic.Args[0]; a.Raw != "MIT OR Apache-2.0" || a.Range().Start != (diag.Pos{Offset: 119, Line: 6, Column: 12}) {
		t.Errorf("license arg %+v", a)
	}
	dep := doc.Directives[7]
	if len(dep.Args) != 3 {
		t.Fatalf("depends args %+v", dep.Args)
	}
	q := dep.Args[2]
	if !q.Quoted || q.Raw != `"dé"` || q.Text != "dé" || q.Range().Start.Column != 35 || q.Range().End.Column != 39 {
		t.Errorf("quoted arg %+v", q)
	}
	if b := doc.Releases[0]; b.Release != doc.Directives[4] || len(b.Directives) != 3 {
		t.Errorf("release block %+v", b)
	}
}

// TestIdentityDespiteErrors: Coordinate, JournalVersion and Predecessor are
// filled when their own directive parsed, whatever else is wrong.
func TestIdentityDespiteErrors(t *testing.T) {
	t.Parallel()
	src := []byte("JOURNAL_FORMAT 7\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nPREDECESSOR " + dig + "\nBOGUS\nRELEASE x\n")
	doc, ds := Parse("i.journal", src)
	if !ds.HasErrors() || doc.RevisionOK {
		t.Fatal("expected errors")
	}
	if !doc.CoordinateOK || doc.Coordinate.String() != "com.example.widget" {
		t.Error("coordinate not filled")
	}
	if !doc.JournalVersionOK || doc.JournalVersion.String() != "20260110T080000Z" {
		t.Error("journal version not filled")
	}
	if !doc.PredecessorOK || doc.Predecessor.String() != dig {
		t.Error("predecessor not filled")
	}
	if len(doc.Releases) != 1 || doc.Releases[0].VersionOK {
		t.Error("release block")
	}
	if doc.Directives[4].Kind != KindUnknown || doc.Directives[4].Keyword != "BOGUS" {
		t.Error("unknown directive not kept")
	}
	// A bad value leaves only its own flag false.
	doc, _ = Parse("i.journal", []byte("JOURNAL_FORMAT 1\nARTIFACT Com\nJOURNAL_VERSION 20260110T080000Z\n"))
	if doc.CoordinateOK || !doc.JournalVersionOK {
		t.Error("flags")
	}
}

// TestTooLarge: more than 16 MiB is refused with one fs/too-large about the
// whole file; exactly 16 MiB is parsed. A long test (longtest.Whole): one
// goroutine, seconds of 16 MiB under the race detector.
func TestTooLarge(t *testing.T) {
	longtest.Whole(t)
	t.Parallel()
	big := bytes.Repeat([]byte("#"), MaxSize+1)
	doc, ds := Parse("big.journal", big)
	if len(ds) != 1 || ds[0].Code != rules.FSTooLarge || ds[0].Range != (diag.Range{}) || ds[0].Path != "big.journal" {
		t.Fatalf("got %v", ds)
	}
	if doc.Digest != vt.DigestOf(big) || doc.RevisionOK {
		t.Error("document of a too-large text")
	}
	doc, ds = Parse("max.journal", big[:MaxSize])
	for _, d := range ds {
		if d.Code != rules.SyntaxMissingDirective {
			t.Errorf("unexpected %s", d)
		}
	}
	_ = doc
}

// TestRelated pins the related locations of duplicates and conflicts.
func TestRelated(t *testing.T) {
	t.Parallel()
	src := []byte("JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\n")
	_, ds := Parse("r.journal", src)
	if len(ds) != 1 || len(ds[0].Related) != 1 {
		t.Fatalf("got %v", ds)
	}
	if r := ds[0].Related[0]; r.Message != "first stated here" || r.Range.Start.Line != 2 || r.Range.Start.Column != 1 || r.Path != "r.journal" {
		t.Errorf("related %+v", r)
	}
	if ds[0].Help == "" {
		t.Error("no help")
	}
}

// TestManyErrors: every problem is reported, not only the first, and the
// list is sorted.
func TestManyErrors(t *testing.T) {
	t.Parallel()
	src := []byte("ARTIFACT Bad\nJOURNAL_FORMAT 2\nRELEASE 1.0.0\nfoo\nRELEASE 1.0.0\nCONTENT x/y bad\n")
	_, ds := Parse("m.journal", src)
	codes := map[string]int{}
	for _, d := range ds {
		codes[d.Code]++
	}
	for _, c := range []string{rules.ValueCoordinate, rules.ValueFormat, rules.SyntaxMisplacedDirective, rules.SyntaxUnknownDirective,
		rules.SemanticDuplicateRelease, rules.ValueName, rules.ValueDigest, rules.SyntaxMissingDirective} {
		if codes[c] == 0 {
			t.Errorf("no %s in %v", c, ds)
		}
	}
}

// TestParseKeepsNothingBetweenTexts parses texts that use the recycled
// parse state (scratch) in different amounts, including one that outgrows
// it, and checks that each parses the same whatever was parsed before.
func TestParseKeepsNothingBetweenTexts(t *testing.T) {
	rich := bigJournal(t, 40)
	small := bigJournal(t, 1)
	bom := append([]byte("\xef\xbb\xbfDEPENDS org.example.core 1.0.0\n"), small...)
	texts := [][]byte{rich, small, bom, rich, bom, small}
	type parsed struct {
		doc *Document
		ds  diag.List
	}
	first := map[int]parsed{}
	for round := 0; round < 2; round++ {
		for i, src := range texts {
			doc, ds := Parse("t.journal", src)
			key := len(src)
			if prev, ok := first[key]; !ok {
				first[key] = parsed{doc, ds}
			} else if !reflect.DeepEqual(prev, parsed{doc, ds}) {
				t.Errorf("text %d (round %d) parsed differently after other texts", i, round)
			}
		}
	}
}
