// Package lsp is the language server of `journal-lint lsp`: it speaks the
// Language Server Protocol 3.17 over one connection (stdio for editors) and
// shows the author of a Journal revision, as they type, exactly what
// `journal-lint check` would report for the tree with their unsaved buffers
// in it. Every diagnostic comes from the same validation path and rules as
// check (internal/check with [check.Options.Overlay], which loads the buffers
// in place of their files through a source.Overlay), with the same
// configuration (rules:, ignore:, rule packs only when the configuration pins
// them), so the editor and CI never disagree.
//
// Besides diagnostics it answers hover, go to definition, completion, quick
// fixes (the text edits that diagnostics carry, diag.Diagnostic.Fixes, made
// by the code that writes their help) and the command
// "journal-lint.diffPredecessor", which returns the semantic diff of a buffer
// against its predecessor as Markdown. It never writes a file: edits go to
// the client, and fixes are offered only for revisions that are not yet
// committed (see [fixable]).
//
// # Library
//
// The protocol types and the JSON-RPC 2.0 connection come from
// go.lsp.dev/protocol and go.lsp.dev/jsonrpc2. They were chosen over
// github.com/tliron/glsp because they work on any io.ReadWriteCloser (glsp
// serves stdio through os.Stdin and os.Stdout only, and logs through its own
// global logging framework), and because the same packages give the tests a
// typed LSP client (protocol.ServerDispatcher) over a real connection. Both
// libraries describe LSP 3.16; the server adds what it uses of 3.17 itself
// (position encodings). The library's framing is replaced by [stream], which
// survives a malformed message instead of closing the connection.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/readfile"
)

// Options configure a server. The zero value is ready to use.
type Options struct {
	// Now returns the current time for the time rules and the
	// JOURNAL_VERSION fix; nil means time.Now.
	Now func() time.Time
	// Debounce is how long the server waits after a change before it checks
	// (further changes within it are checked together); 0 checks at once
	// (see [DefaultDebounce]).
	Debounce time.Duration
	// Log receives the server's log lines (never protocol traffic); nil
	// discards them. `journal-lint lsp` logs to stderr.
	Log io.Writer
	// Version is the server version reported in initialize.
	Version string
	// Cache is the persistent cache from which the first check of each
	// tree takes its unchanged artifacts, so that the buffers show their
	// diagnostics before the check that reads every file for the requests
	// (checkFromCache); nil for none. The server neither trims nor closes
	// it.
	Cache *memo.Store
}

// DefaultDebounce is the debounce of `journal-lint lsp` unless --debounce
// says otherwise: none. A change that arrives while no check runs is
// checked at once; the changes that arrive during a check are checked
// together right after it, so a burst of keystrokes costs one check per
// check's time, not one per keystroke, and no edit waits for a timer
// (BenchmarkEditLatency: a median of 20 ms on a 10,000-revision tree,
// against 85 ms with the 50 ms the command used to wait).
const DefaultDebounce time.Duration = 0

// ErrExitWithoutShutdown is returned by [Serve] when the client sent exit
// before shutdown (LSP 3.17 "exit": the process then exits with code 1).
var ErrExitWithoutShutdown = errors.New("the client sent exit before shutdown")

// ErrClosedWithoutShutdown is returned by [Serve] when the client closed
// the connection (end of input) before it sent shutdown: the editor went
// away, which LSP 3.17 treats like an exit without shutdown (code 1).
var ErrClosedWithoutShutdown = errors.New("the client closed the connection before shutdown")

// ErrParentExited is returned by [Serve] when the process that started the
// server (initialize's processId) is gone: LSP 3.17 "initialize" asks a
// server to exit then, even if its input stays open.
var ErrParentExited = errors.New("the client's process exited")

// parentPoll is how often the server looks whether the client's process
// is still there.
const parentPoll = time.Second

// lifecycle states of a server (LSP 3.17 "Lifecycle Messages").
const (
	uninitialized = iota
	running
	shuttingDown
)

