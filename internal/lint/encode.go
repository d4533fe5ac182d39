package lint

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/r35157/journal-lint/internal/codec"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// AppendHeadRefs writes hr to w with its coordinates spelled out, so that
// [RefsArena.Read] in another run, with another arena, gives back a
// HeadRefs that judges the same (journal-lint's persistent cache).
func AppendHeadRefs(w *codec.Writer, hr HeadRefs) {
	w.Bool(hr.enc != "")
	if hr.enc == "" {
		return
	}
	own, refs := hr.decode() // refs can be ranged over once
	w.String(own.String())
	all := slices.Collect(refs)
	w.Uint(uint64(len(all)))
	for _, ref := range all {
		w.String(ref.coordinate.String())
		w.String(ref.constraint)
	}
}

// Read reads a HeadRefs written by [AppendHeadRefs] and keeps it in a, as
// [RefsArena.Keep] keeps those of a document. A corrupt record sets r's
// error and gives the zero HeadRefs.
func (a *RefsArena) Read(r *codec.Reader) HeadRefs {
	if !r.Bool() {
		return HeadRefs{}
	}
	if a.names == nil {
		a.names = &refNames{number: map[string]uint64{}}
		a.seen = map[reference]bool{}
	}
	coordinate := func() vt.Coordinate {
		s := r.Interned()
		if s == "" {
			return vt.Coordinate{}
		}
		c, err := vt.ParseCoordinate(s)
		if err != nil {
			r.Fail()
			return vt.Coordinate{}
		}
		return c
	}
	b := append(a.scratch[:0], 1) // known
	b = binary.AppendUvarint(b, a.numberOf(coordinate()))
	n := r.Len()
	for range n {
		c := coordinate()
		constraint := r.String()
		b = binary.AppendUvarint(b, a.numberOf(c))
		b = binary.AppendUvarint(b, uint64(len(constraint)))
		b = append(b, constraint...)
	}
	a.scratch = b
	if r.Err() != nil {
		return HeadRefs{}
	}
	return HeadRefs{enc: a.store(b), names: a.names}
}

// View is what a head's rules saw of one coordinate of the tree: whether
// it holds it, and the versions of its head's releases, in order, each
// followed by a newline; "" when the tree does not hold it. Two trees
// agree on the coordinate exactly when their views are equal.
func (t *StaticTree) View(c vt.Coordinate) string {
	vs, ok := t.versions(c.String())
	if !ok {
		return ""
	}
	b := []byte{'+'}
	for _, v := range vs {
		b = append(b, v.String()...)
		b = append(b, '\n')
	}
	return string(b)
}

// HasView reports whether the tree shows the coordinate written c as
// view (what [StaticTree.View] returns for it), without making a view or
// copying its arguments.
func (t *StaticTree) HasView(c, view []byte) bool {
	vs, ok := t.versions(string(c))
	if !ok || len(view) == 0 {
		return !ok && len(view) == 0
	}
	if view[0] != '+' {
		return false
	}
	view = view[1:]
	for _, v := range vs {
		s := v.String()
		if len(view) <= len(s) || string(view[:len(s)]) != s || view[len(s)] != '\n' {
			return false
		}
		view = view[len(s)+1:]
	}
	return len(view) == 0
}

// CoordinatesDigest returns the SHA-256 of the tree's coordinates, in
// order: two trees hold the same coordinates exactly when their digests
// are equal.
func (t *StaticTree) CoordinatesDigest() [sha256.Size]byte {
	h := sha256.New()
	for _, c := range t.coords {
		h.Write([]byte(c.String()))
		h.Write([]byte{'\n'})
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}
