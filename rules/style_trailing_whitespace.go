package rules

import (
	"bytes"

	"github.com/r35157/journal-lint/internal/diag"
)

// styleTrailingWhitespace is style/trailing-whitespace: a line ends in
// spaces or tabs. The format allows them (spec §2: "a style rule may warn").
var styleTrailingWhitespace = Rule{
	Code:            "style/trailing-whitespace",
	DefaultSeverity: diag.Warning,
	Summary:         "a line ends in spaces or tabs",
	Doc: `Trailing spaces and tabs are allowed after a directive (format spec §2) and
mean nothing, but they are part of the bytes the revision digest covers.
Editors that strip them on save turn an untouched revision into a different
one, which the chain then rejects as a conflict. Invisible characters also
hide what a line really says in reviews and diffs.

Every line that ends in spaces or tabs is reported, comments and blank lines
included; the range covers exactly the trailing blanks.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1␠␠
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z␉
DESCRIPTION "A tiny UI toolkit"
` + "```" + `

Passing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
` + "```" + `
`,
	Check: checkTrailingWhitespace,
}

func checkTrailingWhitespace(p *Pass) {
	src := p.Doc.Src
	for start := 0; start < len(src); {
		end := len(src) // end of the line's content, terminator excluded
		next := len(src)
		if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
			end, next = start+i, start+i+1
			if end > start && src[end-1] == '\r' {
				end--
			}
		}
		blank := end
		for blank > start && (src[blank-1] == ' ' || src[blank-1] == '\t') {
			blank--
		}
		if blank < end {
			p.Report(diag.Diagnostic{
				Range:   p.Range(blank, end),
				Message: "trailing whitespace",
				Help:    "delete the spaces and tabs at the end of the line; " + acceptedNote,
			})
		}
		start = next
	}
}