// server is one LSP session.
type server struct {
	opts   Options
	conn   jsonrpc2.Conn
	client protocol.Client
	ctx    context.Context

	// pub serialises what decides a document's diagnostics on the client:
	// a publish (with its test that the document is still open at the
	// version checked) and a close (with its empty list). Taken before mu.
	pub   sync.Mutex
	mu    sync.Mutex
	state int
	exit  chan bool // receives whether shutdown came first
	// orphaned is closed when the client's process is gone.
	orphaned chan struct{}
	enc      posEncoding
	// hoverKind is the format of hover texts: the first the client lists
	// that the server writes, Markdown when it lists none.
	hoverKind protocol.MarkupKind
	docs      map[protocol.DocumentURI]*document
	// dirty holds the roots whose open buffers need a check.
	dirty map[string]bool
	// cancelRound cancels the check round that runs, nil between rounds;
	// background says the round only lists trees again (checkLoop).
	cancelRound context.CancelFunc
	background  bool
	// checked is the last check of each root.
	checked map[string]*checked
	// pending holds, for a root whose first diagnostics came from the
	// cache (checkFromCache), a channel closed when the check that keeps
	// the state has ended: requests that need the state wait for it.
	pending map[string]chan struct{}
	// rescan holds the roots whose tree on disk may have changed (a save,
	// a file event): their next check lists the tree again. nextScan is
	// when each root's tree is to be listed again in the background
	// (workspace.go).
	rescan   map[string]bool
	nextScan map[string]time.Time
	// watch says the client can watch files for the server; watching
	// that it agreed to (client/registerCapability answered).
	watch, watching bool
	// defaultConfig is the configuration of buffers without a
	// configuration file.
	defaultConfig *config.Config
	wake          chan struct{}
	// configs caches loaded configurations by file (workspace.go).
	configs map[string]*configEntry
	// told remembers the messages already shown, so each is shown once.
	told map[string]bool
	// serial numbers the documents: each open and change makes a new one.
	serial uint64
	// requests are the requests under way on their own goroutines.
	requests sync.WaitGroup
}

// document is one open buffer at one version. A document is never changed:
// an edit makes a new one.
type document struct {
	uri     protocol.DocumentURI
	path    string // absolute, clean file path
	version int32
	// serial tells this version of the buffer from every other, also from
	// the same version number after a close and an open.
	serial uint64
	// disk says that the buffer is its file on disk, which is over the
	// size limit: text is empty, and a check reads the file itself (and
	// finds fs/too-large) instead of taking the buffer.
	disk bool
	*text
	scope
}

// diskDocument returns the buffer of the file at path as it is on disk,
// read with readDisk; a file over the size limit gives an empty buffer
// that a check reads from disk (document.disk), so that it is reported
// without being held.
func (s *server) diskDocument(u protocol.DocumentURI, path string) (*document, error) {
	src, err := readDisk(path)
	var tl *readfile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return &document{uri: u, path: path, version: noVersion, disk: true, text: newText(nil), scope: s.locate(path)}, nil
	case err != nil:
		return nil, err
	}
	return &document{uri: u, path: path, version: noVersion, text: newText(src), scope: s.locate(path)}, nil
}

