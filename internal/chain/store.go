package chain

import (
	"bytes"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/r35157/journal-lint/internal/syntax"
)

// Store holds the published [State] behind an atomic pointer. Readers call
// [Store.Snapshot] and never block; writers are serialised. The zero value is
// not usable; use [NewStore].
type Store struct {
	mu  sync.Mutex // serialises writers
	cur atomic.Pointer[State]
}

// NewStore returns a store that publishes the empty state.
func NewStore() *Store {
	s := &Store{}
	s.cur.Store(Empty())
	return s
}

// Snapshot returns the current state. It never blocks.
func (s *Store) Snapshot() *State { return s.cur.Load() }

// ErrNilText is returned by [Store.Ingest] for a nil text (the requirements'
// "null" input).
var ErrNilText = errors.New("no journal text (nil)")

// Ingest is the internal atomic text ingestion (requirement "Internal atomic
// text ingestion and chain identity"): it rejects nil, empty or blank text,
// parses and validates the complete text, computes its digest over the exact
// bytes, checks its chain relationship and idempotency, and publishes the
// new state with one atomic store. source names the text in diagnostics. On
// any failure the published state is unchanged and the error is ErrNilText
// or a diag.List of every problem.
func (s *Store) Ingest(source string, text []byte) (Entry, Outcome, error) {
	if text == nil {
		return Entry{}, Rejected, ErrNilText
	}
	doc, ds := syntax.Parse(source, bytes.Clone(text))
	if ds.HasErrors() {
		return Entry{}, Rejected, ds
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := NewStage(s.cur.Load())
	e, out, cds := st.Ingest(doc, Link{})
	if out == Rejected {
		return Entry{}, Rejected, append(ds, cds...)
	}
	if out == Appended {
		s.cur.Store(st.Freeze())
	}
	return e, out, nil
}

// Publish replaces the current state with st in one atomic store.
func (s *Store) Publish(st *State) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur.Store(st)
}

// Update runs build on the current state while holding the writer lock and
// publishes the state it returns, unless it returns an error. Readers keep
// seeing the old state until the single atomic store.
func (s *Store) Update(build func(cur *State) (*State, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	next, err := build(s.cur.Load())
	if err != nil {
		return err
	}
	s.cur.Store(next)
	return nil
}
