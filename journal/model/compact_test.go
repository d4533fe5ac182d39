package model

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// TestCompact checks that a compacted revision is equal to the original,
// and that none of its strings points into the text the original's values
// were cut from.
func TestCompact(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("x", 64) + " com.example.widget 1.2.3 MIT OR Apache-2.0 lib.jar [1.0.0,2.0.0) com.example.base 1.0.0 " +
		"https://example.com/w org.example.old a reason another reason widget description release description dep description"
	at := func(word string) string {
		i := strings.Index(text, word)
		if i < 0 {
			t.Fatalf("%q not in text", word)
		}
		return text[i : i+len(word)]
	}
	mustParse := func(v any, err error) any {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	coord := mustParse(vt.ParseCoordinate(at("com.example.widget"))).(vt.Coordinate)
	base := mustParse(vt.ParseCoordinate(at("com.example.base"))).(vt.Coordinate)
	old := mustParse(vt.ParseCoordinate(at("org.example.old"))).(vt.Coordinate)
	ver := mustParse(vt.ParseVersion(at("1.2.3"))).(vt.Version)
	pref := mustParse(vt.ParseVersion(at("1.0.0 "[:5]))).(vt.Version)
	lic := mustParse(vt.ParseLicense(at("MIT OR Apache-2.0"))).(vt.License)
	name := mustParse(vt.ParseName(at("lib.jar"))).(vt.Name)
	con := mustParse(vt.ParseConstraint(at("[1.0.0,2.0.0)"))).(vt.Constraint)
	uri := mustParse(vt.ParseURI(at("https://example.com/w"))).(vt.URI)
	headerPolicy := NewPolicy(vt.Deprecated, at("a reason"))
	ownPolicy := NewPolicy(vt.Deny, at("another reason"))
	withOwn := NewRelease(ReleaseSpec{Version: ver, License: lic, Description: at("release description"),
		Contents: []Content{NewContent(name, vt.DigestOf([]byte("x")))},
		Depends:  []Dependency{NewDependency(base, con, at("dep description"))},
		Excludes: []Exclusion{NewExclusion(old, "")},
		Prefers:  []Preference{NewPreference(base, pref, "")},
		Policy:   &ownPolicy})
	inherits := NewRelease(ReleaseSpec{Version: pref, License: lic})
	r := NewRevision(RevisionSpec{Coordinate: coord, Description: at("widget description"), Info: &uri,
		Policy: &headerPolicy, Releases: []Release{withOwn, inherits}})

	c := r.Compact(nil)
	all := cmp.Exporter(func(reflect.Type) bool { return true })
	if d := cmp.Diff(r, c, all); d != "" {
		t.Errorf("Compact changed the revision (-before +after):\n%s", d)
	}
	lo := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	hi := lo + uintptr(len(text))
	n := 0
	c.eachString(func(s string) string {
		if s != "" {
			n++
			if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); p >= lo && p < hi {
				t.Errorf("%q still points into the text", s)
			}
		}
		return s
	}, false)
	if n < 15 {
		t.Errorf("only %d strings visited", n)
	}
	// The original is untouched: its strings still point into the text.
	if p := uintptr(unsafe.Pointer(unsafe.StringData(r.Coordinate().String()))); p < lo || p >= hi {
		t.Error("Compact changed the original revision")
	}

	// A second revision compacted with the same map shares the first's
	// copies of equal strings.
	shared := map[string]string{}
	first := r.Compact(shared)
	second := r.Compact(shared)
	if a, b := unsafe.StringData(first.Coordinate().String()), unsafe.StringData(second.Coordinate().String()); a != b {
		t.Error("the second compacted revision does not share the first's coordinate")
	}
	if d := cmp.Diff(r, second, all); d != "" {
		t.Errorf("Compact with a shared map changed the revision (-before +after):\n%s", d)
	}
}
