package model

import (
	"fmt"
	"slices"
	"strings"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// A Compactor holds what [Revision.Compact] shares among the revisions it
// compacts: the copies of their strings, and their compacted releases.
// The revisions of one chain repeat most of their predecessor's releases,
// so a caller compacting a chain passes one Compactor for all of it, and
// then resets or drops it: until then, it keeps the texts of those
// revisions alive. The zero value is ready to use; a Compactor must not be
// used by two goroutines at once.
type Compactor struct {
	// index maps each string of the compacted revisions (as first met:
	// a substring of its text) to the index of its copy in copies.
	index  map[string]int32
	copies []string
	// releases holds the last compacted release of each version: in the
	// Releases of the last revision Compact returned with that version.
	releases map[vt.Version]*Release
	// last are the Releases and byVersion of the revision Compact
	// returned last, which the next shares when its releases are the
	// same.
	last          []Release
	lastByVersion []int
	// olds are the releases of c that equal those of the revision being
	// compacted (nil where none does); scratch, kept for its capacity.
	olds []*Release
	// slots are the indexes in copies of the strings share visits, in
	// visiting order (-1 for ""); scratch, kept for its capacity.
	slots []int32
}

// Compact returns a revision equal to r whose strings (coordinate,
// descriptions, versions, licenses, names, constraints, URIs, policy
// reasons) hold none of the text r was parsed from. A revision built by a
// parser holds substrings of the whole Journal text, which keeps every
// byte of that text alive (digests, keywords, comments) for as long as the
// revision lives; a long-lived state of many revisions (the query
// service) compacts them so that it holds only what its queries return.
//
// A release of r equal to one that c holds (every field the same) is
// that release, shared; when every release of r is that of the revision
// compacted last with c, in the same order, the list itself is shared.
// The strings of the others, and of the header,
// are those c holds where it holds equal ones; Compact copies the rest
// into one new string, parses their values again from their copies, and
// adds both the strings and the compacted releases to c. A nil c shares
// nothing.
func (r Revision) Compact(c *Compactor) Revision {
	if c == nil {
		c = &Compactor{}
	}
	if c.index == nil {
		n := min(4+8*len(r.spec.Releases), keepAtMost) // about the strings of r
		c.index = make(map[string]int32, n)
		c.copies = make([]string, 0, n)
		c.releases = make(map[vt.Version]*Release, len(r.spec.Releases))
	}
	out := r
	if r.spec.Info != nil {
		u := *r.spec.Info
		out.spec.Info = &u
	}
	if r.spec.Policy != nil {
		p := *r.spec.Policy
		out.spec.Policy = &p
	}
	c.olds = c.olds[:0]
	same := len(r.spec.Releases) == len(c.last)
	for i := range r.spec.Releases {
		rel := &r.spec.Releases[i]
		old, ok := c.releases[rel.spec.Version]
		if !ok || !old.equal(rel) {
			old = nil
		}
		c.olds = append(c.olds, old)
		same = same && old == &c.last[i]
	}
	var fresh []*Release // the releases compacted here, in out
	if same {
		out.spec.Releases, out.byVersion = c.last, c.lastByVersion
	} else {
		out.spec.Releases = make([]Release, len(r.spec.Releases))
		for i, old := range c.olds {
			if old != nil {
				out.spec.Releases[i] = *old
			} else {
				out.spec.Releases[i] = r.spec.Releases[i].copied()
				fresh = append(fresh, &out.spec.Releases[i])
			}
		}
	}
	c.share(func(f func(string) string, store bool) {
		eachHeaderString(&out.spec, f, store)
		for _, rel := range fresh {
			rel.eachString(f, store)
		}
	})
	if !same {
		for i := range out.spec.Releases {
			rel := &out.spec.Releases[i]
			c.releases[rel.spec.Version] = rel
		}
		c.last, c.lastByVersion = out.spec.Releases, out.byVersion
	}
	clear(c.olds)
	return out
}

// keepAtMost is the most strings whose memory a Compactor keeps across
// Reset: clearing a map costs its capacity, so a Compactor that once
// served a huge chain would make every later Reset pay for it.
const keepAtMost = 1024

// Reset empties c for the revisions of another chain: it lets go of all
// it held, and keeps the memory it grew unless that was large.
func (c *Compactor) Reset() {
	if len(c.copies) > keepAtMost {
		*c = Compactor{}
		return
	}
	clear(c.index)
	clear(c.copies)
	c.copies = c.copies[:0]
	clear(c.releases)
	c.last, c.lastByVersion = nil, nil
}

// share makes the strings that each visits (see eachHeaderString) those
// that c holds, or copies in one new string that c then holds. each must
// visit the same strings in the same order both times it is called.
func (c *Compactor) share(each func(f func(string) string, store bool)) {
	first := len(c.copies) // the copies made here start there
	size := 0
	c.slots = c.slots[:0]
	each(func(s string) string {
		if s == "" {
			c.slots = append(c.slots, -1)
			return s
		}
		i, ok := c.index[s]
		if !ok {
			i = int32(len(c.copies))
			c.index[s] = i
			c.copies = append(c.copies, s) // until it is copied below
			size += len(s)
		}
		c.slots = append(c.slots, i)
		return s
	}, false)
	if size > 0 {
		var b strings.Builder
		b.Grow(size)
		for _, s := range c.copies[first:] {
			b.WriteString(s)
		}
		arena := b.String()
		for i, s := range c.copies[first:] {
			c.copies[first+i], arena = arena[:len(s)], arena[len(s):]
		}
	}
	next := 0
	each(func(string) string {
		i := c.slots[next]
		next++
		if i < 0 {
			return ""
		}
		return c.copies[i]
	}, true)
}

// equal reports whether r and o are the same release: every value, every
// list and both policies equal. (The values compare by their text.)
func (r *Release) equal(o *Release) bool {
	a, b := &r.spec, &o.spec
	return a.Version == b.Version && a.License == b.License && a.Description == b.Description &&
		a.Published == b.Published && r.effective == o.effective &&
		(a.Policy == nil) == (b.Policy == nil) && (a.Policy == nil || *a.Policy == *b.Policy) &&
		slices.Equal(a.Contents, b.Contents) && slices.Equal(a.Depends, b.Depends) &&
		slices.Equal(a.Excludes, b.Excludes) && slices.Equal(a.Prefers, b.Prefers)
}

// copied returns r with its own copies of every slice and of its policy,
// so that eachString may store into it.
func (r Release) copied() Release {
	out := r
	out.spec.Contents = slices.Clone(r.spec.Contents)
	out.spec.Depends = slices.Clone(r.spec.Depends)
	out.spec.Excludes = slices.Clone(r.spec.Excludes)
	out.spec.Prefers = slices.Clone(r.spec.Prefers)
	if r.spec.Policy != nil {
		p := *r.spec.Policy
		out.spec.Policy = &p
	}
	return out
}

// eachHeaderString calls f on every string of the header s (not its
// releases) in a fixed order. With store, it stores the value parsed from
// what f returns (an equal string) in place of each; s's Info and Policy
// must then be its own.
func eachHeaderString(s *RevisionSpec, f func(string) string, store bool) {
	again := storing(f, store)
	s.Coordinate = reparse(again, s.Coordinate, vt.ParseCoordinate)
	s.Description = f(s.Description)
	if s.Info != nil {
		*s.Info = reparse(again, *s.Info, vt.ParseURI)
	}
	if s.Policy != nil {
		s.Policy.reason = f(s.Policy.reason)
	}
}

// eachString calls f on every string of rel in a fixed order. With store,
// it stores the value parsed from what f returns (an equal string) in
// place of each; rel's slices and policy must then be its own (see
// copied).
func (rel *Release) eachString(f func(string) string, store bool) {
	again := storing(f, store)
	rs := &rel.spec
	rs.Version = reparse(again, rs.Version, vt.ParseVersion)
	rs.License = reparse(again, rs.License, vt.ParseLicense)
	rs.Description = f(rs.Description)
	if rs.Policy != nil {
		rs.Policy.reason = f(rs.Policy.reason)
	}
	rel.effective.reason = f(rel.effective.reason)
	for j := range rs.Contents {
		c := &rs.Contents[j]
		c.name = reparse(again, c.name, vt.ParseName)
	}
	for j := range rs.Depends {
		d := &rs.Depends[j]
		d.coordinate = reparse(again, d.coordinate, vt.ParseCoordinate)
		d.constraint = reparse(again, d.constraint, vt.ParseConstraint)
		d.description = f(d.description)
	}
	for j := range rs.Excludes {
		e := &rs.Excludes[j]
		e.coordinate = reparse(again, e.coordinate, vt.ParseCoordinate)
		e.description = f(e.description)
	}
	for j := range rs.Prefers {
		p := &rs.Prefers[j]
		p.coordinate = reparse(again, p.coordinate, vt.ParseCoordinate)
		p.version = reparse(again, p.version, vt.ParseVersion)
		p.description = f(p.description)
	}
}

// storing returns the function that reparse passes a value's text
// through: f itself with store, else one that calls f and returns "", so
// that the value stays as it is.
func storing(f func(string) string, store bool) func(string) string {
	if store {
		return f
	}
	return func(s string) string { f(s); return "" }
}

// reparse passes v's text through f and parses the result. When f returns
// "" (a zero value, or eachString not storing), or a text that does not
// parse again (a valid value's text always does), v is returned unchanged.
func reparse[T fmt.Stringer](f func(string) string, v T, parse func(string) (T, error)) T {
	t := f(v.String())
	if t == "" {
		return v
	}
	w, err := parse(t)
	if err != nil {
		return v
	}
	return w
}
