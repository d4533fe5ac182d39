package valuetypes

import (
	"slices"
	"strings"
	"sync"

	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"
)

// License is the license of a release: an SPDX license expression (SPDX 2.3,
// annex D) or one of the single words NOASSERTION and NONE (spdx-expression in
// "Values" in docs/journal-format.md, used by LICENSE). The zero value is the
// absent license.
//
// Identifiers are checked against the SPDX License List bundled with
// github.com/github/go-spdx/v2 (package spdxlicenses; its
// LicenseListVersion reports which list). String returns the text exactly as
// written; use Equivalent to compare meaning.
type License struct{ s string }

// Special license words accepted on their own ("Values" in docs/journal-format.md).
const (
	NoAssertion = "NOASSERTION"
	None        = "NONE"
)

// maxLicenseDepth bounds parenthesis nesting so that hostile input cannot
// exhaust the stack.
const maxLicenseDepth = 256

// ParseLicense parses s as a license ("Values" in docs/journal-format.md, SPDX
// 2.3 annex D): either exactly NOASSERTION or NONE, or an expression built
// from
//
//   - a license identifier on the SPDX License List, active or deprecated,
//     matched case-insensitively as SPDX D.2 says, optionally followed
//     directly by "+" ("or later");
//   - LicenseRef-<idstring> or DocumentRef-<idstring>:LicenseRef-<idstring>,
//     idstring = 1*(ALPHA / DIGIT / "-" / "."), case-sensitive;
//   - "<simple> WITH <exception>", the exception on the SPDX exceptions list;
//   - "<expr> AND <expr>", "<expr> OR <expr>" and "( <expr> )", with WITH
//     binding tighter than AND and AND tighter than OR.
//
// Operators must be upper case. Tokens are separated by spaces or tabs
// (parentheses need none); the text must not start or end with white
// space; parentheses may nest at most 256 deep. It returns the License, or a
// *SyntaxError of Kind "license" whose Offset is the start of the offending
// token (len(s) when the expression ends too early).
func ParseLicense(s string) (License, error) {
	if s == NoAssertion || s == None {
		return License{s}, nil
	}
	if _, err := parseLicenseExpr(s, false); err != nil {
		return License{}, err.withSuggestion(suggestLicense(s, err))
	}
	return License{s}, nil
}

// licToken is one token of a license expression.
type licToken struct {
	text string
	off  int
}

// licNode is a parsed license expression: a leaf (op == "") or an AND/OR
// node with two or more operands.
type licNode struct {
	op   string // "", "AND" or "OR"
	kids []*licNode
	// leaf fields
	id         string // canonical-case list ID, or the reference text
	ref        bool   // LicenseRef/DocumentRef
	plus       bool
	exception  string // canonical-case exception ID, or ""
	deprecated bool
}

type licParser struct {
	s   string
	i   int      // byte offset after cur
	cur licToken // the next token, when has
	has bool
	err *SyntaxError
	// build makes the parser return the expression tree; without it the
	// text is only validated and no node is allocated.
	build bool
}

func (p *licParser) fail(reason string, off int) {
	if p.err == nil {
		p.err = synErr(KindLicense, p.s, reason, off)
	}
}

func (p *licParser) peek() (licToken, bool) {
	if p.has {
		return p.cur, true
	}
	return licToken{}, false
}

// advance moves to the next token. Tokens are read lazily: "(", ")", or a
// run of bytes other than blanks and parentheses.
func (p *licParser) advance() {
	s, i := p.s, p.i
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	switch {
	case i >= len(s):
		p.cur, p.has = licToken{}, false
	case s[i] == '(' || s[i] == ')':
		p.cur, p.has = licToken{s[i : i+1], i}, true
		i++
	default:
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '(' && s[j] != ')' {
			j++
		}
		p.cur, p.has = licToken{s[i:j], i}, true
		i = j
	}
	p.i = i
}

// parseLicenseExpr tokenizes and parses s (which is neither NOASSERTION nor
// NONE). With build false it only validates s and returns a nil node.
func parseLicenseExpr(s string, build bool) (*licNode, *SyntaxError) {
	p := &licParser{s: s, build: build}
	if s == "" {
		p.fail("empty", 0)
		return nil, p.err
	}
	if s[0] == ' ' || s[0] == '\t' {
		p.fail("leading white space", 0)
		return nil, p.err
	}
	if c := s[len(s)-1]; c == ' ' || c == '\t' {
		i := len(s) - 1
		for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
			i--
		}
		p.fail("trailing white space", i)
		return nil, p.err
	}
	p.advance()
	n := p.parseOr(0)
	if p.err != nil {
		return nil, p.err
	}
	if t, ok := p.peek(); ok {
		switch {
		case t.text == ")":
			p.fail("unmatched )", t.off)
		case isLicenseOperator(t.text):
			p.fail("unexpected "+t.text, t.off)
		default:
			p.fail("missing operator before license", t.off)
		}
		return nil, p.err
	}
	return n, nil
}

