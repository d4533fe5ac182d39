package valuetypes

import (
	"slices"
	"strings"
	"testing"

	"github.com/github/go-spdx/v2/spdxexp"
)

func TestParseLicense(t *testing.T) {
	t.Parallel()
	good := []string{
		"MIT", "Apache-2.0", "MIT OR Apache-2.0", "mit", "apache-2.0 OR mit",
		"NOASSERTION", "NONE",
		"GPL-2.0-or-later", "GPL-2.0+", "GPL-2.0", "GPL-2.0-only+", "Apache-2.0+",
		"GPL-2.0-or-later WITH Classpath-exception-2.0",
		"GPL-2.0-with-classpath-exception",
		"LicenseRef-my.license-1", "DocumentRef-spdx-tool-1.2:LicenseRef-MIT-Style-2",
		"LicenseRef-x WITH Classpath-exception-2.0",
		"(MIT OR Apache-2.0) AND BSD-3-Clause",
		"((MIT))", "(MIT)AND(ISC)", "MIT  AND\tISC",
		"MIT AND ISC OR Apache-2.0 AND GPL-3.0-only WITH GCC-exception-3.1",
		"LGPL-2.1-only OR BSD-3-Clause AND MIT",
	}
	for _, s := range good {
		l, err := ParseLicense(s)
		if err != nil {
			t.Errorf("ParseLicense(%q): %v", s, err)
			continue
		}
		roundTrip(t, s, l, ParseLicense)
	}
	bad := []badCase{
		{"", 0},
		{" MIT", 0},
		{"MIT ", 3},
		{"MIT  \t", 3},
		{"NotALicense", 0},
		{"MIT OR NotALicense", 7},
		{"MIT-only", 0},
		{"Apache-2.0-or-later", 0},
		{"MIT or Apache-2.0", 4},
		{"MIT Or Apache-2.0", 4},
		{"MIT Apache-2.0", 4},
		{"MIT OR", 6},
		{"OR MIT", 0},
		{"MIT OR OR ISC", 7},
		{"MIT AND", 7},
		{"(MIT", 0},
		{"MIT)", 3},
		{"(MIT OR ISC", 0},
		{"()", 1},
		{"(MIT ISC)", 5},
		{"MIT WITH", 8},
		{"MIT WITH Apache-2.0", 9},
		{"MIT WITH NoSuchException", 9},
		{"MIT WITH (Classpath-exception-2.0)", 9},
		{"Classpath-exception-2.0", 0},
		{"(MIT) WITH Classpath-exception-2.0", 6},
		{"MIT WITH Classpath-exception-2.0 WITH Classpath-exception-2.0", 33},
		{"MIT +", 4},
		{"MIT++", 0},
		{"+", 0},
		{"LicenseRef-", 11},
		{"LicenseRef-a_b", 12},
		{"LicenseRef-a+", 12},
		{"licenseref-a", 0},
		{"DocumentRef-x", 13},
		{"DocumentRef-x:MIT", 14},
		{"DocumentRef-:LicenseRef-a", 12},
		{"DocumentRef-x:LicenseRef-", 25},
		{"NONE OR MIT", 0},
		{"MIT AND NOASSERTION", 8},
		{"none", 0},
		{"NoAssertion", 0},
		{"MIT,Apache-2.0", 0},
		{"MIT/Apache-2.0", 0},
		{strings.Repeat("(", 300) + "MIT" + strings.Repeat(")", 300), 256},
	}
	for _, c := range bad {
		_, err := ParseLicense(c.in)
		checkBad(t, KindLicense, c, err)
	}
}

// TestLicenseAgreesWithGoSPDX checks that what ParseLicense accepts (apart
// from our additions NOASSERTION, NONE, tabs and LicenseRef WITH) go-spdx
// also accepts.
func TestLicenseAgreesWithGoSPDX(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"MIT", "mit", "MIT OR Apache-2.0", "(MIT OR Apache-2.0) AND BSD-3-Clause",
		"GPL-2.0-or-later WITH Classpath-exception-2.0", "GPL-2.0+", "GPL-2.0",
		"LicenseRef-a", "DocumentRef-b:LicenseRef-a", "Apache-2.0+",
	} {
		if _, err := ParseLicense(s); err != nil {
			t.Errorf("ParseLicense(%q): %v", s, err)
		}
		if ok, bad := spdxexp.ValidateLicenses([]string{s}); !ok {
			t.Errorf("go-spdx rejects %q: %v", s, bad)
		}
	}
}

