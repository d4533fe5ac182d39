package valuetypes

import (
	"errors"
	"strings"
	"testing"
)

// suggestion parses s with parse and returns the error's Suggestion and
// message; the value must be invalid.
func suggestion(t *testing.T, parse func(string) error, s string) (string, string) {
	t.Helper()
	err := parse(s)
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("%q: got %v, want a *SyntaxError", s, err)
	}
	return se.Suggestion, se.Error()
}

func TestLicenseSuggestions(t *testing.T) {
	parse := func(s string) error { _, err := ParseLicense(s); return err }
	tests := []struct{ in, want, hint string }{
		{"Apache 2.0", "Apache-2.0", `did you mean "Apache-2.0"?`},
		{"MIT/Apache-2.0", "MIT OR Apache-2.0", `write "MIT OR Apache-2.0"`},
		{"MIT / Apache 2.0", "MIT OR Apache-2.0", `write "MIT OR Apache-2.0"`},
		{"NoAssertion", "NOASSERTION", `did you mean "NOASSERTION"?`},
		{"none", "NONE", `did you mean "NONE"?`},
		{"MIT or Apache-2.0", "MIT OR Apache-2.0", `write "MIT OR Apache-2.0"`},
		{"Apach-2.0", "Apache-2.0", `did you mean "Apache-2.0"?`},
		{"GPL-2.0-or-latr+", "GPL-2.0-or-later+", ""},
		{"Apache-2.0 WITH LLVM-exeption", "Apache-2.0 WITH LLVM-exception", ""},
		{"MIT AND", "", ""},
		{"TotallyUnknownLicense", "", ""},
	}
	for _, tt := range tests {
		got, msg := suggestion(t, parse, tt.in)
		if got != tt.want {
			t.Errorf("%q: suggestion %q, want %q (%s)", tt.in, got, tt.want, msg)
			continue
		}
		if got != "" {
			if _, err := ParseLicense(got); err != nil {
				t.Errorf("%q: suggestion %q does not parse: %v", tt.in, got, err)
			}
		}
		if tt.hint != "" && !strings.HasSuffix(msg, "; "+tt.hint) {
			t.Errorf("%q: message %q does not end with %q", tt.in, msg, tt.hint)
		}
	}
}

func TestLicenseCanonicalCase(t *testing.T) {
	tests := []struct{ in, want string }{
		{"mit", "MIT"},
		{"MIT", "MIT"},
		{"apache-2.0 OR (mit AND bsd-3-clause)", "Apache-2.0 OR (MIT AND BSD-3-Clause)"},
		{"gpl-2.0+ WITH classpath-exception-2.0", "GPL-2.0+ WITH Classpath-exception-2.0"},
		{"LicenseRef-acme OR mit", "LicenseRef-acme OR MIT"},
		{"NOASSERTION", "NOASSERTION"},
	}
	for _, tt := range tests {
		l, err := ParseLicense(tt.in)
		if err != nil {
			t.Fatalf("%q: %v", tt.in, err)
		}
		if got := l.CanonicalCase().String(); got != tt.want {
			t.Errorf("%q: CanonicalCase %q, want %q", tt.in, got, tt.want)
		}
		if !l.CanonicalCase().Equivalent(l) {
			t.Errorf("%q: CanonicalCase is not equivalent", tt.in)
		}
	}
}

func TestLicenseWithoutDeprecated(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"GPL-3.0", "GPL-3.0-only", true},
		{"GPL-2.0+", "GPL-2.0-or-later", true},
		{"gpl-2.0 OR MIT", "GPL-2.0-only OR MIT", true},
		{"GPL-2.0-with-classpath-exception", "GPL-2.0-only WITH Classpath-exception-2.0", true},
		{"LGPL-2.1+ AND MIT", "LGPL-2.1-or-later AND MIT", true},
		{"MIT", "MIT", false},
		{"Net-SNMP", "Net-SNMP", false},
	}
	for _, tt := range tests {
		l, err := ParseLicense(tt.in)
		if err != nil {
			t.Fatalf("%q: %v", tt.in, err)
		}
		got, ok := l.WithoutDeprecated()
		if got.String() != tt.want || ok != tt.ok {
			t.Errorf("%q: WithoutDeprecated = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if ok && !got.Equivalent(l) {
			t.Errorf("%q: replacement %q is not equivalent", tt.in, got)
		}
	}
	if r, ok := DeprecatedReplacement("gpl-3.0"); !ok || r != "GPL-3.0-only" {
		t.Errorf(`DeprecatedReplacement("gpl-3.0") = %q, %v`, r, ok)
	}
	if _, ok := DeprecatedReplacement("MIT"); ok {
		t.Error(`DeprecatedReplacement("MIT") reports a replacement`)
	}
}

