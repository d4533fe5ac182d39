package lint

import (
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/r35157/journal-lint/internal/hashpos"
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
// ready to use; build it with [StaticTree.Add] and [StaticTree.AddText]
// before sharing it. Once built it is safe for concurrent lookups, which
// take no lock: the releases AddText recorded are parsed by the first
// lookup that needs them, into their own entry.
type StaticTree struct {
	coords []vt.Coordinate // ascending
	heads  []headReleases  // heads[i] is coords[i]'s
	// index, once a lookup made it for coords as they are, finds a
	// coordinate by its hash (lookup): a binary search compares about
	// 17 coordinates at 100,000 files, most sharing a long prefix
	// ("com.acme."), and the head-only rules look up every reference of
	// every head.
	index atomic.Pointer[coordIndex]
}

// coordIndex is the hash table of a StaticTree's coordinates, made for
// the first n.
type coordIndex struct {
	*hashpos.Table
	n int
}

// headReleases holds the release versions of one artifact's head: the
// text AddText recorded (one version a line) until a lookup parses it,
// and the versions, sorted and without duplicates, once parsed.
type headReleases struct {
	text   string
	parsed atomic.Pointer[[]vt.Version]
}

// Add records the artifact c with the release versions of its head, adding
// them to those already recorded for c (of Add or AddText). Adding the coordinates in
// ascending order costs O(1) each (amortized) plus sorting the versions;
// in any other order, a new coordinate costs O(number recorded).
func (t *StaticTree) Add(c vt.Coordinate, versions ...vt.Version) {
	var old []vt.Version
	if !t.after(c) {
		if i, ok := t.find(c.String()); ok {
			old = t.versionsAt(i)
		}
	}
	i := t.insert(c)
	vs := slices.Concat(old, versions)
	slices.SortFunc(vs, vt.Version.Compare)
	vs = slices.CompactFunc(vs, func(a, b vt.Version) bool { return a.Compare(b) == 0 })
	t.heads[i].text = "" // parsed into vs; the tree is not shared yet
	t.heads[i].parsed.Store(&vs)
}

// Grow makes room for n more coordinates, for a caller that knows how
// many it adds: it changes nothing a lookup sees.
func (t *StaticTree) Grow(n int) {
	t.coords = slices.Grow(t.coords, n)
	t.heads = slices.Grow(t.heads, n)
}

// AddText is Add with the release versions as text, each followed by a
// newline ("1.0.0\n2.0.0\n", in any order; a line that is no version is
// left out), parsed when a lookup first needs them: a tree of many
// artifacts of which a check looks up a few is built without parsing the
// others' releases.
func (t *StaticTree) AddText(c vt.Coordinate, releases string) {
	if !t.after(c) {
		if _, ok := t.find(c.String()); ok {
			t.Add(c, parseVersions(releases)...)
			return
		}
	}
	t.heads[t.insert(c)].text = releases
}

// after reports whether c sorts after every coordinate the tree holds, so
// that adding it appends.
func (t *StaticTree) after(c vt.Coordinate) bool {
	n := len(t.coords)
	return n == 0 || t.coords[n-1].Compare(c) < 0
}

// insert returns the index of the coordinate c in t.coords, adding it
// with an empty head when the tree does not hold it.
func (t *StaticTree) insert(c vt.Coordinate) int {
	if n := len(t.coords); t.after(c) {
		t.coords = append(t.coords, c)
		t.heads = append(t.heads, headReleases{})
		return n
	}
	i, ok := slices.BinarySearchFunc(t.coords, c, vt.Coordinate.Compare)
	if !ok {
		t.coords = slices.Insert(t.coords, i, c)
		t.heads = slices.Insert(t.heads, i, headReleases{})
	}
	return i
}

// find returns the index in t.coords of the coordinate written key, and
// whether the tree holds it.
func (t *StaticTree) find(key string) (int, bool) {
	return slices.BinarySearchFunc(t.coords, key, func(c vt.Coordinate, key string) int { return strings.Compare(c.String(), key) })
}

// lookup is find for a tree that is built: by hash, making the index
// when the tree has none for its coordinates as they are (a tree that
// changes between lookups makes it again, at the cost of an insertion).
func (t *StaticTree) lookup(key string) (int, bool) {
	x := t.index.Load()
	if x == nil || x.n != len(t.coords) {
		coords := t.coords
		x = &coordIndex{hashpos.New(len(coords), func(i int) (string, bool) { return coords[i].String(), true }), len(coords)}
		t.index.Store(x) // two lookups at once make equal ones
	}
	return x.FindString(key, func(i int) bool { return t.coords[i].String() == key })
}

// versions returns the release versions of the coordinate written key,
// sorted and without duplicates, parsing those AddText recorded, and
// whether the tree holds it. Callers must not change the slice.
func (t *StaticTree) versions(key string) ([]vt.Version, bool) {
	i, ok := t.lookup(key)
	if !ok {
		return nil, false
	}
	return t.versionsAt(i), true
}

// versionsAt is versions of the coordinate at position i.
func (t *StaticTree) versionsAt(i int) []vt.Version {
	h := &t.heads[i]
	if p := h.parsed.Load(); p != nil {
		return *p
	}
	// Two lookups at once may both parse the text; they make equal
	// slices, and the first stored is the one every lookup returns.
	vs := parseVersions(h.text)
	slices.SortFunc(vs, vt.Version.Compare)
	vs = slices.CompactFunc(vs, func(a, b vt.Version) bool { return a.Compare(b) == 0 })
	if !h.parsed.CompareAndSwap(nil, &vs) {
		return *h.parsed.Load()
	}
	return vs
}

// parseVersions parses release versions written one per line.
func parseVersions(s string) []vt.Version {
	out := make([]vt.Version, 0, strings.Count(s, "\n"))
	for line := range strings.SplitSeq(s, "\n") {
		if v, err := vt.ParseVersion(line); err == nil {
			out = append(out, v)
		}
	}
	return out
}

// Coordinates implements [Tree]; the caller owns the returned slice.
func (t *StaticTree) Coordinates() []vt.Coordinate { return slices.Clone(t.coords) }

// Has implements [Tree]; it parses nothing.
func (t *StaticTree) Has(c vt.Coordinate) bool {
	_, ok := t.lookup(c.String())
	return ok
}

// Releases implements [Tree]; the caller owns the returned slice.
func (t *StaticTree) Releases(c vt.Coordinate) []vt.Version {
	vs, _ := t.versions(c.String())
	return slices.Clone(vs)
}

// SameReleases reports whether t and u agree on the artifact c: neither
// holds it, or both hold it with the same release versions (compared by
// their text). Unlike comparing [StaticTree.Releases], it copies nothing: a
// check compares the trees of two runs this way for every coordinate that
// a head's rules looked up.
func (t *StaticTree) SameReleases(u *StaticTree, c vt.Coordinate) bool {
	key := c.String()
	a, inT := t.versions(key)
	b, inU := u.versions(key)
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
