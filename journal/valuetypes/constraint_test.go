package valuetypes

import (
	"slices"
	"testing"
)

func TestParseConstraint(t *testing.T) {
	t.Parallel()
	good := []string{
		"1.4.2", "2.0.1", "1.0.0-rc.1",
		"[1.2.0,2.0.0)", "(,1.0.0]", "(,1.0.0)", "[1.5.0,)", "(1.5.0,)", "(1.0.0,2.0.0]",
		"[1.0.0,1.0.1]", "[1.0.0-alpha,1.0.0]",
		"[1.0.0,1.2.0),[1.3.0,2.0.0)",
		"[1.2.0,1.3.0),[1.4.0,2.0.0)",
		"(,1.0.0),(1.0.0,)", // everything but 1.0.0
		"[1.0.0,2.0.0),(2.0.0,3.0.0)",
		"(,1.0.0],[1.1.0,1.2.0],(1.3.0,)",
		"[1.0.0,2.0.0],[2.0.1-0,3.0.0)",
	}
	for _, s := range good {
		c, err := ParseConstraint(s)
		if err != nil {
			t.Errorf("ParseConstraint(%q): %v", s, err)
			continue
		}
		roundTrip(t, s, c, ParseConstraint)
	}
	bad := []badCase{
		{"", 0},
		{" 1.0.0", 0},
		{"1.0.0 ", 5},
		{"v1.0.0", 0},
		{"1.0", 3},
		{"1.0.0+b", 5},
		{"1.0.0,2.0.0", 0},
		{"[1.0.0, 2.0.0)", 7},
		{"[1.0.0,2.0.0) ", 13},
		{"[1.0.0,2.0.0), [3.0.0,)", 14},
		{"[1.0.0,2.0.0)[3.0.0,)", 13},
		{"[1.0.0,2.0.0);[3.0.0,)", 13},
		{"[1.0.0,2.0.0),", 14},
		{"[1.0.0,2.0.0", 12},
		{"[1.0.0]", 6},
		{"[1.0.0)", 6},
		{"[1.0.0", 6},
		{"[,1.0.0]", 0},
		{"[1.0.0,]", 7},
		{"(,)", 0},
		{"[,]", 0},
		{"(1.0.0,1.0.0)", 0},
		{"[1.0.0,1.0.0]", 0},
		{"[2.0.0,1.0.0)", 0},
		{"[1.0.0-rc.1,1.0.0-beta)", 0},
		{"[1.0.0,2.0.0,3.0.0)", 12},
		{"{1.0.0,2.0.0)", 0},
		{"[1.0.0,2.0.0}", 12},
		{"[01.0.0,2.0.0)", 1},
		{"[1.0.0,2.0.0-01)", 13},
		{"[1.0.0,v2.0.0)", 7},
		{"[1.0.0,2.0.0),[2.0.0,3.0.0)", 14}, // touch
		{"[1.0.0,2.0.0],(2.0.0,3.0.0)", 14}, // touch
		{"[1.0.0,2.0.0],[2.0.0,3.0.0)", 14}, // overlap at 2.0.0
		{"[1.0.0,2.0.0),[1.5.0,3.0.0)", 14}, // overlap
		{"[2.0.0,3.0.0),[1.0.0,1.5.0)", 14}, // descending
		{"[1.0.0,),[2.0.0,3.0.0)", 9},       // open upper not last
		{"[1.0.0,2.0.0),(,3.0.0)", 14},      // open lower not first
		{"(,1.0.0],(,2.0.0]", 9},
	}
	for _, c := range bad {
		_, err := ParseConstraint(c.in)
		checkBad(t, KindConstraint, c, err)
	}
}

