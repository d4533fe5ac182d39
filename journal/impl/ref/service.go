package ref

import (
	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// service implements journal.Service over the store's published snapshot.
// Every call reads the snapshot once, so it sees one consistent state.
type service struct {
	store *chain.Store
	// stamps are the stat stamps of the files whose revisions the store's
	// published state holds (load.Stamps), for the next Refresh. Only
	// Start and Refresh use them, under the manager's ops lock.
	stamps *load.Stamps
}

func (s *service) Coordinates() []vt.Coordinate { return s.store.Snapshot().Coordinates() }

func (s *service) Revisions(c vt.Coordinate) []model.Revision {
	es := s.store.Snapshot().Entries(c)
	out := make([]model.Revision, len(es))
	for i, e := range es {
		out[i] = e.Revision
	}
	return out
}

func (s *service) Latest(c vt.Coordinate) (model.Revision, bool) {
	return revision(s.store.Snapshot().Head(c))
}

func (s *service) Revision(c vt.Coordinate, v vt.JournalVersion) (model.Revision, bool) {
	return revision(s.store.Snapshot().Exact(c, v))
}

func (s *service) AsOf(c vt.Coordinate, v vt.JournalVersion) (model.Revision, bool) {
	return revision(s.store.Snapshot().AsOf(c, v))
}

func (s *service) Release(c vt.Coordinate, rev vt.JournalVersion, version vt.Version) (model.Release, bool) {
	r, ok := s.Revision(c, rev)
	if !ok {
		return model.Release{}, false
	}
	return r.Release(version)
}

func revision(e chain.Entry, ok bool) (model.Revision, bool) {
	if !ok {
		return model.Revision{}, false
	}
	return e.Revision, true
}
