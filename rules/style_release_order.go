package rules

import (
	"fmt"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
)

// styleReleaseOrder is style/release-order: release blocks are not in
// ascending SemVer order. The format allows any order (spec §5, "order of
// releases").
var styleReleaseOrder = Rule{
	Code:            "style/release-order",
	DefaultSeverity: diag.Warning,
	Summary:         "release blocks are not in ascending version order",
	Doc: `Release blocks may come in any order (format spec §5), but a Journal grows by
appending: each revision repeats the previous worldview and adds the new
release. Keeping the blocks in ascending SemVer precedence makes the diff
between two revisions a plain append, and makes a missing or duplicated
release easy to spot.

The diagnostic points at the first RELEASE whose version is lower than the
release before it; its related location is the release it belongs after (the
highest lower version), or, when no release is lower, the one it belongs
before. Releases with an invalid version are ignored, and equal versions are
semantic/duplicate-release, not this warning.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260201T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.1.0
LICENSE Apache-2.0
CONTENT widget-1.1.0.jar sha256:4444444444444444444444444444444444444444444444444444444444444444

RELEASE 1.0.0
LICENSE Apache-2.0
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
` + "```" + `

Passing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260201T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE Apache-2.0
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333

RELEASE 1.1.0
LICENSE Apache-2.0
CONTENT widget-1.1.0.jar sha256:4444444444444444444444444444444444444444444444444444444444444444
` + "```" + `
`,
	Check: checkReleaseOrder,
}

func checkReleaseOrder(p *Pass) {
	var valid []*syntax.ReleaseBlock
	for _, rb := range p.Doc.Releases {
		if rb != nil && rb.VersionOK && rb.Release != nil {
			valid = append(valid, rb)
		}
	}
	for i := 1; i < len(valid); i++ {
		cur, prev := valid[i], valid[i-1]
		if cur.Version.Compare(prev.Version) >= 0 {
			continue
		}
		// The release cur belongs after: the highest version below it; else
		// the lowest version above it, which it belongs before.
		var after, before *syntax.ReleaseBlock
		for _, rb := range valid {
			switch c := rb.Version.Compare(cur.Version); {
			case c < 0 && (after == nil || rb.Version.Compare(after.Version) > 0):
				after = rb
			case c > 0 && (before == nil || rb.Version.Compare(before.Version) < 0):
				before = rb
			}
		}
		related := diag.Related{Path: p.Doc.Path}
		if after != nil {
			related.Range = after.Release.Range
			related.Message = fmt.Sprintf("release %s belongs after this one", cur.Version)
		} else {
			related.Range = before.Release.Range
			related.Message = fmt.Sprintf("release %s belongs before this one", cur.Version)
		}
		p.Report(diag.Diagnostic{
			Range:   cur.Release.Range,
			Message: fmt.Sprintf("release %s comes after release %s, which is higher", cur.Version, prev.Version),
			Related: []diag.Related{related},
			Help:    "order the RELEASE blocks by ascending version; " + acceptedNote,
		})
		return
	}
}
