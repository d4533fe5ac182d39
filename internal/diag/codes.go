package diag

import "strings"

// The stable validity codes of the format spec §8, plus the codes this
// project adds to the validity categories. Their meaning never changes.
const (
	RootMissing       = "fs/root-missing"
	RootNotDirectory  = "fs/root-not-directory"
	RootUnreadable    = "fs/root-unreadable"
	UnexpectedEntry   = "fs/unexpected-entry"
	BadFilename       = "fs/bad-filename"
	FilenameMismatch  = "fs/filename-mismatch"
	DirectoryMismatch = "fs/directory-mismatch"
	UnreadableFile    = "fs/unreadable-file"
	TooLarge          = "fs/too-large"
	// RevisionMissing is added by this project: an accepted revision's file
	// has vanished at refresh time.
	RevisionMissing = "fs/revision-missing"
	// ChangedDuringRead is added by this project: a file kept changing
	// while it was read, so its bytes cannot be trusted.
	ChangedDuringRead = "fs/changed-during-read"

	SyntaxEncoding           = "syntax/encoding"
	SyntaxLineEnding         = "syntax/line-ending"
	SyntaxUnknownDirective   = "syntax/unknown-directive"
	SyntaxMisplacedDirective = "syntax/misplaced-directive"
	SyntaxDuplicateDirective = "syntax/duplicate-directive"
	SyntaxMissingDirective   = "syntax/missing-directive"
	SyntaxArguments          = "syntax/arguments"
	// SyntaxEmpty is added by this project: the text is empty or blank
	// (requirements: ingestion rejects null, empty or blank input).
	SyntaxEmpty = "syntax/empty"

	ValueCoordinate = "value/coordinate"
	ValueTimestamp  = "value/timestamp"
	ValueDigest     = "value/digest"
	ValueVersion    = "value/version"
	ValueConstraint = "value/constraint"
	ValueLicense    = "value/license"
	ValueURI        = "value/uri"
	ValueName       = "value/name"
	ValueVerdict    = "value/verdict"
	ValueFormat     = "value/format"

	SemanticDuplicateRelease      = "semantic/duplicate-release"
	SemanticDuplicateContent      = "semantic/duplicate-content"
	SemanticDuplicateReference    = "semantic/duplicate-reference"
	SemanticSelfReference         = "semantic/self-reference"
	SemanticReferenceConflict     = "semantic/reference-conflict"
	SemanticPreferenceUnsatisfied = "semantic/preference-unsatisfied"
	SemanticPublishedAfterVersion = "semantic/published-after-version"

	ChainDuplicateGenesis     = "chain/duplicate-genesis"
	ChainMissingPredecessor   = "chain/missing-predecessor"
	ChainCrossArtifact        = "chain/cross-artifact"
	ChainFork                 = "chain/fork"
	ChainNonIncreasingVersion = "chain/non-increasing-version"
	ChainConflict             = "chain/conflict"
)

// IsValidity reports whether code belongs to a validity category of the
// format spec §8 (fs/, syntax/, value/, semantic/, chain/): a diagnostic with
// such a code is exactly what makes loading fail.
func IsValidity(code string) bool {
	cat, _, ok := strings.Cut(code, "/")
	if !ok {
		return false
	}
	switch cat {
	case "fs", "syntax", "value", "semantic", "chain":
		return true
	}
	return false
}