func TestDigestNamesEveryProblem(t *testing.T) {
	parse := func(s string) error { _, err := ParseDigest(s); return err }
	lower := strings.Repeat("ab", 32)
	tests := []struct{ in, want, reason string }{
		{"sha256:ABCD", "", "hex digits must be lowercase and expected 64 hex digits, found 4"},
		{"sha256:" + strings.ToUpper(lower), "sha256:" + lower, "hex digits must be lowercase"},
		{"SHA256:" + lower, "sha256:" + lower, "must start with sha256:"},
		{lower, "sha256:" + lower, "must start with sha256:"},
		{"sha256:abcx", "", "expected a hex digit and expected 64 hex digits, found 4"},
		{"sha256:" + lower + "00", "", "more than 64 hex digits (66)"},
	}
	for _, tt := range tests {
		got, msg := suggestion(t, parse, tt.in)
		if got != tt.want || !strings.Contains(msg, ": "+tt.reason) {
			t.Errorf("%q: suggestion %q, message %q; want %q and reason %q", tt.in, got, msg, tt.want, tt.reason)
		}
	}
}

func TestTimestampSuggestsBasicForm(t *testing.T) {
	parse := func(s string) error { _, err := ParseTimestamp(s); return err }
	tests := []struct{ in, want string }{
		{"2026-02-15", "20260215T000000Z"},
		{"2026-02-15T10:30:00Z", "20260215T103000Z"},
		{"2026-02-15T10:30:00+01:00", "20260215T093000Z"},
		{"2026-02-15 10:30:00", "20260215T103000Z"},
		{"20260215", "20260215T000000Z"},
		{"20260215T103000", "20260215T103000Z"},
		{"yesterday", ""},
		{"2026-02-30", ""},
	}
	for _, tt := range tests {
		got, msg := suggestion(t, parse, tt.in)
		if got != tt.want {
			t.Errorf("%q: suggestion %q, want %q (%s)", tt.in, got, tt.want, msg)
		}
		if got != "" && !strings.HasSuffix(msg, `; write the basic form "`+got+`" (UTC)`) {
			t.Errorf("%q: message %q does not name the basic form", tt.in, msg)
		}
	}
}

func TestConstraintSuggestsIntervals(t *testing.T) {
	parse := func(s string) error { _, err := ParseConstraint(s); return err }
	tests := []struct{ in, want string }{
		{">=1.0.0", "[1.0.0,)"},
		{">1.0.0", "(1.0.0,)"},
		{"<2.0.0", "(,2.0.0)"},
		{"<=2.0.0", "(,2.0.0]"},
		{">=1.0.0 <2.0.0", "[1.0.0,2.0.0)"},
		{">=1.0.0,<2.0.0", "[1.0.0,2.0.0)"},
		{"^1.2.3", "[1.2.3,2.0.0)"},
		{"^0.2.3", "[0.2.3,0.3.0)"},
		{"~1.2.3", "[1.2.3,1.3.0)"},
		{"=1.0.0", "1.0.0"},
		{">=v1.0.0", "[1.0.0,)"},
		{">=2.0.0 <1.0.0", ""},
		{"1.0", ""},
	}
	for _, tt := range tests {
		got, msg := suggestion(t, parse, tt.in)
		if got != tt.want {
			t.Errorf("%q: suggestion %q, want %q (%s)", tt.in, got, tt.want, msg)
		}
		if got != "" && !strings.Contains(msg, `write "`+got+`"`) {
			t.Errorf("%q: message %q does not show the interval", tt.in, msg)
		}
	}
}
