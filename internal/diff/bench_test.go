package diff_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/syntax"
)

// BenchmarkCompareAdversarial is a shape of issue "hostile input" §2: two
// revisions whose one release has 100,000 CONTENT lines each, all renamed
// (about 9 MiB each), which the diff once matched pairwise. The target is
// ≤ 2 s.
func BenchmarkCompareAdversarial(b *testing.B) {
	const n = 100_000
	doc := func(version, prefix string) *syntax.Document {
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION %s\nDESCRIPTION \"w\"\n\nRELEASE 1.0.0\nLICENSE MIT\n", version)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&buf, "CONTENT %s-%d.jar sha256:4444444444444444444444444444444444444444444444444444444444444444\n", prefix, i)
		}
		d, err := syntax.Parse("com.example.widget/"+version+".journal", buf.Bytes())
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	old, new := doc("20260110T080000Z", "a"), doc("20260210T080000Z", "b")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := diff.Compare(old, new, diff.Options{})
		if err != nil || len(r.Changes) != 2*n {
			b.Fatalf("%v, %d changes", err, len(r.Changes))
		}
	}
}

// BenchmarkWordDiffAdversarial: two 1 MiB descriptions that differ in
// every word, which Myers' algorithm without a limit diffs in quadratic
// time. The target is ≤ 2 s.
func BenchmarkWordDiffAdversarial(b *testing.B) {
	var o, n strings.Builder
	for i := 0; o.Len() < 1<<20; i++ {
		fmt.Fprintf(&o, "a%d ", i)
		fmt.Fprintf(&n, "b%d ", i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		segs := diff.WordDiff(o.String(), n.String())
		if len(segs) != 3 { // Delete, Insert, the final space
			b.Fatalf("%d segments", len(segs))
		}
	}
}
