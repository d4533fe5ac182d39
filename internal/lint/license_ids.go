package lint

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// releaseLicenses calls yield for each LICENSE of doc that holds a valid
// SPDX expression and that judge reports (its second result), with its
// argument, judge's verdict and a subject for messages ("license of release
// 1.0.0"), made only when a message needs it. judge runs once per distinct
// text, whose verdict seen keeps (see licenseVerdicts).
func releaseLicenses[V any](doc *syntax.Document, seen *licenseVerdicts[V], judge func(vt.License) (V, bool), yield func(arg syntax.Arg, v V, subject func() string)) {
	for rb, d := range releaseDirectives(doc, "LICENSE") {
		arg, ok := bareArg(d, 0)
		if !ok {
			continue
		}
		vd := seen.of(arg.Text, judge)
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

// licenseVerdicts keeps what one rule's judge said of each LICENSE text,
// for the whole process: the licenses of a tree are a few hundred texts,
// repeated in every release of every revision, and parsing and judging
// each again per document was most of these rules' cost (license/
// deprecated-id: 0.15 s of CPU at 100,000 files). Past licenseVerdictsMax
// texts (a hostile tree's millions) a new text is judged each time it
// comes. The verdicts are shared by every document: yield only reads them.
type licenseVerdicts[V any] struct {
	m sync.Map // text → licenseVerdict[V]
	n atomic.Int64
}

// licenseVerdictsMax is how many texts a licenseVerdicts keeps at most.
const licenseVerdictsMax = 4096

// licenseVerdict is judge's verdict on one text; report is false for a
// text that is no valid SPDX expression (value/license reports it).
type licenseVerdict[V any] struct {
	v      V
	report bool
}

// of returns the verdict on text, judging it when it is not kept.
func (c *licenseVerdicts[V]) of(text string, judge func(vt.License) (V, bool)) licenseVerdict[V] {
	if vd, ok := c.m.Load(text); ok {
		return vd.(licenseVerdict[V])
	}
	// text is a slice of a document's source, which a kept verdict must
	// not hold on to.
	text = strings.Clone(text)
	var vd licenseVerdict[V]
	if l, err := vt.ParseLicense(text); err == nil {
		vd.v, vd.report = judge(l)
	}
	if c.n.Add(1) <= licenseVerdictsMax {
		c.m.Store(text, vd)
	}
	return vd
}

// deprecation is what license/deprecated-id finds in one license
// expression.
type deprecation struct {
	ids         []string   // the deprecated identifiers, in order of appearance
	replacement vt.License // the expression without them, when hasFix
	hasFix      bool
}

// deprecations and caseFixes are the verdicts of checkDeprecatedID and
// checkIDCase.
var (
	deprecations licenseVerdicts[deprecation]
	caseFixes    licenseVerdicts[vt.License]
)

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
	releaseLicenses(p.Doc, &deprecations, judge, func(arg syntax.Arg, dep deprecation, subject func() string) {
		word := "identifier"
		if len(dep.ids) > 1 {
			word = "identifiers"
		}
		msg := fmt.Sprintf("%s uses the deprecated SPDX %s %s", subject(), word, strings.Join(dep.ids, ", "))
		help := "this deprecated identifier has no one-to-one replacement on the SPDX License List: state the license another way; " + acceptedNote
		var fixes []diag.Fix
		if dep.hasFix {
			msg += fmt.Sprintf("; write %q", dep.replacement)
			help = "write the replacement; " + acceptedNote
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
	releaseLicenses(p.Doc, &caseFixes, judge, func(arg syntax.Arg, c vt.License, subject func() string) {
		p.Report(diag.Diagnostic{
			Range:   arg.Range(),
			Message: fmt.Sprintf("%s spells SPDX identifiers in another case than the SPDX License List; write %q", subject(), c),
			Help:    "write identifiers as the SPDX License List spells them; " + acceptedNote,
			Fixes:   licenseFix(arg, c),
		})
	})
}

// licenseFix is the fix that writes the license expression l in place of
// the LICENSE argument arg (for a revision that is not yet accepted).
func licenseFix(arg syntax.Arg, l vt.License) []diag.Fix {
	return []diag.Fix{{Title: "Write " + l.String(), Edits: []diag.Edit{{Range: arg.Range(), NewText: l.String()}}}}
}
