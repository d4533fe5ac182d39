package lint

import (
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// releaseLicenses yields each valid LICENSE of doc with its argument and a
// subject for messages ("license of release 1.0.0"), made only when a
// message needs it.
func releaseLicenses(doc *syntax.Document, yield func(arg syntax.Arg, l vt.License, subject func() string)) {
	for rb, d := range releaseDirectives(doc, "LICENSE") {
		arg, ok := bareArg(d, 0)
		if !ok {
			continue
		}
		l, err := vt.ParseLicense(arg.Text)
		if err != nil {
			continue // value/license reports it
		}
		yield(arg, l, func() string {
			if rb.VersionOK {
				return fmt.Sprintf("license of release %s", rb.Version)
			}
			return "license"
		})
	}
}

// checkDeprecatedID is the check of license/deprecated-id: a LICENSE uses an
// identifier the SPDX License List has deprecated.
func checkDeprecatedID(p *Pass) {
	releaseLicenses(p.Doc, func(arg syntax.Arg, l vt.License, subject func() string) {
		ids := l.DeprecatedIDs()
		if len(ids) == 0 {
			return
		}
		word := "identifier"
		if len(ids) > 1 {
			word = "identifiers"
		}
		msg := fmt.Sprintf("%s uses the deprecated SPDX %s %s", subject(), word, strings.Join(ids, ", "))
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

// checkIDCase is the check of license/id-case: a LICENSE spells an SPDX identifier in
// another case than the SPDX License List.
func checkIDCase(p *Pass) {
	releaseLicenses(p.Doc, func(arg syntax.Arg, l vt.License, subject func() string) {
		if c := l.CanonicalCase(); c != l {
			p.Report(diag.Diagnostic{
				Range:   arg.Range,
				Message: fmt.Sprintf("%s spells SPDX identifiers in another case than the SPDX License List; write %q", subject(), c),
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
