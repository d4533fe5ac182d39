package lint_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

func versions(vs []vt.Version) string {
	var s []string
	for _, v := range vs {
		s = append(s, v.String())
	}
	return strings.Join(s, " ")
}

func TestStaticTree(t *testing.T) {
	var tree lint.StaticTree
	core, widget := mustCoordinate(t, "org.example.core"), mustCoordinate(t, "com.example.widget")
	if tree.Has(core) || len(tree.Releases(core)) != 0 || len(tree.Coordinates()) != 0 {
		t.Fatal("zero StaticTree is not empty")
	}
	tree.Add(core, mustVersion(t, "1.10.0"), mustVersion(t, "1.2.0"))
	tree.Add(widget)
	tree.Add(core, mustVersion(t, "1.2.0"), mustVersion(t, "1.9.0"))
	if got := versions(tree.Releases(core)); got != "1.2.0 1.9.0 1.10.0" {
		t.Errorf("Releases(core) = %s", got)
	}
	if !tree.Has(widget) || len(tree.Releases(widget)) != 0 {
		t.Error("widget without releases is not recorded")
	}
	if cs := tree.Coordinates(); len(cs) != 2 || cs[0] != widget || cs[1] != core {
		t.Errorf("Coordinates() = %v", cs)
	}
}

func TestStaticTreeSameReleases(t *testing.T) {
	core, widget, gone := mustCoordinate(t, "org.example.core"), mustCoordinate(t, "com.example.widget"), mustCoordinate(t, "com.example.gone")
	var a, b lint.StaticTree
	a.Add(core, mustVersion(t, "1.0.0"), mustVersion(t, "1.1.0"))
	b.Add(core, mustVersion(t, "1.1.0"), mustVersion(t, "1.0.0"))
	a.Add(widget, mustVersion(t, "2.0.0"))
	b.Add(widget, mustVersion(t, "2.0.1"))
	a.Add(gone)
	for _, tc := range []struct {
		c    vt.Coordinate
		want bool
	}{
		{core, true},    // the same versions, added in another order
		{widget, false}, // another version
		{gone, false},   // only in a, even without releases
		{mustCoordinate(t, "org.example.none"), true}, // in neither
	} {
		if got := a.SameReleases(&b, tc.c); got != tc.want {
			t.Errorf("SameReleases(%s) = %v, want %v", tc.c, got, tc.want)
		}
		if got := b.SameReleases(&a, tc.c); got != tc.want {
			t.Errorf("reversed, SameReleases(%s) = %v, want %v", tc.c, got, tc.want)
		}
	}
}

func TestTreeOfTakesLatestValidRevision(t *testing.T) {
	rev := func(jv, releases string) *syntax.Document {
		src := strings.Replace(header, "20260110T080000Z", jv, 1)
		for _, v := range strings.Fields(releases) {
			src += "\nRELEASE " + v + "\nLICENSE MIT\nCONTENT w.jar sha256:" + strings.Repeat("3", 64) + "\n"
		}
		return parse(t, jv+".journal", src)
	}
	invalid := rev("20260401T000000Z", "9.0.0")
	invalid.RevisionOK = false
	tree := lint.TreeOf([]*syntax.Document{rev("20260110T080000Z", "1.0.0"), rev("20260301T080000Z", "1.0.0 1.1.0"), rev("20260201T080000Z", "1.0.0 2.0.0"), invalid, nil})
	if got := versions(tree.Releases(mustCoordinate(t, "com.example.widget"))); got != "1.0.0 1.1.0" {
		t.Errorf("head releases = %q, want those of the latest valid revision", got)
	}
}

// TestAddTextAgreesWithAdd: a tree built with AddText (versions parsed on
// the first lookup) answers every question as one built with Add, also
// for versions out of order or repeated, a coordinate added twice, and
// lookups from several goroutines at once.
func TestAddTextAgreesWithAdd(t *testing.T) {
	type head struct {
		coord    string
		releases []string
	}
	heads := []head{
		{"org.example.a", []string{"2.0.0", "1.0.0", "2.0.0"}},
		{"org.example.b", nil},
		{"org.example.c", []string{"1.0.0-rc.1", "1.0.0"}},
		{"org.example.a", []string{"3.0.0"}},
		{"org.example.0", []string{"0.1.0"}},
	}
	var add, text lint.StaticTree
	for _, h := range heads {
		c := mustCoordinate(t, h.coord)
		var vs []vt.Version
		s := ""
		for _, r := range h.releases {
			v, err := vt.ParseVersion(r)
			if err != nil {
				t.Fatal(err)
			}
			vs = append(vs, v)
			s += r + "\n"
		}
		add.Add(c, vs...)
		text.AddText(c, s)
	}
	if got, want := text.Coordinates(), add.Coordinates(); !slices.Equal(got, want) {
		t.Fatalf("Coordinates: %v, want %v", got, want)
	}
	if text.CoordinatesDigest() != add.CoordinatesDigest() {
		t.Error("CoordinatesDigest differs")
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, name := range []string{"org.example.a", "org.example.b", "org.example.c", "org.example.0", "org.example.none"} {
				c := mustCoordinate(t, name)
				if text.Has(c) != add.Has(c) || text.View(c) != add.View(c) || !text.SameReleases(&add, c) ||
					!slices.EqualFunc(text.Releases(c), add.Releases(c), func(a, b vt.Version) bool { return a.String() == b.String() }) ||
					!text.HasView([]byte(name), []byte(add.View(c))) {
					t.Errorf("%s: the trees disagree: view %q, want %q", name, text.View(c), add.View(c))
				}
			}
		}()
	}
	wg.Wait()
}

// TestStaticTreeLooksUpWhileGrowing: a lookup between additions sees every
// coordinate added so far and none other, whatever the order of the
// additions (a lookup makes the tree's hash index, and an insertion in
// the middle moves the positions it holds).
func TestStaticTreeLooksUpWhileGrowing(t *testing.T) {
	var tree lint.StaticTree
	const n = 300
	name := func(i int) string { return fmt.Sprintf("com.acme.a%03d", (i*7919)%n) } // every one once, out of order
	for i := range n {
		c := mustCoordinate(t, name(i))
		if tree.Has(c) {
			t.Fatalf("%s found before it was added", c)
		}
		tree.AddText(c, fmt.Sprintf("1.%d.0\n", i))
		for j := 0; j <= i; j += 1 + i/10 {
			c := mustCoordinate(t, name(j))
			if !tree.Has(c) || versions(tree.Releases(c)) != fmt.Sprintf("1.%d.0", j) {
				t.Fatalf("after %d additions, %s: Has %v, Releases %q", i+1, c, tree.Has(c), versions(tree.Releases(c)))
			}
		}
	}
	if tree.Has(mustCoordinate(t, "com.acme.b000")) {
		t.Error("a coordinate never added is found")
	}
}
