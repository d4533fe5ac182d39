package lsp_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/lsp/lsptest"
	"github.com/r35157/journal-lint/internal/syntax"
)

// A 16 MiB buffer (the format's limit) is read and checked, one byte more
// is fs/too-large, and closing it clears its diagnostics. Moving 16 MiB
// through JSON takes minutes under the race detector, so this test runs
// without it (a long test: make test runs it in its plain pass).
func TestLargeBuffer(t *testing.T) {
	longtest.Whole(t)
	root := tree(t)
	c := lsptest.Start(t, opts())
	ctx := c.Ctx()
	// 16 MiB: one byte over the format's limit is fs/too-large.
	big := filepath.Join(root, "com.example.big", "20260101T000000Z.journal")
	u := c.Open(big, bytes.Repeat([]byte("# filler line of a very large Journal\n"), (syntax.MaxSize/38)+1))
	if ds := c.Diagnostics(u, 1); !hasCode(ds, "fs/too-large") {
		t.Fatalf("want fs/too-large, got %v", codes(ds))
	}
	// Exactly 16 MiB is read and parsed.
	exact := bytes.Repeat([]byte("#"), syntax.MaxSize)
	exact[len(exact)-1] = '\n'
	c.Change(u, 2, string(exact))
	if ds := c.Diagnostics(u, 2); hasCode(ds, "fs/too-large") {
		t.Fatalf("16 MiB is allowed, got %v", codes(ds))
	}

	if err := c.Server.DidClose(ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		t.Fatal(err)
	}
	c.WaitCleared(u)

	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
}
