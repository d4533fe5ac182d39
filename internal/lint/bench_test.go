package lint_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// BenchmarkDepsUnsatisfiableAdversarial is the shape of issue "hostile
// input" §2: a head with 149,589 releases and one DEPENDS on it whose
// constraint is a union of 708,300 intervals that matches none of them
// (both files under the 16 MiB limit). It took over 600 s when every
// release was tested against every interval; the target is ≤ 2 s.
func BenchmarkDepsUnsatisfiableAdversarial(b *testing.B) {
	for _, shape := range []struct{ releases, intervals int }{{10_000, 100_000}, {149_589, 708_300}} {
		b.Run(fmt.Sprintf("releases=%d/intervals=%d", shape.releases, shape.intervals), func(b *testing.B) {
			core, _ := vt.ParseCoordinate("org.example.core")
			var tree lint.StaticTree
			vs := make([]vt.Version, shape.releases)
			for i := range vs {
				vs[i], _ = vt.ParseVersion(fmt.Sprintf("1.0.%d", i))
			}
			tree.Add(core, vs...)
			var k strings.Builder
			for i := 0; i < shape.intervals; i++ {
				if i > 0 {
					k.WriteByte(',')
				}
				fmt.Fprintf(&k, "(0.%d.0,0.%d.1)", i, i)
			}
			src := []byte("JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"w\"\n\n" +
				"RELEASE 1.0.0\nLICENSE MIT\nCONTENT w.jar sha256:" + strings.Repeat("3", 64) + "\nDEPENDS org.example.core " + k.String() + "\n")
			if len(src) > 16<<20 {
				b.Fatalf("file of %d bytes is over the 16 MiB limit", len(src))
			}
			doc, _ := syntax.Parse("com.example.widget/20260110T080000Z.journal", src)
			rule, _ := lint.Lookup("deps/unsatisfiable")
			cfg := lint.RunConfig{Rules: []lint.Rule{rule}}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				got := lint.Run([]*syntax.Document{doc}, &tree, cfg)
				if len(got) != 1 {
					b.Fatalf("got %d diagnostics, want 1: %v", len(got), got)
				}
			}
		})
	}
}
