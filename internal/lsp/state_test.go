package lsp_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/lsp"
	"github.com/r35157/journal-lint/internal/lsp/lsptest"
)

// holdFirstCheck holds the first check of the session after it ran, before
// it publishes, until the returned release is called; held is closed when
// it is reached.
func holdFirstCheck(t *testing.T) (held <-chan struct{}, release func()) {
	h, r := make(chan struct{}), make(chan struct{})
	var once sync.Once
	lsp.HoldAfterCheck(t, func(context.Context, string) {
		once.Do(func() { close(h); <-r })
	})
	var released sync.Once
	release = func() { released.Do(func() { close(r) }) }
	t.Cleanup(release)
	return h, release
}

// A check still running when its buffer closes publishes nothing: the
// empty list of the close stays, also for the old name of a buffer renamed
// by a close and an open.
func TestNoDiagnosticsAfterClose(t *testing.T) {
	root := tree(t)
	held, release := holdFirstCheck(t)
	c := lsptest.Start(t, opts())
	path := filepath.Join(root, filepath.FromSlash(widgetFork))
	u := c.OpenFile(path)
	<-held
	if err := c.Server.DidClose(c.Ctx(), &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		t.Fatal(err)
	}
	c.WaitCleared(u)
	// The rename: the same text under another name.
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	renamed := c.Open(filepath.Join(root, "com.example.widget", "20260302T080000Z.journal"), text)
	release()
	// The renamed buffer's diagnostics come from a later check than the
	// held one, so whatever the held check sent has arrived by then.
	if ds := c.Diagnostics(renamed, 1); len(ds) == 0 {
		t.Fatal("no diagnostics for the renamed buffer")
	}
	if ds := c.Last(u); len(ds) != 0 {
		t.Fatalf("the closed buffer got diagnostics after its close: %v", codes(ds))
	}
}

// Diagnostics of a buffer opened at version 0 carry version 0.
func TestVersionZero(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(widgetHead)))
	if err != nil {
		t.Fatal(err)
	}
	u := lsptest.URI(filepath.Join(root, filepath.FromSlash(widgetHead)))
	err = c.Server.DidOpen(c.Ctx(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "journal", Version: 0, Text: string(text)}})
	if err != nil {
		t.Fatal(err)
	}
	c.DiagnosticsAfter(u, 0)
	if v, ok := c.Version(u); !ok || v != 0 {
		t.Fatalf("version %d (present: %v), want 0", v, ok)
	}
}

// shutdown cancels the running check and answers at once; no diagnostics
// are published after it.
func TestShutdownCancelsCheck(t *testing.T) {
	root := tree(t)
	held := make(chan struct{})
	var once sync.Once
	// The check waits until it is cancelled, as a long one would.
	lsp.HoldAfterCheck(t, func(ctx context.Context, _ string) {
		once.Do(func() { close(held) })
		<-ctx.Done()
	})
	c := lsptest.Start(t, opts())
	u := c.OpenFile(filepath.Join(root, filepath.FromSlash(widgetFork)))
	<-held
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := c.Published(u); n != 0 {
		t.Fatalf("diagnostics were published %d times after shutdown", n)
	}
}

// The server exits when the process named by initialize's processId is
// gone, although its input stays open.
func TestExitsWhenParentGone(t *testing.T) {
	t.Parallel() // the server looks for its parent once a second
	parent := exec.Command("sleep", "600")
	if err := parent.Start(); err != nil {
		t.Skipf("no process to stand for the editor: %v", err)
	}
	c := lsptest.StartWith(t, opts(), &protocol.InitializeParams{ProcessID: int32(parent.Process.Pid)})
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	if err := c.Wait(); !errors.Is(err, lsp.ErrParentExited) {
		t.Fatalf("Serve returned %v, want ErrParentExited", err)
	}
}

