package valuetypes

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"

	"github.com/r35157/journal-lint/suggest"
)

// This file computes the Suggestion and Hint of a *SyntaxError: the value as
// its author probably meant it, checked to parse. Nothing here is on the
// path of a valid value.

// withSuggestion sets e's Suggestion and Hint and returns e.
func (e *SyntaxError) withSuggestion(value, hint string) *SyntaxError {
	if value != "" {
		e.Suggestion, e.Hint = value, hint
	}
	return e
}

// didYouMean is the usual Hint for a near miss.
func didYouMean(v string) string { return fmt.Sprintf("did you mean %q?", v) }

// maxLicenseFixes bounds how many successive corrections suggestLicense
// applies to one expression.
const maxLicenseFixes = 8

// suggestLicense returns a correction of the invalid license s, whose
// first problem is err: each round fixes the token err points at (an
// identifier in the wrong case or with a typo, "Apache 2.0" written with a
// blank, a lower-case operator, "/" between alternatives) and parses again,
// until the text parses. It returns "" when some problem has no
// correction.
func suggestLicense(s string, err *SyntaxError) (value, hint string) {
	structural := false
	cur := s
	for range maxLicenseFixes {
		next, isStructural, ok := fixLicenseOnce(cur, err)
		if !ok || next == cur {
			return "", ""
		}
		structural = structural || isStructural
		cur = next
		if cur == NoAssertion || cur == None {
			break
		}
		if _, err = parseLicenseExpr(cur, false); err == nil {
			break
		}
	}
	if err != nil && cur != NoAssertion && cur != None {
		return "", ""
	}
	if structural {
		return cur, fmt.Sprintf("write %q", cur)
	}
	return cur, didYouMean(cur)
}

// fixLicenseOnce corrects the problem err reports in s. structural reports
// a change of operators rather than of an identifier's spelling.
func fixLicenseOnce(s string, err *SyntaxError) (next string, structural, ok bool) {
	for _, w := range []string{NoAssertion, None} {
		if strings.EqualFold(s, w) {
			return w, false, true
		}
	}
	if strings.Contains(s, "/") {
		parts := strings.Split(s, "/")
		for i, p := range parts {
			parts[i] = strings.TrimSpace(p)
		}
		return strings.Join(parts, " OR "), true, true
	}
	if err == nil || err.Offset < 0 || err.Offset >= len(s) {
		return "", false, false
	}
	p := &licParser{s: s, i: err.Offset}
	p.advance()
	t, has := p.peek()
	if !has || t.off != err.Offset {
		return "", false, false
	}
	replace := func(end int, with string) string { return s[:t.off] + with + s[end:] }
	tokEnd := t.off + len(t.text)
	for _, op := range []string{"AND", "OR", "WITH"} {
		if strings.EqualFold(t.text, op) && t.text != op {
			return replace(tokEnd, op), true, true
		}
	}
	// "Apache 2.0": a blank where the identifier has a hyphen.
	p.advance()
	if n, ok := p.peek(); ok && n.text != "(" && n.text != ")" && !isLicenseOperator(n.text) {
		if canon, _, found := lookupLicense(t.text + "-" + n.text); found {
			return replace(n.off+len(n.text), canon), false, true
		}
	}
	if strings.HasPrefix(err.Reason, "unknown license exception") {
		if c := suggest.ClosestFold(t.text, spdxlicenses.GetExceptions()); c != "" {
			return replace(tokEnd, c), false, true
		}
		return "", false, false
	}
	id, plus := t.text, ""
	if base, ok := strings.CutSuffix(id, "+"); ok && base != "" {
		id, plus = base, "+"
	}
	if c := suggest.ClosestFold(id, activeLicenseIDs()); c != "" {
		return replace(tokEnd, c+plus), false, true
	}
	if c := suggest.ClosestFold(id, spdxlicenses.GetDeprecated()); c != "" {
		return replace(tokEnd, c+plus), false, true
	}
	return "", false, false
}

// activeLicenseIDs are the SPDX License List's active identifiers.
var activeLicenseIDs = sync.OnceValue(spdxlicenses.GetLicenses)

