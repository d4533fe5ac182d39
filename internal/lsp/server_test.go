package lsp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/lsp"
	"github.com/r35157/journal-lint/internal/lsp/lsptest"
	"github.com/r35157/journal-lint/internal/syntax"
)

var now = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

func opts() lsp.Options { return lsp.Options{Now: func() time.Time { return now }} }

// tree copies testdata/tree and returns the copy's Journal root.
func tree(t *testing.T) string {
	return filepath.Join(lsptest.CopyTree(t, filepath.Join("testdata", "tree")), "journals")
}

func codes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		c, _ := d.Code.(string)
		out = append(out, c)
	}
	return out
}

func hasCode(ds []protocol.Diagnostic, code string) bool {
	for _, c := range codes(ds) {
		if c == code {
			return true
		}
	}
	return false
}

const widgetHead = "com.example.widget/20260201T080000Z.journal"

// An unsaved buffer is checked in the context of the tree: a draft
// successor chains onto the on-disk head, and what it changes against that
// head is reported as history/* diagnostics on the buffer.
func TestBufferInTreeContext(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	head, err := os.ReadFile(filepath.Join(root, widgetHead))
	if err != nil {
		t.Fatal(err)
	}
	// The fork on disk is no longer: the 20260301 file is removed from the
	// buffer's point of view by opening a fixed successor in its place.
	if err := os.Remove(filepath.Join(root, "com.example.widget", "20260301T080000Z.journal")); err != nil {
		t.Fatal(err)
	}
	draft := strings.Replace(string(head), "JOURNAL_VERSION 20260201T080000Z", "JOURNAL_VERSION 20260401T080000Z", 1)
	draft = strings.Replace(draft, "PREDECESSOR sha256:d84bb2a9f474e3d51b80029d48f91d008f55dab67d8605e071771ec253ea59ed",
		"PREDECESSOR "+digest(head), 1)
	// Removing release 1.1.0 is a history error against the predecessor.
	draft = draft[:strings.Index(draft, "\nRELEASE 1.1.0")+1]
	path := filepath.Join(root, "com.example.widget", "20260401T080000Z.journal")
	u := c.Open(path, []byte(draft))
	ds := c.Diagnostics(u, 1)
	if !hasCode(ds, "history/release-removed") {
		t.Fatalf("want history/release-removed on the draft, got %v", codes(ds))
	}
	if hasCode(ds, "chain/missing-predecessor") || hasCode(ds, "chain/fork") {
		t.Fatalf("the draft chains onto the head, got %v", codes(ds))
	}
	// An edit that breaks PREDECESSOR makes a chain error at once.
	c.Change(u, 2, strings.Replace(draft, digest(head), "sha256:"+strings.Repeat("0", 64), 1))
	if ds := c.Diagnostics(u, 2); !hasCode(ds, "chain/missing-predecessor") {
		t.Fatalf("want chain/missing-predecessor after the edit, got %v", codes(ds))
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the server must not write the buffer: %v", err)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
}

// digest returns the revision digest of b ("The revision digest" in
// docs/journal-format.md).
func digest(b []byte) string {
	doc, _ := syntax.Parse("x.journal", b)
	return doc.Digest.String()
}

// Incremental edits in UTF-16 positions apply to the right bytes, also
// after a character outside the Basic Multilingual Plane.
func TestIncrementalEdit(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	u := c.OpenFile(filepath.Join(root, "org.example.logging", "20260106T090000Z.journal"))
	if ds := c.Diagnostics(u, 1); !hasCode(ds, "value/license") {
		t.Fatalf("want value/license, got %v", codes(ds))
	}
	// Line 7 is "LICENSE MTI OR GPL-2.0-or-later": replace MTI (characters 8–11).
	c.Edit(u, 2, protocol.Range{Start: protocol.Position{Line: 6, Character: 8}, End: protocol.Position{Line: 6, Character: 11}}, "MIT")
	if ds := c.Diagnostics(u, 2); hasCode(ds, "value/license") {
		t.Fatalf("the edit should fix the license, got %v", codes(ds))
	}
	// Line 4 holds "😀" (two UTF-16 units): insert a word after it.
	c.Edit(u, 3, protocol.Range{Start: protocol.Position{Line: 3, Character: 25}, End: protocol.Position{Line: 3, Character: 25}}, "X")
	ds := c.Diagnostics(u, 3)
	if len(ds) != 0 {
		t.Fatalf("want no diagnostics, got %v", ds)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
}

// Robustness: a malformed request, a request with invalid params, a
// 16 MiB buffer, invalid UTF-8 and a burst of 1,000 edits neither crash nor
// block the server, and it still answers afterwards.
func TestRobustness(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	ctx := c.Ctx()

	var res any
	if _, err := c.Conn.Call(ctx, protocol.MethodInitialize, "not an object", &res); !isCode(err, jsonrpc2.InvalidParams) {
		t.Fatalf("initialize with a string: want InvalidParams, got %v", err)
	}
	if _, err := c.Conn.Call(ctx, "journal-lint/nonsense", nil, &res); !isCode(err, jsonrpc2.MethodNotFound) {
		t.Fatalf("unknown method: want MethodNotFound, got %v", err)
	}

	// A file with invalid UTF-8 arrives as the editor decoded it (each bad
	// byte a U+FFFD, which JSON cannot avoid): the check reads the real
	// bytes and reports syntax/encoding, as check does.
	core := filepath.Join(root, "org.example.core", "20260105T090000Z.journal")
	data, err := os.ReadFile(core)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "DESCRIPTION \"\xff\xfe\"\n"...)
	if err := os.WriteFile(core, data, 0o644); err != nil {
		t.Fatal(err)
	}
	u2 := c.Open(core, bytes.ReplaceAll(data, []byte("\xff\xfe"), []byte("\uFFFD\uFFFD")))
	if ds := c.Diagnostics(u2, 1); !hasCode(ds, "syntax/encoding") {
		t.Fatalf("want syntax/encoding, got %v", codes(ds))
	}

	// 1,000 edits in a burst: the last version is checked, with every edit
	// applied: its diagnostics are those of the same text sent whole.
	head := filepath.Join(root, widgetHead)
	u3 := c.OpenFile(head)
	text, err := os.ReadFile(head)
	if err != nil {
		t.Fatal(err)
	}
	for i := 2; i <= 1001; i++ {
		c.Edit(u3, int32(i), protocol.Range{Start: protocol.Position{Line: 0, Character: 0}, End: protocol.Position{Line: 0, Character: 0}}, "#")
	}
	ds := c.Diagnostics(u3, 1001)
	if len(ds) == 0 {
		t.Fatal("no diagnostics after the burst, though its edits comment out JOURNAL_FORMAT")
	}
	c.Change(u3, 1002, strings.Repeat("#", 1000)+string(text))
	if whole := c.Diagnostics(u3, 1002); !reflect.DeepEqual(ds, whole) {
		t.Fatalf("after the burst:\n%v\nthe same text sent whole:\n%v", ds, whole)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
}

// A header that gives no usable Content-Length leaves no way to find where
// the next message starts: Serve ends with an error that names the fault,
// without hanging or panicking. (A malformed body is skipped instead; see
// lsp_stdio.txtar.)
func TestBrokenFraming(t *testing.T) {
	for header, want := range map[string]string{
		"Content-Length: twelve\r\n\r\n":   "malformed Content-Length",
		"Content-Length: -5\r\n\r\n":       "malformed Content-Length",
		"Content-Type: text/plain\r\n\r\n": "message header without Content-Length",
		"no colon here\r\n\r\n":            "malformed header line",
	} {
		srv, cli := net.Pipe()
		served := make(chan error, 1)
		go func() { served <- lsp.Serve(context.Background(), srv, lsp.Options{}) }()
		go func() { _, _ = io.Copy(io.Discard, cli) }()
		go func() { _, _ = cli.Write([]byte(header + "{}")) }()
		select {
		case err := <-served:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("header %q: Serve returned %v, want an error with %q", header, err, want)
			}
		case <-time.After(lsptest.Timeout):
			t.Fatalf("header %q: Serve did not return", header)
		}
		cli.Close()
	}
}

func isCode(err error, code jsonrpc2.Code) bool {
	e, ok := err.(*jsonrpc2.Error)
	return ok && e.Code == code
}

// exit without shutdown ends Serve with ErrExitWithoutShutdown.
func TestExitWithoutShutdown(t *testing.T) {
	c := lsptest.Start(t, opts())
	if err := c.Server.Exit(c.Ctx()); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(); !errors.Is(err, lsp.ErrExitWithoutShutdown) {
		t.Fatalf("Serve returned %v, want ErrExitWithoutShutdown", err)
	}
}

// A client that closes the connection before shutdown ends Serve with
// ErrClosedWithoutShutdown (exit code 1); one that closes it after shutdown
// without sending exit ends it cleanly.
func TestClosedConnection(t *testing.T) {
	c := lsptest.Start(t, opts())
	c.Conn.Close()
	if err := c.Wait(); !errors.Is(err, lsp.ErrClosedWithoutShutdown) {
		t.Fatalf("closed before shutdown: Serve returned %v, want ErrClosedWithoutShutdown", err)
	}

	c = lsptest.Start(t, opts())
	if err := c.Server.Shutdown(c.Ctx()); err != nil {
		t.Fatal(err)
	}
	c.Conn.Close()
	if err := c.Wait(); err != nil {
		t.Fatalf("closed after shutdown: Serve returned %v, want nil", err)
	}
}

// A client that can watch files for the server is asked to report changes
// of Journals, examples and configuration files.
func TestRegistersFileWatchers(t *testing.T) {
	init := &protocol.InitializeParams{Capabilities: protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
		DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesWorkspaceClientCapabilities{DynamicRegistration: true}}}}
	c := lsptest.StartWith(t, opts(), init)
	calls := c.Calls(protocol.MethodClientRegisterCapability)
	var p struct {
		Registrations []struct {
			Method          string
			RegisterOptions struct {
				Watchers []struct{ GlobPattern string }
			}
		}
	}
	if err := json.Unmarshal(calls[0], &p); err != nil {
		t.Fatal(err)
	}
	var globs []string
	for _, r := range p.Registrations {
		if r.Method == protocol.MethodWorkspaceDidChangeWatchedFiles {
			for _, w := range r.RegisterOptions.Watchers {
				globs = append(globs, w.GlobPattern)
			}
		}
	}
	if want := []string{"**/*.journal", "**/*.journal.example", "**/.journal-lint.yaml"}; !slices.Equal(globs, want) {
		t.Errorf("watchers %v, want %v", globs, want)
	}
}
