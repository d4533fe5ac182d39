package valuetypes

import (
	"fmt"
	"sort"
	"strings"
)

// Constraint is the set of versions a dependency accepts (constraint in
// "Values" in docs/journal-format.md, used by DEPENDS): either one exact
// version ("1.4.2") or one or more intervals written together without spaces,
// e.g. "[1.2.0,2.0.0)", "(,1.0.0]", "[1.5.0,)", "[1.0.0,1.2.0),[1.3.0,2.0.0)".
// The zero value is the absent constraint; it contains no version.
//
// Membership uses plain SemVer precedence (Version.Compare): a prerelease
// is treated like any other version, so "[1.0.0,2.0.0)" contains
// "2.0.0-rc.1" (which precedes 2.0.0) and "1.5.0-beta".
//
// Overlapping and touching intervals ("Values" in docs/journal-format.md: intervals
// "that overlap or touch are rejected"): two
// neighbouring intervals overlap when some version lies in both, and touch
// when the upper bound of the first equals the lower bound of the next and
// at least one of the two includes that bound, as in "[1.0.0,2.0.0),[2.0.0,3.0.0)"
// or "[1.0.0,2.0.0],(2.0.0,3.0.0)": their union is one interval and must be
// written as one. When both exclude the shared bound, as in
// "[1.0.0,2.0.0),(2.0.0,3.0.0)", the intervals are accepted: they share no
// version and their union is not an interval (it leaves out exactly that
// version), so this is the only way to express "everything but one version"
// and is neither overlap nor touch in the set sense. The check compares
// bound values only; intervals that are adjacent without sharing a bound
// value (e.g. "…,2.0.0]" and "[2.0.1-0,…", between which no version lies)
// are accepted.
type Constraint struct{ s string }

// Interval is one interval of a Constraint. A zero Lower (or Upper) means the
// side is open (unbounded); its inclusive flag is then false.
type Interval struct {
	Lower, Upper                   Version
	LowerInclusive, UpperInclusive bool
}

// Contains reports whether v lies in the interval (false for the zero
// Version).
func (iv Interval) Contains(v Version) bool {
	if v.IsZero() {
		return false
	}
	if !iv.Lower.IsZero() {
		c := v.Compare(iv.Lower)
		if c < 0 || c == 0 && !iv.LowerInclusive {
			return false
		}
	}
	if !iv.Upper.IsZero() {
		c := v.Compare(iv.Upper)
		if c > 0 || c == 0 && !iv.UpperInclusive {
			return false
		}
	}
	return true
}

// String returns the interval in constraint notation, e.g. "[1.0.0,2.0.0)".
// An interval with equal inclusive bounds (an exact version) is written
// "[1.0.0,1.0.0]", which ParseConstraint rejects; use Constraint.String for
// the canonical text.
func (iv Interval) String() string {
	var b strings.Builder
	if iv.LowerInclusive {
		b.WriteByte('[')
	} else {
		b.WriteByte('(')
	}
	b.WriteString(iv.Lower.s)
	b.WriteByte(',')
	b.WriteString(iv.Upper.s)
	if iv.UpperInclusive {
		b.WriteByte(']')
	} else {
		b.WriteByte(')')
	}
	return b.String()
}

// ParseConstraint parses s as a constraint ("Values" in docs/journal-format.md): either a
// version (ParseVersion), or one or more intervals joined by "," without any
// white space. An interval is "[" or "(", an optional lower version, ",", an
// optional upper version, then "]" or ")"; "[" and "]" include their bound
// and "(" and ")" exclude it; an open (absent) side must use "(" or ")"; at
// least one side has a bound; when both do, lower < upper. Intervals must be
// in ascending order and must neither overlap nor touch (see Constraint for
// the exact rule). It returns the Constraint, or a *SyntaxError of Kind
// "constraint" whose Offset is the byte in s where the problem is found (for
// an invalid version inside, the offset of the version's problem within s).
func ParseConstraint(s string) (Constraint, error) {
	if err := walkIntervals(s, nil); err != nil {
		if v := suggestConstraint(s); v != "" {
			err.withSuggestion(v, fmt.Sprintf("constraints are versions or intervals: write %q", v))
		}
		return Constraint{}, err
	}
	return Constraint{s}, nil
}

