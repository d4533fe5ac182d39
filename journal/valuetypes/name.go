package valuetypes

import "strings"

// MaxNameLen is the longest content name in bytes ("Values" in docs/journal-format.md).
const MaxNameLen = 255

// Name is the file name of one content item of a release, e.g.
// "widget-1.4.2.jar" ("Values" in docs/journal-format.md, used by
// CONTENT). The zero value is the absent name.
type Name struct{ s string }

// ParseName parses s as a name ("Values" in docs/journal-format.md): it must match
// ^[A-Za-z0-9._+-]+$, be at most 255 bytes long and not be "." or "..". It
// returns the Name, or a *SyntaxError of Kind "name" whose Offset is the first
// disallowed byte (0 for empty, ".", ".."; 255 for an over-long value).
func ParseName(s string) (Name, error) {
	fail := func(reason string, off int) (Name, error) {
		return Name{}, synErr(KindName, s, reason, off)
	}
	if s == "" {
		return fail("empty", 0)
	}
	if len(s) > MaxNameLen {
		return fail("longer than 255 bytes", MaxNameLen)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == '+' || c == '-') {
			if c == '/' || c == '\\' {
				return fail("slash not allowed", i)
			}
			return fail("character not allowed", i)
		}
	}
	if s == "." || s == ".." {
		return fail("must not be . or ..", 0)
	}
	return Name{s}, nil
}

// String returns the name text ("" for the zero value).
func (n Name) String() string { return n.s }

// IsZero reports whether n is the zero (absent) name.
func (n Name) IsZero() bool { return n.s == "" }

// Compare returns -1, 0 or +1 as n sorts before, equal to or after o in byte
// order.
func (n Name) Compare(o Name) int { return strings.Compare(n.s, o.s) }

// MarshalText implements encoding.TextMarshaler: the text, or empty text for
// the zero value. It never fails.
func (n Name) MarshalText() ([]byte, error) { return []byte(n.s), nil }

// UnmarshalText implements encoding.TextUnmarshaler: empty text gives the
// zero value, anything else is parsed with ParseName. On error n is
// unchanged and the *SyntaxError is returned.
func (n *Name) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*n = Name{}
		return nil
	}
	v, err := ParseName(string(text))
	if err != nil {
		return err
	}
	*n = v
	return nil
}
