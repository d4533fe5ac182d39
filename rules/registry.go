package rules

// The code of every diagnostic journal-lint reports, by category. A code is
// never reused for another meaning ("Diagnostic codes" in
// docs/journal-format.md). Rule packs add codes of their own, "<pack>/<rule>",
// which are not listed here.
const (
	// The validity codes of the layout ("Filesystem layout" and
	// "Diagnostic codes" in docs/journal-format.md), reported by the loader.
	// FSRevisionMissing and FSChangedDuringRead are added by this project: an
	// accepted revision's file has vanished at refresh time; a file kept
	// changing while it was read.
	FSRootMissing       = "fs/root-missing"
	FSRootNotDirectory  = "fs/root-not-directory"
	FSRootUnreadable    = "fs/root-unreadable"
	FSUnexpectedEntry   = "fs/unexpected-entry"
	FSBadFilename       = "fs/bad-filename"
	FSFilenameMismatch  = "fs/filename-mismatch"
	FSDirectoryMismatch = "fs/directory-mismatch"
	FSUnreadableFile    = "fs/unreadable-file"
	FSTooLarge          = "fs/too-large"
	FSRevisionMissing   = "fs/revision-missing"
	FSChangedDuringRead = "fs/changed-during-read"

	// The validity codes of the line grammar ("Lines and encoding",
	// "Directives and arguments", "The header", "Release blocks" and
	// "Diagnostic codes" in docs/journal-format.md),
	// reported by the parser. SyntaxEmpty is added by this project: the text
	// is empty or blank (requirements: ingestion rejects null, empty or
	// blank input).
	SyntaxEncoding           = "syntax/encoding"
	SyntaxLineEnding         = "syntax/line-ending"
	SyntaxUnknownDirective   = "syntax/unknown-directive"
	SyntaxMisplacedDirective = "syntax/misplaced-directive"
	SyntaxDuplicateDirective = "syntax/duplicate-directive"
	SyntaxMissingDirective   = "syntax/missing-directive"
	SyntaxArguments          = "syntax/arguments"
	SyntaxEmpty              = "syntax/empty"

	// The validity codes of the value grammars ("Values" and
	// "Diagnostic codes" in docs/journal-format.md), reported by the parser.
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

	// The validity codes of the rules within one revision ("Semantic rules"
	// and "Diagnostic codes" in docs/journal-format.md), reported by the parser.
	SemanticDuplicateRelease      = "semantic/duplicate-release"
	SemanticDuplicateContent      = "semantic/duplicate-content"
	SemanticDuplicateReference    = "semantic/duplicate-reference"
	SemanticSelfReference         = "semantic/self-reference"
	SemanticReferenceConflict     = "semantic/reference-conflict"
	SemanticPreferenceUnsatisfied = "semantic/preference-unsatisfied"
	SemanticPublishedAfterVersion = "semantic/published-after-version"

	// The validity codes of the hash chain ("Chains" and "Diagnostic codes" in
	// docs/journal-format.md), reported by the chain stage.
	ChainDuplicateGenesis     = "chain/duplicate-genesis"
	ChainMissingPredecessor   = "chain/missing-predecessor"
	ChainCrossArtifact        = "chain/cross-artifact"
	ChainFork                 = "chain/fork"
	ChainNonIncreasingVersion = "chain/non-increasing-version"
	ChainConflict             = "chain/conflict"

	// CheckBridgedLink is the note of the collect-all pipeline on a revision
	// whose predecessor was rejected ([Engine]).
	CheckBridgedLink = "check/bridged-link"

	// The warnings about the configuration file itself ([Config]):
	// ConfigGateChanged, a pull request changes a setting that protects
	// accepted revisions, which `check --against` takes from the base
	// revision; ConfigPluginsChanged, a pull request changes the rule packs,
	// which it takes from there too; ConfigUnusedIgnore, an ignore entry
	// matched no diagnostic.
	ConfigGateChanged    = "config/gate-changed"
	ConfigPluginsChanged = "config/plugins-changed"
	ConfigUnusedIgnore   = "config/unused-ignore"

	// The lint rules about the dependencies of a chain's head ([ChainHead]).
	DepsUnknownArtifact = "deps/unknown-artifact"
	DepsUnsatisfiable   = "deps/unsatisfiable"

	// The cross-revision rules, one per kind of change of the semantic diff
	// engine: "history/" + kind ([CrossRevision]), and the codes of the
	// append-only gate of `check --against` ([Repository]).
	HistoryArtifactChanged            = "history/artifact-changed"
	HistoryContentAdded               = "history/content-added"
	HistoryDescriptionChanged         = "history/description-changed"
	HistoryInfoChanged                = "history/info-changed"
	HistoryNoSemanticChange           = "history/no-semantic-change"
	HistoryPolicyRelaxed              = "history/policy-relaxed"
	HistoryPolicyTightened            = "history/policy-tightened"
	HistoryReleaseAdded               = "history/release-added"
	HistoryReleaseBackdated           = "history/release-backdated"
	HistoryReleaseContentChanged      = "history/release-content-changed"
	HistoryReleaseContentRemoved      = "history/release-content-removed"
	HistoryReleaseDependenciesChanged = "history/release-dependencies-changed"
	HistoryReleaseLicenseChanged      = "history/release-license-changed"
	HistoryReleasePublishedChanged    = "history/release-published-changed"
	HistoryReleaseRemoved             = "history/release-removed"
	HistoryReleaseResurrected         = "history/release-resurrected"
	HistoryRevisionDeleted            = "history/revision-deleted"
	HistoryRevisionModified           = "history/revision-modified"
	HistoryRevisionRenamed            = "history/revision-renamed"

	// The lint rules on the LICENSE of a release ([Document]).
	LicenseDeprecatedID = "license/deprecated-id"
	LicenseIDCase       = "license/id-case"
	LicenseNoassertion  = "license/noassertion"

	// PluginFailed: a configured rule pack failed ([Engine]).
	PluginFailed = "plugin/failed"

	// RepoEOLConversion: git may convert the line endings of Journal files
	// ([Repository]).
	RepoEOLConversion = "repo/eol-conversion"
	// RepoEOLConversionEnabled: a change of .gitattributes makes git convert
	// Journal files that it stored byte for byte at the compared commit
	// ([Repository]).
	RepoEOLConversionEnabled = "repo/eol-conversion-enabled"
	// RepoEOLConverted: git converted the line endings of a Journal file as
	// it was staged, so the index holds other bytes than the work tree
	// ([Repository]).
	RepoEOLConverted = "repo/eol-converted"

	// SecurityBidiControl: a bidirectional control character ([Document]).
	SecurityBidiControl = "security/bidi-control"

	// The style rules on one document ([Document]); StyleDraftNote reports a
	// line that starts, after its indentation, with DraftNoteMarker.
	StyleCRLF                = "style/crlf"
	StyleDraftNote           = "style/draft-note"
	StyleEmptyText           = "style/empty-text"
	StyleMissingFinalNewline = "style/missing-final-newline"
	StyleReleaseOrder        = "style/release-order"
	StyleTrailingWhitespace  = "style/trailing-whitespace"

	// The codes of the transparency log of accepted revisions
	// (docs/tlog.md), reported by `check --against` (TLogModified,
	// TLogBadCheckpoint) and by `journal-lint tlog verify` ([Repository]).
	TLogBadCheckpoint = "tlog/bad-checkpoint"
	TLogBadTiles      = "tlog/bad-tiles"
	TLogInconsistent  = "tlog/inconsistent"
	TLogMissingFile   = "tlog/missing-file"
	TLogModified      = "tlog/modified"
	TLogOrder         = "tlog/order"
	TLogStrayFile     = "tlog/stray-file"
	TLogUnlogged      = "tlog/unlogged"

	// TimeFutureVersion: JOURNAL_VERSION lies in the future ([Document]).
	TimeFutureVersion = "time/future-version"
)

