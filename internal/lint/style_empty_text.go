package lint

import (
	"fmt"

	"github.com/r35157/journal-lint/internal/diag"
)

// checkEmptyText is the check of style/empty-text: a quoted text argument is the empty
// string "" ("Directives and arguments" in docs/journal-format.md allows it).
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
			Range:   last.Range(),
			Message: fmt.Sprintf(`empty quoted text in %s: readers cannot tell it from no text`, d.Keyword),
			Help:    "write the text, or leave it out; " + acceptedNote,
		})
	}
}
