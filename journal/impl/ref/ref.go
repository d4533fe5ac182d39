// Package ref is the reference implementation of the Journal API: a
// [journal.ServiceManager] that loads a filesystem Journal root (format spec
// §7) through the project's one validation path, and the read-only
// [journal.Service] it exposes. It maps the requirements' `.impl.ref`
// package; its parser, ingestion, chain store and loader are internal to this
// module.
//
// It exports only [NewServiceManager] and its options.
package ref

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

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
// they are ignored (format spec §7).
func WithExamples() Option { return func(c *config) { c.examples = true } }

// NewServiceManager returns a stopped manager for the Journal root at root.
// The root is made absolute and cleaned (the manager's Root); it is not
// checked until Start, and never created. The only error is a root that
// cannot be made absolute, matching journalerr.ErrInvalidRoot.
func NewServiceManager(root string, opts ...Option) (journal.ServiceManager, error) {
	abs, err := filepath.Abs(root)
	if err != nil || root == "" {
		return nil, fmt.Errorf("%w: %q: cannot make absolute: %v", journalerr.ErrInvalidRoot, root, err)
	}
	m := &manager{root: filepath.Clean(abs)}
	for _, o := range opts {
		o(&m.cfg)
	}
	return m, nil
}

type manager struct {
	root string
	cfg  config

	mu      sync.Mutex // serialises lifecycle operations and refreshes
	started bool
	store   *chain.Store
	svc     *service
}

func (m *manager) Root() string { return m.root }

func (m *manager) Start(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started {
		return fmt.Errorf("start: already started: %w", journalerr.ErrUnavailable)
	}
	res, err := load.Load(ctx, m.root, load.Options{Examples: m.cfg.examples})
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	if !res.Valid() {
		return invalid("start", res.Diagnostics)
	}
	store := chain.NewStore()
	store.Publish(res.State)
	m.store, m.svc, m.started = store, &service{store: store}, true
	return nil
}

func (m *manager) Stop(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.started, m.store, m.svc = false, nil, nil
	return nil
}

func (m *manager) Refresh(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.started {
		return fmt.Errorf("refresh: %w", journalerr.ErrUnavailable)
	}
	return m.store.Update(func(cur *chain.State) (*chain.State, error) {
		res, err := load.Load(ctx, m.root, load.Options{Examples: m.cfg.examples, Base: cur})
		if err != nil {
			return nil, fmt.Errorf("refresh: %w", err)
		}
		if !res.Valid() {
			return nil, invalid("refresh", res.Diagnostics)
		}
		return res.State, nil
	})
}

func (m *manager) Service() (journal.Service, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.started {
		return nil, fmt.Errorf("service: %w", journalerr.ErrUnavailable)
	}
	return m.svc, nil
}

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
