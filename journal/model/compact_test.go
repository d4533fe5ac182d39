package model

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// sampleWords are the strings of sampleRevision, to be cut from a text.
const sampleWords = " com.example.widget 1.2.3 MIT OR Apache-2.0 lib.jar [1.0.0,2.0.0) com.example.base 1.0.0 2.0.0 " +
	"https://example.com/w org.example.old a reason another reason widget description release description dep description " +
	"changed description"

// sampleRevision builds a revision whose every string is cut from text
// (which holds sampleWords): a header with a policy and releases 1.2.3
// (with its own policy and every kind of list) and 1.0.0 (inheriting the
// header's policy). With later, it is a successor: 1.0.0 has another
// description and a release 2.0.0 follows. headerVerdict is the header
// policy's verdict.
func sampleRevision(t *testing.T, text string, later bool, headerVerdict vt.Verdict) Revision {
	t.Helper()
	at := func(word string) string {
		t.Helper()
		i := strings.Index(text, word)
		if i < 0 {
			t.Fatalf("%q not in text", word)
		}
		return text[i : i+len(word)]
	}
	coord := must(vt.ParseCoordinate(at("com.example.widget")))
	base := must(vt.ParseCoordinate(at("com.example.base")))
	old := must(vt.ParseCoordinate(at("org.example.old")))
	ver := must(vt.ParseVersion(at("1.2.3")))
	pref := must(vt.ParseVersion(at("1.0.0 ")[:5]))
	lic := must(vt.ParseLicense(at("MIT OR Apache-2.0")))
	name := must(vt.ParseName(at("lib.jar")))
	con := must(vt.ParseConstraint(at("[1.0.0,2.0.0)")))
	uri := must(vt.ParseURI(at("https://example.com/w")))
	headerPolicy := NewPolicy(headerVerdict, at("a reason"))
	ownPolicy := NewPolicy(vt.Deny, at("another reason"))
	withOwn := NewRelease(ReleaseSpec{Version: ver, License: lic, Description: at("release description"),
		Contents: []Content{NewContent(name, vt.DigestOf([]byte("x")))},
		Depends:  []Dependency{NewDependency(base, con, at("dep description"))},
		Excludes: []Exclusion{NewExclusion(old, "")},
		Prefers:  []Preference{NewPreference(base, pref, "")},
		Policy:   &ownPolicy})
	spec := ReleaseSpec{Version: pref, License: lic, Contents: []Content{NewContent(name, vt.DigestOf([]byte("y")))},
		Description: at("release description")}
	if later {
		spec.Description = at("changed description")
	}
	releases := []Release{withOwn, NewRelease(spec)}
	if later {
		releases = append(releases, NewRelease(ReleaseSpec{Version: must(vt.ParseVersion(at("2.0.0"))), License: lic}))
	}
	return NewRevision(RevisionSpec{Coordinate: coord, Description: at("widget description"), Info: &uri,
		Policy: &headerPolicy, Releases: releases})
}

// eachRevisionString calls f on every string of r: its header's and its
// releases'.
func eachRevisionString(r *Revision, f func(string)) {
	g := func(s string) string { f(s); return s }
	eachHeaderString(&r.spec, g, false)
	for i := range r.spec.Releases {
		r.spec.Releases[i].eachString(g, false)
	}
}

// notInto reports, for every non-empty string of r that points into one
// of texts, an error, and returns how many non-empty strings r has.
func notInto(t *testing.T, r Revision, texts ...string) int {
	t.Helper()
	n := 0
	eachRevisionString(&r, func(s string) {
		if s == "" {
			return
		}
		n++
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		for _, text := range texts {
			if lo := uintptr(unsafe.Pointer(unsafe.StringData(text))); p >= lo && p < lo+uintptr(len(text)) {
				t.Errorf("%q still points into a text", s)
			}
		}
	})
	return n
}

var allFields = cmp.Exporter(func(reflect.Type) bool { return true })

// TestCompact checks that a compacted revision is equal to the original,
// and that none of its strings points into the text the original's values
// were cut from.
func TestCompact(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("x", 64) + sampleWords
	r := sampleRevision(t, text, false, vt.Deprecated)

	c := r.Compact(nil)
	if d := cmp.Diff(r, c, allFields); d != "" {
		t.Errorf("Compact changed the revision (-before +after):\n%s", d)
	}
	if n := notInto(t, c, text); n < 15 {
		t.Errorf("only %d strings visited", n)
	}
	// The original is untouched: its strings still point into the text.
	if notInto(t, r) != notInto(t, c) {
		t.Error("the compacted revision has other strings")
	}
	if p := uintptr(unsafe.Pointer(unsafe.StringData(r.Coordinate().String()))); p < uintptr(unsafe.Pointer(unsafe.StringData(text))) ||
		p >= uintptr(unsafe.Pointer(unsafe.StringData(text)))+uintptr(len(text)) {
		t.Error("Compact changed the original revision")
	}

	// A second revision compacted with the same Compactor shares the
	// first's copies of equal strings.
	var shared Compactor
	first := r.Compact(&shared)
	second := r.Compact(&shared)
	if a, b := unsafe.StringData(first.Coordinate().String()), unsafe.StringData(second.Coordinate().String()); a != b {
		t.Error("the second compacted revision does not share the first's coordinate")
	}
	if d := cmp.Diff(r, second, allFields); d != "" {
		t.Errorf("Compact with a Compactor changed the revision (-before +after):\n%s", d)
	}
}

