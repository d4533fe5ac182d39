package wire

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers of the rulepack.v1 messages (rulepack.proto) that this
// package encodes and decodes without the generated structs (codec.go,
// decode.go), for speed: a tree's documents are most of the traffic. These
// names are the only place Go code spells the numbers; TestFieldNumbers
// holds them to the generated descriptors, so an edit of rulepack.proto
// that moves a field fails there. Each constant is <message><Field>.
const (
	checkRequestConfigJSON protowire.Number = 1
	checkRequestDocuments  protowire.Number = 2
	checkRequestParseText  protowire.Number = 3

	documentPath       protowire.Number = 1
	documentText       protowire.Number = 2
	documentDigest     protowire.Number = 3
	documentDirectives protowire.Number = 4
	documentRevision   protowire.Number = 5
	documentChain      protowire.Number = 6

	directivesArgCounts protowire.Number = 1
	directivesSpans     protowire.Number = 2
	directivesQuoted    protowire.Number = 3
	directivesDecoded   protowire.Number = 4

	revisionCoordinate     protowire.Number = 1
	revisionJournalVersion protowire.Number = 2
	revisionPredecessor    protowire.Number = 3
	revisionDescription    protowire.Number = 4
	revisionInfo           protowire.Number = 5
	revisionPolicy         protowire.Number = 6
	revisionReleases       protowire.Number = 7

	policyVerdict protowire.Number = 1
	policyReason  protowire.Number = 2

	releaseVersion     protowire.Number = 1
	releaseLicense     protowire.Number = 2
	releaseContents    protowire.Number = 3
	releaseDescription protowire.Number = 4
	releasePublished   protowire.Number = 5
	releasePolicy      protowire.Number = 6
	releaseDepends     protowire.Number = 7
	releaseExcludes    protowire.Number = 8
	releasePrefers     protowire.Number = 9

	contentName   protowire.Number = 1
	contentDigest protowire.Number = 2

	dependencyCoordinate  protowire.Number = 1
	dependencyConstraint  protowire.Number = 2
	dependencyDescription protowire.Number = 3

	exclusionCoordinate  protowire.Number = 1
	exclusionDescription protowire.Number = 2

	preferenceCoordinate  protowire.Number = 1
	preferenceVersion     protowire.Number = 2
	preferenceDescription protowire.Number = 3

	chainContextCoordinate protowire.Number = 1
	chainContextAccepted   protowire.Number = 2
	chainContextRevisions  protowire.Number = 3

	chainEntryPath           protowire.Number = 1
	chainEntryJournalVersion protowire.Number = 2
	chainEntryDigest         protowire.Number = 3
)
