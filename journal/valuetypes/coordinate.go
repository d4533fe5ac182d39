package valuetypes

import "strings"

// MaxCoordinateLen is the longest coordinate in bytes ("Values" in docs/journal-format.md).
const MaxCoordinateLen = 128

// Coordinate identifies an artifact, e.g. "com.example.widget" ("Values"
// in docs/journal-format.md). It is used verbatim as a directory name
// ("Filesystem layout" in docs/journal-format.md). The zero
// value is the absent coordinate.
type Coordinate struct{ s string }

// windowsDeviceNames are the first segments a coordinate must not have
// ("Values" in docs/journal-format.md):
// they cannot be directory names on Windows.
var windowsDeviceNames = map[string]bool{
	"con": true, "prn": true, "aux": true, "nul": true,
	"com0": true, "com1": true, "com2": true, "com3": true, "com4": true,
	"com5": true, "com6": true, "com7": true, "com8": true, "com9": true,
	"lpt0": true, "lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true,
	"lpt5": true, "lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true,
}

// IsWindowsDeviceName reports whether s, in any ASCII case, is a Windows
// device name (CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9), which Windows
// cannot use as a file or directory name. A coordinate's first segment must
// not be one ("Values" in docs/journal-format.md); the loader uses it to
// say why a file name is rejected.
func IsWindowsDeviceName(s string) bool { return windowsDeviceNames[strings.ToLower(s)] }

// ParseCoordinate parses s as a coordinate ("Values" in
// docs/journal-format.md): it must match
// ^[a-z0-9]+([_-][a-z0-9]+)*(\.[a-z0-9]+([_-][a-z0-9]+)*)+$, i.e. at least two
// dot-separated segments of lowercase letters and digits in which "_" and "-"
// only join two alphanumeric runs, be at most 128 bytes long, and its first
// segment must not be a Windows device name (con, prn, aux, nul, com0–com9,
// lpt0–lpt9). It returns the Coordinate, or a *SyntaxError of Kind
// "coordinate" whose Offset is the byte where the problem is found (the first
// segment's start for a device name, 128 for an over-long value, the end of s
// for a missing second segment).
func ParseCoordinate(s string) (Coordinate, error) {
	fail := func(reason string, off int) (Coordinate, error) {
		return Coordinate{}, synErr(KindCoordinate, s, reason, off)
	}
	if s == "" {
		return fail("empty", 0)
	}
	if len(s) > MaxCoordinateLen {
		return fail("longer than 128 bytes", MaxCoordinateLen)
	}
	segments := 1
	prevAlnum := false // the previous byte is [a-z0-9]
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			prevAlnum = true
		case c == '.' || c == '_' || c == '-':
			if !prevAlnum {
				if i == 0 || s[i-1] == '.' {
					if c == '.' {
						return fail("empty segment", i)
					}
					return fail("segment must start with a lowercase letter or digit", i)
				}
				return fail("separators must be between letters or digits", i)
			}
			if c == '.' {
				segments++
			}
			prevAlnum = false
		case c >= 'A' && c <= 'Z':
			return fail("uppercase letter", i)
		default:
			return fail("character not allowed", i)
		}
	}
	if !prevAlnum {
		if s[len(s)-1] == '.' {
			return fail("empty segment", len(s))
		}
		return fail("must end with a lowercase letter or digit", len(s)-1)
	}
	if segments < 2 {
		return fail("needs at least two dot-separated segments", len(s))
	}
	first, _, _ := strings.Cut(s, ".")
	if windowsDeviceNames[first] {
		return fail("first segment is a windows device name", 0)
	}
	return Coordinate{s}, nil
}

// String returns the coordinate text ("" for the zero value).
func (c Coordinate) String() string { return c.s }

// IsZero reports whether c is the zero (absent) coordinate.
func (c Coordinate) IsZero() bool { return c.s == "" }

// Compare returns -1, 0 or +1 as c sorts before, equal to or after o in byte
// order of their text; the zero value sorts first.
func (c Coordinate) Compare(o Coordinate) int { return strings.Compare(c.s, o.s) }

// MarshalText implements encoding.TextMarshaler: the text, or empty text for
// the zero value. It never fails.
func (c Coordinate) MarshalText() ([]byte, error) { return []byte(c.s), nil }

// UnmarshalText implements encoding.TextUnmarshaler: empty text gives the
// zero value, anything else is parsed with ParseCoordinate. On error c is
// unchanged and the *SyntaxError is returned.
func (c *Coordinate) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*c = Coordinate{}
		return nil
	}
	v, err := ParseCoordinate(string(text))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
