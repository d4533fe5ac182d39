// Package rules is the registry of every diagnostic code journal-lint can
// report, with the lint rules that produce the non-validity ones.
//
// # Rules are data
//
// A [Rule] is a plain struct value: a stable "category/name" code, a default
// severity, a one-line summary, a Markdown doc with a failing and a passing
// example, and, for lint rules, a Check function and the spec of its
// options. [All] lists every rule in a stable order, [Lookup] finds one by
// code and [Validate] checks a set of rules (unique well-formed codes, docs
// with both examples, no severity left invalid).
//
// # Validity rules and lint rules
//
// The codes of the format spec §8 (categories fs, syntax, value, semantic and
// chain), plus fs/revision-missing and syntax/empty that this project adds,
// are validity rules: the loader, the parser and the chain produce them, and
// a text with one of them is rejected by the service. They appear here only
// to be documented and listed; they have no Check ([Rule.Validity] is true).
//
// Every other rule is a lint rule: [Run] calls its Check on each parsed
// document with a [Pass], which gives the document, a read-only [Tree] view
// of the whole loaded tree, the current time and the rule's [Options]. Lint
// rules never change what is valid.
//
// Severity overrides are not applied here: [Run] reports each diagnostic
// with its rule's default severity, and the configuration layer rewrites
// severities by code afterwards.
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
// not executed. The tests of this package run every journal example through
// the parser and the rule, so the docs cannot drift from the behaviour.
package rules
