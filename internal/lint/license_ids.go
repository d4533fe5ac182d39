package lint

import (
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// releaseLicenses calls yield for each LICENSE of doc that holds a valid
// SPDX expression and that judge reports (its second result), with its
// argument, judge's verdict and a subject for messages ("license of release
// 1.0.0"), made only when a message needs it. judge runs once per distinct
// text: a revision usually repeats one license in every release, and
// parsing the expression again for each was most of these rules' cost.
func releaseLicenses[V any](doc *syntax.Document, judge func(vt.License) (V, bool), yield func(arg syntax.Arg, v V, subject func() string)) {
	type verdict struct {
		v      V
		report bool
	}
	verdicts := map[string]verdict{}
	for rb, d := range releaseDirectives(doc, "LICENSE") {
		arg, ok := bareArg(d, 0)
		if !ok {
			continue
		}
		vd, known := verdicts[arg.Text]
		if !known {
			if l, err := vt.ParseLicense(arg.Text); err == nil { // else value/license reports it
				vd.v, vd.report = judge(l)
			}
			verdicts[arg.Text] = vd
		}
		if !vd.report {
			continue
		}
		yield(arg, vd.v, func() string {
			if rb.VersionOK {
				return fmt.Sprintf("license of release %s", rb.Version)
			}
			return "license"
		})
	}
}

// deprecation is what license/deprecated-id finds in one license
// expression.
type deprecation struct {
	ids         []string   // the deprecated identifiers, in order of appearance
	replacement vt.License // the expression without them, when hasFix
	hasFix      bool
}

// checkDeprecatedID is the check of license/deprecated-id: a LICENSE uses an
// identifier the SPDX License List has deprecated.
func checkDeprecatedID(p *Pass) {
	judge := func(l vt.License) (deprecation, bool) {
		ids := l.DeprecatedIDs()
		if len(ids) == 0 {
			return deprecation{}, false
		}
		r, ok := l.WithoutDeprecated()
		return deprecation{ids: ids, replacement: r, hasFix: ok}, true
	}
	releaseLicenses(p.Doc, judge, func(arg syntax.Arg, dep deprecation, subject func() string) {
		word := "identifier"
		if len(dep.ids) > 1 {
			word = "identifiers"
		}
		msg := fmt.Sprintf("%s uses the deprecated SPDX %s %s", subject(), word, strings.Join(dep.ids, ", "))
		help := "this deprecated identifier has no one-to-one replacement on the SPDX License List; state the license another way in the next revision"
		var fixes []diag.Fix
		if dep.hasFix {
			msg += fmt.Sprintf("; write %q", dep.replacement)
			help = "write the replacement in the next revision (an accepted revision cannot change)"
			fixes = licenseFix(arg, dep.replacement)
		}
		p.Report(diag.Diagnostic{Range: arg.Range(), Message: msg, Help: help, Fixes: fixes})
	})
}

// checkIDCase is the check of license/id-case: a LICENSE spells an SPDX identifier in
// another case than the SPDX License List.
func checkIDCase(p *Pass) {
	judge := func(l vt.License) (vt.License, bool) {
		c := l.CanonicalCase()
		return c, c != l
	}
	releaseLicenses(p.Doc, judge, func(arg syntax.Arg, c vt.License, subject func() string) {
		p.Report(diag.Diagnostic{
			Range:   arg.Range(),
			Message: fmt.Sprintf("%s spells SPDX identifiers in another case than the SPDX License List; write %q", subject(), c),
			Help:    "write identifiers as the SPDX License List spells them in the next revision (an accepted revision cannot change)",
			Fixes:   licenseFix(arg, c),
		})
	})
}

// licenseFix is the fix that writes the license expression l in place of
// the LICENSE argument arg (for a revision that is not yet accepted).
func licenseFix(arg syntax.Arg, l vt.License) []diag.Fix {
	return []diag.Fix{{Title: "Write " + l.String(), Edits: []diag.Edit{{Range: arg.Range(), NewText: l.String()}}}}
}
