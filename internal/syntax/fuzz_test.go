package syntax

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// vectorDir is the shared spec's test vectors, read in place.
const vectorDir = "../../../shared/spec/vectors"

// vectorFiles returns every file of the shared vectors (valid and invalid
// trees, .journal and .journal.example), or nil when they are absent.
func vectorFiles(tb testing.TB) []string {
	tb.Helper()
	var out []string
	filepath.WalkDir(vectorDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) != ".json" {
			out = append(out, path)
		}
		return nil
	})
	return out
}

var fuzzSeeds = []string{
	"",
	" \t\r\n",
	"\ufeff" + hdr,
	hdr,
	hdr + rel,
	hdr + rel + "DEPENDS org.example.core [1.0.0,2.0.0) \"x\\u00e9\\ud83d\\ude80\"\n",
	hdr + rel + "PREFERS org.example.core 1.0.0\nEXCLUDES org.example.core\n",
	"JOURNAL_FORMAT 1\r\nARTIFACT a.b\nRELEASE\r",
	"DESCRIPTION \"\\ud800\\",
	"DESCRIPTION \"\\u12",
	"\x00\xff\xc2\x85\x7f\r",
	"LICENSE \xe2\x82",
	"RELEASE 1.0.0\nRELEASE 1.0.0\nPOLICY deny \"\"\n",
}

// FuzzParse checks that Parse is total and keeps its promises on any input:
// no panic, sorted diagnostics whose ranges lie in the text and agree with
// diag.LineIndex, a Document.Lines that agrees with diag.NewLineIndex,
// RevisionOK exactly when there is no error, and the exact digest of the
// bytes.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, path := range vectorFiles(f) {
		if b, err := os.ReadFile(path); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, ds := Parse("f.journal", src)
		if doc == nil {
			t.Fatal("nil document")
		}
		if doc.Digest != vt.DigestOf(src) {
			t.Fatal("digest differs from DigestOf(src)")
		}
		for i := 1; i < len(ds); i++ {
			if diag.Less(ds[i], ds[i-1]) {
				t.Fatalf("diagnostics not sorted: %v before %v", ds[i-1], ds[i])
			}
		}
		lines := diag.NewLineIndex(src)
		if doc.Lines == nil || doc.Lines.LineCount() != lines.LineCount() {
			t.Fatal("the document's line index differs from NewLineIndex")
		}
		for off := 0; off <= len(src); off += max(1, len(src)/64) {
			if doc.Lines.Pos(off) != lines.Pos(off) {
				t.Fatalf("document's Lines.Pos(%d) = %v, NewLineIndex's %v", off, doc.Lines.Pos(off), lines.Pos(off))
			}
		}
		inRange := func(r diag.Range) {
			if r == (diag.Range{}) {
				return
			}
			if r.Start.Offset < 0 || r.End.Offset > len(src) || r.Start.Offset > r.End.Offset {
				t.Fatalf("range %+v outside the text of %d bytes", r, len(src))
			}
			if lines.Pos(r.Start.Offset) != r.Start || lines.Pos(r.End.Offset) != r.End {
				t.Fatalf("range %+v disagrees with LineIndex %v %v", r, lines.Pos(r.Start.Offset), lines.Pos(r.End.Offset))
			}
		}
		for _, d := range ds {
			if d.Code == "" || d.Severity != diag.Error || d.Message == "" {
				t.Fatalf("malformed diagnostic %+v", d)
			}
			inRange(d.Range)
			for _, r := range d.Related {
				inRange(r.Range)
			}
		}
		for _, d := range doc.Directives {
			inRange(d.Range())
			inRange(d.KeywordRange())
			for _, a := range d.Args {
				inRange(a.Range())
				if string(a.Range().Slice(src)) != a.Raw {
					t.Fatalf("arg range %+v does not cover %q", a.Range(), a.Raw)
				}
			}
		}
		if doc.RevisionOK == ds.HasErrors() {
			t.Fatalf("RevisionOK=%v with %d error diagnostics", doc.RevisionOK, len(ds))
		}
		if doc.RevisionOK && doc.Revision.Digest() != doc.Digest {
			t.Fatal("revision digest differs")
		}
		// The next input is parsed into this one's memory, as in a
		// streaming check.
		Recycle(doc)
	})
}