// CanonicalCase returns l with every SPDX license and exception identifier
// spelled as the SPDX License List spells it ("mit" becomes "MIT",
// "apache-2.0 with llvm-exception" becomes "Apache-2.0 WITH
// LLVM-exception"); operators, blanks, parentheses and LicenseRef /
// DocumentRef references stay as written. SPDX matches identifiers
// case-insensitively (SPDX 2.3 annex D.2), so the result is Equivalent to
// l; the zero License, NOASSERTION and NONE are returned unchanged.
func (l License) CanonicalCase() License {
	if l.s == "" || l.s == NoAssertion || l.s == None {
		return l
	}
	var b strings.Builder
	p := &licParser{s: l.s}
	last := 0
	afterWith := false
	for p.advance(); p.has; p.advance() {
		t := p.cur
		b.WriteString(l.s[last:t.off])
		last = t.off + len(t.text)
		text := t.text
		switch {
		case text == "(" || text == ")" || isLicenseOperator(text):
		case afterWith:
			if ok, c := spdxlicenses.IsException(text); ok {
				text = c
			}
		case strings.HasPrefix(text, "LicenseRef-") || strings.HasPrefix(text, "DocumentRef-"):
		default:
			if c, _, ok := lookupLicense(text); ok {
				text = c
			} else if base, ok := strings.CutSuffix(text, "+"); ok {
				if c, _, ok := lookupLicense(base); ok {
					text = c + "+"
				}
			}
		}
		afterWith = t.text == "WITH"
		b.WriteString(text)
	}
	b.WriteString(l.s[last:])
	return License{b.String()}
}

// DeprecatedReplacement returns what the SPDX License List says to write
// instead of the deprecated identifier id ("GPL-3.0" gives "GPL-3.0-only",
// "GPL-2.0+" gives "GPL-2.0-or-later", "GPL-2.0-with-classpath-exception"
// gives "GPL-2.0-only WITH Classpath-exception-2.0"), matched
// case-insensitively. ok is false for an identifier that is not deprecated
// and for the few deprecated ones without a one-to-one replacement
// (Net-SNMP).
func DeprecatedReplacement(id string) (replacement string, ok bool) {
	canon, deprecated, found := lookupLicense(id)
	if !found || !deprecated {
		return "", false
	}
	r, ok := deprecatedReplacement[canon]
	return r, ok
}

// WithoutDeprecated returns l with each deprecated identifier replaced by
// its DeprecatedReplacement (parenthesised when the replacement has a WITH
// and the identifier already had one, which SPDX cannot express; such an
// identifier is left alone). ok is false when l uses a deprecated
// identifier without a replacement, or none at all.
func (l License) WithoutDeprecated() (License, bool) {
	if len(l.DeprecatedIDs()) == 0 {
		return l, false
	}
	var b strings.Builder
	p := &licParser{s: l.s}
	last := 0
	afterWith := false
	for p.advance(); p.has; p.advance() {
		t := p.cur
		b.WriteString(l.s[last:t.off])
		last = t.off + len(t.text)
		text := t.text
		if !afterWith && text != "(" && text != ")" && !isLicenseOperator(text) {
			if r, ok := DeprecatedReplacement(text); ok {
				text = r
			} else if base, ok := strings.CutSuffix(text, "+"); ok {
				if r, ok := DeprecatedReplacement(base); ok {
					text = plusOf(r)
				}
			} else if _, dep, found := lookupLicense(text); found && dep {
				return l, false
			}
		}
		afterWith = t.text == "WITH"
		b.WriteString(text)
	}
	b.WriteString(l.s[last:])
	out, err := ParseLicense(b.String())
	if err != nil || out.IsDeprecated() {
		return l, false
	}
	return out, true
}

// plusOf turns a replacement "X-only" into "X-or-later" (what "+" after a
// deprecated bare GNU identifier meant), and appends "+" otherwise.
func plusOf(r string) string {
	if base, ok := strings.CutSuffix(r, "-only"); ok {
		if ok, c := spdxlicenses.IsActiveLicense(base + "-or-later"); ok {
			return c
		}
	}
	return r + "+"
}

