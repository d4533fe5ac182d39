package diff

import "github.com/r35157/journal-lint/internal/diag"

// Kind is the stable kebab-case ID of one kind of change (issue 4, "The
// change model"). A kind is never reused for another meaning. The check
// engine reports a change of kind K under the diagnostic code "history/K"
// (see [Kind.Code]).
type Kind string

// The kinds of change, grouped by their default level.
const (
	// ReleaseRemoved: a release of the old revision is missing from the new
	// one. To withdraw a release, a successor keeps it with POLICY deny.
	ReleaseRemoved Kind = "release-removed"
	// ReleaseContentChanged: a CONTENT name of an existing release has
	// another digest: the supply-chain red flag.
	ReleaseContentChanged Kind = "release-content-changed"
	// ReleaseContentRemoved: a CONTENT name of an existing release is gone.
	ReleaseContentRemoved Kind = "release-content-removed"
	// ReleasePublishedChanged: the PUBLISHED time of an existing release is
	// changed, added or removed.
	ReleasePublishedChanged Kind = "release-published-changed"
	// ReleaseDependenciesChanged: a DEPENDS, EXCLUDES or PREFERS entry of an
	// existing release is added, removed, or changes its constraint or
	// preferred version.
	ReleaseDependenciesChanged Kind = "release-dependencies-changed"
	// ArtifactChanged: the two revisions name different artifacts, so they
	// are not of the same chain.
	ArtifactChanged Kind = "artifact-changed"

	// ReleaseLicenseChanged: the LICENSE of an existing release changes. It
	// is a warning, or info when the two SPDX expressions are equivalent
	// (valuetypes License.Equivalent).
	ReleaseLicenseChanged Kind = "release-license-changed"
	// PolicyTightened: the effective policy of an existing release becomes
	// stricter (allow → deprecated → deny).
	PolicyTightened Kind = "policy-tightened"
	// ReleaseBackdated: a new release is PUBLISHED before the old
	// revision's JOURNAL_VERSION, so the old worldview should have known it.
	ReleaseBackdated Kind = "release-backdated"
	// ReleaseResurrected: a version that an earlier revision of the chain
	// removed appears again.
	ReleaseResurrected Kind = "release-resurrected"

	// ReleaseAdded: the new revision has a release the old one lacks.
	ReleaseAdded Kind = "release-added"
	// ContentAdded: an existing release gets a new CONTENT name.
	ContentAdded Kind = "content-added"
	// PolicyRelaxed: the effective policy of an existing release becomes
	// less strict.
	PolicyRelaxed Kind = "policy-relaxed"
	// DescriptionChanged: a quoted text changes: the header or a release
	// DESCRIPTION, a policy reason, or the description of a DEPENDS,
	// EXCLUDES or PREFERS entry.
	DescriptionChanged Kind = "description-changed"
	// InfoChanged: the header INFO URI is changed, added or removed.
	InfoChanged Kind = "info-changed"
	// NoSemanticChange: the texts differ, but only in comments, spacing,
	// order, line endings or chain metadata (JOURNAL_VERSION, PREDECESSOR).
	NoSemanticChange Kind = "no-semantic-change"
)

// Code returns the diagnostic code of k in check: "history/" + k.
func (k Kind) Code() string { return CodePrefix + string(k) }

// CodePrefix is the category prefix of the diagnostic codes of changes.
const CodePrefix = "history/"

// Dimension is the aspect of an artifact's worldview a change touches.
type Dimension string

// The dimensions of a change.
const (
	// Integrity: what a release is (its content digests, publication time,
	// its existence, the artifact identity).
	Integrity Dimension = "integrity"
	// Resolution: what a resolver picks (dependencies, exclusions,
	// preferences, the set of releases on offer).
	Resolution Dimension = "resolution"
	// Legal: licensing.
	Legal Dimension = "legal"
	// Policy: allow, deprecated, deny.
	Policy Dimension = "policy"
	// Docs: descriptions, the INFO URI, and texts without meaning.
	Docs Dimension = "docs"
)

// KindInfo documents one kind: its default level and dimension, and a
// one-line summary in lowercase without a final period.
type KindInfo struct {
	Kind      Kind
	Level     diag.Severity
	Dimension Dimension
	Summary   string
}

// kinds lists every kind, errors first, in the order of issue 4.
var kinds = []KindInfo{
	{ReleaseRemoved, diag.Error, Resolution, "a release of the previous revision is missing"},
	{ReleaseContentChanged, diag.Error, Integrity, "a content file of an existing release has another digest"},
	{ReleaseContentRemoved, diag.Error, Integrity, "a content file of an existing release is removed"},
	{ReleasePublishedChanged, diag.Error, Integrity, "the publication time of an existing release changes"},
	{ReleaseDependenciesChanged, diag.Error, Resolution, "the dependencies, exclusions or preferences of an existing release change"},
	{ArtifactChanged, diag.Error, Integrity, "the two revisions name different artifacts"},
	{ReleaseLicenseChanged, diag.Warning, Legal, "the license of an existing release changes (info when the expressions are equivalent)"},
	{PolicyTightened, diag.Warning, Policy, "the effective policy of an existing release becomes stricter"},
	{ReleaseBackdated, diag.Warning, Integrity, "a new release is published before the previous revision was written"},
	{ReleaseResurrected, diag.Warning, Integrity, "a release removed by an earlier revision reappears"},
	{ReleaseAdded, diag.Info, Resolution, "a release is added"},
	{ContentAdded, diag.Info, Integrity, "an existing release gets a new content file"},
	{PolicyRelaxed, diag.Info, Policy, "the effective policy of an existing release becomes less strict"},
	{DescriptionChanged, diag.Info, Docs, "a description or policy reason changes"},
	{InfoChanged, diag.Info, Docs, "the artifact's information URI changes"},
	{NoSemanticChange, diag.Info, Docs, "the texts differ without any change of meaning"},
}

// Kinds returns every kind with its documentation, errors first, then
// warnings, then infos. The slice is new on each call.
func Kinds() []KindInfo { return append([]KindInfo(nil), kinds...) }

// LookupKind returns the documentation of k and whether k is a kind.
func LookupKind(k Kind) (KindInfo, bool) {
	for _, ki := range kinds {
		if ki.Kind == k {
			return ki, true
		}
	}
	return KindInfo{}, false
}

// order returns the position of k in [Kinds], used to sort changes.
func order(k Kind) int {
	for i, ki := range kinds {
		if ki.Kind == k {
			return i
		}
	}
	return len(kinds)
}
