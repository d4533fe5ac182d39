package rules

import (
	"fmt"
	"strings"
)

// Anchor returns the Markdown heading anchor of code in the document
// [Markdown] writes, as GitHub derives it from the heading: the code without
// its "/" (and any "."), e.g. "stylecrlf" for style/crlf.
func Anchor(code string) string {
	return strings.NewReplacer("/", "", ".", "").Replace(code)
}

// Markdown renders rules as the reference document docs/rules.md: an
// introduction with the example notation, an index table, then one section
// per rule (heading = code) with its kind, default severity, summary, doc
// and options. The output depends only on rules, so it can be checked in.
func Markdown(rules []Rule) []byte {
	var b strings.Builder
	b.WriteString(`# Rules

<!-- Generated from the registry in package rules: run "go test ./rules -update" after changing a rule. Do not edit. -->

Every diagnostic journal-lint reports carries one of these stable codes
("category/name"). Codes are never reused for another meaning.

- **Validity rules** (categories fs, syntax, value, semantic, chain) are the
  [Diagnostic codes](journal-format.md#diagnostic-codes) of the format, three
  of them added by this project. The loader, parser and chain report them; a
  tree with one of them does not load, so they are always errors and cannot
  be turned off.
- **Lint rules** (every other category) are checks on top of validity. They
  never change what is valid; configuration can change their severity,
  turn them off or set their options.
- **History rules** (kind "history" in the index) compare consecutive
  revisions of a chain with the semantic diff engine that also drives
  ` + "`journal-lint diff`" + ` (see [docs/diff.md](diff.md)). They are
  reported on the newer revision; their examples show the relevant lines of
  a previous and a current revision. Info-level history rules are off in
  check unless configured.

Each rule shows a failing and a passing example. A journal example is the
exact text of one file, except for these stand-ins for invisible bytes:
"␍" is a carriage return (at the end of a line it makes the line end CRLF),
"␠" a space, "␉" a tab, "⟦U+202E⟧" the code point U+202E, and "␄" at the end
of the last line means the file ends there without a line terminator. A text
example describes files or a layout and is not literal.

## Index

| code | kind | default severity | summary |
|---|---|---|---|
`)
	for _, r := range rules {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", r.Code, Anchor(r.Code), kind(r), r.DefaultSeverity, r.Summary)
	}
	for _, r := range rules {
		fmt.Fprintf(&b, "\n## %s\n\n%s rule, default severity **%s**: %s.\n\n%s", r.Code, capitalized(kind(r)), r.DefaultSeverity, r.Summary, strings.TrimSpace(r.LinkedDoc(""))+"\n")
		if len(r.Options) > 0 {
			b.WriteString("\nOptions:\n\n| option | kind | default | meaning |\n|---|---|---|---|\n")
			for _, o := range r.Options {
				fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s |\n", o.Name, o.Kind, o.Default, o.Summary)
			}
		}
	}
	return []byte(b.String())
}

// kind names r's group in the reference: "validity", "history" for the
// cross-revision rules, and "lint" for every other kind.
func kind(r Rule) string {
	switch r.Kind {
	case Validity:
		return "validity"
	case CrossRevision:
		return "history"
	}
	return "lint"
}

func capitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
