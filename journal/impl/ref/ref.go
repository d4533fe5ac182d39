// Package ref is the reference implementation of the Journal API: a
// [journal.ServiceManager] that loads a filesystem Journal root
// ("Filesystem layout" in docs/journal-format.md) through the project's one
// validation path, and the read-only [journal.Service] it exposes. It maps the
// requirements' `.impl.ref` package; its parser, ingestion, chain store and
// loader are internal to this module.
//
// Start reads every file of the tree. Refresh lists the tree and stats
// every file (one lstat each), but reads, hashes and parses only the files
// that are new or whose stat stamp (size, modification time and mode, on
// Linux also device, inode and change time) differs from when the published
// state was loaded; a file whose revision that state holds and whose stamp
// is unchanged holds the bytes it accepted. So a refresh costs the listing
// plus the work of what changed, and finds every change to an accepted file
// that goes through the file system: an edit that keeps the size and sets
// the modification time back still changes the change time. A file written
// within the file system's clock granularity of a load is read again by the
// next refresh. See internal/load/stamp.go for what is not detected.
//
// It exports only [NewServiceManager] and its options.
package ref

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/journal"
	"github.com/r35157/journal-lint/journal/journalerr"
	"github.com/r35157/journal-lint/rules"
)

// Option configures [NewServiceManager].
type Option func(*config)

type config struct {
	examples bool
}

// WithExamples makes the manager load `<timestamp>.journal.example` files as
// Journals too, so version-controlled examples can be checked. Without it
// they are ignored ("Filesystem layout" in docs/journal-format.md).
func WithExamples() Option { return func(c *config) { c.examples = true } }

// NewServiceManager returns a stopped manager for the Journal root at root.
// The root is made absolute and cleaned (the manager's Root); it is not
// checked until Start, and never created. The errors, matching
// journalerr.ErrInvalidRoot, are an empty root and one that cannot be made
// absolute.
func NewServiceManager(root string, opts ...Option) (journal.ServiceManager, error) {
	if root == "" {
		return nil, fmt.Errorf("%w: the root is empty; name a directory (\".\" for the current one)", journalerr.ErrInvalidRoot)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("%w: %q: cannot make absolute: %v", journalerr.ErrInvalidRoot, root, err)
	}
	m := &manager{root: filepath.Clean(abs), load: load.Load}
	for _, o := range opts {
		o(&m.cfg)
	}
	return m, nil
}

type manager struct {
	root string
	cfg  config
	// load reads the root; load.Load, replaced only by tests that need to
	// hold a refresh at a known point.
	load func(context.Context, string, load.Options) (*load.Result, error)

	// ops serialises the operations that load (Start, Refresh). It is held
	// for a whole load, so Service, Stop and the queries never take it.
	ops sync.Mutex
	// life guards cancel, done and the transitions of svc; it is held only
	// for a few pointer operations, never during a load.
	life   sync.Mutex
	cancel context.CancelFunc // of the running Start or Refresh, or nil
	done   chan struct{}      // closed when that Start or Refresh returns
	// svc is the started service, or nil while the manager is not started.
	// Service reads it without a lock.
	svc atomic.Pointer[service]
}

func (m *manager) Root() string { return m.root }

// begin registers the load that is about to run under ops, so that Stop
// can cancel it and wait for it; it returns the context to load with and
// the function that ends the registration when the operation returns.
func (m *manager) begin(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	m.life.Lock()
	m.cancel, m.done = cancel, done
	m.life.Unlock()
	return ctx, func() {
		m.life.Lock()
		m.cancel, m.done = nil, nil
		m.life.Unlock()
		cancel()
		close(done)
	}
}

