package model

import (
	"slices"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// ReleaseSpec lists the parts of a release for [NewRelease]. Optional parts
// use their zero value for "absent".
type ReleaseSpec struct {
	Version     vt.Version
	License     vt.License
	Contents    []Content
	Description string       // "" when absent
	Published   vt.Timestamp // zero when absent
	Policy      *Policy      // nil when absent: the header's policy applies
	Depends     []Dependency
	Excludes    []Exclusion
	Prefers     []Preference
}

// Release is one RELEASE block as a given revision knows it.
type Release struct {
	spec      ReleaseSpec
	effective Policy
}

// NewRelease builds a release from spec, copying every slice. Its effective
// policy is its own POLICY, else the default; [NewRevision] applies the
// header's policy to releases without their own.
func NewRelease(spec ReleaseSpec) Release {
	s := spec
	s.Contents = slices.Clone(spec.Contents)
	s.Depends = slices.Clone(spec.Depends)
	s.Excludes = slices.Clone(spec.Excludes)
	s.Prefers = slices.Clone(spec.Prefers)
	if spec.Policy != nil {
		p := *spec.Policy
		s.Policy = &p
	}
	return NewReleaseOwned(s)
}

// NewReleaseOwned is [NewRelease] without the copies: the release keeps
// spec's slices and Policy, so the caller must never change them (nor
// what they point to) afterwards. It serves a builder that allocates them
// for the release, such as the parser, which makes the lists of every
// release of a text from one array per kind.
func NewReleaseOwned(spec ReleaseSpec) Release {
	r := Release{spec: spec, effective: DefaultPolicy()}
	if spec.Policy != nil {
		r.effective = *spec.Policy
	}
	return r
}

// Version returns the release's SemVer version.
func (r Release) Version() vt.Version { return r.spec.Version }

// License returns the release's SPDX expression.
func (r Release) License() vt.License { return r.spec.License }

// Contents returns the CONTENT entries in file order; never nil.
func (r Release) Contents() []Content { return cloneNonNil(r.spec.Contents) }

// Content returns the content entry called name, if any.
func (r Release) Content(name string) (Content, bool) {
	for _, c := range r.spec.Contents {
		if c.name.String() == name {
			return c, true
		}
	}
	return Content{}, false
}

// Description returns the release's quoted description and true, or "" and false.
func (r Release) Description() (string, bool) { return r.spec.Description, r.spec.Description != "" }

// Published returns the publication time and true, or the zero time and false.
func (r Release) Published() (vt.Timestamp, bool) {
	return r.spec.Published, !r.spec.Published.IsZero()
}

// Policy returns the release's own POLICY and true, or false when it has none.
func (r Release) Policy() (Policy, bool) {
	if r.spec.Policy == nil {
		return Policy{}, false
	}
	return *r.spec.Policy, true
}

// EffectivePolicy returns the release's own policy, else the revision
// header's, else allow ("Release blocks" in docs/journal-format.md).
func (r Release) EffectivePolicy() Policy { return r.effective }

// Dependencies returns the DEPENDS entries in file order; never nil.
func (r Release) Dependencies() []Dependency { return cloneNonNil(r.spec.Depends) }

// Exclusions returns the EXCLUDES entries in file order; never nil.
func (r Release) Exclusions() []Exclusion { return cloneNonNil(r.spec.Excludes) }

// Preferences returns the PREFERS entries in file order; never nil.
func (r Release) Preferences() []Preference { return cloneNonNil(r.spec.Prefers) }

func cloneNonNil[T any](s []T) []T {
	out := make([]T, len(s))
	copy(out, s)
	return out
}
