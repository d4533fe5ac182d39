package lint

import (
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// checkNoassertion is the check of license/noassertion: a release's LICENSE is the SPDX
// special value NOASSERTION (spdx-expression in
// "Values" in docs/journal-format.md).
func checkNoassertion(p *Pass) {
	for rb, d := range releaseDirectives(p.Doc, "LICENSE") {
		arg, ok := bareArg(d, 0)
		if !ok || strings.TrimSpace(arg.Text) != vt.NoAssertion {
			continue
		}
		msg := "license is NOASSERTION"
		if rb.VersionOK {
			msg = fmt.Sprintf("license of release %s is NOASSERTION", rb.Version)
		}
		p.Report(diag.Diagnostic{
			Range:   arg.Range(),
			Message: msg,
			Help:    "state the release's license as an SPDX expression (or LicenseRef-…); " + acceptedNote,
		})
	}
}