// Serve runs one LSP session on conn until the client sends exit or closes
// the connection, or ctx is cancelled. It returns nil after shutdown and
// exit, or after shutdown when the client then closed the connection
// without exit; [ErrExitWithoutShutdown] after an exit without shutdown;
// [ErrClosedWithoutShutdown] when the client closed the connection before
// shutdown; [ErrParentExited] when the process that initialize named is
// gone; and the connection's error when it broke otherwise.
func Serve(ctx context.Context, conn io.ReadWriteCloser, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &server{
		opts:      opts,
		ctx:       ctx,
		exit:      make(chan bool, 1),
		orphaned:  make(chan struct{}),
		enc:       utf16,
		hoverKind: protocol.Markdown,
		docs:      map[protocol.DocumentURI]*document{},
		dirty:     map[string]bool{},
		checked:   map[string]*checked{},
		pending:   map[string]chan struct{}{},
		rescan:    map[string]bool{},
		nextScan:  map[string]time.Time{},
		wake:      make(chan struct{}, 1),
		configs:   map[string]*configEntry{},
		told:      map[string]bool{},
	}
	s.conn = jsonrpc2.NewConn(newStream(conn, s.logf))
	s.client = protocol.ClientDispatcher(s.conn, zap.NewNop())
	s.conn.Go(ctx, s.handle)
	checkerDone := make(chan struct{})
	go func() {
		defer close(checkerDone)
		s.checkLoop()
	}()
	var err error
	select {
	case shutdownFirst := <-s.exit:
		if !shutdownFirst {
			err = ErrExitWithoutShutdown
		}
	case <-s.conn.Done():
		err = s.conn.Err()
		if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
			s.mu.Lock()
			shutdown := s.state == shuttingDown
			s.mu.Unlock()
			err = ErrClosedWithoutShutdown
			if shutdown {
				err = nil
			}
		}
	case <-s.orphaned:
		err = ErrParentExited
	case <-ctx.Done():
		err = ctx.Err()
	}
	cancel()
	s.conn.Close()
	<-checkerDone
	s.closeConfigs()
	return err
}

func (s *server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "journal-lint lsp: "+format+"\n", args...)
	}
}

func (s *server) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// handle answers one request or notification. It never returns an error
// (that would close the connection): failures are JSON-RPC errors, and a
// panic in a handler is an InternalError answer.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	replied := false
	respond := func(result any, rerr error) {
		replied = true
		if werr := reply(ctx, result, rerr); werr != nil {
			s.logf("answering %s: %v", req.Method(), werr)
		}
	}
	// recovered turns a panic of the handler into an InternalError answer
	// (when none went out yet).
	recovered := func() {
		if p := recover(); p != nil {
			s.logf("%s: internal error: %v\n%s", req.Method(), p, debug.Stack())
			if !replied {
				respond(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "journal-lint failed on %s: %v", req.Method(), p))
			}
		}
	}
	defer recovered()
	_, isCall := req.(*jsonrpc2.Call)
	method := req.Method()

	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case method == protocol.MethodExit:
		s.exit <- state == shuttingDown
		return nil
	case state == uninitialized && method != protocol.MethodInitialize:
		if isCall {
			respond(nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "initialize first"))
		}
		return nil
	case state == shuttingDown && isCall:
		respond(nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down"))
		return nil
	}

	h, ok := handlers[method]
	if !ok {
		if isCall {
			respond(nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not supported: %s", method))
		}
		return nil // unknown notifications, $/cancelRequest and $/setTrace are ignored
	}
	if isCall && !sequential[method] {
		// A request runs beside the messages that follow it, so that one
		// that takes long (parsing a 16 MiB buffer) holds up no other;
		// the notifications before it have been handled.
		s.requests.Add(1)
		go func() {
			defer s.requests.Done()
			defer recovered()
			respond(h(s, ctx, req.Params()))
		}()
		return nil
	}
	result, herr := h(s, ctx, req.Params())
	if isCall {
		respond(result, herr)
	} else if herr != nil {
		s.logf("%s: %v", method, herr)
	}
	return nil
}

// sequential are the requests handled in the order they came, before the
// next message is read: the lifecycle.
var sequential = map[string]bool{protocol.MethodInitialize: true, protocol.MethodShutdown: true}

// handler answers one method; params are the raw parameters.
type handler func(s *server, ctx context.Context, params json.RawMessage) (any, error)

