package rules

import (
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// licenseNoassertion is license/noassertion: a release's LICENSE is the SPDX
// special value NOASSERTION (format spec §4, spdx-expression).
var licenseNoassertion = Rule{
	Code:            "license/noassertion",
	DefaultSeverity: diag.Warning,
	Summary:         "a release's LICENSE is NOASSERTION",
	Doc: `NOASSERTION is valid (format spec §4), but it says that the author makes no
claim about the license at all. Whoever consumes the release then cannot tell
whether they may use it, and license policy tools have nothing to check. Find
out the license and state it as an SPDX expression, or as a LicenseRef-… for
a license that is not on the SPDX list.

NONE is not reported: it is a definite statement (the release comes with no
license), which a policy can act on; whether unlicensed releases are
acceptable is a decision for that policy, not a defect of the Journal.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE NOASSERTION
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
` + "```" + `

Passing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT OR Apache-2.0
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
` + "```" + `
`,
	Check: checkNoassertion,
}

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
			Range:   arg.Range,
			Message: msg,
			Help:    "state the release's license as an SPDX expression (or LicenseRef-…) in the next revision",
		})
	}
}