// watched reports a file event of the client: path was created, changed
// or deleted on disk.
func watched(t *testing.T, c *lsptest.Client, path string, typ protocol.FileChangeType) {
	t.Helper()
	err := c.Server.DidChangeWatchedFiles(c.Ctx(), &protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: lsptest.URI(path), Type: typ}}})
	if err != nil {
		t.Fatal(err)
	}
}

// severityOf returns the severity of the first diagnostic with code, 0
// when there is none.
func severityOf(ds []protocol.Diagnostic, code string) protocol.DiagnosticSeverity {
	for _, d := range ds {
		if d.Code == code {
			return d.Severity
		}
	}
	return 0
}

// The configuration is read again on a file event: a rewrite that keeps
// its size and modification time, a deletion (no error message) and a
// configuration created after the buffer opened all apply at once.
func TestConfigurationFollowsFileEvents(t *testing.T) {
	root := tree(t)
	cfgPath := filepath.Join(filepath.Dir(root), ".journal-lint.yaml")
	orig, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	c := lsptest.Start(t, opts())
	u, ds := open(t, c, root, widgetHead)
	if s := severityOf(ds, "history/release-added"); s != protocol.DiagnosticSeverityInformation {
		t.Fatalf("history/release-added: severity %v, want info from the configuration (%v)", s, codes(ds))
	}
	recheck := func(path string, typ protocol.FileChangeType) []protocol.Diagnostic {
		t.Helper()
		n := c.Published(u)
		watched(t, c, path, typ)
		return c.DiagnosticsAfter(u, n)
	}

	// Same size, same modification time, another severity.
	offed := strings.Replace(string(orig), "history/release-added: info", "history/release-added: off ", 1)
	if len(offed) != len(orig) || offed == string(orig) {
		t.Fatal("the test's rewrite must keep the size")
	}
	if err := os.WriteFile(cfgPath, []byte(offed), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(cfgPath, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if ds := recheck(cfgPath, protocol.FileChangeTypeChanged); hasCode(ds, "history/release-added") {
		t.Errorf("after the rewrite history/release-added is off, got %v", codes(ds))
	}

	// Deleted: the default configuration, without an error message.
	if err := os.Remove(cfgPath); err != nil {
		t.Fatal(err)
	}
	ds = recheck(cfgPath, protocol.FileChangeTypeDeleted)
	if s := severityOf(ds, "style/trailing-whitespace"); s != protocol.DiagnosticSeverityWarning {
		t.Errorf("without a configuration style/trailing-whitespace is a warning, got severity %v", s)
	}
	if m := c.Messages(); len(m) != 0 {
		t.Errorf("deleting the configuration showed %q", m)
	}

	// Created again.
	if err := os.WriteFile(cfgPath, []byte(offed), 0o644); err != nil {
		t.Fatal(err)
	}
	if ds := recheck(cfgPath, protocol.FileChangeTypeCreated); hasCode(ds, "history/release-added") {
		t.Errorf("after the configuration was created history/release-added is off, got %v", codes(ds))
	}
}

// Files created, changed or deleted on disk are seen on the client's file
// event, without an edit of the buffer: a successor written next to the
// open head makes it a revision with a successor (the head-only rules
// leave it), and its deletion makes it the head again.
func TestFileEventsOnDisk(t *testing.T) {
	root := tree(t)
	c := startWatching(t)
	u, head := openLoneHead(t, c, root)
	next := successorOf(head, "20260401T080000Z")
	nextPath := filepath.Join(root, "com.example.widget", "20260401T080000Z.journal")
	if err := os.WriteFile(nextPath, []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	n := c.Published(u)
	watched(t, c, nextPath, protocol.FileChangeTypeCreated)
	if ds := c.DiagnosticsAfter(u, n); hasCode(ds, "deps/unknown-artifact") {
		t.Errorf("with a successor on disk the buffer is no head, got %v", codes(ds))
	}
	if err := os.Remove(nextPath); err != nil {
		t.Fatal(err)
	}
	n = c.Published(u)
	watched(t, c, nextPath, protocol.FileChangeTypeDeleted)
	if ds := c.DiagnosticsAfter(u, n); !hasCode(ds, "deps/unknown-artifact") {
		t.Errorf("with the successor deleted the buffer is the head again, got %v", codes(ds))
	}
}

// A Journal saved or changed without a didOpen ("save as" under a new
// name) is checked as it is on disk, and its changes apply from there.
func TestSaveAsUnopened(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	path := filepath.Join(root, filepath.FromSlash(widgetFork))
	u := lsptest.URI(path)
	if err := c.Server.DidSave(c.Ctx(), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		t.Fatal(err)
	}
	ds := c.DiagnosticsAfter(u, 0)
	var fork *protocol.Diagnostic
	for i, d := range ds {
		if d.Code == "chain/fork" {
			fork = &ds[i]
		}
	}
	if fork == nil {
		t.Fatalf("want chain/fork from the file on disk, got %v", codes(ds))
	}
	// An incremental change applies to the bytes on disk: write the head's
	// digest over the PREDECESSOR argument.
	head, err := os.ReadFile(filepath.Join(root, widgetHead))
	if err != nil {
		t.Fatal(err)
	}
	c.Edit(u, 5, fork.Range, digest(head))
	if ds := c.Diagnostics(u, 5); hasCode(ds, "chain/fork") {
		t.Fatalf("the change did not apply to the saved file: %v", codes(ds))
	}
}

// A client that does not watch files (Neovim 0.7) sees a file created on
// disk all the same, without an edit: the server lists the tree again in
// the background.
func TestDiskChangesWithoutWatching(t *testing.T) {
	t.Parallel() // the server lists the tree again every two seconds
	root := tree(t)
	c := lsptest.Start(t, opts())
	u, head := openLoneHead(t, c, root)
	next := successorOf(head, "20260401T080000Z")
	n := c.Published(u)
	if err := os.WriteFile(filepath.Join(root, "com.example.widget", "20260401T080000Z.journal"), []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	for hasCode(c.DiagnosticsAfter(u, n), "deps/unknown-artifact") {
		n = c.Published(u)
	}
}

// A Journal buffer outside <root>/<coordinate>/<file> (a scratch draft, a
// stray file in the root, a subfolder) gets what `check --file` finds, and
// a note that says why the tree rules were skipped.
func TestOutsideTheTree(t *testing.T) {
	root := tree(t)
	text, err := os.ReadFile(filepath.Join(root, "org.example.logging", "20260106T090000Z.journal"))
	if err != nil {
		t.Fatal(err)
	}
	c := lsptest.Start(t, opts())
	for _, path := range []string{
		filepath.Join(t.TempDir(), "drafts", "draft.journal"),
		filepath.Join(root, "stray.journal"),
		filepath.Join(root, "org.example.logging", "sub", "20260106T090000Z.journal"),
	} {
		u := c.Open(path, text)
		ds := c.Diagnostics(u, 1)
		if !hasCode(ds, "value/license") {
			t.Errorf("%s: want value/license, as check --file finds, got %v", path, codes(ds))
		}
		var note bool
		for _, d := range ds {
			note = note || (d.Code == nil && strings.Contains(d.Message, "checked on its own") && d.Severity == protocol.DiagnosticSeverityInformation)
		}
		if !note {
			t.Errorf("%s: no note on why the tree rules were skipped: %v", path, ds)
		}
	}
}

// An editor that normalises line endings sends LF text for a CRLF file:
// the server checks the file's bytes, so that the file keeps its
// style/crlf and its digest, which its successor names.
func TestCRLFNormalisedByEditor(t *testing.T) {
	root := tree(t)
	// The default configuration (the test tree's ignores style/crlf).
	if err := os.Remove(filepath.Join(filepath.Dir(root), ".journal-lint.yaml")); err != nil {
		t.Fatal(err)
	}
	genesis := filepath.Join(root, "com.example.widget", "20260110T080000Z.journal")
	lf, err := os.ReadFile(genesis)
	if err != nil {
		t.Fatal(err)
	}
	crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	if err := os.WriteFile(genesis, crlf, 0o644); err != nil {
		t.Fatal(err)
	}
	// Its successors name the CRLF bytes.
	for _, rel := range []string{widgetHead, widgetFork} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text = regexp.MustCompile(`PREDECESSOR \S+`).ReplaceAll(text, []byte("PREDECESSOR "+digest(crlf)))
		if err := os.WriteFile(p, text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := lsptest.Start(t, opts())
	g := c.Open(genesis, lf)
	if ds := c.Diagnostics(g, 1); !hasCode(ds, "style/crlf") {
		t.Errorf("the CRLF file lost its style/crlf: %v", codes(ds))
	}
	if _, ds := open(t, c, root, widgetHead); hasCode(ds, "chain/missing-predecessor") {
		t.Errorf("the successor of the CRLF file got %v", codes(ds))
	}
}

// A request that takes long (parsing a large buffer for a hover) holds up
// no other message: while it parses, a hover on another buffer is
// answered.
func TestRequestsDoNotWaitForEachOther(t *testing.T) {
	root := tree(t)
	parsing, done := make(chan struct{}), make(chan struct{})
	var once sync.Once
	lsp.HoldParse(t, func() {
		once.Do(func() { close(parsing); <-done })
	})
	held, release := holdFirstCheck(t)
	c := lsptest.Start(t, opts())
	defer close(done)
	big := c.OpenFile(filepath.Join(root, filepath.FromSlash(widgetFork)))
	<-held // the buffer is not checked: a hover parses it
	go func() {
		_, _ = c.Server.Hover(context.Background(), &protocol.HoverParams{TextDocumentPositionParams: at(big, 10, 10)})
	}()
	<-parsing
	release()
	u, _ := open(t, c, root, widgetHead)
	h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: at(u, 10, 10)})
	if err != nil || h == nil {
		t.Fatalf("hover while another one parses: %v, %v", h, err)
	}
}

// A request under way when shutdown arrives is answered before shutdown
// is (and so before exit can end the session).
func TestShutdownAnswersRequestsUnderWay(t *testing.T) {
	root := tree(t)
	parsing, done := make(chan struct{}), make(chan struct{})
	var once sync.Once
	lsp.HoldParse(t, func() {
		once.Do(func() { close(parsing); <-done })
	})
	shut := make(chan struct{})
	lsp.OnShutdown(t, func() { close(shut) })
	held, release := holdFirstCheck(t)
	c := lsptest.Start(t, opts())
	u := c.OpenFile(filepath.Join(root, filepath.FromSlash(widgetFork)))
	<-held // not checked: the hover parses the buffer
	type answer struct {
		h   *protocol.Hover
		err error
	}
	hovered := make(chan answer, 1)
	go func() {
		h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: at(u, 10, 10)})
		hovered <- answer{h, err}
	}()
	<-parsing
	stopped := make(chan error, 1)
	go func() {
		release()
		stopped <- c.Stop()
	}()
	<-shut
	close(done)
	if a := <-hovered; a.err != nil || a.h == nil {
		t.Errorf("the hover under way at shutdown: %v, %v", a.h, a.err)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

// startWatching starts a session with a client that watches files for
// the server, once it was asked to.
func startWatching(t *testing.T) *lsptest.Client {
	t.Helper()
	init := &protocol.InitializeParams{Capabilities: protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
		DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesWorkspaceClientCapabilities{DynamicRegistration: true}}}}
	c := lsptest.StartWith(t, opts(), init)
	c.Calls(protocol.MethodClientRegisterCapability)
	return c
}

// openLoneHead removes the fork of the test tree (if still there) and
// opens the widget's head, which then has deps/unknown-artifact (a rule
// of heads only); it returns the buffer and its text.
func openLoneHead(t *testing.T, c *lsptest.Client, root string) (protocol.DocumentURI, []byte) {
	t.Helper()
	head, err := os.ReadFile(filepath.Join(root, widgetHead))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, widgetFork)); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	u, ds := open(t, c, root, widgetHead)
	if !hasCode(ds, "deps/unknown-artifact") {
		t.Fatalf("the head should have deps/unknown-artifact, got %v", codes(ds))
	}
	return u, head
}

