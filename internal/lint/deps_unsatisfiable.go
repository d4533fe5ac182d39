package lint

import (
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// maxListedVersions bounds the versions named in a help text.
const maxListedVersions = 8

// checkUnsatisfiable is the check of deps/unsatisfiable: a DEPENDS constraint matches no
// release known in the head revision of the depended-on artifact (judged by
// unsatisfiable).
//
// checkUnsatisfiable costs O(D × I log R) for D DEPENDS directives with I
// intervals each against heads of R releases: the releases of each
// coordinate are fetched once and searched, never scanned per interval.
func checkUnsatisfiable(p *Pass) {
	if p.Tree == nil {
		return
	}
	own := self(p.Doc)
	fetched := map[vt.Coordinate][]vt.Version{} // ascending
	releases := func(c vt.Coordinate) []vt.Version {
		known, ok := fetched[c]
		if !ok {
			known = p.Tree.Releases(c)
			fetched[c] = known
		}
		return known
	}
	for ref, args := range references(p.Doc, "DEPENDS") {
		known, bad := unsatisfiable(ref, own, p.Tree, releases)
		if !bad {
			continue
		}
		c := ref.coordinate
		p.Report(diag.Diagnostic{
			Range:   args[1].Range(),
			Message: fmt.Sprintf("no known release of %s satisfies %s", c, ref.constraint),
			Help:    "fix the constraint, or record the missing release in the Journal of " + c.String() + "; " + knownVersions(known),
		})
	}
}

// knownVersions describes the versions a head knows, for a help text: the
// highest ones when there are many.
func knownVersions(vs []vt.Version) string {
	if len(vs) == 0 {
		return "its head knows no release"
	}
	parts := make([]string, 0, maxListedVersions)
	prefix := "known releases: "
	if len(vs) > maxListedVersions {
		prefix = fmt.Sprintf("highest %d of %d known releases: ", maxListedVersions, len(vs))
		vs = vs[len(vs)-maxListedVersions:]
	}
	for _, v := range vs {
		parts = append(parts, v.String())
	}
	return prefix + strings.Join(parts, ", ")
}
