package model

import (
	"fmt"
	"slices"
	"strings"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Compact returns a revision equal to r whose strings (coordinate,
// descriptions, versions, licenses, names, constraints, URIs, policy
// reasons) hold none of the text r was parsed from. A revision built by a
// parser holds substrings of the whole Journal text, which keeps every
// byte of that text alive (digests, keywords, comments) for as long as the
// revision lives; a long-lived state of many revisions (the query
// service) compacts them so that it holds only what its queries return.
//
// shared maps strings that earlier compacted revisions hold to their
// copies, and Compact reuses them: the revisions of one chain repeat most
// of their predecessor's releases, so a caller compacting a chain passes
// one map for all of it. Compact copies the strings shared lacks into one
// new string and adds them to shared; a nil shared shares nothing. Values
// are parsed again from their copies.
func (r Revision) Compact(shared map[string]string) Revision {
	out := r.copied()
	fresh := map[string]int{} // offset in the new string, by text
	var order []string
	size := 0
	out.eachString(func(s string) string {
		if _, ok := shared[s]; !ok && s != "" {
			if _, ok := fresh[s]; !ok {
				fresh[s] = size
				order = append(order, s)
				size += len(s)
			}
		}
		return s
	}, false)
	var b strings.Builder
	b.Grow(size)
	for _, s := range order {
		b.WriteString(s)
	}
	arena := b.String()
	out.eachString(func(s string) string {
		if t, ok := shared[s]; ok {
			return t
		}
		if off, ok := fresh[s]; ok {
			return arena[off : off+len(s)]
		}
		return s // ""
	}, true)
	if shared != nil {
		for s, off := range fresh {
			shared[arena[off:off+len(s)]] = arena[off : off+len(s)]
		}
	}
	return out
}

// copied returns r with its own copies of every slice and pointer, so that
// eachString may store into it.
func (r Revision) copied() Revision {
	out := r
	out.spec.Releases = slices.Clone(r.spec.Releases)
	for i := range out.spec.Releases {
		rel := &out.spec.Releases[i]
		rel.spec.Contents = slices.Clone(rel.spec.Contents)
		rel.spec.Depends = slices.Clone(rel.spec.Depends)
		rel.spec.Excludes = slices.Clone(rel.spec.Excludes)
		rel.spec.Prefers = slices.Clone(rel.spec.Prefers)
		if rel.spec.Policy != nil {
			p := *rel.spec.Policy
			rel.spec.Policy = &p
		}
	}
	if r.spec.Info != nil {
		u := *r.spec.Info
		out.spec.Info = &u
	}
	if r.spec.Policy != nil {
		p := *r.spec.Policy
		out.spec.Policy = &p
	}
	return out
}

// eachString calls f on every string of r in a fixed order. With store,
// it stores the value parsed from what f returns (an equal string) in
// place of each; r's slices and pointers must then be its own (see
// copied).
func (r *Revision) eachString(f func(string) string, store bool) {
	again := func(s string) string { return f(s) }
	if !store {
		again = func(s string) string { f(s); return "" }
	}
	s := &r.spec
	s.Coordinate = reparse(again, s.Coordinate, vt.ParseCoordinate)
	s.Description = f(s.Description)
	if s.Info != nil {
		*s.Info = reparse(again, *s.Info, vt.ParseURI)
	}
	if s.Policy != nil {
		s.Policy.reason = f(s.Policy.reason)
	}
	for i := range s.Releases {
		rel := &s.Releases[i]
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
