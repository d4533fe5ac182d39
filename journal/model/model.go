// Package model holds the immutable composed objects of a Journal: a
// [Revision] (one complete worldview of one artifact at one Journal version)
// and its [Release]s with their contents, dependencies, exclusions,
// preferences and policy ("The header", "Release blocks" and
// "Semantic rules" in docs/journal-format.md).
//
// Every type has unexported fields and accessor methods. Constructors take a
// spec struct and copy it; accessors return copies, so no caller can change a
// value after it is built. Slices returned are never nil, and optional values
// come as (value, bool). The zero value of each type is empty but safe to use.
//
// This package maps the requirements' public `.model` package.
package model

import (
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Policy is a verdict with an optional reason (POLICY in "The header"
// and "Release blocks" in docs/journal-format.md).
type Policy struct {
	verdict vt.Verdict
	reason  string
}

// NewPolicy returns the policy with verdict v and reason r ("" for none).
func NewPolicy(v vt.Verdict, r string) Policy { return Policy{verdict: v, reason: r} }

// DefaultPolicy is the effective policy when neither the release nor the
// header states one: allow, without reason ("Release blocks" in
// docs/journal-format.md).
func DefaultPolicy() Policy { return Policy{verdict: vt.Allow} }

// Verdict returns allow, deprecated or deny.
func (p Policy) Verdict() vt.Verdict { return p.verdict }

// Reason returns the quoted reason and true, or "" and false when none was given.
func (p Policy) Reason() (string, bool) { return p.reason, p.reason != "" }

// Content is one named file of a release and its SHA-256 digest (CONTENT).
type Content struct {
	name   vt.Name
	digest vt.Digest
}

// NewContent returns the content entry name → digest.
func NewContent(name vt.Name, digest vt.Digest) Content { return Content{name: name, digest: digest} }

// Name returns the file name.
func (c Content) Name() vt.Name { return c.name }

// Digest returns the file's digest.
func (c Content) Digest() vt.Digest { return c.digest }

// Dependency is a DEPENDS line: a coordinate, a version constraint and an
// optional description.
type Dependency struct {
	coordinate  vt.Coordinate
	constraint  vt.Constraint
	description string
}

// NewDependency returns a dependency; description "" means none.
func NewDependency(c vt.Coordinate, k vt.Constraint, description string) Dependency {
	return Dependency{coordinate: c, constraint: k, description: description}
}

// Coordinate returns the depended-on artifact.
func (d Dependency) Coordinate() vt.Coordinate { return d.coordinate }

// Constraint returns the accepted versions.
func (d Dependency) Constraint() vt.Constraint { return d.constraint }

// Description returns the quoted description and true, or "" and false.
func (d Dependency) Description() (string, bool) { return d.description, d.description != "" }

// Exclusion is an EXCLUDES line: a coordinate removed from the release's
// transitive dependency closure, with an optional description.
type Exclusion struct {
	coordinate  vt.Coordinate
	description string
}

// NewExclusion returns an exclusion; description "" means none.
func NewExclusion(c vt.Coordinate, description string) Exclusion {
	return Exclusion{coordinate: c, description: description}
}

// Coordinate returns the excluded artifact.
func (e Exclusion) Coordinate() vt.Coordinate { return e.coordinate }

// Description returns the quoted description and true, or "" and false.
func (e Exclusion) Description() (string, bool) { return e.description, e.description != "" }

// Preference is a PREFERS line: the version a resolver should pick for a
// coordinate, with an optional description.
type Preference struct {
	coordinate  vt.Coordinate
	version     vt.Version
	description string
}

// NewPreference returns a preference; description "" means none.
func NewPreference(c vt.Coordinate, v vt.Version, description string) Preference {
	return Preference{coordinate: c, version: v, description: description}
}

// Coordinate returns the artifact the preference is about.
func (p Preference) Coordinate() vt.Coordinate { return p.coordinate }

// Version returns the preferred version.
func (p Preference) Version() vt.Version { return p.version }

// Description returns the quoted description and true, or "" and false.
func (p Preference) Description() (string, bool) { return p.description, p.description != "" }
