package lint

import (
	"maps"
	"slices"

	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Tree is a read-only view of the whole loaded Journal tree, as the lint
// rules that look across artifacts (deps/…) need it. The loader provides the
// real one; [StaticTree] is a simple implementation.
type Tree interface {
	// Coordinates returns every artifact coordinate in the tree, ascending.
	Coordinates() []vt.Coordinate
	// Has reports whether the tree holds the artifact c.
	Has(c vt.Coordinate) bool
	// Releases returns the versions of every release known in the head
	// revision of c (its latest accepted revision), ascending by SemVer
	// precedence; empty when c is unknown or its head has no release.
	Releases(c vt.Coordinate) []vt.Version
}

// StaticTree is a [Tree] held in memory. Its zero value is an empty tree,
// ready to use; build it with [StaticTree.Add] before sharing it.
type StaticTree struct {
	coords   []vt.Coordinate
	releases map[string][]vt.Version // by coordinate text
}

// Add records the artifact c with the release versions of its head, adding
// them to those already recorded for c. Adding the coordinates in
// ascending order costs O(1) each (amortized) plus sorting the versions;
// in any other order, a new coordinate costs O(number recorded).
func (t *StaticTree) Add(c vt.Coordinate, versions ...vt.Version) {
	if t.releases == nil {
		t.releases = make(map[string][]vt.Version)
	}
	key := c.String()
	if _, ok := t.releases[key]; !ok {
		if n := len(t.coords); n == 0 || t.coords[n-1].Compare(c) < 0 {
			t.coords = append(t.coords, c)
		} else {
			i, _ := slices.BinarySearchFunc(t.coords, c, vt.Coordinate.Compare)
			t.coords = slices.Insert(t.coords, i, c)
		}
	}
	vs := append(t.releases[key], versions...)
	slices.SortFunc(vs, vt.Version.Compare)
	t.releases[key] = slices.CompactFunc(vs, func(a, b vt.Version) bool { return a.Compare(b) == 0 })
}

// Coordinates implements [Tree]; the caller owns the returned slice.
func (t *StaticTree) Coordinates() []vt.Coordinate { return slices.Clone(t.coords) }

// Has implements [Tree].
func (t *StaticTree) Has(c vt.Coordinate) bool {
	_, ok := t.releases[c.String()]
	return ok
}

// Releases implements [Tree]; the caller owns the returned slice.
func (t *StaticTree) Releases(c vt.Coordinate) []vt.Version {
	return slices.Clone(t.releases[c.String()])
}

// SameReleases reports whether t and u agree on the artifact c: neither
// holds it, or both hold it with the same release versions (compared by
// their text). Unlike comparing [StaticTree.Releases], it copies nothing: a
// check compares the trees of two runs this way for every coordinate that
// a head's rules looked up.
func (t *StaticTree) SameReleases(u *StaticTree, c vt.Coordinate) bool {
	key := c.String()
	a, inT := t.releases[key]
	b, inU := u.releases[key]
	return inT == inU && slices.EqualFunc(a, b, func(x, y vt.Version) bool { return x.String() == y.String() })
}

// TreeOf builds a [StaticTree] from parsed documents without checking the
// chains: the head of a coordinate is taken to be its valid document
// (RevisionOK) with the latest JOURNAL_VERSION. It is meant for linting
// files outside a loaded tree and for tests; the loader's own tree, built
// from the accepted chains, is the authoritative one.
func TreeOf(docs []*syntax.Document) *StaticTree {
	heads := make(map[string]*syntax.Document)
	for _, d := range docs {
		if d == nil || !d.RevisionOK {
			continue
		}
		key := d.Revision.Coordinate().String()
		if h, ok := heads[key]; !ok || d.Revision.JournalVersion().Compare(h.Revision.JournalVersion()) > 0 {
			heads[key] = d
		}
	}
	t := &StaticTree{}
	// In ascending order, so that each Add appends.
	for _, key := range slices.Sorted(maps.Keys(heads)) {
		d := heads[key]
		var vs []vt.Version
		for _, r := range d.Revision.Releases() {
			vs = append(vs, r.Version())
		}
		t.Add(d.Revision.Coordinate(), vs...)
	}
	return t
}
