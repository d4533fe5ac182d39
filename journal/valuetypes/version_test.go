package valuetypes

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/Masterminds/semver/v3"
)

func TestParseVersion(t *testing.T) {
	t.Parallel()
	good := []string{
		"0.0.0", "1.4.2", "10.20.30", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-0.3.7",
		"1.0.0-x.7.z.92", "1.0.0-x-y-z.--", "1.0.0--", "1.0.0-0", "1.0.0-0a", "1.0.0-00a",
		"1.0.0-rc.1", "99999999999999999999999.0.0", "1.2.3-" + strings.Repeat("a", 122),
	}
	for _, s := range good {
		v, err := ParseVersion(s)
		if err != nil {
			t.Errorf("ParseVersion(%q): %v", s, err)
			continue
		}
		roundTrip(t, s, v, ParseVersion)
	}
	bad := []badCase{
		{"", 0},
		{"v1.0.0", 0},
		{"V1.0.0", 0},
		{"1", 1},
		{"1.0", 3},
		{"1.0.", 4},
		{"1..0", 2},
		{".1.0", 0},
		{"01.0.0", 0},
		{"1.01.0", 2},
		{"1.0.00", 4},
		{"1.0.0.0", 5},
		{"1.0.0+build", 5},
		{"1.0.0-alpha+build", 11},
		{"1.0.0-", 6},
		{"1.0.0-a..b", 8},
		{"1.0.0-a.", 8},
		{"1.0.0-01", 6},
		{"1.0.0-alpha.01", 12},
		{"1.0.0-al_pha", 8},
		{"1.0.0-é", 6},
		{"1.0.0 ", 5},
		{" 1.0.0", 0},
		{"1.a.0", 2},
		{"-1.0.0", 0},
		{"1.2.3-" + strings.Repeat("a", 123), 128},
	}
	for _, c := range bad {
		_, err := ParseVersion(c.in)
		checkBad(t, KindVersion, c, err)
	}
}

func TestVersionPrecedence(t *testing.T) {
	t.Parallel()
	// SemVer 2.0.0 §11 examples plus numeric ordering.
	chain := []string{
		"0.0.0", "0.9.0", "1.0.0-0", "1.0.0-1", "1.0.0-2", "1.0.0-10", "1.0.0-A", "1.0.0-Z",
		"1.0.0-a", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
		"1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0",
		"1.9.0", "1.10.0", "1.11.0", "2.0.0", "10.0.0",
		"18446744073709551615.0.0", "18446744073709551616.0.0", "100000000000000000000.0.0",
	}
	vs := make([]Version, len(chain))
	for i, s := range chain {
		v, err := ParseVersion(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		vs[i] = v
	}
	for i := range vs {
		for j := range vs {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := vs[i].Compare(vs[j]); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", vs[i], vs[j], got, want)
			}
		}
	}
	shuffled := slices.Clone(vs)
	rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	slices.SortFunc(shuffled, Version.Compare)
	if !slices.Equal(shuffled, vs) {
		t.Errorf("sorted = %v", shuffled)
	}
	if (Version{}).Compare(vs[0]) != -1 || vs[0].Compare(Version{}) != 1 || !vs[0].Less(vs[1]) {
		t.Error("zero value")
	}
	v, _ := ParseVersion("1.22.333-rc.1")
	if v.Major() != "1" || v.Minor() != "22" || v.Patch() != "333" || v.Prerelease() != "rc.1" || !v.IsPrerelease() {
		t.Error("accessors")
	}
}

// TestVersionPrecedenceAgreesWithMasterminds cross-checks Compare with
// github.com/Masterminds/semver/v3 for numbers that fit in uint64 and
// prerelease identifiers that are not long numbers.
func TestVersionPrecedenceAgreesWithMasterminds(t *testing.T) {
	t.Parallel()
	ids := []string{"0", "1", "2", "10", "11", "a", "b", "alpha", "beta", "rc", "A", "-", "0a", "1-x"}
	var all []string
	for _, core := range []string{"0.0.0", "1.0.0", "1.0.1", "1.10.0", "1.2.0"} {
		all = append(all, core)
		for _, a := range ids {
			all = append(all, core+"-"+a)
			for _, b := range ids[:6] {
				all = append(all, core+"-"+a+"."+b)
			}
		}
	}
	ours := make([]Version, len(all))
	theirs := make([]*semver.Version, len(all))
	for i, x := range all {
		v, err := ParseVersion(x)
		if err != nil {
			t.Fatalf("%q: %v", x, err)
		}
		ours[i], theirs[i] = v, semver.MustParse(x)
	}
	for i, x := range all {
		for j, y := range all {
			if got, want := ours[i].Compare(ours[j]), theirs[i].Compare(theirs[j]); got != want {
				t.Errorf("Compare(%s, %s) = %d, Masterminds says %d", x, y, got, want)
			}
		}
	}
}
