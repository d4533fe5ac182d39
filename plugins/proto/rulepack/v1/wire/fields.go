package wire

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers of the rulepack.v1 messages (rulepack.proto) that the host
// encodes and the SDK decodes without the generated structs, for speed: a
// tree's documents are most of the traffic. These names are the only place
// Go code spells the numbers; TestFieldNumbers holds them to the generated
// descriptors, so an edit of rulepack.proto that moves a field fails there.
// Each constant is <Message><Field>.
const (
	CheckRequestConfigJSON protowire.Number = 1
	CheckRequestDocuments  protowire.Number = 2
	CheckRequestParseText  protowire.Number = 3

	DocumentPath       protowire.Number = 1
	DocumentText       protowire.Number = 2
	DocumentDigest     protowire.Number = 3
	DocumentDirectives protowire.Number = 4
	DocumentRevision   protowire.Number = 5
	DocumentChain      protowire.Number = 6

	DirectivesArgCounts protowire.Number = 1
	DirectivesSpans     protowire.Number = 2
	DirectivesQuoted    protowire.Number = 3
	DirectivesDecoded   protowire.Number = 4

	RevisionCoordinate     protowire.Number = 1
	RevisionJournalVersion protowire.Number = 2
	RevisionPredecessor    protowire.Number = 3
	RevisionDescription    protowire.Number = 4
	RevisionInfo           protowire.Number = 5
	RevisionPolicy         protowire.Number = 6
	RevisionReleases       protowire.Number = 7

	PolicyVerdict protowire.Number = 1
	PolicyReason  protowire.Number = 2

	ReleaseVersion     protowire.Number = 1
	ReleaseLicense     protowire.Number = 2
	ReleaseContents    protowire.Number = 3
	ReleaseDescription protowire.Number = 4
	ReleasePublished   protowire.Number = 5
	ReleasePolicy      protowire.Number = 6
	ReleaseDepends     protowire.Number = 7
	ReleaseExcludes    protowire.Number = 8
	ReleasePrefers     protowire.Number = 9

	ContentName   protowire.Number = 1
	ContentDigest protowire.Number = 2

	DependencyCoordinate  protowire.Number = 1
	DependencyConstraint  protowire.Number = 2
	DependencyDescription protowire.Number = 3

	ExclusionCoordinate  protowire.Number = 1
	ExclusionDescription protowire.Number = 2

	PreferenceCoordinate  protowire.Number = 1
	PreferenceVersion     protowire.Number = 2
	PreferenceDescription protowire.Number = 3

	ChainContextCoordinate protowire.Number = 1
	ChainContextAccepted   protowire.Number = 2
	ChainContextRevisions  protowire.Number = 3

	ChainEntryPath           protowire.Number = 1
	ChainEntryJournalVersion protowire.Number = 2
	ChainEntryDigest         protowire.Number = 3
)
