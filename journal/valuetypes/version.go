package valuetypes

import "strings"

// MaxVersionLen is the longest version in bytes ("Values" in docs/journal-format.md).
const MaxVersionLen = 128

// Version is a release version: SemVer 2.0.0 without build metadata,
// MAJOR.MINOR.PATCH[-PRERELEASE], e.g. "1.4.2" or "2.0.0-rc.1" ("Values" in
// docs/journal-format.md, used by RELEASE, PREFERS and constraints). Versions
// are ordered by SemVer 2.0.0 precedence (SemVer §11). The zero value is the
// absent version.
//
// Precedence is implemented here rather than with
// github.com/Masterminds/semver/v3: that library limits numeric identifiers to
// uint64 (rejecting, or comparing as text, longer ones that SemVer 2.0.0 and
// the format allow), and its parsers accept forms the format forbids, so it
// would need a grammar check first and a fallback anyway. Numbers here are
// compared without conversion (by length, then digit by digit), so any length
// works.
type Version struct{ s string }

// ParseVersion parses s as a version ("Values" in
// docs/journal-format.md; SemVer 2.0.0 §2, §9):
// three dot-separated numeric identifiers MAJOR.MINOR.PATCH, optionally "-"
// and a prerelease of one or more dot-separated non-empty identifiers of
// [0-9A-Za-z-]; numeric identifiers (including purely numeric prerelease
// identifiers) must not have leading zeros; no leading "v", no build
// metadata ("+…"), at most 128 bytes. It returns the Version, or a
// *SyntaxError of Kind "version" whose Offset is the byte where the problem
// is found.
func ParseVersion(s string) (Version, error) {
	if reason, off := checkVersion(s); reason != "" {
		return Version{}, synErr(KindVersion, s, reason, off)
	}
	return Version{s}, nil
}

// checkVersion validates the version grammar and returns ("", -1) or the
// reason and offset of the first problem.
func checkVersion(s string) (string, int) {
	if s == "" {
		return "empty", 0
	}
	if len(s) > MaxVersionLen {
		return "longer than 128 bytes", MaxVersionLen
	}
	if s[0] == 'v' || s[0] == 'V' {
		return "leading v not allowed", 0
	}
	i := 0
	for part := 0; part < 3; part++ {
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return "expected a number", i
		}
		if s[start] == '0' && i-start > 1 {
			return "leading zero", start
		}
		if part < 2 {
			if i >= len(s) {
				return "expected MAJOR.MINOR.PATCH", i
			}
			if s[i] != '.' {
				return "expected a dot", i
			}
			i++
		}
	}
	if i == len(s) {
		return "", -1
	}
	switch s[i] {
	case '+':
		return "build metadata not allowed", i
	case '-':
	case '.':
		return "a part after MAJOR.MINOR.PATCH (a prerelease follows a \"-\")", i
	default:
		return "unexpected character", i
	}
	i++
	for {
		start := i
		numeric := true
		for i < len(s) && s[i] != '.' {
			c := s[i]
			switch {
			case isDigit(c):
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-':
				numeric = false
			case c == '+':
				return "build metadata not allowed", i
			default:
				return "character not allowed in prerelease", i
			}
			i++
		}
		if i == start {
			return "empty prerelease identifier", i
		}
		if numeric && s[start] == '0' && i-start > 1 {
			return "leading zero in numeric prerelease identifier", start
		}
		if i == len(s) {
			return "", -1
		}
		i++ // the dot
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// String returns the version text ("" for the zero value).
func (v Version) String() string { return v.s }

// IsZero reports whether v is the zero (absent) version.
func (v Version) IsZero() bool { return v.s == "" }

// Major returns the MAJOR number as text ("" for the zero value).
func (v Version) Major() string { return v.core(0) }

// Minor returns the MINOR number as text ("" for the zero value).
func (v Version) Minor() string { return v.core(1) }

// Patch returns the PATCH number as text ("" for the zero value).
func (v Version) Patch() string { return v.core(2) }

// Prerelease returns the prerelease without its leading "-" ("" for a
// release version or the zero value).
func (v Version) Prerelease() string {
	_, pre, _ := strings.Cut(v.s, "-")
	return pre
}

// IsPrerelease reports whether v has a prerelease part.
func (v Version) IsPrerelease() bool { return strings.IndexByte(v.s, '-') >= 0 }

func (v Version) core(i int) string {
	if v.s == "" {
		return ""
	}
	c, _, _ := strings.Cut(v.s, "-")
	for ; i > 0; i-- {
		_, c, _ = strings.Cut(c, ".")
	}
	part, _, _ := strings.Cut(c, ".")
	return part
}

// Compare returns -1, 0 or +1 as v has lower, equal or higher SemVer 2.0.0
// precedence (SemVer §11) than o: MAJOR, MINOR and PATCH compare numerically; a
// prerelease version is lower than the release with the same numbers;
// prerelease identifiers compare left to right, numeric ones numerically,
// alphanumeric ones in ASCII order, numeric lower than alphanumeric, and a
// shorter list lower when it is a prefix of the longer. Without build
// metadata equal precedence means equal text. The zero Version sorts before
// every other.
func (v Version) Compare(o Version) int {
	if v.s == o.s {
		return 0
	}
	if v.s == "" {
		return -1
	}
	if o.s == "" {
		return 1
	}
	// Walk MAJOR.MINOR.PATCH in place, digit by digit (a Version is
	// valid, so each is digits and the first two end with a dot).
	a, b := v.s, o.s
	for i := 0; i < 3; i++ {
		na, nb := leadingDigits(a), leadingDigits(b)
		if c := compareNumeric(a[:na], b[:nb]); c != 0 {
			return c
		}
		a, b = strings.TrimPrefix(a[na:], "."), strings.TrimPrefix(b[nb:], ".")
	}
	vp, vHasPre := strings.CutPrefix(a, "-")
	op, oHasPre := strings.CutPrefix(b, "-")
	switch {
	case !vHasPre && !oHasPre:
		return 0
	case !vHasPre:
		return 1
	case !oHasPre:
		return -1
	}
	for {
		a, vRest, vMore := strings.Cut(vp, ".")
		b, oRest, oMore := strings.Cut(op, ".")
		if c := compareIdentifier(a, b); c != 0 {
			return c
		}
		switch {
		case !vMore && !oMore:
			return 0
		case !vMore:
			return -1
		case !oMore:
			return 1
		}
		vp, op = vRest, oRest
	}
}

// Less reports whether v has lower precedence than o.
func (v Version) Less(o Version) bool { return v.Compare(o) < 0 }

// leadingDigits returns the number of ASCII digits s starts with.
func leadingDigits(s string) int {
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return n
}

// compareNumeric compares two digit strings without leading zeros.
func compareNumeric(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// compareIdentifier compares two prerelease identifiers (SemVer 2.0.0 §11.4).
func compareIdentifier(a, b string) int {
	an, bn := allDigits(a), allDigits(b)
	switch {
	case an && bn:
		return compareNumeric(a, b)
	case an:
		return -1
	case bn:
		return 1
	}
	return strings.Compare(a, b)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// MarshalText implements encoding.TextMarshaler: the text, or empty text for
// the zero value. It never fails.
func (v Version) MarshalText() ([]byte, error) { return []byte(v.s), nil }

// UnmarshalText implements encoding.TextUnmarshaler: empty text gives the
// zero value, anything else is parsed with ParseVersion. On error v is
// unchanged and the *SyntaxError is returned.
func (v *Version) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*v = Version{}
		return nil
	}
	p, err := ParseVersion(string(text))
	if err != nil {
		return err
	}
	*v = p
	return nil
}
