package chain

import (
	"fmt"
	"maps"
	"slices"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// Stage builds the next [State] from a base state, copy-on-write: the base is
// never modified, and only chains that change are copied. A Stage is not
// safe for concurrent use; the [ChainStage]s it hands out are independent of
// each other and of the Stage until [Stage.Merge].
type Stage struct {
	base *State
	// chains and owners are base's until the first Merge that adds a
	// revision copies them, so that a stage that adds nothing copies
	// nothing.
	chains map[vt.Coordinate]*chainOf
	owners map[vt.Digest]owner
	owned  map[vt.Coordinate]bool // chains already copied for this stage
	added  int
	// open caches the chain stages of Stage.Ingest, one per coordinate.
	open map[vt.Coordinate]*ChainStage
}

// NewStage returns a stage whose starting point is base.
func NewStage(base *State) *Stage {
	return &Stage{base: base, chains: base.chains, owners: base.owners, owned: map[vt.Coordinate]bool{}}
}

// Outcome says what an ingestion did.
type Outcome uint8

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
	// the same coordinate that was rejected earlier in this load, and
	// returns that revision's source. Such a successor is checked against
	// the last good head instead (collect-all mode); a note says so and
	// points at both.
	Bridge func(vt.Digest) (string, bool)
}

// Ingest validates the chain relationship of doc ("Chains" in
// docs/journal-format.md) and, when it holds, adds the revision to the stage.
// doc must come from syntax.Parse; a document with RevisionOK false is
// rejected with no further diagnostic (its parse diagnostics already say why).
// The returned entry is the accepted or already existing revision. On Rejected
// the stage is unchanged.
func (s *Stage) Ingest(doc *syntax.Document, link Link) (Entry, Outcome, diag.List) {
	if !doc.RevisionOK {
		return Entry{}, Rejected, nil
	}
	c := doc.Revision.Coordinate()
	cs := s.open[c]
	if cs == nil {
		cs = s.Chain(c)
		if s.open == nil {
			s.open = map[vt.Coordinate]*ChainStage{}
		}
		s.open[c] = cs
	}
	e, out, ds, p := cs.Ingest(doc, link.Bridge)
	if p != nil {
		ds = p.Resolve(func(d vt.Digest) (vt.Coordinate, string, bool) {
			if o, ok := s.owners[d]; ok {
				return o.coordinate, s.chains[o.coordinate].entries[o.index].Source, true
			}
			if link.Elsewhere != nil {
				return link.Elsewhere(d)
			}
			return vt.Coordinate{}, "", false
		})
	}
	s.Merge(cs)
	return e, out, ds
}

// Chain returns a stage for the chain of c alone, starting from the
// stage's current chain of c. It shares nothing mutable with s, so the
// chains of different artifacts can be staged concurrently (while nothing
// is merged or ingested into s); [Stage.Merge] brings the result back. Do
// not mix it with [Stage.Ingest] for the same coordinate.
func (s *Stage) Chain(c vt.Coordinate) *ChainStage {
	cs := &ChainStage{coordinate: c, local: map[vt.Digest]int{}}
	if ch := s.chains[c]; ch != nil {
		cs.entries = ch.entries
		for i, e := range ch.entries {
			cs.local[e.Revision.Digest()] = i
		}
	}
	cs.merged = len(cs.entries)
	cs.cow = !s.owned[c] && len(cs.entries) > 0
	return cs
}

// Merge makes the revisions that cs accepted part of s. cs must come from
// [Stage.Chain] of s, and no other ChainStage of the same coordinate may
// have been merged since.
func (s *Stage) Merge(cs *ChainStage) {
	if len(cs.entries) == cs.merged {
		return
	}
	if s.added == 0 {
		s.chains, s.owners = maps.Clone(s.chains), maps.Clone(s.owners)
	}
	c := cs.coordinate
	s.chains[c] = &chainOf{entries: cs.entries}
	s.owned[c] = true // cs copied the chain before its first append
	for i := cs.merged; i < len(cs.entries); i++ {
		s.owners[cs.entries[i].Revision.Digest()] = owner{coordinate: c, index: i}
	}
	s.added += len(cs.entries) - cs.merged
	cs.merged = len(cs.entries)
}

// ChainStage ingests the revisions of one artifact (see [Stage.Chain]). It
// is not safe for concurrent use.
type ChainStage struct {
	coordinate vt.Coordinate
	entries    []Entry
	// merged is how many leading entries the parent stage already holds.
	merged int
	// cow says entries is shared with the stage's base and must be copied
	// before the first append.
	cow   bool
	local map[vt.Digest]int // digest → index in entries
	// sharedLocal says local is shared with another stage ([ChainStage.Restage])
	// and must be copied before the first append.
	sharedLocal bool
}

