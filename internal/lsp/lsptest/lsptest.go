// Package lsptest drives the journal-lint language server in tests: it runs
// lsp.Serve in-process on one end of a pipe and gives the test a typed LSP
// client (go.lsp.dev/protocol) on the other, over a real JSON-RPC 2.0
// connection with Content-Length framing.
package lsptest

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/r35157/journal-lint/internal/lsp"
)

// Timeout bounds every wait of a Client. It guards against a hung server,
// not a slow one: moving 16 MiB through JSON on a loaded machine takes
// tens of seconds.
const Timeout = 2 * time.Minute

// Client is the test's side of one session.
type Client struct {
	t testing.TB
	// Server calls the server's methods.
	Server protocol.Server
	// Conn is the raw connection, for messages the typed client cannot
	// send (a didChange without a range).
	Conn jsonrpc2.Conn

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced when a notification arrives
	diags    map[protocol.DocumentURI]*published
	counts   map[protocol.DocumentURI]int // publishDiagnostics received, per document
	calls    map[string][]json.RawMessage // params of the server's requests, by method
	messages []string
	served   chan error
	stopped  bool
}

// Start starts a server with opts and initializes it (with the UTF-16
// position encoding, the protocol's default). The session is shut down
// when the test ends, unless the test did it.
func Start(t testing.TB, opts lsp.Options) *Client {
	t.Helper()
	return StartWith(t, opts, &protocol.InitializeParams{})
}

// StartWith is [Start] with the client's initialize parameters (its
// capabilities).
func StartWith(t testing.TB, opts lsp.Options, init *protocol.InitializeParams) *Client {
	t.Helper()
	srvEnd, cliEnd := net.Pipe()
	c := &Client{t: t, changed: make(chan struct{}), diags: map[protocol.DocumentURI]*published{},
		counts: map[protocol.DocumentURI]int{}, calls: map[string][]json.RawMessage{}, served: make(chan error, 1)}
	go func() { c.served <- lsp.Serve(context.Background(), srvEnd, opts) }()
	c.Conn = jsonrpc2.NewConn(jsonrpc2.NewStream(cliEnd))
	c.Conn.Go(context.Background(), c.handle)
	c.Server = protocol.ServerDispatcher(c.Conn, zap.NewNop())
	t.Cleanup(func() {
		select {
		case <-c.served:
		default:
			if c.stopped {
				break
			}
			ctx, cancel := context.WithTimeout(context.Background(), Timeout)
			defer cancel()
			_ = c.Server.Shutdown(ctx)
			_ = c.Server.Exit(ctx)
			select {
			case <-c.served:
			case <-time.After(Timeout):
				t.Errorf("the server did not stop after exit")
			}
		}
		c.Conn.Close()
	})
	if _, err := c.Server.Initialize(c.Ctx(), init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := c.Server.Initialized(c.Ctx(), &protocol.InitializedParams{}); err != nil {
		t.Fatalf("initialized: %v", err)
	}
	return c
}

// Ctx returns a context that ends after Timeout.
func (c *Client) Ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	c.t.Cleanup(cancel)
	return ctx
}

// handle records the server's notifications and answers its requests
// with null.
func (c *Client) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	c.mu.Lock()
	switch req.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p published
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			c.diags[p.URI] = &p
			c.counts[p.URI]++
		}
	case protocol.MethodWindowShowMessage:
		var p protocol.ShowMessageParams
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			c.messages = append(c.messages, p.Message)
		}
	}
	_, isCall := req.(*jsonrpc2.Call)
	if isCall {
		c.calls[req.Method()] = append(c.calls[req.Method()], req.Params())
	}
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
	if isCall {
		// The answer goes out from its own goroutine, so that this read
		// loop goes on reading: the pipe has no buffer, and the server may
		// be writing to it at the same time (its own answer to a request
		// of the test), which would otherwise block both sides for good.
		go func() { _ = reply(ctx, nil, nil) }()
		return nil
	}
	return reply(ctx, nil, nil)
}

