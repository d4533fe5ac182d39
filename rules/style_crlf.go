package rules

import (
	"bytes"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
)

// styleCRLF is style/crlf: the file uses CRLF line endings. The format
// allows them (spec §2), but LF is the convention of the tree.
var styleCRLF = Rule{
	Code:            "style/crlf",
	DefaultSeverity: diag.Warning,
	Summary:         "the file uses CRLF line endings",
	Doc: `The format allows a file to end its lines with either LF or CRLF, as long as
it uses one of them throughout (format spec §2). Because the revision digest
is taken over the exact bytes, the same worldview written with CRLF has a
different digest than with LF, and tools such as Git's line-ending conversion
can silently rewrite a file and break the hash chain. Keeping every Journal on
LF avoids both surprises. A file that mixes the two is an error
(syntax/line-ending), not this warning.

The diagnostic points at the first CRLF terminator.

An accepted revision cannot change (its digest would), so write the next
revision with LF line endings instead.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1␍
ARTIFACT com.example.widget␍
JOURNAL_VERSION 20260110T080000Z␍
DESCRIPTION "A tiny UI toolkit"␍
` + "```" + `

Passing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
` + "```" + `
`,
	Check: checkCRLF,
}

func checkCRLF(p *Pass) {
	if p.Doc.LineEnding != syntax.CRLF {
		return
	}
	i := bytes.Index(p.Doc.Src, []byte("\r\n"))
	if i < 0 {
		return
	}
	p.Report(diag.Diagnostic{
		Range:   p.Range(i, i+2),
		Message: "file uses CRLF line endings",
		Help:    "convert the file to LF line endings; " + acceptedNote,
	})
}