// Ingest is [Stage.Ingest] for one revision of the chain's coordinate,
// except for a PREDECESSOR that names no revision of this chain and no
// rejected revision that bridge accepts: the revision is rejected, and the
// returned [Pending] builds its diagnostic once the owners of every digest
// of the input are known (chain/cross-artifact or chain/missing-predecessor;
// both reject, so the chain goes on the same way). bridge may be nil.
func (cs *ChainStage) Ingest(doc *syntax.Document, bridge func(vt.Digest) (string, bool)) (Entry, Outcome, diag.List, *Pending) {
	if !doc.RevisionOK {
		return Entry{}, Rejected, nil, nil
	}
	rev := doc.Revision
	c := rev.Coordinate()
	at := func(d *syntax.Directive, code, msg, help string, related ...diag.Related) diag.List {
		return diag.List{{Code: code, Severity: diag.Error, Message: msg, Path: doc.Path, Range: d.ArgsRange(), Related: related, Help: help}}
	}
	rel := func(e Entry, msg string) diag.Related { return diag.Related{Path: e.Source, Message: msg} }

	// Conflict and idempotency come first: same coordinate and version.
	if i, ok := cs.find(rev.JournalVersion()); ok {
		old := cs.entries[i]
		if old.Revision.Digest() == rev.Digest() {
			return old, Unchanged, nil, nil
		}
		return Entry{}, Rejected, at(doc.Header.JournalVersion, rules.ChainConflict,
			fmt.Sprintf("different text for %s at Journal version %s (digest %s, accepted %s)", c, rev.JournalVersion(), rev.Digest(), old.Revision.Digest()),
			"an accepted revision is immutable: restore its exact bytes and put changes in a new successor revision",
			rel(old, "the accepted revision")), nil
	}
	entry := Entry{Revision: rev, Source: doc.Path}
	pred, hasPred := rev.Predecessor()
	if !hasPred {
		if len(cs.entries) > 0 {
			head := cs.entries[len(cs.entries)-1].Revision
			help := "a successor must name the digest of the current head in PREDECESSOR"
			var fixes []diag.Fix
			if rev.JournalVersion().Compare(head.JournalVersion()) > 0 {
				// Only a revision later than the head can follow it; an
				// earlier one must be dated again first.
				help = "a successor names the current head after JOURNAL_VERSION: PREDECESSOR " + head.Digest().String() +
					"; if this is the artifact's first revision, the accepted genesis is the one in the wrong place"
				fixes = predecessorLine(doc, head)
			}
			ds := at(doc.Header.Artifact, rules.ChainDuplicateGenesis,
				fmt.Sprintf("a second genesis for %s (it has no PREDECESSOR)", c), help,
				rel(cs.entries[0], "the accepted genesis"))
			ds[0].Fixes = fixes
			return Entry{}, Rejected, ds, nil
		}
		cs.append(entry)
		return entry, Appended, nil, nil
	}
	var notes diag.List
	i, known := cs.local[pred]
	switch {
	case known && i != len(cs.entries)-1:
		head := cs.entries[len(cs.entries)-1]
		ds := at(doc.Header.Predecessor, rules.ChainFork,
			fmt.Sprintf("PREDECESSOR names %s, which is not the head of %s (the head is %s)", cs.entries[i].Revision.JournalVersion(), c, head.Revision.JournalVersion()),
			"a chain is linear: name the digest of the current head, "+head.Revision.Digest().String(),
			rel(cs.entries[i], "the named revision"), rel(head, "the current head"))
		ds[0].Fixes = cs.headFix(doc)
		return Entry{}, Rejected, ds, nil
	case !known:
		if len(cs.entries) > 0 && bridge != nil {
			if src, ok := bridge(pred); ok {
				head := cs.entries[len(cs.entries)-1]
				notes = diag.List{{Code: rules.CheckBridgedLink, Severity: diag.Info, Path: doc.Path,
					Message: fmt.Sprintf("PREDECESSOR names a revision that was rejected; checked against the last good head %s instead", head.Revision.JournalVersion()),
					Range:   doc.Header.Predecessor.ArgsRange(),
					Related: []diag.Related{{Path: src, Message: "the rejected revision it names"}, rel(head, "the last good head")}}}
				break
			}
		}
		p := &Pending{coordinate: c, predecessor: pred, path: doc.Path, rng: doc.Header.Predecessor.ArgsRange(), help: cs.headHelp(), fixes: cs.headFix(doc),
			version: rev.JournalVersion()}
		return Entry{}, Rejected, nil, p
	}
	head := cs.entries[len(cs.entries)-1]
	if rev.JournalVersion().Compare(head.Revision.JournalVersion()) <= 0 {
		return Entry{}, Rejected, append(notes, at(doc.Header.JournalVersion, rules.ChainNonIncreasingVersion,
			fmt.Sprintf("JOURNAL_VERSION %s is not later than its predecessor's %s", rev.JournalVersion(), head.Revision.JournalVersion()),
			"a successor's Journal version must be strictly later than its predecessor's",
			rel(head, "the predecessor"))...), nil
	}
	cs.append(entry)
	return entry, Appended, notes, nil
}