// handlers are the methods the server implements.
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		protocol.MethodInitialize:                      (*server).initialize,
		protocol.MethodInitialized:                     (*server).initialized,
		protocol.MethodShutdown:                        (*server).shutdown,
		protocol.MethodTextDocumentDidOpen:             (*server).didOpen,
		protocol.MethodTextDocumentDidChange:           (*server).didChange,
		protocol.MethodTextDocumentDidClose:            (*server).didClose,
		protocol.MethodTextDocumentDidSave:             (*server).didSave,
		protocol.MethodTextDocumentHover:               (*server).hover,
		protocol.MethodTextDocumentDefinition:          (*server).definition,
		protocol.MethodTextDocumentCompletion:          (*server).completion,
		protocol.MethodTextDocumentCodeAction:          (*server).codeAction,
		protocol.MethodWorkspaceExecuteCommand:         (*server).executeCommand,
		protocol.MethodWorkspaceDidChangeWatchedFiles:  (*server).recheckAll,
		protocol.MethodWorkspaceDidChangeConfiguration: (*server).recheckAll,
		methodTooLarge:                                 (*server).tooLarge,
	}
}

// decode unmarshals params into v, as an InvalidParams error.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "missing params")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}

// initializeParams is what the server reads of initialize: the LSP 3.17
// position encodings the client offers.
type initializeParams struct {
	// ProcessID is the client's process, null when it has none to give.
	ProcessID    *int `json:"processId"`
	Capabilities struct {
		General struct {
			PositionEncodings []string `json:"positionEncodings"`
		} `json:"general"`
		TextDocument struct {
			Hover struct {
				ContentFormat []protocol.MarkupKind `json:"contentFormat"`
			} `json:"hover"`
		} `json:"textDocument"`
		Workspace struct {
			DidChangeWatchedFiles struct {
				DynamicRegistration bool `json:"dynamicRegistration"`
			} `json:"didChangeWatchedFiles"`
		} `json:"workspace"`
	} `json:"capabilities"`
}

// serverCapabilities adds the LSP 3.17 positionEncoding to the library's
// capabilities.
type serverCapabilities struct {
	protocol.ServerCapabilities
	PositionEncoding posEncoding `json:"positionEncoding,omitempty"`
}

type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// CommandDiffPredecessor is the command that returns the semantic diff of a
// buffer against its predecessor as Markdown (command.go).
const CommandDiffPredecessor = "journal-lint.diffPredecessor"

func (s *server) initialize(_ context.Context, params json.RawMessage) (any, error) {
	var p initializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != uninitialized {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already sent")
	}
	s.state = running
	s.watch = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
	for _, e := range p.Capabilities.General.PositionEncodings {
		if posEncoding(e) == utf8Encoding {
			s.enc = utf8Encoding
		}
	}
	for _, k := range slices.Backward(p.Capabilities.TextDocument.Hover.ContentFormat) {
		if k == protocol.Markdown || k == protocol.PlainText {
			s.hoverKind = k
		}
	}
	if pid := p.ProcessID; pid != nil && *pid > 0 {
		go s.watchParent(*pid)
	}
	version := s.opts.Version
	if version == "" {
		version = "devel"
	}
	return initializeResult{
		Capabilities: serverCapabilities{
			ServerCapabilities: protocol.ServerCapabilities{
				TextDocumentSync: &protocol.TextDocumentSyncOptions{
					OpenClose: true,
					Change:    protocol.TextDocumentSyncKindIncremental,
					Save:      &protocol.SaveOptions{},
				},
				HoverProvider:          true,
				DefinitionProvider:     true,
				CompletionProvider:     &protocol.CompletionOptions{TriggerCharacters: []string{" "}},
				CodeActionProvider:     &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix}},
				ExecuteCommandProvider: &protocol.ExecuteCommandOptions{Commands: []string{CommandDiffPredecessor}},
			},
			PositionEncoding: s.enc,
		},
		ServerInfo: &protocol.ServerInfo{Name: "journal-lint", Version: version},
	}, nil
}

// watchParent closes s.orphaned when the process pid is gone; it ends
// with the session.
func (s *server) watchParent(pid int) {
	tick := time.NewTicker(parentPoll)
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
			if !alive(pid) {
				s.logf("the client's process %d is gone: exiting", pid)
				close(s.orphaned)
				return
			}
		}
	}
}

