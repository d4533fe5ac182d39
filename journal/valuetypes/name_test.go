package valuetypes

import "testing"

func TestParseName(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"widget-1.4.2.jar", "a", "...", ".hidden", "A_B+c-d.e", "..a", repeat("x", 255)} {
		n, err := ParseName(s)
		if err != nil {
			t.Errorf("ParseName(%q): %v", s, err)
			continue
		}
		roundTrip(t, s, n, ParseName)
	}
	bad := []badCase{
		{"", 0}, {".", 0}, {"..", 0}, {"a/b", 1}, {"a\\b", 1}, {"a b", 1},
		{"a:b", 1}, {"ä", 0}, {"a\x00", 1}, {repeat("x", 256), 255},
	}
	for _, c := range bad {
		_, err := ParseName(c.in)
		checkBad(t, KindName, c, err)
	}
	a, _ := ParseName("A")
	b, _ := ParseName("a")
	if a.Compare(b) != -1 {
		t.Error("byte order")
	}
}
