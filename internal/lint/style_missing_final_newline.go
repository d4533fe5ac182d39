package lint

import (
	"github.com/r35157/journal-lint/internal/diag"
)

// checkMissingFinalNewline is the check of style/missing-final-newline: the last line has
// no terminator. The format allows it ("Lines and encoding" in docs/journal-format.md).
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