// find returns the index of the revision with Journal version v and whether
// it exists. O(log n).
func (cs *ChainStage) find(v vt.JournalVersion) (int, bool) {
	ch := chainOf{entries: cs.entries}
	return ch.find(v)
}

// Reserve makes room for n more revisions in a chain that no state shares
// yet, so that ingesting them one by one does not grow its memory step by
// step; for a chain taken from the stage's base it does nothing (its first
// new revision copies it).
func (cs *ChainStage) Reserve(n int) {
	if cs.cow || cs.sharedLocal {
		return
	}
	cs.entries = slices.Grow(cs.entries, n)
	if len(cs.local) == 0 {
		cs.local = make(map[vt.Digest]int, n)
	}
}

func (cs *ChainStage) append(e Entry) {
	if cs.cow {
		cs.entries = slices.Clip(slices.Clone(cs.entries))
		cs.cow = false
	}
	if cs.sharedLocal {
		cs.local = maps.Clone(cs.local)
		cs.sharedLocal = false
	}
	cs.entries = append(cs.entries, e)
	cs.local[e.Revision.Digest()] = len(cs.entries) - 1
}

func (cs *ChainStage) headHelp() string {
	if len(cs.entries) == 0 {
		return "no revision of this artifact is known: a first revision is a genesis and has no PREDECESSOR"
	}
	return "name the digest of the current head, " + cs.entries[len(cs.entries)-1].Revision.Digest().String()
}

// headFix is the fix of the help "name the digest of the current head":
// PREDECESSOR's argument becomes the head's digest. Nil without a head.
func (cs *ChainStage) headFix(doc *syntax.Document) []diag.Fix {
	d := doc.Header.Predecessor
	if len(cs.entries) == 0 || d == nil || len(d.Args) != 1 {
		return nil
	}
	head := cs.entries[len(cs.entries)-1].Revision
	return []diag.Fix{{
		Title: fmt.Sprintf("Set PREDECESSOR to the head %s", head.JournalVersion()),
		Edits: []diag.Edit{{Range: d.Args[0].Range(), NewText: head.Digest().String()}},
	}}
}

// predecessorLine is the fix of a successor written without PREDECESSOR
// (a revision, so its JOURNAL_VERSION line exists): the line naming head,
// where syntax.Document.PredecessorLine puts it.
func predecessorLine(doc *syntax.Document, head model.Revision) []diag.Fix {
	off, line := doc.PredecessorLine(head.Digest())
	at := doc.Lines.Pos(off)
	return []diag.Fix{{
		Title: fmt.Sprintf("Add PREDECESSOR naming the head %s", head.JournalVersion()),
		Edits: []diag.Edit{{Range: diag.Range{Start: at, End: at}, NewText: line}},
	}}
}

// Pending is the rejection of a revision whose PREDECESSOR names no
// revision of its own chain: whether that digest belongs to another
// artifact is known only once the whole input was read.
type Pending struct {
	coordinate  vt.Coordinate
	predecessor vt.Digest
	path        string
	rng         diag.Range
	help        string
	fixes       []diag.Fix
	version     vt.JournalVersion
}

// Predecessor returns the digest the rejected revision names.
func (p *Pending) Predecessor() vt.Digest { return p.predecessor }

// Resolve returns the diagnostic of the rejection. owner names the
// coordinate and source of a digest of the input (an accepted revision, or
// failing that any file with that digest), and whether there is one; a
// digest of another coordinate makes chain/cross-artifact, anything else
// chain/missing-predecessor.
func (p *Pending) Resolve(owner func(vt.Digest) (vt.Coordinate, string, bool)) diag.List {
	if oc, src, ok := owner(p.predecessor); ok && oc != p.coordinate {
		return diag.List{{Code: rules.ChainCrossArtifact, Severity: diag.Error, Path: p.path, Range: p.rng,
			Message: fmt.Sprintf("PREDECESSOR names a revision of %s, not of %s", oc, p.coordinate),
			Help:    "a chain never crosses artifacts; " + p.help, Fixes: p.fixes,
			Related: []diag.Related{{Path: src, Message: "the revision with that digest"}}}}
	}
	return diag.List{{Code: rules.ChainMissingPredecessor, Severity: diag.Error, Path: p.path, Range: p.rng,
		Message: fmt.Sprintf("PREDECESSOR %s names no known revision", p.predecessor),
		Help:    p.help, Fixes: p.fixes}}
}

