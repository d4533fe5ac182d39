package lint

import (
	"fmt"

	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// checkUnknownArtifact is the check of deps/unknown-artifact: a DEPENDS or PREFERS names a
// coordinate that has no Journal in the tree.
func checkUnknownArtifact(p *Pass) {
	if p.Tree == nil {
		return
	}
	for _, keyword := range []string{"DEPENDS", "PREFERS"} {
		for _, d := range releaseDirectives(p.Doc, keyword) {
			arg, ok := bareArg(d, 0)
			if !ok {
				continue
			}
			c, err := vt.ParseCoordinate(arg.Text)
			if err != nil || isSelf(p, c) || p.Tree.Has(c) {
				continue
			}
			p.Report(diag.Diagnostic{
				Range:   arg.Range,
				Message: fmt.Sprintf("%s names %s, which has no Journal in the tree", keyword, c),
				Help:    "check the coordinate for a typo, or add the artifact's Journal to the tree",
			})
		}
	}
}

// isSelf reports whether c is the document's own ARTIFACT.
func isSelf(p *Pass, c vt.Coordinate) bool {
	return p.Doc.CoordinateOK && p.Doc.Coordinate.Compare(c) == 0
}