func TestConstraintContains(t *testing.T) {
	t.Parallel()
	tests := []struct {
		c      string
		in     []string
		out    []string
		exact  bool
		nIvals int
	}{
		{"1.4.2", []string{"1.4.2"}, []string{"1.4.1", "1.4.3", "1.4.2-rc.1"}, true, 1},
		{"[1.2.0,2.0.0)", []string{"1.2.0", "1.9.99", "2.0.0-rc.1", "1.5.0-beta"}, []string{"1.2.0-rc.1", "2.0.0", "1.1.9", "3.0.0"}, false, 1},
		{"(,1.0.0]", []string{"0.0.0", "1.0.0", "1.0.0-rc.1"}, []string{"1.0.1"}, false, 1},
		{"(,1.0.0)", []string{"0.9.9", "1.0.0-0"}, []string{"1.0.0"}, false, 1},
		{"[1.5.0,)", []string{"1.5.0", "99999999999999999999.0.0"}, []string{"1.5.0-rc.1", "1.4.9"}, false, 1},
		{"(1.5.0,)", []string{"1.5.1", "1.5.1-0"}, []string{"1.5.0"}, false, 1},
		{"(1.0.0,2.0.0]", []string{"2.0.0", "1.0.1"}, []string{"1.0.0", "2.0.1"}, false, 1},
		{"[1.0.0,1.2.0),[1.3.0,2.0.0)", []string{"1.0.0", "1.1.9", "1.3.0", "1.9.0"}, []string{"1.2.0", "1.2.5", "2.0.0", "0.9.0"}, false, 2},
		{"(,1.0.0),(1.0.0,)", []string{"0.1.0", "1.0.1", "1.0.0-rc.1"}, []string{"1.0.0"}, false, 2},
	}
	for _, tc := range tests {
		c, err := ParseConstraint(tc.c)
		if err != nil {
			t.Fatalf("%q: %v", tc.c, err)
		}
		if c.IsExact() != tc.exact {
			t.Errorf("%q IsExact = %v", tc.c, c.IsExact())
		}
		if v, ok := c.Exact(); ok != tc.exact || ok && v.String() != tc.c {
			t.Errorf("%q Exact = %v, %v", tc.c, v, ok)
		}
		if n := len(c.Intervals()); n != tc.nIvals {
			t.Errorf("%q has %d intervals", tc.c, n)
		}
		for _, s := range tc.in {
			v, _ := ParseVersion(s)
			if !c.Contains(v) {
				t.Errorf("%q should contain %q", tc.c, s)
			}
		}
		for _, s := range tc.out {
			v, _ := ParseVersion(s)
			if c.Contains(v) {
				t.Errorf("%q should not contain %q", tc.c, s)
			}
		}
		// ContainsAny agrees with Contains on every sorted subset of the
		// versions above.
		var all []Version
		for _, s := range append(append([]string{}, tc.in...), tc.out...) {
			v, _ := ParseVersion(s)
			all = append(all, v)
		}
		slices.SortFunc(all, Version.Compare)
		for mask := 0; mask < 1<<len(all); mask++ {
			var sub []Version
			want := false
			for i, v := range all {
				if mask&(1<<i) != 0 {
					sub = append(sub, v)
					want = want || c.Contains(v)
				}
			}
			if got := c.ContainsAny(sub); got != want {
				t.Errorf("%q ContainsAny(%v) = %v, want %v", tc.c, sub, got, want)
			}
		}
		if c.Contains(Version{}) {
			t.Errorf("%q contains the zero Version", tc.c)
		}
	}
	v, _ := ParseVersion("1.0.0")
	if (Constraint{}).Contains(v) || !(Constraint{}).IsZero() || (Constraint{}).IsExact() {
		t.Error("zero Constraint")
	}
	c, _ := ParseConstraint("[1.0.0,1.2.0),(,)"[:13] + ",[1.3.0,)")
	want := []string{"[1.0.0,1.2.0)", "[1.3.0,)"}
	var got []string
	for _, iv := range c.Intervals() {
		got = append(got, iv.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("Intervals = %v", got)
	}
}