// parseIntervals validates s and returns its intervals (one [v,v] interval
// for an exact version).
func parseIntervals(s string) ([]Interval, *SyntaxError) {
	var out []Interval
	if err := walkIntervals(s, func(iv Interval) bool {
		out = append(out, iv)
		return true
	}); err != nil {
		return nil, err
	}
	return out, nil
}

// walkIntervals validates s and calls visit (when not nil) with each of its
// intervals in order (one [v,v] interval for an exact version), stopping
// early when visit returns false. It allocates nothing on success.
func walkIntervals(s string, visit func(Interval) bool) *SyntaxError {
	fail := func(reason string, off int) *SyntaxError {
		return synErr(KindConstraint, s, reason, off)
	}
	if s == "" {
		return fail("empty", 0)
	}
	if s[0] != '[' && s[0] != '(' {
		if reason, off := checkVersion(s); reason != "" {
			if strings.ContainsAny(s, ",[]()") || strings.ContainsAny(s, " \t") {
				// Looks like a malformed interval list rather than a version.
				if i := strings.IndexAny(s, " \t"); i >= 0 {
					return fail("white space not allowed", i)
				}
				return fail("interval must start with [ or (", 0)
			}
			return fail("invalid version: "+reason, off)
		}
		v := Version{s}
		if visit != nil {
			visit(Interval{Lower: v, Upper: v, LowerInclusive: true, UpperInclusive: true})
		}
		return nil
	}
	var prev Interval
	havePrev := false
	i := 0
	for {
		start := i
		if i >= len(s) {
			return fail("expected an interval after the comma", i)
		}
		var iv Interval
		switch s[i] {
		case '[':
			iv.LowerInclusive = true
		case '(':
		case ' ', '\t':
			return fail("white space not allowed", i)
		default:
			return fail("interval must start with [ or (", i)
		}
		i++
		// lower bound
		j := i
		for j < len(s) && s[j] != ',' && s[j] != ']' && s[j] != ')' {
			j++
		}
		if j >= len(s) || s[j] != ',' {
			return fail("expected a comma between the bounds", j)
		}
		if j > i {
			if reason, off := checkVersion(s[i:j]); reason != "" {
				return fail("invalid version: "+reason, i+off)
			}
			iv.Lower = Version{s[i:j]}
		} else if iv.LowerInclusive {
			return fail("an open lower side must use (", start)
		}
		i = j + 1
		// upper bound
		j = i
		for j < len(s) && s[j] != ']' && s[j] != ')' && s[j] != ',' && s[j] != '[' && s[j] != '(' {
			j++
		}
		if j > i {
			if reason, off := checkVersion(s[i:j]); reason != "" {
				return fail("invalid version: "+reason, i+off)
			}
			iv.Upper = Version{s[i:j]}
		}
		if j >= len(s) {
			return fail("interval not closed with ] or )", j)
		}
		if s[j] != ']' && s[j] != ')' {
			if s[j] == ',' {
				return fail("more than two bounds in an interval", j)
			}
			return fail("interval not closed with ] or )", j)
		}
		iv.UpperInclusive = s[j] == ']'
		if j == i && iv.UpperInclusive {
			return fail("an open upper side must use )", j)
		}
		if iv.Lower.IsZero() && iv.Upper.IsZero() {
			return fail("interval needs at least one bound", start)
		}
		if !iv.Lower.IsZero() && !iv.Upper.IsZero() && iv.Lower.Compare(iv.Upper) >= 0 {
			return fail("lower bound must be less than upper bound", start)
		}
		if havePrev {
			if reason := separation(prev, iv); reason != "" {
				return fail(reason, start)
			}
		}
		prev, havePrev = iv, true
		if visit != nil && !visit(iv) {
			return nil
		}
		i = j + 1
		if i == len(s) {
			return nil
		}
		switch s[i] {
		case ',':
			i++
		case ' ', '\t':
			return fail("white space not allowed", i)
		default:
			return fail("expected a comma between intervals", i)
		}
	}
}

// separation checks that next comes after prev without overlapping or
// touching it, returning "" or the reason.
func separation(prev, next Interval) string {
	if prev.Upper.IsZero() {
		return "intervals overlap: the previous interval has no upper bound"
	}
	if next.Lower.IsZero() {
		return "intervals overlap: only the first interval may lack a lower bound"
	}
	c := next.Lower.Compare(prev.Upper)
	switch {
	case c < 0:
		if !prev.Lower.IsZero() && next.Lower.Compare(prev.Lower) < 0 {
			return "intervals not in ascending order"
		}
		return "intervals overlap"
	case c == 0 && prev.UpperInclusive && next.LowerInclusive:
		return "intervals overlap"
	case c == 0 && (prev.UpperInclusive || next.LowerInclusive):
		return "intervals touch: write them as one interval"
	}
	return ""
}

