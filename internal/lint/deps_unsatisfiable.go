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
// release known in the head revision of the depended-on artifact.
//
// checkUnsatisfiable costs O(D × I log R) for D DEPENDS directives with I
// intervals each against heads of R releases: the releases of each
// coordinate are fetched once and searched, never scanned per interval.
func checkUnsatisfiable(p *Pass) {
	if p.Tree == nil {
		return
	}
	releases := map[string][]vt.Version{} // by coordinate, ascending
	for _, d := range releaseDirectives(p.Doc, "DEPENDS") {
		carg, ok1 := bareArg(d, 0)
		karg, ok2 := bareArg(d, 1)
		if !ok1 || !ok2 {
			continue
		}
		c, err := vt.ParseCoordinate(carg.Text)
		if err != nil || isSelf(p, c) || !p.Tree.Has(c) {
			continue
		}
		k, err := vt.ParseConstraint(karg.Text)
		if err != nil {
			continue
		}
		known, ok := releases[c.String()]
		if !ok {
			known = p.Tree.Releases(c)
			releases[c.String()] = known
		}
		if k.ContainsAny(known) {
			continue
		}
		p.Report(diag.Diagnostic{
			Range:   karg.Range,
			Message: fmt.Sprintf("no known release of %s satisfies %s", c, karg.Text),
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
