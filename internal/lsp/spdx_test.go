package lsp

import (
	"strings"
	"testing"

	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"
)

// The name table is generated from the same SPDX License List as the
// identifiers are checked against: a go-spdx upgrade without go generate
// fails here.
func TestSPDXNamesMatchTheList(t *testing.T) {
	if v := spdxlicenses.LicenseListVersion(); v != spdxListVersion {
		t.Fatalf("spdxnames.go is from list %s, go-spdx has %s: run go generate ./internal/lsp", spdxListVersion, v)
	}
	for _, ids := range [][]string{spdxlicenses.GetLicenses(), spdxlicenses.GetDeprecated(), spdxlicenses.GetExceptions()} {
		for _, id := range ids {
			if n, ok := spdxNames()[strings.ToUpper(id)]; !ok || n.id != id || n.name == "" {
				t.Errorf("%s: entry %+v", id, n)
			}
		}
	}
}

func TestLicenseHover(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{"MIT OR Apache-2.0", "- `MIT`: MIT License\n- `Apache-2.0`: Apache License 2.0\n"},
		{"(GPL-2.0+ WITH Classpath-exception-2.0) AND MIT AND MIT AND Apache-1.1+",
			"- `GPL-2.0+`: GNU General Public License v2.0 or later — deprecated identifier\n" +
				"- `Classpath-exception-2.0`: Classpath exception 2.0\n- `MIT`: MIT License\n" +
				"- `Apache-1.1+`: Apache License 1.1, or any later version\n"},
		{"mit", "- `mit`: MIT License (listed as `MIT`)\n"},
		{"LicenseRef-acme", "- `LicenseRef-acme`: a license defined by the publisher, not on the SPDX License List\n"},
		{"NOASSERTION", "- `NOASSERTION`: the license was not determined\n"},
		{"NONE", "- `NONE`: no license applies\n"},
	} {
		got := licenseHover(tc.expr)
		if !strings.Contains(got, "\n\n"+tc.want+"\n") {
			t.Errorf("%s:\n%s\nwant the lines\n%s", tc.expr, got, tc.want)
		}
	}
}
