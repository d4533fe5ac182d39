package rules

import (
	"fmt"

	"github.com/r35157/journal-lint/internal/diag"
)

// styleEmptyText is style/empty-text: a quoted text argument is the empty
// string "" (format spec §2 allows it; §3 makes every such text optional).
var styleEmptyText = Rule{
	Code:            "style/empty-text",
	DefaultSeverity: diag.Warning,
	Summary:         `a quoted text is the empty string ""`,
	Doc: `The format allows an empty quoted string wherever a quoted text goes: the
header and release DESCRIPTION, a POLICY reason, and the description of a
DEPENDS, EXCLUDES or PREFERS line. It says nothing, and readers of the model
(the Journal service, diffs, rule packs) see it exactly as a text that was left
out: an empty release DESCRIPTION is "no description", an empty POLICY reason
is "no reason". Write the text, or leave the argument (or the optional
directive) out. The range is the quoted string.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE Apache-2.0
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
POLICY deprecated ""
` + "```" + `

Passing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE Apache-2.0
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
POLICY deprecated "superseded by 1.1.0"
` + "```" + `
`,
	Check: checkEmptyText,
}

func checkEmptyText(p *Pass) {
	for _, d := range p.Doc.Directives {
		if d == nil || len(d.Args) == 0 {
			continue
		}
		last := d.Args[len(d.Args)-1]
		if !last.Quoted || last.Text != "" || last.Raw != `""` {
			continue
		}
		p.Report(diag.Diagnostic{
			Range:   last.Range,
			Message: fmt.Sprintf(`empty quoted text in %s: readers cannot tell it from no text`, d.Keyword),
			Help:    "write the text, or leave it out (in the next revision, if this one is accepted)",
		})
	}
}
