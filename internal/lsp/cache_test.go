package lsp_test

import (
	"context"
	"flag"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/lsp"
	"github.com/r35157/journal-lint/internal/lsp/lsptest"
	"github.com/r35157/journal-lint/internal/memo"
)

// With a persistent cache, the first diagnostics of a tree come from a
// check that takes the unchanged artifacts from it, before the check that
// reads every file to keep the state the requests need (held here until
// they arrived); that check publishes again only what differs, and the
// diagnostics are the ones the server finds without a cache.
func TestFirstDiagnosticsFromCache(t *testing.T) {
	root := tree(t)
	store, err := memo.Open(t.TempDir(), memo.On, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := check.Run(context.Background(), check.Options{Root: root, Now: now, Cache: store}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, filepath.FromSlash(widgetFork))

	without := lsptest.Start(t, opts())
	want := without.DiagnosticsAfter(without.OpenFile(path), 0)
	if err := without.Stop(); err != nil {
		t.Fatal(err)
	}
	if !hasCode(want, "chain/fork") {
		t.Fatalf("the fork has no chain/fork: %v", codes(want))
	}

	// The full check is held until a code action waits for it: the first
	// diagnostics come from the cache, and a quick fix asked for right
	// after them waits for the check that keeps the state.
	awaiting, done := make(chan struct{}), make(chan struct{})
	lsp.OnAwaitFullCheck(t, func() { close(awaiting) })
	lsp.HoldAfterCheck(t, func(ctx context.Context, _ string) {
		select {
		case <-awaiting:
		case <-ctx.Done():
		}
		close(done)
	})
	o := opts()
	o.Cache = store
	c := lsptest.Start(t, o)
	u := c.OpenFile(path)
	first := c.DiagnosticsAfter(u, 0) // the full check is still held
	if diff := cmp.Diff(want, first); diff != "" {
		t.Fatalf("first diagnostics from the cache differ from the full check's (-want +got):\n%s", diff)
	}
	var fork protocol.Diagnostic
	for _, d := range first {
		if d.Code == "chain/fork" {
			fork = d
		}
	}
	actions, err := c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: fork.Range})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(actions, func(a protocol.CodeAction) bool { return strings.HasPrefix(a.Title, "Set PREDECESSOR to the head") }) {
		t.Fatalf("no PREDECESSOR fix right after the first diagnostics, among %v", titles(actions))
	}
	// The full check found what the first one did: it publishes nothing.
	<-done
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := c.Published(u); n != 1 {
		t.Fatalf("diagnostics published %d times, want once", n)
	}
}

var (
	firstFiles   = flag.Int("first.files", 10000, "revisions in the tree of BenchmarkFirstDiagnostics")
	firstNoCache = flag.Bool("first.nocache", false, "BenchmarkFirstDiagnostics without the cache, to compare")
)

// BenchmarkFirstDiagnostics measures the time from starting the server to
// the first diagnostics of one opened buffer, in a git work tree of
// -first.files generated revisions (10,000 by default) whose findings a
// `journal-lint check` left in the cache. Each iteration starts a server,
// opens the first revision, waits for its diagnostics and stops the server
// (which cancels the check that reads every file). git-status-ms is the
// yardstick, `git status --porcelain` in the same work tree, timed after
// each iteration; x-git-status is the first diagnostics' time as a
// multiple of it. -first.nocache starts the servers without the cache,
// as they were before they had one.
func BenchmarkFirstDiagnostics(b *testing.B) {
	dir := b.TempDir()
	root := filepath.Join(dir, "journals")
	if _, err := gen.Write(root, gen.Options{Files: *firstFiles, Seed: 2}); err != nil {
		b.Fatal(err)
	}
	commitAll(b, dir)
	store, err := memo.Open(b.TempDir(), memo.On, false)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := check.Run(context.Background(), check.Options{Root: root, Cache: store}); err != nil {
		b.Fatal(err)
	}
	path := lsptest.Journals(b, root)[0]
	var first, yard time.Duration
	for b.Loop() {
		start := time.Now()
		o := lsp.Options{Cache: store}
		if *firstNoCache {
			o.Cache = nil
		}
		c := lsptest.Start(b, o)
		c.DiagnosticsAfter(c.OpenFile(path), 0)
		first += time.Since(start)
		if err := c.Stop(); err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		cmd := exec.Command("git", "status", "--porcelain")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git status: %v\n%s", err, out)
		}
		yard += time.Since(start)
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "first-ms/op")
	b.ReportMetric(float64(yard.Microseconds())/1000/float64(b.N), "git-status-ms")
	b.ReportMetric(float64(first)/float64(yard), "x-git-status")
}
