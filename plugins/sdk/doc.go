// Package sdk is the software development kit for journal-lint rule packs:
// separate executables that add a team's own rules (allowed licenses,
// naming, internal policies) to `journal-lint check`.
//
// A pack author describes the pack as a [Pack] value, with one [Rule] per
// diagnostic it can report, and makes main a single call:
//
//	func main() { sdk.Serve(pack) }
//
// journal-lint starts the executable with hashicorp/go-plugin, talks to it
// over gRPC and hands it every Journal file of the tree as a [Document]: the
// exact text, the digest, every directive with its positions, the parsed
// journal/model Revision when the text is valid, and the document's place in
// its artifact's hash chain, each only when the pack needs it ([Needs]).
// The directives and the model are decoded the first time a rule asks for
// them. Everything about the transport is hidden here: the handshake and
// its protocol version, the encoding (package
// plugins/proto/rulepack/v1/wire, the one home of the protocol), message
// size limits (a 16 MiB Journal passes), logging (never to stdout, which
// go-plugin owns) and the lifeline that makes the pack exit when
// journal-lint does. The SDK is built on public packages only
// (journal/model, journal/valuetypes and wire), so a pack links nothing of
// journal-lint's command.
//
// # Rules and diagnostics
//
// A rule's Check is called once per document with a [Pass] and reports
// through [Pass.Report] or [Pass.Reportf]. journal-lint shows the findings
// under the code "<pack>/<rule>" and applies the configuration's severity
// overrides and ignore entries to them exactly as to built-in rules. Check
// may run concurrently for different documents, so it must not change
// shared state without locking.
//
// A pack's configuration is the `config:` map of its entry in
// .journal-lint.yaml; [Pack.Configure] turns it into the value rules see as
// [Pass.Settings], once per configuration. An error from Configure, a panic
// in a rule or a malformed diagnostic makes journal-lint report the whole
// pack as failed (plugin/failed) instead of showing partial results.
//
// # Positions
//
// Positions are journal-lint's: byte offsets are 0-based and the source of
// truth, lines and columns 1-based, columns counted in Unicode code points.
// Use the ranges of a [Directive] and its [Arg]s, or [Document.Range] to
// build one from byte offsets.
//
// # Purity
//
// [Pack.Pure] declares that the findings on a document depend only on that
// document, the chain context the pack asked for and the pack's
// configuration (no files, network or clock), so that journal-lint may
// reuse them for the same inputs.
//
// # Testing
//
// Package sdk/sdktest runs a pack in-process over the real protocol, reads
// its test files with journal-lint's own parser, and checks "# want"
// comments in Journal files the way the built-in rules are tested.
// docs/plugins.md walks through writing, testing, pinning and configuring a
// pack.
package sdk
