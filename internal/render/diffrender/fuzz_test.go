package diffrender

import (
	"bytes"
	"testing"

	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/render"
	"github.com/r35157/journal-lint/internal/safetext/safetexttest"
)

const fuzzOld = "JOURNAL_FORMAT 1\nARTIFACT com.example.w\nJOURNAL_VERSION 20260101T000000Z\nDESCRIPTION \"a b c\"\n\nRELEASE 1.0.0\nLICENSE MIT\nCONTENT w.jar sha256:1111111111111111111111111111111111111111111111111111111111111111\nDESCRIPTION \"old words\"\nDEPENDS org.example.core [1.0.0,2.0.0)\n"

// FuzzCompare diffs two fuzzed documents: Parse and Compare never panic,
// a valid document compared with itself has no change, and the diff of any
// two valid documents renders in every diff format without a forged
// workflow command or a control character (issue "hostile input": the diff
// of two documents and the renderers).
func FuzzCompare(f *testing.F) {
	f.Add(fuzzOld, fuzzOld)
	f.Add(fuzzOld, "JOURNAL_FORMAT 1\nARTIFACT com.example.w\nJOURNAL_VERSION 20260201T000000Z\nPREDECESSOR sha256:2222222222222222222222222222222222222222222222222222222222222222\nDESCRIPTION \"a \\u202e\\n::error::x ##[error]\"\n\nRELEASE 1.0.0\nLICENSE Apache-2.0\nCONTENT v.jar sha256:1111111111111111111111111111111111111111111111111111111111111111\nDESCRIPTION \"new \\u001b[2J words\"\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		old, errA := diff.Parse("com.example.w/a.journal", []byte(a))
		new, errB := diff.Parse("com.example.w/b.journal", []byte(b))
		if errA != nil || errB != nil {
			return
		}
		if self, err := diff.Compare(old, old, diff.Options{}); err == nil && len(self.Changes) != 0 {
			t.Fatalf("a document differs from itself: %v", self.Changes)
		}
		r, err := diff.Compare(old, new, diff.Options{})
		if err != nil {
			return
		}
		for _, format := range render.DiffFormats() {
			for _, opts := range []WriteOptions{{}, {Color: true, PathPrefix: "j"}} {
				var buf bytes.Buffer
				if err := Write(&buf, format, []*diff.Result{r}, opts); err != nil {
					t.Fatal(err)
				}
				if err := safetexttest.Check(buf.Bytes(), format == render.GitHub, opts.Color); err != nil {
					t.Fatalf("%v: %v", format, err)
				}
			}
		}
	})
}