// suggestDigest returns the digest the author probably meant: the hex in
// lower case, the "sha256:" prefix added or fixed. It returns "" when the
// hex digits are not 64 (nothing can be guessed then).
func suggestDigest(s string) string {
	hexPart := s
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		if !strings.EqualFold(s[:i], "sha256") && !strings.EqualFold(s[:i], "sha-256") {
			return ""
		}
		hexPart = s[i+1:]
	}
	if len(hexPart) != 64 || strings.Trim(strings.ToLower(hexPart), "0123456789abcdef") != "" {
		return ""
	}
	v := digestPrefix + strings.ToLower(hexPart)
	if v == s {
		return ""
	}
	return v
}

// extendedLayouts are the ISO 8601 / RFC 3339 forms authors write instead of
// the basic form; those without a zone are read as UTC.
var extendedLayouts = []string{
	time.RFC3339,
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04",
	"2006-01-02",
	"20060102T150405",
	"20060102T1504Z",
	"20060102",
	"2006-01-02T150405Z",
}

// suggestTimestamp returns the basic form YYYYMMDDTHHMMSSZ of an instant
// written in an extended or partial form ("2026-02-15" gives
// "20260215T000000Z", "2026-02-15T10:30:00+01:00" gives
// "20260215T093000Z"), or "" when s is none of them.
func suggestTimestamp(s string) string {
	for _, layout := range extendedLayouts {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		ts := TimestampOf(t.Truncate(time.Second))
		if ts.IsZero() {
			return ""
		}
		return ts.String()
	}
	return ""
}

// suggestConstraint translates a range written in the operator syntax of
// other ecosystems (">=1.0.0", ">=1.0.0 <2.0.0", ">=1.0.0,<2.0.0",
// "^1.2.3", "~1.2.3", "=1.0.0") into the interval syntax of a constraint
// ("[1.0.0,)", "[1.0.0,2.0.0)", "[1.2.3,2.0.0)", "[1.2.3,1.3.0)",
// "1.0.0"), or returns "".
func suggestConstraint(s string) string {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
	if len(parts) == 0 || len(parts) > 2 {
		return ""
	}
	var iv Interval
	for _, p := range parts {
		rest := strings.TrimLeft(p, "<>=^~!")
		op := p[:len(p)-len(rest)]
		vv, err := ParseVersion(strings.TrimLeft(rest, "vV"))
		if err != nil {
			return ""
		}
		switch op {
		case "", "=", "==":
			if len(parts) > 1 {
				return ""
			}
			return vv.String()
		case ">=", ">":
			if !iv.Lower.IsZero() {
				return ""
			}
			iv.Lower, iv.LowerInclusive = vv, op == ">="
		case "<=", "<":
			if !iv.Upper.IsZero() {
				return ""
			}
			iv.Upper, iv.UpperInclusive = vv, op == "<="
		case "^", "~":
			if len(parts) > 1 || vv.IsPrerelease() {
				return ""
			}
			iv.Lower, iv.LowerInclusive = vv, true
			iv.Upper = nextRelease(vv, op)
		default:
			return ""
		}
	}
	out := iv.String()
	if _, err := ParseConstraint(out); err != nil {
		return ""
	}
	return out
}

// nextRelease is the exclusive upper bound of a caret (^) or tilde (~)
// range in npm's meaning: ^1.2.3 < 2.0.0, ^0.2.3 < 0.3.0, ^0.0.3 < 0.0.4,
// ~1.2.3 < 1.3.0.
func nextRelease(v Version, op string) Version {
	var major, minor, patch int
	fmt.Sscan(v.Major(), &major)
	fmt.Sscan(v.Minor(), &minor)
	fmt.Sscan(v.Patch(), &patch)
	switch {
	case op == "~":
		minor, patch = minor+1, 0
	case major > 0:
		major, minor, patch = major+1, 0, 0
	case minor > 0:
		minor, patch = minor+1, 0
	default:
		patch++
	}
	return Version{fmt.Sprintf("%d.%d.%d", major, minor, patch)}
}