func TestLicenseDeprecated(t *testing.T) {
	t.Parallel()
	tests := map[string][]string{
		"MIT":      {},
		"NONE":     {},
		"GPL-2.0":  {"GPL-2.0"},
		"gpl-2.0+": {"GPL-2.0+"},
		"LGPL-3.0+ OR MIT OR GPL-2.0 AND GPL-2.0+ OR GPL-2.0": {"LGPL-3.0+", "GPL-2.0", "GPL-2.0+"},
		"AGPL-3.0+":                        {"AGPL-3.0"},
		"GPL-2.0-with-classpath-exception": {"GPL-2.0-with-classpath-exception"},
		"GPL-2.0-only":                     {},
	}
	for s, want := range tests {
		l, err := ParseLicense(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		got := l.DeprecatedIDs()
		if got == nil || !slices.Equal(got, want) {
			t.Errorf("%q DeprecatedIDs = %#v, want %v", s, got, want)
		}
		if l.IsDeprecated() != (len(want) > 0) {
			t.Errorf("%q IsDeprecated", s)
		}
	}
	n, _ := ParseLicense("NONE")
	na, _ := ParseLicense("NOASSERTION")
	if !n.IsNone() || n.IsNoAssertion() || !na.IsNoAssertion() || na.IsNone() {
		t.Error("IsNone/IsNoAssertion")
	}
	if LicenseListVersion() == "" {
		t.Error("LicenseListVersion")
	}
}

func TestLicenseEquivalent(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{"MIT OR Apache-2.0", "Apache-2.0 OR MIT"},
		{"MIT AND Apache-2.0", "Apache-2.0 AND MIT"},
		{"mit", "MIT"},
		{"(MIT)", "MIT"},
		{"MIT OR MIT", "MIT"},
		{"MIT AND MIT", "MIT"},
		{"MIT OR (MIT AND ISC)", "MIT"},
		{"MIT AND (ISC OR Apache-2.0)", "(MIT AND ISC) OR (Apache-2.0 AND MIT)"},
		{"MIT OR ISC AND Apache-2.0", "(Apache-2.0 AND ISC) OR MIT"},
		{"(MIT OR ISC) OR BSD-3-Clause", "MIT OR (ISC OR BSD-3-Clause)"},
		{"GPL-2.0+", "GPL-2.0-or-later"},
		{"GPL-2.0", "GPL-2.0-only"},
		{"GPL-2.0-only+", "GPL-2.0-or-later"},
		{"AGPL-3.0+", "AGPL-3.0-or-later"},
		{"LGPL-2.1+ OR MIT", "MIT OR LGPL-2.1-or-later"},
		{"GPL-2.0-with-classpath-exception", "GPL-2.0-only WITH Classpath-exception-2.0"},
		{"GPL-2.0 WITH Classpath-exception-2.0", "GPL-2.0-only WITH classpath-exception-2.0"},
		{"StandardML-NJ", "SMLNJ"},
		{"NONE", "NONE"},
		{"LicenseRef-a OR MIT", "MIT OR LicenseRef-a"},
	}
	for _, p := range same {
		a, err1 := ParseLicense(p[0])
		b, err2 := ParseLicense(p[1])
		if err1 != nil || err2 != nil {
			t.Fatalf("%q / %q: %v %v", p[0], p[1], err1, err2)
		}
		if !a.Equivalent(b) || !b.Equivalent(a) {
			t.Errorf("%q should be equivalent to %q", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"MIT", "Apache-2.0"},
		{"MIT OR Apache-2.0", "MIT AND Apache-2.0"},
		{"GPL-2.0", "GPL-2.0-or-later"},
		{"GPL-2.0-or-later", "GPL-3.0-only"},
		{"Apache-2.0", "Apache-2.0+"},
		{"GPL-2.0-only", "GPL-2.0-only WITH Classpath-exception-2.0"},
		{"NONE", "NOASSERTION"},
		{"NONE", "MIT"},
		{"LicenseRef-a", "LicenseRef-A"},
		{"LicenseRef-a", "DocumentRef-x:LicenseRef-a"},
		{"MIT AND (ISC OR Apache-2.0)", "MIT AND ISC OR Apache-2.0"},
	}
	for _, p := range differ {
		a, _ := ParseLicense(p[0])
		b, _ := ParseLicense(p[1])
		if a.Equivalent(b) || b.Equivalent(a) {
			t.Errorf("%q should not be equivalent to %q", p[0], p[1])
		}
	}
	if !(License{}).Equivalent(License{}) {
		t.Error("zero equivalent to zero")
	}
	// Expansion limit: 13 two-way ORs ANDed give 8192 alternatives.
	var parts []string
	for _, pair := range [][2]string{{"MIT", "ISC"}, {"0BSD", "Zlib"}, {"BSD-2-Clause", "BSD-3-Clause"},
		{"Apache-2.0", "MPL-2.0"}, {"GPL-2.0-only", "GPL-3.0-only"}, {"LGPL-2.1-only", "LGPL-3.0-only"},
		{"AGPL-3.0-only", "EPL-2.0"}, {"CC0-1.0", "Unlicense"}, {"BSL-1.0", "PostgreSQL"},
		{"Artistic-2.0", "EUPL-1.2"}, {"OFL-1.1", "Ruby"}, {"Vim", "WTFPL"}, {"X11", "NCSA"}} {
		parts = append(parts, "("+pair[0]+" OR "+pair[1]+")")
	}
	big, err := ParseLicense(strings.Join(parts, " AND "))
	if err != nil {
		t.Fatal(err)
	}
	big2, _ := ParseLicense(strings.Join(parts, " AND ") + " AND MIT")
	if !big.Equivalent(big) || big.Equivalent(big2) {
		t.Error("fallback to text comparison")
	}
}

// TestDeprecatedReplacementsAreListed checks that the replacement table only
// names IDs on go-spdx's lists.
func TestDeprecatedReplacementsAreListed(t *testing.T) {
	t.Parallel()
	for dep, repl := range deprecatedReplacement {
		if canon, isDep, ok := lookupLicense(dep); !ok || !isDep || canon != dep {
			t.Errorf("%q is not a deprecated ID", dep)
		}
		l, err := ParseLicense(repl)
		if err != nil {
			t.Errorf("replacement %q: %v", repl, err)
			continue
		}
		if l.IsDeprecated() {
			t.Errorf("replacement %q is deprecated", repl)
		}
	}
}
