package lint

import (
	"bytes"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
)

// checkCRLF is the check of style/crlf: the file uses CRLF line endings. The
// format allows them ("Lines and encoding" in docs/journal-format.md), but LF
// is the convention of the tree.
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
		Help:    "convert the whole file to LF line endings (a mix of both is a syntax/line-ending error); " + acceptedNote + ": a draft from journal-lint new keeps the head's CRLF, so convert the draft whole",
	})
}