// successorOf returns a successor of the revision text at the Journal
// version jv: the same text naming text as its PREDECESSOR.
func successorOf(text []byte, jv string) string {
	next := regexp.MustCompile(`JOURNAL_VERSION \S+`).ReplaceAllString(string(text), "JOURNAL_VERSION "+jv)
	return regexp.MustCompile(`PREDECESSOR \S+`).ReplaceAllString(next, "PREDECESSOR "+digest(text))
}

// A request about a buffer version not checked yet does not parse the
// buffer again when the line it is about is the same in the last parsed
// version: a hover on a 16 MiB buffer answers at once after an edit
// elsewhere.
func TestRequestsReuseTheLastParse(t *testing.T) {
	root := tree(t)
	var mu sync.Mutex
	parses := 0
	lsp.HoldParse(t, func() {
		mu.Lock()
		parses++
		mu.Unlock()
	})
	checks, block := 0, make(chan struct{})
	lsp.HoldAfterCheck(t, func(ctx context.Context, _ string) {
		mu.Lock()
		checks++
		n := checks
		mu.Unlock()
		if n == 2 {
			select {
			case <-block:
			case <-ctx.Done():
			}
		}
	})
	c := lsptest.Start(t, opts())
	t.Cleanup(func() { close(block) })
	u, _ := open(t, c, root, widgetHead)
	// Line 1 is a comment: the edit's check (2) is held.
	c.Edit(u, 2, protocol.Range{Start: protocol.Position{Line: 0, Character: 1}, End: protocol.Position{Line: 0, Character: 1}}, " edited")
	h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: at(u, 10, 10)})
	if err != nil || h == nil || !strings.Contains(h.Contents.Value, "MIT License") {
		t.Fatalf("hover on LICENSE after an edit elsewhere: %v, %v", h, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if parses != 0 {
		t.Errorf("the hover parsed the buffer %d times; the last parse had the same line", parses)
	}
}

// A git checkout that switches the tree under an open buffer is seen on
// the client's file events: on a branch where the head has a successor,
// the buffer is no head; back on main, it is again.
func TestGitCheckoutSwitchesTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := tree(t)
	if err := os.Remove(filepath.Join(root, widgetFork)); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(root)
	commitAll(t, dir)
	head, err := os.ReadFile(filepath.Join(root, widgetHead))
	if err != nil {
		t.Fatal(err)
	}
	nextPath := filepath.Join(root, "com.example.widget", "20260401T080000Z.journal")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.org"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("checkout", "-q", "-b", "next")
	if err := os.WriteFile(nextPath, []byte(successorOf(head, "20260401T080000Z")), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "next")
	git("checkout", "-q", "-")

	c := startWatching(t)
	u, _ := openLoneHead(t, c, root)
	n := c.Published(u)
	git("checkout", "-q", "next")
	watched(t, c, nextPath, protocol.FileChangeTypeCreated)
	if ds := c.DiagnosticsAfter(u, n); hasCode(ds, "deps/unknown-artifact") {
		t.Errorf("on the branch with a successor the buffer is no head, got %v", codes(ds))
	}
	n = c.Published(u)
	git("checkout", "-q", "-")
	watched(t, c, nextPath, protocol.FileChangeTypeDeleted)
	if ds := c.DiagnosticsAfter(u, n); !hasCode(ds, "deps/unknown-artifact") {
		t.Errorf("back on the first branch the buffer is the head again, got %v", codes(ds))
	}
}