// String returns the canonical text, which is the parsed text ("" for the
// zero value).
func (c Constraint) String() string { return c.s }

// IsZero reports whether c is the zero (absent) constraint.
func (c Constraint) IsZero() bool { return c.s == "" }

// IsExact reports whether c is a single exact version ("1.4.2") rather than
// interval notation.
func (c Constraint) IsExact() bool {
	return c.s != "" && c.s[0] != '[' && c.s[0] != '('
}

// Exact returns the version of an exact constraint and true, or the zero
// Version and false when c is written as intervals or is zero.
func (c Constraint) Exact() (Version, bool) {
	if !c.IsExact() {
		return Version{}, false
	}
	return Version{c.s}, true
}

// Intervals returns the intervals of c in ascending order, as a new slice
// (an exact constraint gives one interval with equal inclusive bounds; the
// zero Constraint gives an empty, non-nil slice).
func (c Constraint) Intervals() []Interval {
	if c.s == "" {
		return []Interval{}
	}
	ivs, err := parseIntervals(c.s)
	if err != nil { // cannot happen: c.s was validated
		return []Interval{}
	}
	return ivs
}

// Contains reports whether version v satisfies c: v equals the exact
// version, or lies in one of the intervals by SemVer precedence. It is false
// for the zero Version and for the zero Constraint.
func (c Constraint) Contains(v Version) bool {
	if c.s == "" {
		return false
	}
	found := false
	walkIntervals(c.s, func(iv Interval) bool {
		found = iv.Contains(v)
		return !found
	})
	return found
}

// ContainsAny reports whether c contains at least one of the versions in
// sorted, which must be in ascending order by [Version.Compare] (as
// rules.Tree.Releases gives them). For each interval of c it looks at the
// first version at or above the interval's lower bound, found by galloping on
// from where the previous interval's search ended (the intervals are ascending
// too): O(I + R) comparisons at worst and O(I) when the versions lie outside
// the intervals, for I intervals and R versions, instead of the O(I × R) of
// calling [Constraint.Contains] for every version ("Values" in
// docs/journal-format.md). It is false for the zero Constraint and an empty
// sorted.
func (c Constraint) ContainsAny(sorted []Version) bool {
	if c.s == "" || len(sorted) == 0 {
		return false
	}
	found, lo := false, 0
	walkIntervals(c.s, func(iv Interval) bool {
		if !iv.Lower.IsZero() {
			lo = firstAbove(sorted, lo, iv.Lower, iv.LowerInclusive)
		}
		found = lo < len(sorted) && iv.Contains(sorted[lo])
		return !found && lo < len(sorted)
	})
	return found
}

// firstAbove returns the index of the first version of sorted, at or after
// from, that is above bound (or equal to it when inclusive), or len(sorted):
// an exponential search from from, then a binary search in the last step.
func firstAbove(sorted []Version, from int, bound Version, inclusive bool) int {
	above := func(i int) bool {
		k := sorted[i].Compare(bound)
		return k > 0 || k == 0 && inclusive
	}
	if from >= len(sorted) || above(from) {
		return from
	}
	// sorted[from] is below; find hi with sorted[hi] above (or the end).
	lo, step := from, 1
	hi := lo + step
	for hi < len(sorted) && !above(hi) {
		lo, step = hi, step*2
		hi = lo + step
	}
	hi = min(hi, len(sorted))
	// sorted[lo] is below, sorted[hi] (if any) above.
	return lo + 1 + sort.Search(hi-lo-1, func(j int) bool { return above(lo + 1 + j) })
}

// MarshalText implements encoding.TextMarshaler: the text, or empty text for
// the zero value. It never fails.
func (c Constraint) MarshalText() ([]byte, error) { return []byte(c.s), nil }

// UnmarshalText implements encoding.TextUnmarshaler: empty text gives the
// zero value, anything else is parsed with ParseConstraint. On error c is
// unchanged and the *SyntaxError is returned.
func (c *Constraint) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*c = Constraint{}
		return nil
	}
	p, err := ParseConstraint(string(text))
	if err != nil {
		return err
	}
	*c = p
	return nil
}