// Unusable says why a file of the same artifact that a rejected
// revision's PREDECESSOR names (or may name) is no revision it can follow.
type Unusable int

// The reasons a named file is no predecessor.
const (
	// Invalid: the file has the named digest but is not a valid revision
	// (such as a byte-order mark or a syntax error); Detail is its first
	// error.
	Invalid Unusable = iota + 1
	// NotEarlier: the file has the named digest, but its Journal version
	// (Detail) is not earlier than the successor's.
	NotEarlier
	// ChainRejected: the file has the named digest and is valid, but the
	// chain rules rejected it.
	ChainRejected
	// Unread: no file has the named digest, but the file could not be read
	// (Detail is why), so it may be the named one.
	Unread
)

// Named is a file of the rejected revision's own artifact that explains
// its PREDECESSOR better than "no known revision" (see [Pending.Explain]).
type Named struct {
	// Path is the file's root-relative path.
	Path string
	// Why says why it is no predecessor.
	Why Unusable
	// Detail is the first error of an Invalid or Unread file, or the
	// Journal version of a NotEarlier one.
	Detail string
}

// Explain returns the chain/missing-predecessor diagnostic of the
// rejection when the PREDECESSOR names (or, for Unread, may name) the file
// n of the same artifact, which exists but is no revision to follow: the
// message says why, a related location points at the file, and the help
// fixes the real cause instead of suggesting a genesis or another digest.
func (p *Pending) Explain(n Named) diag.List {
	var msg, help, note string
	switch n.Why {
	case Invalid:
		msg = fmt.Sprintf("PREDECESSOR %s names a file of %s that is not a valid revision (%s)", p.predecessor, p.coordinate, n.Detail)
		note = "the file with this digest, rejected for its own errors"
		help = "fix that file's errors (see its diagnostics); its digest then changes, so name the new digest here"
	case NotEarlier:
		msg = fmt.Sprintf("PREDECESSOR %s names a revision of %s whose Journal version %s is not earlier than this revision's %s", p.predecessor, p.coordinate, n.Detail, p.version)
		note = "the named revision"
		help = "a predecessor is always older than its successor: check the JOURNAL_VERSION (and file name) of both revisions"
	case ChainRejected:
		msg = fmt.Sprintf("PREDECESSOR %s names a revision of %s that the chain rules rejected", p.predecessor, p.coordinate)
		note = "the named revision, rejected (see its chain diagnostic)"
		help = "fix the chain diagnostic of the named revision first"
	default:
		msg = fmt.Sprintf("PREDECESSOR %s names no revision that could be read: a file of %s could not be read (%s) and may be the named one", p.predecessor, p.coordinate, n.Detail)
		note = "a file that could not be read"
		help = "make that file a readable regular Journal file, then check again"
	}
	return diag.List{{Code: rules.ChainMissingPredecessor, Severity: diag.Error, Path: p.path, Range: p.rng,
		Message: msg, Help: help, Related: []diag.Related{{Path: n.Path, Message: note}}}}
}

// Freeze returns the staged state as a new immutable State. The stage must
// not be used afterwards.
func (s *Stage) Freeze() *State {
	if s.added == 0 {
		return s.base
	}
	coords := slices.Clip(s.base.coordinates)
	for c := range s.owned {
		if s.base.chains[c] == nil {
			coords = append(coords, c) // a new chain: copies base's
		}
	}
	if len(coords) > len(s.base.coordinates) {
		slices.SortFunc(coords, func(a, b vt.Coordinate) int { return a.Compare(b) })
	}
	st := &State{chains: s.chains, owners: s.owners, coordinates: coords, revisions: s.base.revisions + s.added}
	s.chains, s.owners = nil, nil
	return st
}

// Restage returns a stage of cs's chain for another [Stage] that starts,
// like cs's own, without a chain of its coordinate (such as a stage from
// the same base): merging it there adds cs's revisions without ingesting
// them again (a load that takes over an unchanged artifact). cs is not
// changed, now or by ingestions into the copy.
func (cs *ChainStage) Restage() *ChainStage {
	return &ChainStage{coordinate: cs.coordinate, entries: slices.Clip(cs.entries), cow: len(cs.entries) > 0, sharedLocal: true, local: cs.local}
}

// Entries returns the chain's accepted revisions, genesis first. The slice
// is shared: the caller must not change it.
func (cs *ChainStage) Entries() []Entry { return slices.Clip(cs.entries) }
