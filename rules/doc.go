// Package rules is the catalogue of every diagnostic code journal-lint
// reports: for each code its [Kind], default [Severity], one-line summary,
// Markdown documentation and option specs. It is pure data with no
// dependency outside the standard library, so it is the lowest package of
// the module: internal/diag takes its [Severity] from here, and every part
// that produces or treats a code refers to the constants declared here.
//
// # One home for each code
//
// A code is declared once, as a constant in registry.go, with one row in the
// registry table beside it; its documentation is the embedded file
// docs/<category>/<name>.md of this package (the text "journal-lint rules
// CODE" prints and docs/rules.md is generated from, see [Markdown]). Tests
// check that every row has a doc file and every doc file a row, and that
// each doc has a failing and a passing example.
//
// # Kinds drive the engine
//
// The [Kind] of a code says which part of journal-lint reports it, and the
// check engine reads it instead of looking at code prefixes:
//
//   - [Validity]: the loader, parser and chain ("Diagnostic codes" in docs/journal-format.md). Its
//     [Scope] says what it rejects: the root ([ScopeRoot], the sentinel
//     journalerr.ErrInvalidRoot), a file's place ([ScopeLayout]), the text
//     itself ([ScopeText], which journal-lint diff cannot compare) or the
//     chain link ([ScopeChain], journalerr.ErrChain).
//   - [Document] and [ChainHead]: lint rules with a check, run on every
//     parsed document or on each chain's head only.
//   - [CrossRevision]: history/<kind>, one per kind of change of the
//     semantic diff engine.
//   - [Repository], [Config] and [Engine]: reported by the git gate, the
//     configuration and the check engine; `check --new-only` keeps the first
//     two and may drop the last, like any lint finding.
//
// A code the registry does not list is either in a validity category
// ([IsValidityCategory]: configuration globs such as "chain/*") or a rule
// pack's "<pack>/<rule>" code, a [Document] finding ([KindOf]).
//
// # Why the catalogue is separate from the checks
//
// This package names only its own and standard types, so another module can
// import it to list, document or configure the rules. The checks themselves
// work on the parser's document and produce the engine's diagnostics, both
// internal types; they live in internal/lint (with their test harness,
// internal/lint/rulestest) and join each check to its entry here by code.
// Exposing them would have meant a second, public document and diagnostic
// model kept in step with the internal ones; rule packs, the supported way
// to add checks, already have that public model in plugins/sdk.
//
// The registry lives here, not in internal/diag, so that it needs no public
// copy: [Severity] and [Kind] are declared once, in this package, and
// internal/diag aliases Severity for its diagnostics.
//
// Severity overrides are not applied here: configuration rewrites
// severities by code after the rules ran.
//
// # Example notation
//
// The examples in rule docs are fenced code blocks introduced by a line
// "Failing example:" or "Passing example:". A block tagged journal is the
// exact text of one Journal file, except for a few visible stand-ins for
// bytes that would otherwise be invisible (see [DecodeExample]):
//
//	␍            a carriage return (U+000D); "␍" at the end of a line makes it CRLF
//	␠            a space (U+0020), used for trailing blanks
//	␉            a tab (U+0009)
//	⟦U+202E⟧     the code point U+202E (any code point, in hex)
//	␄            at the end of the last line: the file ends here, without a terminator
//
// A block tagged text describes a directory layout or several files and is
// not executed. The tests of internal/lint run every journal example through
// the parser and the rule, so the docs cannot drift from the behaviour.
package rules
