// Package lint runs the lint rules: the rules of kind rules.Document and
// rules.ChainHead, each a [Rule] that joins its catalogue entry (package
// rules: code, default severity, options, doc) to the Check that produces
// it. Lint rules never change what is valid.
//
// [Run] calls each enabled rule's Check on each parsed document with a
// [Pass], which gives the document, a read-only [Tree] view of the whole
// loaded tree, the current time and the rule's options. Which documents a
// rule sees (every document, or chain heads only) is the caller's choice,
// made from the rule's kind (internal/check does it).
//
// Severity overrides are not applied here: [Run] reports each diagnostic
// with its rule's default severity, and the configuration layer rewrites
// severities by code afterwards.
//
// Package rulestest checks one rule against Journal files carrying their
// expected diagnostics in comments; the doc examples of every rule are run
// by this package's tests.
package lint
