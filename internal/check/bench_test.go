package check_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gen"
)

// BenchmarkCheck runs the whole check (load, lint rules, history,
// configuration) on a generated tree of 10,000 Journal files (about 2,800
// artifacts, 21 MB). Generating and writing the tree is outside the timer.
func BenchmarkCheck(b *testing.B) {
	root := filepath.Join(b.TempDir(), "journals")
	tr, err := gen.Write(root, gen.Options{Files: 10_000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(tr.Bytes())
	b.ReportAllocs()
	for b.Loop() {
		res, err := check.Run(context.Background(), check.Options{Root: root})
		if err != nil {
			b.Fatal(err)
		}
		if res.Revisions != len(tr.Files) {
			b.Fatalf("%d revisions accepted, want %d", res.Revisions, len(tr.Files))
		}
		for _, d := range res.Diagnostics {
			if d.Severity == diag.Error {
				b.Fatalf("generated tree has an error: %v", d)
			}
		}
	}
}
