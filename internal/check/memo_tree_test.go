package check

import (
	"maps"
	"slices"
	"testing"

	"github.com/r35157/journal-lint/internal/lint"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// TestTreeChangesNameWhatHeadRecordsMustLookUp: the comparison of a run's
// tree with the tree record of the run before (sinceTree) names every
// coordinate whose view differs, gained or lost ones included, and says
// whether the coordinates are the same: what a head record that stood in
// the earlier tree must be judged by again.
func TestTreeChangesNameWhatHeadRecordsMustLookUp(t *testing.T) {
	t.Parallel()
	tree := func(heads map[string][]string) *lint.StaticTree {
		st := &lint.StaticTree{}
		for _, c := range slices.Sorted(maps.Keys(heads)) {
			co, err := vt.ParseCoordinate(c)
			if err != nil {
				t.Fatal(err)
			}
			var vs []vt.Version
			for _, s := range heads[c] {
				v, err := vt.ParseVersion(s)
				if err != nil {
					t.Fatal(err)
				}
				vs = append(vs, v)
			}
			st.Add(co, vs...)
		}
		return st
	}
	base := map[string][]string{"org.example.a": {"1.0.0"}, "org.example.b": {"1.0.0", "2.0.0"}, "org.example.c": nil}
	with := func(c string, vs ...string) map[string][]string {
		m := maps.Clone(base)
		if vs == nil {
			delete(m, c)
		} else {
			m[c] = vs
		}
		return m
	}
	for _, tc := range []struct {
		what       string
		now        map[string][]string
		changed    []string
		sameCoords bool
	}{
		{"the same tree", base, nil, true},
		{"a release added", with("org.example.b", "1.0.0", "2.0.0", "3.0.0"), []string{"org.example.b"}, true},
		{"a release replaced", with("org.example.a", "1.0.1"), []string{"org.example.a"}, true},
		{"an artifact gained", with("org.example.d", "0.1.0"), []string{"org.example.d"}, false},
		{"an artifact lost", with("org.example.c"), []string{"org.example.c"}, false},
		{"its first release", with("org.example.c", "0.1.0"), []string{"org.example.c"}, true},
	} {
		ch := treeChanges(treeRecord(tree(base)), treeRecord(tree(tc.now)))
		if ch == nil {
			t.Fatalf("%s: the tree record does not decode", tc.what)
		}
		if got := slices.Sorted(maps.Keys(ch.changed)); !slices.Equal(got, tc.changed) || ch.sameCoords != tc.sameCoords {
			t.Errorf("%s: changed %q, same coordinates %v; want %q, %v", tc.what, got, ch.sameCoords, tc.changed, tc.sameCoords)
		}
	}
	if treeChanges([]byte("garbage"), treeRecord(tree(base))) != nil {
		t.Error("a tree record that does not decode was compared")
	}
}
