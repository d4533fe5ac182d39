package lint

import (
	"fmt"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
)

// checkReleaseOrder is the check of style/release-order: release blocks are not in
// ascending SemVer order. The format allows any order (the end of "Semantic
// rules" in docs/journal-format.md: reordering releases is a different text).
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
			related.Range = after.Release.Range()
			related.Message = fmt.Sprintf("release %s belongs after this one", cur.Version)
		} else {
			related.Range = before.Release.Range()
			related.Message = fmt.Sprintf("release %s belongs before this one", cur.Version)
		}
		p.Report(diag.Diagnostic{
			Range:   cur.Release.Range(),
			Message: fmt.Sprintf("release %s comes after release %s, which is higher", cur.Version, prev.Version),
			Related: []diag.Related{related},
			Help:    "order the RELEASE blocks by ascending version; " + acceptedNote,
		})
		return
	}
}
