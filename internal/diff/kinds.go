package diff

import (
	"sync"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

// Kind is the stable kebab-case ID of one kind of change (issue 4, "The
// change model"). A kind is never reused for another meaning. The check
// engine reports a change of kind K under the diagnostic code "history/K"
// (see [Kind.Code]), whose level and summary the rule registry (package
// rules) declares.
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
	// order, line endings or chain metadata (JOURNAL_VERSION, PREDECESSOR);
	// the message names which of them (see invisibleChanges).
	NoSemanticChange Kind = "no-semantic-change"
)

// Code returns the diagnostic code of k in check, "history/" + k (package
// rules declares it), or "" for an unknown kind.
func (k Kind) Code() string {
	for _, d := range decls {
		if d.kind == k {
			return d.code
		}
	}
	return ""
}

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
// one-line summary in lowercase without a final period. Level and summary
// are those of the kind's code in the rule registry (package rules).
type KindInfo struct {
	Kind      Kind
	Level     diag.Severity
	Dimension Dimension
	Summary   string
}

// kindDecl ties a kind to its code in the rule registry and its dimension.
type kindDecl struct {
	kind      Kind
	code      string
	dimension Dimension
}

// decls lists every kind, errors first, in the order of issue 4.
var decls = []kindDecl{
	{ReleaseRemoved, rules.HistoryReleaseRemoved, Resolution},
	{ReleaseContentChanged, rules.HistoryReleaseContentChanged, Integrity},
	{ReleaseContentRemoved, rules.HistoryReleaseContentRemoved, Integrity},
	{ReleasePublishedChanged, rules.HistoryReleasePublishedChanged, Integrity},
	{ReleaseDependenciesChanged, rules.HistoryReleaseDependenciesChanged, Resolution},
	{ArtifactChanged, rules.HistoryArtifactChanged, Integrity},
	{ReleaseLicenseChanged, rules.HistoryReleaseLicenseChanged, Legal},
	{PolicyTightened, rules.HistoryPolicyTightened, Policy},
	{ReleaseBackdated, rules.HistoryReleaseBackdated, Integrity},
	{ReleaseResurrected, rules.HistoryReleaseResurrected, Integrity},
	{ReleaseAdded, rules.HistoryReleaseAdded, Resolution},
	{ContentAdded, rules.HistoryContentAdded, Integrity},
	{PolicyRelaxed, rules.HistoryPolicyRelaxed, Policy},
	{DescriptionChanged, rules.HistoryDescriptionChanged, Docs},
	{InfoChanged, rules.HistoryInfoChanged, Docs},
	{NoSemanticChange, rules.HistoryNoSemanticChange, Docs},
}

// kinds documents every kind of decls, in the same order; built on first
// use from the rule registry, which a process that compares nothing does
// not read.
var kinds = sync.OnceValue(func() []KindInfo {
	out := make([]KindInfo, len(decls))
	for i, d := range decls {
		r, _ := rules.Lookup(d.code) // a code missing from the registry fails TestKindCodes
		out[i] = KindInfo{Kind: d.kind, Level: r.DefaultSeverity, Dimension: d.dimension, Summary: r.Summary}
	}
	return out
})

// Kinds returns every kind with its documentation, errors first, then
// warnings, then infos. The slice is new on each call.
func Kinds() []KindInfo { return append([]KindInfo(nil), kinds()...) }

// LookupKind returns the documentation of k and whether k is a kind.
func LookupKind(k Kind) (KindInfo, bool) {
	for _, ki := range kinds() {
		if ki.Kind == k {
			return ki, true
		}
	}
	return KindInfo{}, false
}

// order returns the position of k in [Kinds], used to sort changes.
func order(k Kind) int {
	ks := kinds()
	for i, ki := range ks {
		if ki.Kind == k {
			return i
		}
	}
	return len(ks)
}
