//go:build unix

package lsp_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/lsp/lsptest"
)

// A file on disk the server reads for a buffer (here: saved under a name
// that is not open) goes through the same reader as check: a link to
// /dev/zero and a FIFO are refused, logged, and neither exhausts nor
// stalls the server, which still checks the next file and answers
// shutdown (issue 26: 6 GB read from /dev/zero, then out of memory; a
// FIFO left shutdown unanswered).
func TestUnopenedFilesReadSafely(t *testing.T) {
	root := tree(t)
	zero := filepath.Join(root, "com.example.widget", "20260401T080000Z.journal")
	fifo := filepath.Join(root, "com.example.widget", "20260402T080000Z.journal")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	var log lockedBuffer
	o := opts()
	o.Log = &log
	c := lsptest.Start(t, o)
	for _, p := range []string{zero, fifo} {
		if err := c.Server.DidSave(c.Ctx(), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: lsptest.URI(p)}}); err != nil {
			t.Fatal(err)
		}
	}
	u := lsptest.URI(filepath.Join(root, filepath.FromSlash(widgetFork)))
	if err := c.Server.DidSave(c.Ctx(), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		t.Fatal(err)
	}
	if ds := c.DiagnosticsAfter(u, 0); !hasCode(ds, "chain/fork") {
		t.Errorf("the next saved file: %v", codes(ds))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Server.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	for _, p := range []string{zero, fifo} {
		if !strings.Contains(log.String(), "a save for "+p+", which is not open and cannot be read") {
			t.Errorf("no log line for %s in:\n%s", p, log.String())
		}
	}
}

// lockedBuffer is a buffer safe for concurrent use, for a server's log.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
