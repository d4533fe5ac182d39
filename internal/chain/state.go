// Package chain keeps the accepted Journal revisions as linear per-artifact
// hash chains ("Chains" in docs/journal-format.md; requirements
// "Linear per-artifact Journal chains" and "Idempotency and conflicts").
//
// A [State] is an immutable snapshot: chains sorted by Journal version and an
// index from revision digest to its owner. Ingestion works on a [Stage], a
// private copy-on-write builder of the next snapshot; [Stage.Freeze] turns it
// into a new State, and a [Store] publishes States with one atomic pointer
// store, so readers never block and never see half an update.
package chain

import (
	"iter"
	"slices"
	"sort"

	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Entry is one accepted revision and the name of the source it came from
// (the root-relative path for a file; any label for other sources).
type Entry struct {
	Revision model.Revision
	Source   string
}

// chainOf is one artifact's accepted revisions in ascending Journal version.
type chainOf struct {
	entries []Entry
}

func (c *chainOf) head() Entry { return c.entries[len(c.entries)-1] }

// find returns the index of the revision with Journal version v and whether
// it exists; otherwise the index where it would be inserted. O(log n).
func (c *chainOf) find(v vt.JournalVersion) (int, bool) {
	i := sort.Search(len(c.entries), func(i int) bool {
		return c.entries[i].Revision.JournalVersion().Compare(v) >= 0
	})
	return i, i < len(c.entries) && c.entries[i].Revision.JournalVersion().Compare(v) == 0
}

type owner struct {
	coordinate vt.Coordinate
	index      int // position in the chain
}

// State is an immutable snapshot of every accepted chain. The zero value is
// not usable; use [Empty]. All methods are safe for concurrent use.
type State struct {
	chains      map[vt.Coordinate]*chainOf
	owners      map[vt.Digest]owner
	coordinates []vt.Coordinate // sorted
	revisions   int
}

// Empty returns the state with no chains.
func Empty() *State {
	return &State{chains: map[vt.Coordinate]*chainOf{}, owners: map[vt.Digest]owner{}, coordinates: []vt.Coordinate{}}
}

// Coordinates returns every coordinate in ascending byte order; never nil.
func (s *State) Coordinates() []vt.Coordinate { return slices.Clone(s.coordinates) }

// Artifacts returns the number of chains.
func (s *State) Artifacts() int { return len(s.chains) }

// Revisions returns the total number of accepted revisions.
func (s *State) RevisionCount() int { return s.revisions }

// Entries returns the accepted revisions of c, genesis first; never nil.
func (s *State) Entries(c vt.Coordinate) []Entry {
	ch := s.chains[c]
	if ch == nil {
		return []Entry{}
	}
	return slices.Clone(ch.entries)
}

// All returns every accepted revision, by coordinate in ascending byte
// order and genesis first within a chain, without copying the chains.
func (s *State) All() iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		for _, c := range s.coordinates {
			for _, e := range s.chains[c].entries {
				if !yield(e) {
					return
				}
			}
		}
	}
}

// Head returns the newest revision of c.
func (s *State) Head(c vt.Coordinate) (Entry, bool) {
	ch := s.chains[c]
	if ch == nil {
		return Entry{}, false
	}
	return ch.head(), true
}

// Exact returns the revision of c with Journal version v. O(log n).
func (s *State) Exact(c vt.Coordinate, v vt.JournalVersion) (Entry, bool) {
	ch := s.chains[c]
	if ch == nil {
		return Entry{}, false
	}
	i, ok := ch.find(v)
	if !ok {
		return Entry{}, false
	}
	return ch.entries[i], true
}

// AsOf returns the newest revision of c whose Journal version is at or
// before v. O(log n).
func (s *State) AsOf(c vt.Coordinate, v vt.JournalVersion) (Entry, bool) {
	ch := s.chains[c]
	if ch == nil {
		return Entry{}, false
	}
	i, ok := ch.find(v)
	if ok {
		return ch.entries[i], true
	}
	if i == 0 {
		return Entry{}, false
	}
	return ch.entries[i-1], true
}

// ByDigest returns the accepted revision whose digest is d, in any chain.
func (s *State) ByDigest(d vt.Digest) (Entry, bool) {
	o, ok := s.owners[d]
	if !ok {
		return Entry{}, false
	}
	return s.chains[o.coordinate].entries[o.index], true
}
