package model

import (
	"iter"
	"slices"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// RevisionSpec lists the parts of a revision for [NewRevision]. Optional
// parts use their zero value for "absent".
type RevisionSpec struct {
	// Digest is the revision digest: SHA-256 of the exact text
	// ("The revision digest" in docs/journal-format.md).
	Digest         vt.Digest
	Coordinate     vt.Coordinate
	JournalVersion vt.JournalVersion
	Predecessor    vt.Digest // zero for the genesis
	Description    string
	Info           *vt.URI // nil when absent
	Policy         *Policy // nil when absent
	// Releases in file order.
	Releases []Release
}

// Revision is one accepted, immutable Journal text: the complete worldview of
// one artifact at one Journal version.
type Revision struct {
	spec RevisionSpec
	// byVersion holds indexes into spec.Releases sorted by SemVer precedence.
	byVersion []int
}

// NewRevision builds a revision from spec, copying it. Releases without
// their own POLICY get the header's policy as effective policy.
func NewRevision(spec RevisionSpec) Revision {
	s := spec
	if spec.Info != nil {
		u := *spec.Info
		s.Info = &u
	}
	if spec.Policy != nil {
		p := *spec.Policy
		s.Policy = &p
	}
	s.Releases = make([]Release, len(spec.Releases))
	copy(s.Releases, spec.Releases)
	return NewRevisionOwned(s)
}

// NewRevisionOwned is [NewRevision] without the copies: the revision keeps
// spec.Releases (setting the effective policies in it), Info and Policy,
// so the caller must never use them again, nor change what they point
// to. Its releases come from [NewRelease] or [NewReleaseOwned].
func NewRevisionOwned(spec RevisionSpec) Revision {
	s := spec
	if s.Policy != nil {
		for i := range s.Releases {
			if r := &s.Releases[i]; r.spec.Policy == nil {
				r.effective = *s.Policy
			}
		}
	}
	idx := make([]int, len(s.Releases))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return s.Releases[a].spec.Version.Compare(s.Releases[b].spec.Version)
	})
	return Revision{spec: s, byVersion: idx}
}

// Digest returns the revision digest (SHA-256 of the exact text).
func (r Revision) Digest() vt.Digest { return r.spec.Digest }

// Coordinate returns the artifact coordinate (ARTIFACT).
func (r Revision) Coordinate() vt.Coordinate { return r.spec.Coordinate }

// JournalVersion returns the instant the worldview was written (JOURNAL_VERSION).
func (r Revision) JournalVersion() vt.JournalVersion { return r.spec.JournalVersion }

// Predecessor returns the predecessor's digest and true, or false for the genesis.
func (r Revision) Predecessor() (vt.Digest, bool) {
	return r.spec.Predecessor, !r.spec.Predecessor.IsZero()
}

// IsGenesis reports whether the revision has no predecessor.
func (r Revision) IsGenesis() bool { return r.spec.Predecessor.IsZero() }

// Description returns the artifact's description (header DESCRIPTION).
func (r Revision) Description() string { return r.spec.Description }

// Info returns the information URI and true, or false when absent.
func (r Revision) Info() (vt.URI, bool) {
	if r.spec.Info == nil {
		return vt.URI{}, false
	}
	return *r.spec.Info, true
}

// Policy returns the header's default POLICY and true, or false when absent.
func (r Revision) Policy() (Policy, bool) {
	if r.spec.Policy == nil {
		return Policy{}, false
	}
	return *r.spec.Policy, true
}

// Releases returns every release in file order; never nil.
func (r Revision) Releases() []Release { return cloneNonNil(r.spec.Releases) }

// ReleasesByVersion returns every release in ascending SemVer precedence; never nil.
func (r Revision) ReleasesByVersion() []Release {
	return slices.AppendSeq(make([]Release, 0, len(r.byVersion)), r.ReleasesByVersionSeq())
}

// ReleasesByVersionSeq yields every release in ascending SemVer precedence,
// as ReleasesByVersion returns them, without copying them into a slice.
func (r Revision) ReleasesByVersionSeq() iter.Seq[Release] {
	return func(yield func(Release) bool) {
		for _, j := range r.byVersion {
			if !yield(r.spec.Releases[j]) {
				return
			}
		}
	}
}

// Release returns the release with exactly version v, if this revision knows
// it. It is a binary search: O(log n) in the number of releases.
func (r Revision) Release(v vt.Version) (Release, bool) {
	i, ok := slices.BinarySearchFunc(r.byVersion, v, func(j int, v vt.Version) int {
		return r.spec.Releases[j].spec.Version.Compare(v)
	})
	if !ok {
		return Release{}, false
	}
	return r.spec.Releases[r.byVersion[i]], true
}
