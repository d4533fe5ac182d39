package chain

import (
	"fmt"
	"maps"
	"slices"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Stage builds the next [State] from a base state, copy-on-write: the base is
// never modified, and only chains that change are copied. A Stage is not
// safe for concurrent use.
type Stage struct {
	base   *State
	chains map[vt.Coordinate]*chainOf
	owners map[vt.Digest]owner
	owned  map[vt.Coordinate]bool // chains already copied for this stage
	added  int
}

// NewStage returns a stage whose starting point is base.
func NewStage(base *State) *Stage {
	return &Stage{
		base:   base,
		chains: maps.Clone(base.chains),
		owners: maps.Clone(base.owners),
		owned:  map[vt.Coordinate]bool{},
	}
}

// Outcome says what an ingestion did.
type Outcome int

// Ingestion outcomes.
const (
	// Rejected: the revision was not accepted; the diagnostics say why.
	Rejected Outcome = iota
	// Appended: the revision is the new genesis or head of its chain.
	Appended
	// Unchanged: the exact same text was already accepted (idempotency).
	Unchanged
)

// Link describes how to treat a PREDECESSOR that the stage does not know.
// The zero value treats every unknown digest as missing.
type Link struct {
	// Elsewhere, when set, names the coordinate and source of a digest that
	// is not accepted but exists elsewhere in the same input (for example a
	// file of the tree that failed or loads later). It lets the stage report
	// chain/cross-artifact whatever order artifacts load in.
	Elsewhere func(vt.Digest) (vt.Coordinate, string, bool)
	// Bridge, when set, reports whether a digest belongs to a revision of
	// the same coordinate that was rejected earlier in this load. Such a
	// successor is checked against the last good head instead (collect-all
	// mode); a note says so.
	Bridge func(vt.Digest) bool
}

// BridgedCode is the info code of the note that a revision was checked
// against the last good head because its predecessor was rejected.
const BridgedCode = "check/bridged-link"

// Ingest validates the chain relationship of doc (format spec §6) and, when
// it holds, adds the revision to the stage. doc must come from
// syntax.Parse; a document with RevisionOK false is rejected with no further
// diagnostic (its parse diagnostics already say why). The returned entry is
// the accepted or already existing revision. On Rejected the stage is
// unchanged.
func (s *Stage) Ingest(doc *syntax.Document, link Link) (Entry, Outcome, diag.List) {
	if !doc.RevisionOK {
		return Entry{}, Rejected, nil
	}
	rev := doc.Revision
	c := rev.Coordinate()
	ch := s.chains[c]
	at := func(d *syntax.Directive, code, msg, help string, related ...diag.Related) diag.List {
		r := diag.Range{}
		if d != nil {
			r = d.Range
			if len(d.Args) > 0 {
				r = diag.Range{Start: d.Args[0].Range.Start, End: d.Args[len(d.Args)-1].Range.End}
			}
		}
		return diag.List{{Code: code, Severity: diag.Error, Message: msg, Path: doc.Path, Range: r, Related: related, Help: help}}
	}
	rel := func(e Entry, msg string) diag.Related { return diag.Related{Path: e.Source, Message: msg} }

	// Conflict and idempotency come first: same coordinate and version.
	if ch != nil {
		if i, ok := ch.find(rev.JournalVersion()); ok {
			old := ch.entries[i]
			if old.Revision.Digest() == rev.Digest() {
				return old, Unchanged, nil
			}
			return Entry{}, Rejected, at(doc.Header.JournalVersion, diag.ChainConflict,
				fmt.Sprintf("different text for %s at Journal version %s (digest %s, accepted %s)", c, rev.JournalVersion(), rev.Digest(), old.Revision.Digest()),
				"an accepted revision is immutable: restore its exact bytes and put changes in a new successor revision",
				rel(old, "the accepted revision"))
		}
	}
	entry := Entry{Revision: rev, Source: doc.Path}
	pred, hasPred := rev.Predecessor()
	if !hasPred {
		if ch != nil {
			return Entry{}, Rejected, at(doc.Header.Artifact, diag.ChainDuplicateGenesis,
				fmt.Sprintf("a second genesis for %s (it has no PREDECESSOR)", c),
				"a successor must name the digest of the current head in PREDECESSOR",
				rel(ch.entries[0], "the accepted genesis"))
		}
		s.appendEntry(c, entry)
		return entry, Appended, nil
	}
	var notes diag.List
	o, known := s.owners[pred]
	switch {
	case known && o.coordinate != c:
		other := s.chains[o.coordinate].entries[o.index]
		return Entry{}, Rejected, at(doc.Header.Predecessor, diag.ChainCrossArtifact,
			fmt.Sprintf("PREDECESSOR names a revision of %s, not of %s", o.coordinate, c),
			"a chain never crosses artifacts: name the digest of the head of "+c.String(),
			rel(other, "the revision with that digest"))
	case known && o.index != len(ch.entries)-1:
		return Entry{}, Rejected, at(doc.Header.Predecessor, diag.ChainFork,
			fmt.Sprintf("PREDECESSOR names %s, which is not the head of %s (the head is %s)", ch.entries[o.index].Revision.JournalVersion(), c, ch.head().Revision.JournalVersion()),
			"a chain is linear: name the digest of the current head, "+ch.head().Revision.Digest().String(),
			rel(ch.entries[o.index], "the named revision"), rel(ch.head(), "the current head"))
	case !known:
		if link.Elsewhere != nil {
			if oc, src, ok := link.Elsewhere(pred); ok && oc != c {
				return Entry{}, Rejected, at(doc.Header.Predecessor, diag.ChainCrossArtifact,
					fmt.Sprintf("PREDECESSOR names a revision of %s, not of %s", oc, c),
					"a chain never crosses artifacts: name the digest of the head of "+c.String(),
					diag.Related{Path: src, Message: "the revision with that digest"})
			}
		}
		if ch != nil && link.Bridge != nil && link.Bridge(pred) {
			notes = diag.List{{Code: BridgedCode, Severity: diag.Info, Path: doc.Path,
				Message: fmt.Sprintf("PREDECESSOR names a revision that was rejected; checked against the last good head %s instead", ch.head().Revision.JournalVersion()),
				Range:   at(doc.Header.Predecessor, "", "", "")[0].Range, Related: []diag.Related{rel(ch.head(), "the last good head")}}}
			break
		}
		return Entry{}, Rejected, at(doc.Header.Predecessor, diag.ChainMissingPredecessor,
			fmt.Sprintf("PREDECESSOR %s names no known revision", pred),
			headHelp(ch))
	}
	if ch == nil { // bridged with no chain cannot happen; a missing chain is handled above
		return Entry{}, Rejected, nil
	}
	head := ch.head()
	if rev.JournalVersion().Compare(head.Revision.JournalVersion()) <= 0 {
		return Entry{}, Rejected, append(notes, at(doc.Header.JournalVersion, diag.ChainNonIncreasingVersion,
			fmt.Sprintf("JOURNAL_VERSION %s is not later than its predecessor's %s", rev.JournalVersion(), head.Revision.JournalVersion()),
			"a successor's Journal version must be strictly later than its predecessor's",
			rel(head, "the predecessor"))...)
	}
	s.appendEntry(c, entry)
	return entry, Appended, notes
}

func headHelp(ch *chainOf) string {
	if ch == nil {
		return "no revision of this artifact is known: a first revision is a genesis and has no PREDECESSOR"
	}
	return "name the digest of the current head, " + ch.head().Revision.Digest().String()
}

func (s *Stage) appendEntry(c vt.Coordinate, e Entry) {
	ch := s.chains[c]
	switch {
	case ch == nil:
		ch = &chainOf{}
		s.chains[c] = ch
		s.owned[c] = true
	case !s.owned[c]:
		ch = &chainOf{entries: slices.Clip(slices.Clone(ch.entries))}
		s.chains[c] = ch
		s.owned[c] = true
	}
	ch.entries = append(ch.entries, e)
	s.owners[e.Revision.Digest()] = owner{coordinate: c, index: len(ch.entries) - 1}
	s.added++
}

// Head returns the current head of c in the stage.
func (s *Stage) Head(c vt.Coordinate) (Entry, bool) {
	ch := s.chains[c]
	if ch == nil {
		return Entry{}, false
	}
	return ch.head(), true
}

// Freeze returns the staged state as a new immutable State. The stage must
// not be used afterwards.
func (s *Stage) Freeze() *State {
	if s.added == 0 {
		return s.base
	}
	coords := make([]vt.Coordinate, 0, len(s.chains))
	n := 0
	for c, ch := range s.chains {
		coords = append(coords, c)
		n += len(ch.entries)
	}
	slices.SortFunc(coords, func(a, b vt.Coordinate) int { return a.Compare(b) })
	st := &State{chains: s.chains, owners: s.owners, coordinates: coords, revisions: n}
	s.chains, s.owners = nil, nil
	return st
}
