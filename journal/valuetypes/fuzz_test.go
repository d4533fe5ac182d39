package valuetypes

import (
	"encoding"
	"errors"
	"strings"
	"testing"

	"github.com/Masterminds/semver/v3"
)

// fuzzParse checks a parser on one input: it must not panic; on success the
// value round-trips through String, Parse and the text (un)marshalers; on
// failure it returns a *SyntaxError of kind with a sane Offset.
func fuzzParse[T comparable, P interface {
	*T
	encoding.TextUnmarshaler
}](t *testing.T, kind, in string, parse func(string) (T, error)) {
	x, err := parse(in)
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) || se.Kind != kind || se.Value != in || se.Reason == "" ||
			se.Offset < -1 || se.Offset > len(in) {
			t.Fatalf("%s %q: bad error %#v", kind, in, err)
		}
		var zero T
		if x != zero {
			t.Fatalf("%s %q: non-zero value with error", kind, in)
		}
		return
	}
	s := any(x).(stringer).String()
	if s != in {
		t.Fatalf("%s %q: String() = %q", kind, in, s)
	}
	y, err := parse(s)
	if err != nil || y != x {
		t.Fatalf("%s %q: re-parse gives %v, %v", kind, in, y, err)
	}
	text, err := any(x).(encoding.TextMarshaler).MarshalText()
	if err != nil {
		t.Fatalf("%s %q: MarshalText: %v", kind, in, err)
	}
	var z T
	if err := P(&z).UnmarshalText(text); err != nil || z != x {
		t.Fatalf("%s %q: UnmarshalText gives %v, %v", kind, in, z, err)
	}
}

func FuzzParseCoordinate(f *testing.F) {
	for _, s := range []string{"com.example.widget", "a.b", "con.x", "a..b", "A.b", "a_b-c.d", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { fuzzParse[Coordinate](t, KindCoordinate, s, ParseCoordinate) })
}

func FuzzParseTimestamp(f *testing.F) {
	for _, s := range []string{"20261129T143000Z", "20240229T000000Z", "20250229T000000Z", "19691231T235959Z", "99991231T235959Z", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzParse[Timestamp](t, KindTimestamp, s, ParseTimestamp)
		if ts, err := ParseTimestamp(s); err == nil && TimestampOf(ts.Time()) != ts {
			t.Fatalf("%q: TimestampOf(Time()) differs", s)
		}
	})
}

func FuzzParseDigest(f *testing.F) {
	for _, s := range []string{"sha256:" + strings.Repeat("ab", 32), "sha256:" + strings.Repeat("AB", 32), "sha256:", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzParse[Digest](t, KindDigest, s, ParseDigest)
		// The one-pass parse takes exactly the well-formed digests.
		d, err := ParseDigest(s)
		if fast, ok := parseDigestFast(s); ok != (err == nil) || ok && (fast != d || fast.String() != s) {
			t.Fatalf("%q: parseDigestFast = %v, %v; ParseDigest = %v, %v", s, fast, ok, d, err)
		}
	})
}

func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"1.0.0", "1.0.0-alpha.1", "01.0.0", "1.0.0+b", "v1.0.0", "1.0.0-0a.00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { fuzzParse[Version](t, KindVersion, s, ParseVersion) })
}

// FuzzVersionCompare checks Compare against Masterminds/semver where that
// library is reliable (numbers of at most 18 digits), and that Compare is
// antisymmetric.
func FuzzVersionCompare(f *testing.F) {
	f.Add("1.0.0-alpha", "1.0.0-alpha.1")
	f.Add("1.0.0-beta.11", "1.0.0-beta.2")
	f.Add("1.0.0", "1.0.0-rc.1")
	f.Add("1.10.0", "1.9.0")
	f.Fuzz(func(t *testing.T, a, b string) {
		va, errA := ParseVersion(a)
		vb, errB := ParseVersion(b)
		if errA != nil || errB != nil {
			return
		}
		c := va.Compare(vb)
		if vb.Compare(va) != -c || (c == 0) != (va == vb) {
			t.Fatalf("Compare(%q, %q) = %d not antisymmetric", a, b, c)
		}
		if longNumber(a) || longNumber(b) {
			return
		}
		ma, err1 := semver.StrictNewVersion(a)
		mb, err2 := semver.StrictNewVersion(b)
		if err1 != nil || err2 != nil {
			return
		}
		if want := ma.Compare(mb); c != want {
			t.Fatalf("Compare(%q, %q) = %d, Masterminds says %d", a, b, c, want)
		}
	})
}

// longNumber reports whether s has a run of more than 18 digits.
func longNumber(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			run++
			if run > 18 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{"1.4.2", "[1.2.0,2.0.0)", "(,1.0.0]", "[1.5.0,)", "[1.0.0,1.2.0),[1.3.0,2.0.0)",
		"[1.0.0,2.0.0),(2.0.0,3.0.0)", "[1.0.0,2.0.0),[2.0.0,3.0.0)", "(,)", ""} {
		f.Add(s, "1.5.0")
	}
	f.Fuzz(func(t *testing.T, s, v string) {
		fuzzParse[Constraint](t, KindConstraint, s, ParseConstraint)
		c, err := ParseConstraint(s)
		ver, err2 := ParseVersion(v)
		if err != nil || err2 != nil {
			return
		}
		in := false
		ivs := c.Intervals()
		for i, iv := range ivs {
			if iv.Contains(ver) {
				if in {
					t.Fatalf("%q: %q in two intervals", s, v)
				}
				in = true
			}
			if i > 0 && ivs[i-1].Upper.Compare(iv.Lower) > 0 {
				t.Fatalf("%q: intervals not ascending", s)
			}
		}
		if in != c.Contains(ver) {
			t.Fatalf("%q Contains(%q) inconsistent", s, v)
		}
	})
}

func FuzzParseLicense(f *testing.F) {
	for _, s := range []string{"MIT", "MIT OR Apache-2.0", "(MIT AND ISC) OR GPL-2.0+", "GPL-2.0-or-later WITH Classpath-exception-2.0",
		"LicenseRef-x", "DocumentRef-a:LicenseRef-b", "NONE", "NOASSERTION", "MIT or ISC", "((MIT)", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzParse[License](t, KindLicense, s, ParseLicense)
		if l, err := ParseLicense(s); err == nil {
			if !l.Equivalent(l) {
				t.Fatalf("%q not equivalent to itself", s)
			}
			_ = l.DeprecatedIDs()
		}
	})
}

func FuzzParseURI(f *testing.F) {
	for _, s := range []string{"https://example.org/a?b#c", "urn:x:y", "git+ssh://git@h/r.git", "https://[::1]:8/", "a b:c", "http://%zz", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzParse[URI](t, KindURI, s, ParseURI)
		if u, err := ParseURI(s); err == nil && !strings.HasPrefix(s, u.Scheme()+":") {
			t.Fatalf("%q: Scheme %q", s, u.Scheme())
		}
	})
}

func FuzzParseName(f *testing.F) {
	for _, s := range []string{"widget-1.4.2.jar", ".", "..", "a/b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { fuzzParse[Name](t, KindName, s, ParseName) })
}

func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{"allow", "deprecated", "deny", "Allow", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVerdict(s)
		if err == nil {
			if v.String() != s || !v.IsValid() {
				t.Fatalf("%q: %v", s, v)
			}
			return
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Kind != KindVerdict || v != VerdictInvalid {
			t.Fatalf("%q: %v", s, err)
		}
	})
}
