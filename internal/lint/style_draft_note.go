package lint

import (
	"bytes"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

// checkDraftNote is the check of style/draft-note: a comment line that
// starts, after its indentation, with the note journal-lint new puts
// above the comments it copied from the predecessor
// (rules.DraftNoteMarker). The note asks the author to update or delete
// those comments; committed, it stays in an immutable revision for good.
func checkDraftNote(p *Pass) {
	src := p.Doc.Src
	marker := []byte(rules.DraftNoteMarker)
	for start, end := range lines(src) {
		if rest := bytes.TrimLeft(src[start:end], " \t"); bytes.HasPrefix(rest, marker) {
			p.Report(diag.Diagnostic{
				Range:   p.Range(end-len(rest), end),
				Message: "the note of journal-lint new about comments copied from the predecessor is still here",
				Help:    "update or delete the comments below it, which may describe the predecessor, then delete this line; " + acceptedNote,
			})
		}
	}
}