// registry is the table of every code: its kind, scope, default severity,
// summary and options. The validity codes come first, in the order of
// "Diagnostic codes" in docs/journal-format.md (project additions after their
// category), then every other code sorted by code; [All] keeps this order and
// a test checks it. The docs live beside it, one Markdown file per code under
// docs/.
var registry = []Rule{
	{Code: FSRootMissing, Kind: Validity, DefaultSeverity: Error, Scope: ScopeRoot, Summary: "the root does not exist"},
	{Code: FSRootNotDirectory, Kind: Validity, DefaultSeverity: Error, Scope: ScopeRoot, Summary: "the root is not a directory"},
	{Code: FSRootUnreadable, Kind: Validity, DefaultSeverity: Error, Scope: ScopeRoot, Summary: "the root cannot be listed"},
	{Code: FSUnexpectedEntry, Kind: Validity, DefaultSeverity: Error, Scope: ScopeLayout, Summary: "an entry outside the filesystem layout"},
	{Code: FSBadFilename, Kind: Validity, DefaultSeverity: Error, Scope: ScopeLayout, Summary: "a .journal file name whose stem is not a strict timestamp"},
	{Code: FSFilenameMismatch, Kind: Validity, DefaultSeverity: Error, Scope: ScopeLayout, Summary: "the file name stem differs from JOURNAL_VERSION"},
	{Code: FSDirectoryMismatch, Kind: Validity, DefaultSeverity: Error, Scope: ScopeLayout, Summary: "the directory name differs from ARTIFACT"},
	{Code: FSUnreadableFile, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a Journal file cannot be read"},
	{Code: FSTooLarge, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a Journal file exceeds 16 MiB"},
	{Code: FSRevisionMissing, Kind: Validity, DefaultSeverity: Error, Scope: ScopeLayout, Summary: "an accepted revision's file has vanished"},
	{Code: FSChangedDuringRead, Kind: Validity, DefaultSeverity: Error, Scope: ScopeLayout, Summary: "a Journal file kept changing while it was read"},
	{Code: SyntaxEncoding, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "invalid UTF-8, a byte-order mark, or a forbidden control character"},
	{Code: SyntaxLineEnding, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "mixed LF and CRLF line endings, or a lone CR"},
	{Code: SyntaxUnknownDirective, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "an unknown or lowercase keyword"},
	{Code: SyntaxMisplacedDirective, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a directive out of order or in the wrong part of the file"},
	{Code: SyntaxDuplicateDirective, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a directive that may appear once appears again"},
	{Code: SyntaxMissingDirective, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a required directive is absent"},
	{Code: SyntaxArguments, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "wrong number or form of arguments, or a bad quoted string"},
	{Code: SyntaxEmpty, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "the text is empty or blank"},
	{Code: ValueCoordinate, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a coordinate breaks its grammar"},
	{Code: ValueTimestamp, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a timestamp breaks its grammar"},
	{Code: ValueDigest, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a digest breaks its grammar"},
	{Code: ValueVersion, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a version breaks its grammar"},
	{Code: ValueConstraint, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a version constraint breaks its grammar"},
	{Code: ValueLicense, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a license expression breaks its grammar"},
	{Code: ValueURI, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a URI breaks its grammar"},
	{Code: ValueName, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a content name breaks its grammar"},
	{Code: ValueVerdict, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a policy verdict breaks its grammar"},
	{Code: ValueFormat, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "JOURNAL_FORMAT is not 1"},
	{Code: SemanticDuplicateRelease, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a release version appears twice in one revision"},
	{Code: SemanticDuplicateContent, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a CONTENT name appears twice in one release"},
	{Code: SemanticDuplicateReference, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a coordinate is repeated in one DEPENDS, EXCLUDES or PREFERS list"},
	{Code: SemanticSelfReference, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a release depends on, excludes or prefers its own artifact"},
	{Code: SemanticReferenceConflict, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a coordinate is both depended on and excluded, or excluded and preferred"},
	{Code: SemanticPreferenceUnsatisfied, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a preferred version does not satisfy the dependency's constraint"},
	{Code: SemanticPublishedAfterVersion, Kind: Validity, DefaultSeverity: Error, Scope: ScopeText, Summary: "a release's PUBLISHED is later than JOURNAL_VERSION"},
	{Code: ChainDuplicateGenesis, Kind: Validity, DefaultSeverity: Error, Scope: ScopeChain, Summary: "a second genesis for a coordinate"},
	{Code: ChainMissingPredecessor, Kind: Validity, DefaultSeverity: Error, Scope: ScopeChain, Summary: "PREDECESSOR names no known revision"},
	{Code: ChainCrossArtifact, Kind: Validity, DefaultSeverity: Error, Scope: ScopeChain, Summary: "PREDECESSOR names a revision of another coordinate"},
	{Code: ChainFork, Kind: Validity, DefaultSeverity: Error, Scope: ScopeChain, Summary: "PREDECESSOR names a known revision that is not the head"},
	{Code: ChainNonIncreasingVersion, Kind: Validity, DefaultSeverity: Error, Scope: ScopeChain, Summary: "JOURNAL_VERSION is not later than the predecessor's"},
	{Code: ChainConflict, Kind: Validity, DefaultSeverity: Error, Scope: ScopeChain, Summary: "different text for an existing coordinate and version"},
	{Code: CheckBridgedLink, Kind: Engine, DefaultSeverity: Info, Summary: "a revision after a rejected one was checked against the last good head"},
	{Code: ConfigGateChanged, Kind: Config, DefaultSeverity: Warning, Summary: "a pull request changes a setting of .journal-lint.yaml that protects accepted revisions, which applies only after merge"},
	{Code: ConfigPluginsChanged, Kind: Config, DefaultSeverity: Warning, Summary: "a pull request changes the rule packs of .journal-lint.yaml, which run only after merge"},
	{Code: ConfigUnusedIgnore, Kind: Config, DefaultSeverity: Warning, Summary: "an ignore entry of .journal-lint.yaml matched no diagnostic"},
	{Code: DepsUnknownArtifact, Kind: ChainHead, DefaultSeverity: Info, Summary: "a DEPENDS or PREFERS names an artifact that is not in the tree"},
	{Code: DepsUnsatisfiable, Kind: ChainHead, DefaultSeverity: Warning, Summary: "no known release of a dependency satisfies the DEPENDS constraint"},
	{Code: HistoryArtifactChanged, Kind: CrossRevision, DefaultSeverity: Error, Summary: "the two revisions name different artifacts"},
	{Code: HistoryContentAdded, Kind: CrossRevision, DefaultSeverity: Info, Summary: "an existing release gets a new content file"},
	{Code: HistoryDescriptionChanged, Kind: CrossRevision, DefaultSeverity: Info, Summary: "a description or policy reason changes"},
	{Code: HistoryInfoChanged, Kind: CrossRevision, DefaultSeverity: Info, Summary: "the artifact's information URI changes"},
	{Code: HistoryNoSemanticChange, Kind: CrossRevision, DefaultSeverity: Info, Summary: "the texts differ without any change of meaning"},
	{Code: HistoryPolicyRelaxed, Kind: CrossRevision, DefaultSeverity: Info, Summary: "the effective policy of an existing release becomes less strict"},
	{Code: HistoryPolicyTightened, Kind: CrossRevision, DefaultSeverity: Warning, Summary: "the effective policy of an existing release becomes stricter"},
	{Code: HistoryReleaseAdded, Kind: CrossRevision, DefaultSeverity: Info, Summary: "a release is added"},
	{Code: HistoryReleaseBackdated, Kind: CrossRevision, DefaultSeverity: Warning, Summary: "a new release is published before the previous revision was written"},
	{Code: HistoryReleaseContentChanged, Kind: CrossRevision, DefaultSeverity: Error, Summary: "a content file of an existing release has another digest"},
	{Code: HistoryReleaseContentRemoved, Kind: CrossRevision, DefaultSeverity: Error, Summary: "a content file of an existing release is removed"},
	{Code: HistoryReleaseDependenciesChanged, Kind: CrossRevision, DefaultSeverity: Error, Summary: "the dependencies, exclusions or preferences of an existing release change"},
	{Code: HistoryReleaseLicenseChanged, Kind: CrossRevision, DefaultSeverity: Warning, Summary: "the license of an existing release changes (info when the expressions are equivalent)"},
	{Code: HistoryReleasePublishedChanged, Kind: CrossRevision, DefaultSeverity: Error, Summary: "the publication time of an existing release changes"},
	{Code: HistoryReleaseRemoved, Kind: CrossRevision, DefaultSeverity: Error, Summary: "a release of the previous revision is missing"},
	{Code: HistoryReleaseResurrected, Kind: CrossRevision, DefaultSeverity: Warning, Summary: "a release removed by an earlier revision reappears"},
	{Code: HistoryRevisionDeleted, Kind: Repository, DefaultSeverity: Error, Summary: "a Journal file that exists at the --against revision was deleted"},
	{Code: HistoryRevisionModified, Kind: Repository, DefaultSeverity: Error, Summary: "a Journal file that exists at the --against revision has other bytes now"},
	{Code: HistoryRevisionRenamed, Kind: Repository, DefaultSeverity: Error, Summary: "a Journal file that exists at the --against revision moved to another path"},
	{Code: LicenseDeprecatedID, Kind: Document, DefaultSeverity: Warning, Summary: "a release's LICENSE uses a deprecated SPDX identifier"},
	{Code: LicenseIDCase, Kind: Document, DefaultSeverity: Warning, Summary: "a release's LICENSE spells an SPDX identifier in another case than the list"},
	{Code: LicenseNoassertion, Kind: Document, DefaultSeverity: Warning, Summary: "a release's LICENSE is NOASSERTION"},
	{Code: PluginFailed, Kind: Engine, DefaultSeverity: Error, Summary: "a configured rule pack failed, so its rules did not run"},
	{Code: RepoEOLConversion, Kind: Repository, DefaultSeverity: Warning, Summary: "git may convert the line endings of Journal files"},
	{Code: RepoEOLConversionEnabled, Kind: Repository, DefaultSeverity: Error, Summary: "a change of .gitattributes makes git convert the line endings of Journal files"},
	{Code: RepoEOLConverted, Kind: Repository, DefaultSeverity: Error, Summary: "git converted the line endings of a staged Journal file"},
	{Code: SecurityBidiControl, Kind: Document, DefaultSeverity: Error, Summary: "the text contains a Unicode bidirectional control character"},
	{Code: StyleCRLF, Kind: Document, DefaultSeverity: Warning, Summary: "the file uses CRLF line endings"},
	{Code: StyleDraftNote, Kind: Document, DefaultSeverity: Warning, Summary: "the note journal-lint new puts above the comments it copied is still in the text"},
	{Code: StyleEmptyText, Kind: Document, DefaultSeverity: Warning, Summary: "a quoted text is the empty string \"\""},
	{Code: StyleMissingFinalNewline, Kind: Document, DefaultSeverity: Warning, Summary: "the last line has no line terminator"},
	{Code: StyleReleaseOrder, Kind: Document, DefaultSeverity: Warning, Summary: "release blocks are not in ascending version order"},
	{Code: StyleTrailingWhitespace, Kind: Document, DefaultSeverity: Warning, Summary: "a line ends in spaces or tabs"},
	{Code: TimeFutureVersion, Kind: Document, DefaultSeverity: Error, Options: futureVersionOptions, Summary: "JOURNAL_VERSION lies in the future"},
	{Code: TLogBadCheckpoint, Kind: Repository, DefaultSeverity: Error, Summary: "the log's checkpoint does not parse or is not signed by the configured key for the configured origin"},
	{Code: TLogBadTiles, Kind: Repository, DefaultSeverity: Error, Summary: "the log's tiles are missing or do not hash to the checkpoint's root"},
	{Code: TLogInconsistent, Kind: Repository, DefaultSeverity: Error, Summary: "the log's checkpoint does not extend the checkpoint at the --against revision"},
	{Code: TLogMissingFile, Kind: Repository, DefaultSeverity: Error, Summary: "a logged revision has no file with its exact bytes in the tree"},
	{Code: TLogModified, Kind: Repository, DefaultSeverity: Error, Summary: "a pull request changes journal-log/, which only the log's operator writes"},
	{Code: TLogOrder, Kind: Repository, DefaultSeverity: Error, Summary: "a logged revision comes before its predecessor in the log"},
	{Code: TLogStrayFile, Kind: Repository, DefaultSeverity: Warning, Summary: "a file in journal-log/ that is neither the checkpoint nor a tile of its size"},
	{Code: TLogUnlogged, Kind: Repository, DefaultSeverity: Warning, Summary: "an accepted revision is not in the log yet"},
}

// futureVersionOptions are the options of time/future-version.
var futureVersionOptions = []Option{{
	Name:    "skew",
	Kind:    DurationOption,
	Default: "24h",
	Summary: "how far past the current time a JOURNAL_VERSION may lie",
}}

// DraftNoteMarker starts the comment line that journal-lint new puts
// before the comments it copies into a draft from the head: they may
// describe the head ("# adds 1.2.0") rather than the draft. A revision
// that still holds it is reported (StyleDraftNote).
const DraftNoteMarker = "# journal-lint new:"