func isLicenseOperator(t string) bool { return t == "AND" || t == "OR" || t == "WITH" }

// parseOr parses and-expressions joined by OR (OR binds loosest).
func (p *licParser) parseOr(depth int) *licNode { return p.parseJoined("OR", depth, p.parseAnd) }

// parseAnd parses units joined by AND.
func (p *licParser) parseAnd(depth int) *licNode { return p.parseJoined("AND", depth, p.parseUnit) }

// parseJoined parses operands (each parsed by operand) joined by the binary
// operator op, into one n-ary node; a single operand is returned as is.
func (p *licParser) parseJoined(op string, depth int, operand func(int) *licNode) *licNode {
	first := operand(depth)
	if p.err != nil {
		return nil
	}
	var kids []*licNode
	for {
		t, ok := p.peek()
		if !ok || t.text != op {
			break
		}
		p.advance()
		k := operand(depth)
		if p.err != nil {
			return nil
		}
		if p.build {
			if kids == nil {
				kids = []*licNode{first}
			}
			kids = append(kids, k)
		}
	}
	if kids == nil {
		return first
	}
	return &licNode{op: op, kids: kids}
}

// parseUnit parses "( expr )" or "simple [WITH exception]".
func (p *licParser) parseUnit(depth int) *licNode {
	t, ok := p.peek()
	if !ok {
		p.fail("expected a license", len(p.s))
		return nil
	}
	if t.text == "(" {
		if depth >= maxLicenseDepth {
			p.fail("parentheses nested too deeply", t.off)
			return nil
		}
		p.advance()
		n := p.parseOr(depth + 1)
		if p.err != nil {
			return nil
		}
		c, ok := p.peek()
		if !ok {
			p.fail("unclosed (", t.off)
			return nil
		}
		if c.text != ")" {
			p.fail("expected ) or an operator", c.off)
			return nil
		}
		p.advance()
		return n
	}
	n := p.parseSimple(t)
	if p.err != nil {
		return nil
	}
	p.advance()
	if w, ok := p.peek(); ok && w.text == "WITH" {
		p.advance()
		e, ok := p.peek()
		if !ok {
			p.fail("expected a license exception after WITH", len(p.s))
			return nil
		}
		if e.text == "(" || e.text == ")" || isLicenseOperator(e.text) {
			p.fail("expected a license exception after WITH", e.off)
			return nil
		}
		found, canon := spdxlicenses.IsException(e.text)
		if !found {
			if isListedLicense(e.text) {
				p.fail("not a license exception: "+e.text, e.off)
			} else {
				p.fail("unknown license exception: "+e.text, e.off)
			}
			return nil
		}
		if n != nil {
			n.exception = canon
		}
		p.advance()
	}
	return n
}

// isListedLicense reports whether id is an active or deprecated license ID.
func isListedLicense(id string) bool {
	if ok, _ := spdxlicenses.IsActiveLicense(id); ok {
		return true
	}
	ok, _ := spdxlicenses.IsDeprecatedLicense(id)
	return ok
}

// licenseEntry is the result of lookupLicense for one ID.
type licenseEntry struct {
	canon      string
	deprecated bool
}

// listedSpellings memoizes lookupLicenseSlow for every ID exactly as the
// SPDX lists spell it, the usual way a Journal writes it: such IDs are found
// without the upper-casing (and its allocation) of the spdxlicenses lookups.
var listedSpellings = sync.OnceValue(func() map[string]licenseEntry {
	ids := append(spdxlicenses.GetLicenses(), spdxlicenses.GetDeprecated()...)
	m := make(map[string]licenseEntry, len(ids))
	for _, id := range ids {
		if c, dep, ok := lookupLicenseSlow(id); ok {
			m[id] = licenseEntry{c, dep}
		}
	}
	return m
})

// lookupLicense returns the canonical-case ID and whether it is deprecated.
func lookupLicense(id string) (canon string, deprecated, found bool) {
	if e, ok := listedSpellings()[id]; ok {
		return e.canon, e.deprecated, true
	}
	return lookupLicenseSlow(id)
}