// watchers are the files whose changes on disk the server asks the client
// to report (workspace/didChangeWatchedFiles): Journals, examples and
// configurations. A report makes the next check list the tree again.
var watchers = []protocol.FileSystemWatcher{
	{GlobPattern: "**/*" + load.Suffix},
	{GlobPattern: "**/*" + load.ExampleSuffix},
	{GlobPattern: "**/" + config.FileName},
}

// initialized asks a client that can watch files for the server
// (dynamic registration) to report changes of the watchers. The request
// is sent from its own goroutine: its answer arrives on the connection
// this handler is reading.
func (s *server) initialized(context.Context, json.RawMessage) (any, error) {
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	if !watch {
		return nil, nil
	}
	go func() {
		err := s.client.RegisterCapability(s.ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
			ID:              "journal-lint-watch",
			Method:          protocol.MethodWorkspaceDidChangeWatchedFiles,
			RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
		}}})
		if err != nil {
			s.logf("asking the client to watch files: %v", err)
			return
		}
		s.mu.Lock()
		s.watching = true
		s.mu.Unlock()
	}()
	return nil, nil
}

// shutdown cancels the running check and answers once the requests
// under way are answered (none of them waits for a check); from then on
// no diagnostics are published and requests are refused. A publish under
// way finishes first, so that none follows the answer.
func (s *server) shutdown(context.Context, json.RawMessage) (any, error) {
	if h := hooks.shutdown.Load(); h != nil {
		(*h)()
	}
	s.mu.Lock()
	s.state = shuttingDown
	if s.cancelRound != nil {
		s.cancelRound()
	}
	s.mu.Unlock()
	s.requests.Wait()
	s.pub.Lock()
	defer s.pub.Unlock()
	return nil, nil
}

// isJournal reports whether path names a Journal or an example Journal
// ("Filesystem layout" in docs/journal-format.md), the files the server checks.
func isJournal(path string) bool {
	return strings.HasSuffix(path, load.Suffix) || strings.HasSuffix(path, load.ExampleSuffix)
}

// filePath returns the clean absolute path of a file: URI, or false.
func filePath(u protocol.DocumentURI) (string, bool) {
	if !strings.HasPrefix(string(u), uri.FileScheme+"://") {
		return "", false
	}
	p := uri.URI(u).Filename()
	if !filepath.IsAbs(p) {
		return "", false
	}
	return filepath.Clean(p), true
}

func (s *server) didOpen(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.DidOpenTextDocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, ok := filePath(p.TextDocument.URI)
	if !ok || !isJournal(path) {
		return nil, nil
	}
	d := &document{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version,
		text: newText([]byte(p.TextDocument.Text)), scope: s.locate(path)}
	s.mu.Lock()
	s.putLocked(d)
	s.mu.Unlock()
	return nil, nil
}

// noVersion is the version of a buffer the client never opened: its
// diagnostics name no version.
const noVersion = -1