// published is one publishDiagnostics; unlike the library's type it tells
// a version 0 from none.
type published struct {
	URI         protocol.DocumentURI  `json:"uri"`
	Version     *int32                `json:"version"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

// Version returns the document version of the diagnostics last published
// for u, and false when none were published or they carried no version.
func (c *Client) Version(u protocol.DocumentURI) (int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.diags[u]; p != nil && p.Version != nil {
		return *p.Version, true
	}
	return 0, false
}

// Diagnostics waits for the diagnostics of u at version (or a later one)
// and returns them.
func (c *Client) Diagnostics(u protocol.DocumentURI, version int32) []protocol.Diagnostic {
	c.t.Helper()
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		p, ch := c.diags[u], c.changed
		c.mu.Unlock()
		if p != nil && p.Version != nil && *p.Version >= version {
			return p.Diagnostics
		}
		select {
		case <-ch:
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s version %d within %s", u, version, Timeout)
		}
	}
}

// Calls waits until the server sent at least one request of method and
// returns the parameters of each.
func (c *Client) Calls(method string) []json.RawMessage {
	c.t.Helper()
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		got, ch := c.calls[method], c.changed
		c.mu.Unlock()
		if len(got) > 0 {
			return got
		}
		select {
		case <-ch:
		case <-deadline:
			c.t.Fatalf("no %s request within %s", method, Timeout)
		}
	}
}

// Published returns how many times the diagnostics of u were published so
// far.
func (c *Client) Published(u protocol.DocumentURI) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[u]
}

// DiagnosticsAfter waits until the diagnostics of u were published more
// than n times (see [Client.Published]) and returns the last ones.
func (c *Client) DiagnosticsAfter(u protocol.DocumentURI, n int) []protocol.Diagnostic {
	c.t.Helper()
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		p, count, ch := c.diags[u], c.counts[u], c.changed
		c.mu.Unlock()
		if count > n {
			return p.Diagnostics
		}
		select {
		case <-ch:
		case <-deadline:
			c.t.Fatalf("no new diagnostics for %s within %s", u, Timeout)
		}
	}
}

// WaitCleared waits until the last diagnostics published for u are none
// (as after didClose).
func (c *Client) WaitCleared(u protocol.DocumentURI) {
	c.t.Helper()
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		p, ch := c.diags[u], c.changed
		c.mu.Unlock()
		if p != nil && len(p.Diagnostics) == 0 {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			c.t.Fatalf("the diagnostics of %s were not cleared within %s", u, Timeout)
		}
	}
}

// Last returns the diagnostics last published for u, without waiting
// (nil when none were).
func (c *Client) Last(u protocol.DocumentURI) []protocol.Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.diags[u]; p != nil {
		return p.Diagnostics
	}
	return nil
}

// Messages returns the window/showMessage texts received so far.
func (c *Client) Messages() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.messages...)
}

// Open opens the file at path with text at version 1 and returns its URI.
func (c *Client) Open(path string, text []byte) protocol.DocumentURI {
	c.t.Helper()
	u := URI(path)
	err := c.Server.DidOpen(c.Ctx(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "journal", Version: 1, Text: string(text)}})
	if err != nil {
		c.t.Fatalf("didOpen: %v", err)
	}
	return u
}

// OpenFile opens the file at path with its contents on disk.
func (c *Client) OpenFile(path string) protocol.DocumentURI {
	c.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.Open(path, data)
}

// Change replaces the whole text of u (a change without a range).
func (c *Client) Change(u protocol.DocumentURI, version int32, text string) {
	c.t.Helper()
	c.notifyChange(u, version, map[string]any{"text": text})
}

// Edit replaces rg of u by text (an incremental change).
func (c *Client) Edit(u protocol.DocumentURI, version int32, rg protocol.Range, text string) {
	c.t.Helper()
	c.notifyChange(u, version, map[string]any{"range": rg, "text": text})
}

func (c *Client) notifyChange(u protocol.DocumentURI, version int32, change map[string]any) {
	c.t.Helper()
	err := c.Conn.Notify(c.Ctx(), protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": version},
		"contentChanges": []any{change},
	})
	if err != nil {
		c.t.Fatalf("didChange: %v", err)
	}
}

// Stop shuts the session down and waits for Serve to return its error.
func (c *Client) Stop() error {
	c.t.Helper()
	if err := c.Server.Shutdown(c.Ctx()); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	if err := c.Server.Exit(c.Ctx()); err != nil {
		c.t.Fatalf("exit: %v", err)
	}
	return c.Wait()
}

// Wait waits for Serve to return (after exit) and returns its error.
func (c *Client) Wait() error {
	c.t.Helper()
	select {
	case err := <-c.served:
		c.stopped = true
		return err
	case <-time.After(Timeout):
		c.t.Fatalf("the server did not stop after exit")
	}
	return nil
}

// URI returns the file: URI of path.
func URI(path string) protocol.DocumentURI { return protocol.DocumentURI(uri.File(path)) }

// Path returns the file path of a file: URI.
func Path(u protocol.DocumentURI) string { return uri.URI(u).Filename() }

// CopyTree copies the directory src into a new temporary directory and
// returns the copy's path.
func CopyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// Journals lists the Journal files (*.journal, *.journal.example) under
// root, sorted.
func Journals(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".journal") || strings.HasSuffix(p, ".journal.example")) {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