// lookupLicenseSlow is lookupLicense without the memo.
func lookupLicenseSlow(id string) (canon string, deprecated, found bool) {
	if ok, c := spdxlicenses.IsActiveLicense(id); ok {
		return c, false, true
	}
	if ok, c := spdxlicenses.IsDeprecatedLicense(id); ok {
		return c, true, true
	}
	return "", false, false
}

// parseSimple parses the token t as a simple-expression (license-id,
// license-id "+", or license-ref).
func (p *licParser) parseSimple(t licToken) *licNode {
	w := t.text
	switch {
	case w == ")":
		p.fail("expected a license, found )", t.off)
		return nil
	case isLicenseOperator(w):
		p.fail("expected a license, found "+w, t.off)
		return nil
	case w == NoAssertion || w == None:
		p.fail(w+" must stand alone", t.off)
		return nil
	case strings.HasPrefix(w, "DocumentRef-"):
		doc, lic, ok := strings.Cut(w[len("DocumentRef-"):], ":")
		if off := badIDString(doc); off >= 0 {
			p.fail("bad DocumentRef idstring", t.off+len("DocumentRef-")+off)
			return nil
		}
		if !ok {
			p.fail("expected : after DocumentRef", t.off+len(w))
			return nil
		}
		base := t.off + len("DocumentRef-") + len(doc) + 1
		if !strings.HasPrefix(lic, "LicenseRef-") {
			p.fail("expected LicenseRef after DocumentRef", base)
			return nil
		}
		if off := badIDString(lic[len("LicenseRef-"):]); off >= 0 {
			p.fail("bad LicenseRef idstring", base+len("LicenseRef-")+off)
			return nil
		}
		return p.leaf(w, true, false, false)
	case strings.HasPrefix(w, "LicenseRef-"):
		if off := badIDString(w[len("LicenseRef-"):]); off >= 0 {
			p.fail("bad LicenseRef idstring", t.off+len("LicenseRef-")+off)
			return nil
		}
		return p.leaf(w, true, false, false)
	}
	if canon, dep, ok := lookupLicense(w); ok {
		return p.leaf(canon, false, false, dep)
	}
	if base, ok := strings.CutSuffix(w, "+"); ok && base != "" {
		if canon, dep, ok := lookupLicense(base); ok {
			return p.leaf(canon, false, true, dep)
		}
	}
	switch {
	case strings.EqualFold(w, "AND") || strings.EqualFold(w, "OR") || strings.EqualFold(w, "WITH"):
		p.fail("operators must be upper case", t.off)
	case strings.EqualFold(w, NoAssertion) || strings.EqualFold(w, None):
		p.fail(strings.ToUpper(w)+" must be upper case and stand alone", t.off)
	default:
		if ok, _ := spdxlicenses.IsException(w); ok {
			p.fail("license exception without WITH: "+w, t.off)
		} else {
			p.fail("unknown license identifier: "+w, t.off)
		}
	}
	return nil
}

// leaf returns a leaf for the tree, or nil when only validating.
func (p *licParser) leaf(id string, ref, plus, deprecated bool) *licNode {
	if !p.build {
		return nil
	}
	return &licNode{id: id, ref: ref, plus: plus, deprecated: deprecated}
}

// badIDString returns -1 when s is a valid SPDX idstring
// (1*(ALPHA / DIGIT / "-" / ".")), else the offset of the first bad byte
// (0 when empty).
func badIDString(s string) int {
	if s == "" {
		return 0
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isAlpha(c) || isDigit(c) || c == '-' || c == '.') {
			return i
		}
	}
	return -1
}

// String returns the license text exactly as parsed ("" for the zero value).
func (l License) String() string { return l.s }

// IsZero reports whether l is the zero (absent) license.
func (l License) IsZero() bool { return l.s == "" }

// IsNoAssertion reports whether l is the word NOASSERTION.
func (l License) IsNoAssertion() bool { return l.s == NoAssertion }

// IsNone reports whether l is the word NONE.
func (l License) IsNone() bool { return l.s == None }

// tree returns the parsed expression, or nil for the zero value, NOASSERTION
// and NONE.
func (l License) tree() *licNode {
	if l.s == "" || l.s == NoAssertion || l.s == None {
		return nil
	}
	n, err := parseLicenseExpr(l.s, true)
	if err != nil { // cannot happen: l.s was validated
		return nil
	}
	return n
}