func (m *manager) Start(ctx context.Context) error {
	m.ops.Lock()
	defer m.ops.Unlock()
	if m.svc.Load() != nil {
		return fmt.Errorf("start: already started: %w", journalerr.ErrUnavailable)
	}
	ctx, end := m.begin(ctx)
	defer end()
	res, err := m.load(ctx, m.root, load.Options{Examples: m.cfg.examples, Compact: true, DropDocs: true, KeepState: true, Recycle: recycle, Stamp: true})
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	if !res.Valid() {
		return invalid("start", res.Diagnostics)
	}
	store := chain.NewStore()
	store.Publish(res.State)
	m.life.Lock()
	defer m.life.Unlock()
	if err := ctx.Err(); err != nil { // Stop came while loading
		return fmt.Errorf("start: %w", err)
	}
	m.svc.Store(&service{store: store, stamps: res.Stamps})
	return nil
}

func (m *manager) Stop(context.Context) error {
	m.life.Lock()
	m.svc.Store(nil)
	if m.cancel != nil {
		m.cancel() // under life, so a load that ends now does not publish
	}
	done := m.done
	m.life.Unlock()
	if done != nil {
		<-done // no load of this manager runs once Stop has returned
	}
	return nil
}

func (m *manager) Refresh(ctx context.Context) error {
	m.ops.Lock()
	defer m.ops.Unlock()
	svc := m.svc.Load()
	if svc == nil {
		return fmt.Errorf("refresh: %w", journalerr.ErrUnavailable)
	}
	ctx, end := m.begin(ctx)
	defer end()
	// The new state is built from the published one without any lock that
	// Service or a query takes; readers keep the old state until the one
	// atomic store below. The files whose stat stamps are those recorded
	// when the published state was loaded are not read again: their
	// revisions are in it (load.Options.Stamped).
	res, err := m.load(ctx, m.root, load.Options{Examples: m.cfg.examples, Base: svc.store.Snapshot(), Compact: true, DropDocs: true, KeepState: true, Recycle: recycle,
		Stamp: true, Stamped: svc.stamps})
	if err != nil {
		if m.svc.Load() != svc {
			return fmt.Errorf("refresh: stopped: %w", journalerr.ErrUnavailable)
		}
		return fmt.Errorf("refresh: %w", err)
	}
	if !res.Valid() {
		return invalid("refresh", res.Diagnostics)
	}
	m.life.Lock()
	defer m.life.Unlock()
	if m.svc.Load() != svc {
		// Stopped while loading: the handles of svc keep the snapshot they
		// had at Stop.
		return fmt.Errorf("refresh: stopped: %w", journalerr.ErrUnavailable)
	}
	svc.store.Publish(res.State)
	svc.stamps = res.Stamps
	return nil
}

func (m *manager) Service() (journal.Service, error) {
	svc := m.svc.Load()
	if svc == nil {
		return nil, fmt.Errorf("service: %w", journalerr.ErrUnavailable)
	}
	return svc, nil
}

// recycle is load.Options.Recycle for the manager's loads: they visit
// nothing, so every dropped document's memory may go back to the parser.
func recycle() bool { return true }

// invalid turns the validity errors of ds into a *journalerr.InvalidError.
func invalid(op string, ds diag.List) error {
	var pub []journalerr.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error && rules.IsValidity(d.Code) {
			pub = append(pub, export(d))
		}
	}
	if len(pub) == 0 {
		return errors.New(op + ": invalid journal data")
	}
	return &journalerr.InvalidError{Op: op, Diagnostics: pub}
}

// export returns the public view of d that a *journalerr.InvalidError
// carries: code, severity name, message, path and the start and end of the
// range (1-based lines and code-point columns, byte offsets; zero when
// unknown).
func export(d diag.Diagnostic) journalerr.Diagnostic {
	return journalerr.Diagnostic{
		Code: d.Code, Severity: d.Severity.String(), Message: d.Message, Path: d.Path,
		Line: d.Range.Start.Line, Column: d.Range.Start.Column, Offset: d.Range.Start.Offset,
		EndLine: d.Range.End.Line, EndColumn: d.Range.End.Column, EndOffset: d.Range.End.Offset,
	}
}
