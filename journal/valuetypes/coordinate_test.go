package valuetypes

import "testing"

func TestParseCoordinate(t *testing.T) {
	t.Parallel()
	good := []string{
		"com.example.widget", "a.b", "0.9", "org.example.core", "a_b.c-d",
		"a1_b2-c3.d4", "con1.example", "com10.x", "comx.y", "x.con", "lpt.x",
		"a." + repeat("b", 126),
	}
	for _, s := range good {
		c, err := ParseCoordinate(s)
		if err != nil {
			t.Errorf("ParseCoordinate(%q): %v", s, err)
			continue
		}
		roundTrip(t, s, c, ParseCoordinate)
		if c.IsZero() {
			t.Errorf("%q IsZero", s)
		}
	}
	bad := []badCase{
		{"", 0},
		{"widget", 6},
		{"Com.example", 0},
		{"com.Example", 4},
		{".com.example", 0},
		{"com..example", 4},
		{"com.example.", 12},
		{"com.example-", 11},
		{"-com.example", 0},
		{"com._x", 4},
		{"com.a__b", 6},
		{"com.a-_b", 6},
		{"com.a_.b", 6},
		{"com.ex ample", 6},
		{"com/example", 3},
		{"com.exämple", 6},
		{"con.example", 0},
		{"prn.x", 0},
		{"aux.x", 0},
		{"nul.x", 0},
		{"com0.x", 0},
		{"com9.x", 0},
		{"lpt0.x", 0},
		{"lpt9.x", 0},
		{"a." + repeat("b", 127), 128},
	}
	for _, c := range bad {
		_, err := ParseCoordinate(c.in)
		checkBad(t, KindCoordinate, c, err)
	}
}

func TestCoordinateCompare(t *testing.T) {
	t.Parallel()
	a, _ := ParseCoordinate("a.b")
	b, _ := ParseCoordinate("a.c")
	c, _ := ParseCoordinate("a_b.c")
	if a.Compare(b) != -1 || b.Compare(a) != 1 || a.Compare(a) != 0 {
		t.Error("byte order")
	}
	// '.' (0x2e) < '_' (0x5f): byte order, not segment order.
	if a.Compare(c) != -1 {
		t.Error("a.b should sort before a_b.c")
	}
	if (Coordinate{}).Compare(a) != -1 || !(Coordinate{}).IsZero() {
		t.Error("zero value")
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}
