package load

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/r35157/journal-lint/internal/gen"
)

// BenchmarkLoad loads a generated tree of 10,000 Journal files (about 2,800
// artifacts, 21 MB) through the one validation path. Generating and writing
// the tree is outside the timer.
func BenchmarkLoad(b *testing.B) {
	root := filepath.Join(b.TempDir(), "journals")
	tr, err := gen.Write(root, gen.Options{Files: 10_000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(tr.Bytes())
	b.ReportAllocs()
	for b.Loop() {
		res, err := Load(context.Background(), root, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if !res.Valid() || res.State.RevisionCount() != len(tr.Files) {
			b.Fatalf("generated tree: valid %v, %d revisions", res.Valid(), res.State.RevisionCount())
		}
	}
}
