package check_test

import (
	"context"
	"os"
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

// BenchmarkCheckTree runs the whole check on the tree named by the
// JOURNAL_BENCH_ROOT environment variable (for example a tree made by
// journal-gen -files 100000), so that a profile can be taken on a tree too
// large to generate inside the benchmark. It is skipped when the variable is
// unset.
func BenchmarkCheckTree(b *testing.B) {
	root := os.Getenv("JOURNAL_BENCH_ROOT")
	if root == "" {
		b.Skip("JOURNAL_BENCH_ROOT is not set")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := check.Run(context.Background(), check.Options{Root: root}); err != nil {
			b.Fatal(err)
		}
	}
}