// TestCompactReusesEqualReleases checks that revisions compacted with
// one Compactor share the compacted releases that are equal to an
// earlier one's, and only those, and stay equal to their originals with
// no string in any text.
func TestCompactReusesEqualReleases(t *testing.T) {
	t.Parallel()
	text1 := strings.Repeat("x", 64) + sampleWords
	text2, text3, text4 := strings.Clone(text1), strings.Clone(text1), strings.Clone(text1)
	texts := []string{text1, text2, text3, text4}
	var c Compactor
	r1 := sampleRevision(t, text1, false, vt.Deprecated)
	r2 := sampleRevision(t, text2, true, vt.Deprecated) // 1.0.0 changed, 2.0.0 added
	r3 := sampleRevision(t, text3, true, vt.Deprecated) // equal to r2
	r4 := sampleRevision(t, text4, true, vt.Deny)       // another header policy
	c1, c2, c3, c4 := r1.Compact(&c), r2.Compact(&c), r3.Compact(&c), r4.Compact(&c)
	for i, pair := range [][2]Revision{{r1, c1}, {r2, c2}, {r3, c3}, {r4, c4}} {
		if d := cmp.Diff(pair[0], pair[1], allFields); d != "" {
			t.Errorf("revision %d: Compact changed it (-before +after):\n%s", i+1, d)
		}
		notInto(t, pair[1], texts...)
	}
	// shares reports whether a and b hold the same compacted release (one
	// array of contents).
	shares := func(a, b Revision, i int) bool {
		return unsafe.SliceData(a.spec.Releases[i].spec.Contents) == unsafe.SliceData(b.spec.Releases[i].spec.Contents)
	}
	for _, tc := range []struct {
		what string
		a, b Revision
		i    int
		want bool
	}{
		{"1.2.3 unchanged", c1, c2, 0, true},
		{"1.0.0 with another description", c1, c2, 1, false},
		{"1.2.3 in an equal revision", c2, c3, 0, true},
		{"1.0.0 in an equal revision", c2, c3, 1, true},
		{"2.0.0 in an equal revision", c2, c3, 2, true},
		{"1.2.3 with its own policy, header policy changed", c3, c4, 0, true},
		{"1.0.0 inheriting the changed header policy", c3, c4, 1, false},
	} {
		if got := shares(tc.a, tc.b, tc.i); got != tc.want {
			t.Errorf("%s: shared %v, want %v", tc.what, got, tc.want)
		}
	}
	// An equal revision shares the list of releases itself.
	sharesList := func(a, b Revision) bool {
		return unsafe.SliceData(a.spec.Releases) == unsafe.SliceData(b.spec.Releases)
	}
	if sharesList(c1, c2) || !sharesList(c2, c3) || sharesList(c3, c4) {
		t.Errorf("lists shared: 1-2 %v (want false), 2-3 %v (want true), 3-4 %v (want false)", sharesList(c1, c2), sharesList(c2, c3), sharesList(c3, c4))
	}
	// The same releases in another order share the releases, not the list.
	swapped := sampleRevision(t, strings.Clone(text1), true, vt.Deny)
	swapped.spec.Releases[0], swapped.spec.Releases[1] = swapped.spec.Releases[1], swapped.spec.Releases[0]
	swapped.byVersion = []int{0, 1, 2}
	if c5 := swapped.Compact(&c); sharesList(c4, c5) || !shares(c4, c5, 2) {
		t.Error("releases in another order: the list is shared, or the releases are not")
	} else if d := cmp.Diff(swapped, c5, allFields); d != "" {
		t.Errorf("releases in another order: Compact changed the revision (-before +after):\n%s", d)
	}
	if p := c4.Releases()[1].EffectivePolicy(); p.Verdict() != vt.Deny {
		t.Errorf("1.0.0 after the header policy changed: effective %v, want deny", p.Verdict())
	}

	// After a Reset, nothing is shared with what came before.
	c.Reset()
	if c5 := r3.Compact(&c); shares(c3, c5, 0) || unsafe.StringData(c5.Coordinate().String()) == unsafe.StringData(c3.Coordinate().String()) {
		t.Error("a revision compacted after Reset shares with one compacted before")
	} else if d := cmp.Diff(r3, c5, allFields); d != "" {
		t.Errorf("after Reset, Compact changed the revision (-before +after):\n%s", d)
	}
}