// adoptUnopened takes a Journal that the client saves or changes without
// having opened it as open, with the bytes of its file on disk: after
// "save as" (Neovim's :saveas, Emacs's write-file) the buffer is the file
// just written, and editors send didSave and didChange for its new name
// but no didOpen. Without it those messages were dropped and the buffer
// went unchecked. what names the message, for the log.
func (s *server) adoptUnopened(u protocol.DocumentURI, what string) {
	s.mu.Lock()
	_, open := s.docs[u]
	s.mu.Unlock()
	path, ok := filePath(u)
	if open || !ok || !isJournal(path) {
		return
	}
	d, err := s.diskDocument(u, path)
	if err != nil {
		s.logf("%s for %s, which is not open and cannot be read: %v", what, path, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, open := s.docs[u]; open {
		return
	}
	s.logf("%s for %s, which the client did not open: checking the file as it is on disk", what, path)
	s.putLocked(d)
}

// putLocked makes d the open buffer of its URI, with a new serial
// number, and asks for a check; s.mu is held.
func (s *server) putLocked(d *document) {
	s.serial++
	d.serial = s.serial
	s.docs[d.uri] = d
	s.markDirtyLocked(d.root)
}

// tooLarge takes the file on disk as the buffer of a didOpen or didChange
// too large to read (see [stream.oversized]), at the version the message
// named, and says so in the log.
func (s *server) tooLarge(_ context.Context, params json.RawMessage) (any, error) {
	var p tooLargeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, ok := filePath(p.URI)
	if !ok || !isJournal(path) {
		return nil, nil
	}
	d, err := s.diskDocument(p.URI, path)
	if err != nil {
		s.logf("%s of %d bytes for %s, over the %d read, and the file cannot be read: %v", p.Method, p.Bytes, path, MaxMessage, err)
		return nil, nil
	}
	s.logf("%s of %d bytes for %s, over the %d read: its file on disk is checked in its place", p.Method, p.Bytes, path, MaxMessage)
	if p.Version != nil {
		d.version = *p.Version
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.putLocked(d)
	return nil, nil
}

// contentChange is one change of didChange; unlike the library's type its
// range is a pointer, so that a change without a range (the whole text) can
// be told from a change at 0:0.
type contentChange struct {
	Range *protocol.Range `json:"range"`
	Text  string          `json:"text"`
}

type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}

func (s *server) didChange(_ context.Context, params json.RawMessage) (any, error) {
	var p didChangeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.adoptUnopened(p.TextDocument.URI, "a change")
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.docs[p.TextDocument.URI]
	if !ok {
		return nil, nil
	}
	t := applyChanges(d.text, s.enc, p.ContentChanges)
	if t != d.text {
		t.follow(d.text)
	}
	nd := *d
	nd.text, nd.version = t, p.TextDocument.Version
	s.putLocked(&nd)
	return nil, nil
}

func (s *server) didClose(ctx context.Context, params json.RawMessage) (any, error) {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	// A closed buffer's diagnostics go away (the file's own are check's),
	// and no check that saw it publishes after that (see [server.publish]).
	s.pub.Lock()
	defer s.pub.Unlock()
	s.mu.Lock()
	d, ok := s.docs[p.TextDocument.URI]
	if ok {
		delete(s.docs, d.uri)
		s.markDirtyLocked(d.root)
	}
	s.mu.Unlock()
	if ok {
		return nil, s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: d.uri, Diagnostics: []protocol.Diagnostic{}})
	}
	return nil, nil
}

// didSave rechecks the buffer's tree, listing it again: a saved file
// changes the context of the other open buffers only through the disk.
// A Journal saved without having been opened ("save as" in Neovim and
// Emacs) is taken as open with its bytes on disk.
func (s *server) didSave(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.DidSaveTextDocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.adoptUnopened(p.TextDocument.URI, "a save")
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.docs[p.TextDocument.URI]; ok {
		s.rescan[d.root] = true
		s.markDirtyLocked(d.root)
	}
	return nil, nil
}

// recheckAll checks every open buffer again, listing their trees again,
// after a file or the configuration changed outside the buffers. Each
// buffer is located again first: a configuration file created, moved or
// deleted can change which configuration and which root apply. (The
// configuration itself is read again by the check when its content
// changed.)
func (s *server) recheckAll(context.Context, json.RawMessage) (any, error) {
	s.mu.Lock()
	paths := map[protocol.DocumentURI]string{}
	for u, d := range s.docs {
		paths[u] = d.path
	}
	s.mu.Unlock()
	scopes := map[protocol.DocumentURI]scope{}
	for u, p := range paths {
		scopes[u] = s.locate(p)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for u, d := range s.docs {
		if sc, ok := scopes[u]; ok && sc != d.scope {
			s.rescan[d.root] = true
			s.markDirtyLocked(d.root)
			nd := *d
			nd.scope = sc
			s.docs[u] = &nd
			d = &nd
		}
		s.rescan[d.root] = true
		s.markDirtyLocked(d.root)
	}
	return nil, nil
}

// document returns the open document of u, or an InvalidParams error.
func (s *server) document(u protocol.DocumentURI) (*document, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.docs[u]
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s is not open", u)
	}
	return d, nil
}