// DeprecatedIDs returns the deprecated SPDX license identifiers l uses (e.g.
// "GPL-2.0+", "GPL-2.0" in "GPL-2.0 OR MIT"), in the list's spelling, each
// once, in order of first appearance; a "+" written after a deprecated ID is
// not part of the returned ID. The result is empty (non-nil) when there are
// none. The SPDX License List marks these IDs deprecated; they stay valid
// ("Values" in docs/journal-format.md) but a linter may warn.
func (l License) DeprecatedIDs() []string {
	out := []string{}
	var walk func(n *licNode)
	walk = func(n *licNode) {
		if n == nil {
			return
		}
		if n.op == "" {
			if n.deprecated && !slices.Contains(out, n.id) {
				out = append(out, n.id)
			}
			return
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(l.tree())
	return out
}

// IsDeprecated reports whether l uses at least one deprecated SPDX license
// identifier (see DeprecatedIDs).
func (l License) IsDeprecated() bool { return len(l.DeprecatedIDs()) > 0 }

// LicenseListVersion returns the version of the SPDX License List that
// ParseLicense checks identifiers against (from go-spdx).
func LicenseListVersion() string { return spdxlicenses.LicenseListVersion() }

// MarshalText implements encoding.TextMarshaler: the text, or empty text for
// the zero value. It never fails.
func (l License) MarshalText() ([]byte, error) { return []byte(l.s), nil }

// UnmarshalText implements encoding.TextUnmarshaler: empty text gives the
// zero value, anything else is parsed with ParseLicense. On error l is
// unchanged and the *SyntaxError is returned.
func (l *License) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*l = License{}
		return nil
	}
	v, err := ParseLicense(string(text))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// deprecatedReplacement maps deprecated SPDX IDs to what the SPDX License
// List says to use instead, for Equivalent. Before list 3.0 a bare GNU ID
// meant "this version only" and "+" meant "or later"; the "-with-…-exception"
// IDs became "<license> WITH <exception>". IDs without a one-to-one
// replacement (Net-SNMP) are absent and only equal themselves.
var deprecatedReplacement = map[string]string{
	"AGPL-1.0":                         "AGPL-1.0-only",
	"AGPL-3.0":                         "AGPL-3.0-only",
	"BSD-2-Clause-FreeBSD":             "BSD-2-Clause-Views",
	"BSD-2-Clause-NetBSD":              "BSD-2-Clause",
	"bzip2-1.0.5":                      "bzip2-1.0.6",
	"eCos-2.0":                         "GPL-2.0-or-later WITH eCos-exception-2.0",
	"GFDL-1.1":                         "GFDL-1.1-only",
	"GFDL-1.2":                         "GFDL-1.2-only",
	"GFDL-1.3":                         "GFDL-1.3-only",
	"GPL-1.0":                          "GPL-1.0-only",
	"GPL-1.0+":                         "GPL-1.0-or-later",
	"GPL-2.0":                          "GPL-2.0-only",
	"GPL-2.0+":                         "GPL-2.0-or-later",
	"GPL-2.0-with-autoconf-exception":  "GPL-2.0-only WITH Autoconf-exception-2.0",
	"GPL-2.0-with-bison-exception":     "GPL-2.0-only WITH Bison-exception-2.2",
	"GPL-2.0-with-classpath-exception": "GPL-2.0-only WITH Classpath-exception-2.0",
	"GPL-2.0-with-font-exception":      "GPL-2.0-only WITH Font-exception-2.0",
	"GPL-2.0-with-GCC-exception":       "GPL-2.0-only WITH GCC-exception-2.0",
	"GPL-3.0":                          "GPL-3.0-only",
	"GPL-3.0+":                         "GPL-3.0-or-later",
	"GPL-3.0-with-autoconf-exception":  "GPL-3.0-only WITH Autoconf-exception-3.0",
	"GPL-3.0-with-GCC-exception":       "GPL-3.0-only WITH GCC-exception-3.1",
	"LGPL-2.0":                         "LGPL-2.0-only",
	"LGPL-2.0+":                        "LGPL-2.0-or-later",
	"LGPL-2.1":                         "LGPL-2.1-only",
	"LGPL-2.1+":                        "LGPL-2.1-or-later",
	"LGPL-3.0":                         "LGPL-3.0-only",
	"LGPL-3.0+":                        "LGPL-3.0-or-later",
	"Nunit":                            "zlib-acknowledgement",
	"StandardML-NJ":                    "SMLNJ",
	"wxWindows":                        "LGPL-2.0-or-later WITH WxWindows-exception-3.1",
}

// leafKey returns the normalised text of a leaf for Equivalent.
func leafKey(n *licNode) string {
	if n.ref {
		return n.id
	}
	id, exc := n.id, ""
	if r, ok := deprecatedReplacement[id]; ok {
		id, exc, _ = strings.Cut(r, " WITH ")
	}
	if n.plus {
		switch {
		case strings.HasSuffix(id, "-or-later"):
		case strings.HasSuffix(id, "-only"):
			if ok, c := spdxlicenses.IsActiveLicense(strings.TrimSuffix(id, "-only") + "-or-later"); ok {
				id = c
			} else {
				id += "+"
			}
		default:
			if ok, c := spdxlicenses.IsActiveLicense(id + "-or-later"); ok {
				id = c
			} else {
				id += "+"
			}
		}
	}
	if exc != "" {
		id += " WITH " + exc
	}
	if n.exception != "" {
		id += " WITH " + n.exception
	}
	return id
}

// maxDNFTerms bounds the expansion Equivalent performs.
const maxDNFTerms = 4096

// dnf expands n into a disjunction of conjunctions: a set of terms, each a
// sorted, duplicate-free list of leaf keys. ok is false when the expansion
// would exceed maxDNFTerms.
func dnf(n *licNode) (terms [][]string, ok bool) {
	if n.op == "" {
		return [][]string{{leafKey(n)}}, true
	}
	if n.op == "OR" {
		for _, k := range n.kids {
			t, ok := dnf(k)
			if !ok || len(terms)+len(t) > maxDNFTerms {
				return nil, false
			}
			terms = append(terms, t...)
		}
		return terms, true
	}
	terms = [][]string{{}}
	for _, k := range n.kids {
		t, ok := dnf(k)
		if !ok || len(terms)*len(t) > maxDNFTerms {
			return nil, false
		}
		next := make([][]string, 0, len(terms)*len(t))
		for _, a := range terms {
			for _, b := range t {
				c := append(append([]string{}, a...), b...)
				slices.Sort(c)
				next = append(next, slices.Compact(c))
			}
		}
		terms = next
	}
	return terms, true
}

// minimalTerms removes duplicate terms and terms that contain another term
// (absorption: A OR (A AND B) is A) and returns the rest as sorted keys.
func minimalTerms(terms [][]string) []string {
	slices.SortFunc(terms, func(a, b []string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return slices.Compare(a, b)
	})
	var kept [][]string
	for _, t := range terms {
		absorbed := false
		for _, k := range kept {
			if isSubset(k, t) {
				absorbed = true
				break
			}
		}
		if !absorbed {
			kept = append(kept, t)
		}
	}
	out := make([]string, len(kept))
	for i, k := range kept {
		out[i] = strings.Join(k, "\x00")
	}
	slices.Sort(out)
	return out
}

// isSubset reports whether sorted a is a subset of sorted b.
func isSubset(a, b []string) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}

