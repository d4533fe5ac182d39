package lsp

//go:generate go run gen_spdxnames.go

import (
	"fmt"
	"slices"
	"strings"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// spdxName is one entry of the SPDX License List (spdxnames.go): an
// identifier as the list spells it, its full name and whether the list
// deprecates it.
type spdxName struct {
	id, name   string
	deprecated bool
}

// licenseHover returns the Markdown hover of a LICENSE expression ("Values"
// in docs/journal-format.md, SPDX 2.3 annex D): one line per identifier and exception with
// its full name from the SPDX License List, what "+" and a LicenseRef
// mean, and NOASSERTION and NONE in words. Repeated identifiers are named
// once.
func licenseHover(expr string) string {
	var lines []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(expr, func(r rune) bool { return r == ' ' || r == '\t' || r == '(' || r == ')' }) {
		if slices.Contains(spdxOperators, w) || seen[w] {
			continue
		}
		seen[w] = true
		lines = append(lines, "- "+licenseWord(w))
	}
	return fmt.Sprintf("**LICENSE** (SPDX expression)\n\n%s\n\nNames from the SPDX License List %s.", strings.Join(lines, "\n"), spdxListVersion)
}

// licenseWord describes one identifier of a license expression.
func licenseWord(w string) string {
	switch {
	case w == vt.NoAssertion:
		return "`NOASSERTION`: the license was not determined"
	case w == vt.None:
		return "`NONE`: no license applies"
	case strings.HasPrefix(w, "LicenseRef-"), strings.HasPrefix(w, "DocumentRef-"):
		return fmt.Sprintf("`%s`: a license defined by the publisher, not on the SPDX License List", w)
	}
	// A listed identifier may itself end in "+" (the deprecated GPL-2.0+);
	// otherwise "+" means "or any later version" of the identifier before it.
	base, plus := w, false
	n, ok := spdxNames()[strings.ToUpper(w)]
	if !ok {
		base, plus = strings.CutSuffix(w, "+")
		n, ok = spdxNames()[strings.ToUpper(base)]
	}
	if !ok {
		return fmt.Sprintf("`%s`: not on the SPDX License List", w)
	}
	out := fmt.Sprintf("`%s`: %s", w, n.name)
	if plus {
		out += ", or any later version"
	}
	if n.id != base {
		out += fmt.Sprintf(" (listed as `%s`)", n.id)
	}
	if n.deprecated {
		out += " — deprecated identifier"
	}
	return out
}
