package plugin

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	"github.com/r35157/journal-lint/internal/syntax"
)

// TestInputOfDroppedDocuments: the Input of a load that dropped its
// documents (as a check with rule packs makes) reads them again and
// encodes every batch exactly as the Input of a load that kept them, with
// a fault injected so that rejected and invalid files are in it too. A
// long test: 1200 files, 300 when tests run small (longtest.Small).
func TestInputOfDroppedDocuments(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if _, err := gen.Write(root, gen.Options{Files: longtest.Size(1200, 300), Seed: 7}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Inject(root, "chain/fork", 7); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	kept, err := load.Load(ctx, root, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dropped, err := load.Load(ctx, root, load.Options{DropDocs: true, KeepState: true, Compact: true})
	if err != nil {
		t.Fatal(err)
	}
	a, b := NewInput(kept), NewInput(dropped)
	if len(a.batches) != len(b.batches) || len(a.batches) < 2 {
		t.Fatalf("%d and %d batches", len(a.batches), len(b.batches))
	}
	for i := range a.batches {
		for _, needs := range []protocol.Needs{protocol.NeedText, protocol.NeedsAll} {
			if !bytes.Equal(a.documents(a.batches[i], needs), b.documents(b.batches[i], needs)) {
				t.Fatalf("batch %d, needs %v: the encodings differ", i, needs)
			}
		}
		b.batches[i].pending.Store(1)
		b.sent(b.batches[i])
		if slices.ContainsFunc(b.batches[i].docs, func(d *syntax.Document) bool { return d != nil }) {
			t.Errorf("batch %d keeps its documents once every pack has it", i)
		}
	}
}