// Equivalent reports whether l and o express the same licensing choice. Both
// are brought to a normal form: each license is written in the list's
// spelling (IDs are case-insensitive); a deprecated ID is replaced by its
// successor (GPL-2.0 by GPL-2.0-only, GPL-2.0+ by GPL-2.0-or-later,
// GPL-2.0-with-classpath-exception by GPL-2.0-only WITH
// Classpath-exception-2.0, …); "X-only+" and "X+" become "X-or-later" where
// the list has that ID; then the expression is expanded into the set of
// alternatives (OR) of license sets (AND), duplicates and absorbed
// alternatives (A OR (A AND B) is A) removed. The expressions are equivalent
// when these sets are equal, so operand order, grouping, repetition and
// redundant parentheses do not matter. No license is considered to imply
// another (GPL-2.0-or-later is not GPL-3.0-only), and LicenseRef and
// DocumentRef references compare exactly. NOASSERTION and NONE are each
// only equivalent to themselves; the zero License only to the zero License.
// When either expansion would exceed 4096 alternatives, Equivalent falls
// back to comparing the texts (l.String() == o.String()).
//
// go-spdx's spdxexp.Satisfies answers a different question (is an
// expression satisfied by a list of allowed licenses, where later versions
// can satisfy "+") and is not used here; only its license lists are.
func (l License) Equivalent(o License) bool {
	if l.s == o.s {
		return true
	}
	a, b := l.tree(), o.tree()
	if a == nil || b == nil {
		return false
	}
	ta, okA := dnf(a)
	tb, okB := dnf(b)
	if !okA || !okB {
		return false
	}
	return slices.Equal(minimalTerms(ta), minimalTerms(tb))
}
