// Package diff is the semantic diff engine of journal-lint (issue 4): it
// compares two revisions of one artifact as models, never as lines, and
// reports what the newer worldview changes. Both `journal-lint diff` and the
// history/… diagnostics of `journal-lint check` are driven by it.
//
// # Matching
//
// Releases are matched by version, CONTENT entries by name, and DEPENDS,
// EXCLUDES and PREFERS entries by coordinate. Order, comments, spacing and
// line endings never matter; JOURNAL_VERSION and PREDECESSOR are chain
// metadata and are not compared.
//
// # Changes
//
// Each [Change] has a stable [Kind] (see [Kinds] for the list with default
// levels and [Dimension]s), a level (diag.Error, diag.Warning or diag.Info),
// the old and the new [Value] with their ranges in the two files, and a
// stable [Change.Fingerprint]. [Change.Diagnostic] turns a change into the
// one diagnostic type of journal-lint: the range in the new file, with the
// old file's range as a related location.
//
// The effective policy of a release is compared per release when the
// release states its own POLICY in at least one of the revisions; a change
// of the header's default POLICY is reported once, for the artifact, and
// covers every release that inherits it in both revisions.
//
// # Validity
//
// Validity is not a diff finding. [Compare] refuses a document that is not a
// valid Journal with an [*InvalidError]; [Parse] parses a text and returns
// the same error with the parser's diagnostics. Chain problems (fork,
// conflict, …) are left to `journal-lint check`.
//
// # Chains
//
// release-resurrected needs to know what earlier revisions held: pass them
// in [Options.History], or use [CompareChain], which diffs every consecutive
// pair of a chain and passes the history along.
//
// # Output
//
// The engine knows no output format: package diffrender (beside the
// diagnostics renderers in package render) writes results as text, JSON,
// Markdown or GitHub Actions workflow commands. [WordDiff] gives it the
// word-level differences of changed quoted text.
package diff
