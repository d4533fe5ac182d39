package lint

import (
	"fmt"

	"github.com/r35157/journal-lint/internal/diag"
)

// checkUnknownArtifact is the check of deps/unknown-artifact: a DEPENDS or PREFERS names a
// coordinate that has no Journal in the tree (judged by unknownArtifact).
func checkUnknownArtifact(p *Pass) {
	if p.Tree == nil {
		return
	}
	own := self(p.Doc)
	for _, keyword := range []string{"DEPENDS", "PREFERS"} {
		for ref, args := range references(p.Doc, keyword) {
			if !unknownArtifact(ref, own, p.Tree) {
				continue
			}
			p.Report(diag.Diagnostic{
				Range:   args[0].Range(),
				Message: fmt.Sprintf("%s names %s, which has no Journal in the tree", keyword, ref.coordinate),
				Help:    "check the coordinate for a typo, or add the artifact's Journal to the tree",
			})
		}
	}
}
