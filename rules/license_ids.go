package rules

import (
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// licenseDeprecatedID is license/deprecated-id: a LICENSE uses an
// identifier the SPDX License List has deprecated.
var licenseDeprecatedID = Rule{
	Code:            "license/deprecated-id",
	DefaultSeverity: diag.Warning,
	Summary:         "a release's LICENSE uses a deprecated SPDX identifier",
	Doc: `Deprecated identifiers of the SPDX License List (GPL-3.0, GPL-2.0+,
LGPL-2.1, GPL-2.0-with-classpath-exception, …) stay valid (see "Values" in
docs/journal-format.md), but they are ambiguous: "GPL-3.0" does not say
whether later versions are allowed. The list names a replacement for each of
them, and the message says what to write instead (GPL-3.0-only,
GPL-2.0-or-later, GPL-2.0-only WITH Classpath-exception-2.0, …). The few
deprecated identifiers without a one-to-one replacement (Net-SNMP) are
reported without one.

A revision that is already accepted cannot change; write the replacement in
the next revision. journal-lint diff reports that change as an equivalent
license (info), not as a license change.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE GPL-3.0
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
` + "```" + `

Passing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE GPL-3.0-only
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
` + "```" + `
`,
	Check: checkDeprecatedID,
}

// licenseIDCase is license/id-case: a LICENSE spells an SPDX identifier in
// another case than the SPDX License List.
var licenseIDCase = Rule{
	Code:            "license/id-case",
	DefaultSeverity: diag.Warning,
	Summary:         "a release's LICENSE spells an SPDX identifier in another case than the list",
	Doc: `SPDX matches license identifiers case-insensitively, so "mit" is a valid
LICENSE (see "Values" in docs/journal-format.md). Tools that compare licenses
as text, and people searching a repository, do not: write each identifier
as the SPDX License List spells it. The message gives the whole expression
in the list's spelling. Operators (AND, OR, WITH) and the words NOASSERTION
and NONE must be upper case anyway: in another case they are value/license
errors, whose message also shows the spelling to write.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE mit OR apache-2.0
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
	Check: checkIDCase,
}

// releaseLicenses yields each valid LICENSE of doc with its argument and a
// subject for messages ("license of release 1.0.0").
func releaseLicenses(doc *syntax.Document, yield func(arg syntax.Arg, l vt.License, subject string)) {
	for rb, d := range releaseDirectives(doc, "LICENSE") {
		arg, ok := bareArg(d, 0)
		if !ok {
			continue
		}
		l, err := vt.ParseLicense(arg.Text)
		if err != nil {
			continue // value/license reports it
		}
		subject := "license"
		if rb.VersionOK {
			subject = fmt.Sprintf("license of release %s", rb.Version)
		}
		yield(arg, l, subject)
	}
}

func checkDeprecatedID(p *Pass) {
	releaseLicenses(p.Doc, func(arg syntax.Arg, l vt.License, subject string) {
		ids := l.DeprecatedIDs()
		if len(ids) == 0 {
			return
		}
		word := "identifier"
		if len(ids) > 1 {
			word = "identifiers"
		}
		msg := fmt.Sprintf("%s uses the deprecated SPDX %s %s", subject, word, strings.Join(ids, ", "))
		help := "this deprecated identifier has no one-to-one replacement on the SPDX License List; state the license another way in the next revision"
		var fixes []diag.Fix
		if r, ok := l.WithoutDeprecated(); ok {
			msg += fmt.Sprintf("; write %q", r)
			help = "write the replacement in the next revision (an accepted revision cannot change)"
			fixes = licenseFix(arg, r)
		}
		p.Report(diag.Diagnostic{Range: arg.Range, Message: msg, Help: help, Fixes: fixes})
	})
}

func checkIDCase(p *Pass) {
	releaseLicenses(p.Doc, func(arg syntax.Arg, l vt.License, subject string) {
		if c := l.CanonicalCase(); c != l {
			p.Report(diag.Diagnostic{
				Range:   arg.Range,
				Message: fmt.Sprintf("%s spells SPDX identifiers in another case than the SPDX License List; write %q", subject, c),
				Help:    "write identifiers as the SPDX License List spells them in the next revision (an accepted revision cannot change)",
				Fixes:   licenseFix(arg, c),
			})
		}
	})
}

// licenseFix is the fix that writes the license expression l in place of
// the LICENSE argument arg (for a revision that is not yet accepted).
func licenseFix(arg syntax.Arg, l vt.License) []diag.Fix {
	return []diag.Fix{{Title: "Write " + l.String(), Edits: []diag.Edit{{Range: arg.Range, NewText: l.String()}}}}
}
