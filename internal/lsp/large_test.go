package lsp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/lsp"
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

// A message over lsp.MaxMessage is skimmed, not read: a request gets an
// error with its id, and a didOpen of a 17 MB Journal padded with NUL
// bytes (102 MB as JSON) gets the fs/too-large of its file on disk. A long
// test (longtest.Whole): over 100 MB through JSON.
func TestOversizedMessage(t *testing.T) {
	longtest.Whole(t)
	root := tree(t)
	c := lsptest.Start(t, opts())
	big := filepath.Join(root, "com.example.big", "20260101T000000Z.journal")
	data := append([]byte("JOURNAL_FORMAT 1\nARTIFACT com.example.big\nJOURNAL_VERSION 20260101T000000Z\n# "), make([]byte, 17<<20)...)
	if err := os.MkdirAll(filepath.Dir(big), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, data, 0o644); err != nil {
		t.Fatal(err)
	}
	u := c.Open(big, data)
	if ds := c.Diagnostics(u, 1); !hasCode(ds, "fs/too-large") {
		t.Fatalf("want fs/too-large, got %v", codes(ds))
	}
	var res any
	_, err := c.Conn.Call(c.Ctx(), protocol.MethodTextDocumentHover, map[string]any{
		"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 0, "character": 0},
		"padding": strings.Repeat("x", lsp.MaxMessage)}, &res)
	if !isCode(err, jsonrpc2.InvalidRequest) || !strings.Contains(err.Error(), "textDocument/hover") {
		t.Fatalf("an oversized hover: want an InvalidRequest that names it, got %v", err)
	}
}
