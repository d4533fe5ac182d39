package rules

import (
	"fmt"

	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// depsUnknownArtifact is deps/unknown-artifact: a DEPENDS or PREFERS names a
// coordinate that has no Journal in the tree.
var depsUnknownArtifact = Rule{
	Code:            "deps/unknown-artifact",
	DefaultSeverity: diag.Info,
	Summary:         "a DEPENDS or PREFERS names an artifact that is not in the tree",
	Doc: `A release may depend on any artifact, including one that is described
elsewhere, so an unknown coordinate is not an error. It is still worth a look:
it is often a typo (` + "`org.example.cor`" + `), or an artifact whose Journal was never
added, and a resolver working from this tree cannot check the constraint or
the preference.

DEPENDS and PREFERS are checked, because both ask a resolver for a version of
the artifact. EXCLUDES is not: excluding an artifact that is absent is
harmless, and exclusions often name artifacts that come in from outside the
tree. A reference to the Journal's own ARTIFACT is semantic/self-reference,
not this rule. The range is the coordinate.

The examples assume a tree that holds ` + "`org.example.core`" + `.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE Apache-2.0
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
DEPENDS org.example.cor [1.2.0,2.0.0)
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
DEPENDS org.example.core [1.2.0,2.0.0)
` + "```" + `
`,
	Check: checkUnknownArtifact,
}

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
