package lint_test

import (
	"testing"

	"github.com/r35157/journal-lint/internal/lint"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// TestHasViewIsView: HasView(c, v) holds exactly when v is View(c), for
// the coordinates of one tree and of another, held or not.
func TestHasViewIsView(t *testing.T) {
	coord := func(s string) vt.Coordinate { c, _ := vt.ParseCoordinate(s); return c }
	version := func(s string) vt.Version { v, _ := vt.ParseVersion(s); return v }
	var a, b lint.StaticTree
	a.Add(coord("org.example.a"), version("1.0.0"), version("1.2.0"))
	a.Add(coord("org.example.b"))
	a.Add(coord("org.example.c"), version("1.0.0"))
	b.Add(coord("org.example.a"), version("1.0.0"))
	b.Add(coord("org.example.c"), version("1.0.0"), version("10.0.0"))
	b.Add(coord("org.example.d"), version("2.0.0"))
	cs := []string{"org.example.a", "org.example.b", "org.example.c", "org.example.d", "org.example.e"}
	views := []string{"", "+", "+1.0.0", "+1.0.0\n", "+1.0.0\n1.2.0\n", "1.0.0\n", "+1.0.0\n1.2.0", "+1.0.0\n1.2.0\nx"}
	for _, t1 := range []*lint.StaticTree{&a, &b} {
		for _, t2 := range []*lint.StaticTree{&a, &b} {
			for _, c := range cs {
				views = append(views, t2.View(coord(c)))
			}
		}
		for _, c := range cs {
			for _, v := range views {
				if got, want := t1.HasView([]byte(c), []byte(v)), t1.View(coord(c)) == v; got != want {
					t.Errorf("HasView(%s, %q) = %v, View is %q", c, v, got, t1.View(coord(c)))
				}
			}
		}
	}
}