// TestReleaseEqual checks that Release.equal, which decides whether
// Compact shares a release, tells apart releases that differ in any one
// field, and that it still compares every field the types have.
func TestReleaseEqual(t *testing.T) {
	t.Parallel()
	if n, m := reflect.TypeFor[Release]().NumField(), reflect.TypeFor[ReleaseSpec]().NumField(); n != 2 || m != 9 {
		t.Fatalf("Release has %d fields and ReleaseSpec %d: make Release.equal compare the new ones, then update this test", n, m)
	}
	coord := must(vt.ParseCoordinate("com.example.base"))
	other := must(vt.ParseCoordinate("com.example.other"))
	ver := must(vt.ParseVersion("1.0.0"))
	name := must(vt.ParseName("lib.jar"))
	con := must(vt.ParseConstraint("[1.0.0,2.0.0)"))
	when := must(vt.ParseTimestamp("20260110T080000Z"))
	policy := NewPolicy(vt.Deny, "why")
	spec := func() ReleaseSpec {
		p := policy
		return ReleaseSpec{Version: ver, License: must(vt.ParseLicense("MIT")), Description: "d", Published: when, Policy: &p,
			Contents: []Content{NewContent(name, vt.DigestOf([]byte("x")))},
			Depends:  []Dependency{NewDependency(coord, con, "dd")},
			Excludes: []Exclusion{NewExclusion(other, "ed")},
			Prefers:  []Preference{NewPreference(coord, ver, "pd")}}
	}
	base := NewRelease(spec())
	if twin := NewRelease(spec()); !base.equal(&twin) {
		t.Fatal("a release is not equal to its twin")
	}
	for what, change := range map[string]func(*ReleaseSpec){
		"version":     func(s *ReleaseSpec) { s.Version = must(vt.ParseVersion("1.0.1")) },
		"license":     func(s *ReleaseSpec) { s.License = must(vt.ParseLicense("ISC")) },
		"description": func(s *ReleaseSpec) { s.Description = "e" },
		"published":   func(s *ReleaseSpec) { s.Published = vt.Timestamp{} },
		"no policy":   func(s *ReleaseSpec) { s.Policy = nil },
		"verdict":     func(s *ReleaseSpec) { s.Policy.verdict = vt.Allow },
		"reason":      func(s *ReleaseSpec) { s.Policy.reason = "because" },
		"content":     func(s *ReleaseSpec) { s.Contents[0].digest = vt.DigestOf([]byte("y")) },
		"contents":    func(s *ReleaseSpec) { s.Contents = append(s.Contents, s.Contents[0]) },
		"dependency":  func(s *ReleaseSpec) { s.Depends[0].description = "" },
		"exclusion":   func(s *ReleaseSpec) { s.Excludes[0].coordinate = coord },
		"preference":  func(s *ReleaseSpec) { s.Prefers = nil },
	} {
		s := spec()
		change(&s)
		if changed := NewRelease(s); base.equal(&changed) || changed.equal(&base) {
			t.Errorf("%s changed: still equal", what)
		}
	}
	inherited := NewRevision(RevisionSpec{Policy: &policy, Releases: []Release{NewRelease(ReleaseSpec{Version: ver})}}).spec.Releases[0]
	if own := NewRelease(ReleaseSpec{Version: ver}); inherited.equal(&own) {
		t.Error("another effective policy: still equal")
	}
}

// TestCompactorResetLetsLargeMemoryGo checks that a Compactor that served
// a revision with more strings than it keeps memory for starts afresh
// after Reset, and still compacts.
func TestCompactorResetLetsLargeMemoryGo(t *testing.T) {
	t.Parallel()
	var releases []Release
	for i := range keepAtMost {
		releases = append(releases, NewRelease(ReleaseSpec{Version: must(vt.ParseVersion(fmt.Sprintf("1.0.%d", i))),
			Description: fmt.Sprintf("release %d", i)}))
	}
	r := NewRevision(RevisionSpec{Coordinate: must(vt.ParseCoordinate("com.example.big")), Releases: releases})
	var c Compactor
	if d := cmp.Diff(r, r.Compact(&c), allFields); d != "" {
		t.Fatalf("Compact changed the revision (-before +after):\n%s", d)
	}
	c.Reset()
	if c.index != nil || c.copies != nil || c.releases != nil {
		t.Error("Reset kept the memory of more than keepAtMost strings")
	}
	if d := cmp.Diff(r, r.Compact(&c), allFields); d != "" {
		t.Errorf("after Reset, Compact changed the revision (-before +after):\n%s", d)
	}
}
