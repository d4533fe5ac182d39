package rules

import (
	"github.com/r35157/journal-lint/internal/diag"
)

// styleMissingFinalNewline is style/missing-final-newline: the last line has
// no terminator. The format allows it (spec §2).
var styleMissingFinalNewline = Rule{
	Code:            "style/missing-final-newline",
	DefaultSeverity: diag.Warning,
	Summary:         "the last line has no line terminator",
	Doc: `The last line of a Journal may lack a terminator (format spec §2), but "A" and
"A\n" are different texts with different digests. Many editors add the final
newline on save, which quietly turns an accepted revision into a conflicting
one; and concatenating or diffing files without it misbehaves. End every file
with a line terminator.

The range is the empty position at the end of the file. An empty file is
reported as syntax/empty, not here.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"␄
` + "```" + `

Passing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
` + "```" + `
`,
	Check: checkMissingFinalNewline,
}

func checkMissingFinalNewline(p *Pass) {
	src := p.Doc.Src
	if len(src) == 0 || src[len(src)-1] == '\n' {
		return
	}
	p.Report(diag.Diagnostic{
		Range:   p.Range(len(src), len(src)),
		Message: "missing line terminator at end of file",
		Help:    "end the last line with a newline; " + acceptedNote,
	})
}
