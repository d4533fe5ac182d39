package model

import (
	"reflect"
	"testing"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func release(v string, policy *Policy) Release {
	return NewRelease(ReleaseSpec{
		Version:  must(vt.ParseVersion(v)),
		License:  must(vt.ParseLicense("MIT")),
		Contents: []Content{NewContent(must(vt.ParseName("a.jar")), vt.DigestOf([]byte(v)))},
		Policy:   policy,
	})
}

func TestEffectivePolicy(t *testing.T) {
	t.Parallel()
	deny := NewPolicy(vt.Deny, "CVE")
	deprecated := NewPolicy(vt.Deprecated, "")
	rev := NewRevision(RevisionSpec{
		Coordinate: must(vt.ParseCoordinate("com.example.a")),
		Policy:     &deprecated,
		Releases:   []Release{release("1.0.0", nil), release("2.0.0", &deny)},
	})
	r1, _ := rev.Release(must(vt.ParseVersion("1.0.0")))
	r2, _ := rev.Release(must(vt.ParseVersion("2.0.0")))
	if got := r1.EffectivePolicy().Verdict(); got != vt.Deprecated {
		t.Errorf("release without POLICY: effective %s, want the header's deprecated", got)
	}
	if _, own := r1.Policy(); own {
		t.Error("release without POLICY reports its own policy")
	}
	if got := r2.EffectivePolicy(); got.Verdict() != vt.Deny {
		t.Errorf("release with POLICY deny: effective %s", got.Verdict())
	}
	if reason, ok := r2.EffectivePolicy().Reason(); !ok || reason != "CVE" {
		t.Errorf("reason = %q %v", reason, ok)
	}
	bare := NewRevision(RevisionSpec{Releases: []Release{release("1.0.0", nil)}})
	if got := bare.Releases()[0].EffectivePolicy().Verdict(); got != vt.Allow {
		t.Errorf("no policy anywhere: effective %s, want allow", got)
	}
}

// TestOwnedConstructors checks that the constructors that take their
// spec's slices build what the copying ones build.
func TestOwnedConstructors(t *testing.T) {
	t.Parallel()
	deny := NewPolicy(vt.Deny, "CVE")
	deprecated := NewPolicy(vt.Deprecated, "")
	spec := func(v string, policy *Policy) ReleaseSpec {
		return ReleaseSpec{
			Version:  must(vt.ParseVersion(v)),
			License:  must(vt.ParseLicense("MIT")),
			Contents: []Content{NewContent(must(vt.ParseName("a.jar")), vt.DigestOf([]byte(v)))},
			Depends:  []Dependency{},
			Policy:   policy,
		}
	}
	revSpec := func(rels ...Release) RevisionSpec {
		return RevisionSpec{Coordinate: must(vt.ParseCoordinate("com.example.a")), Policy: &deprecated, Releases: rels}
	}
	copied := NewRevision(revSpec(NewRelease(spec("2.0.0", &deny)), NewRelease(spec("1.0.0", nil))))
	owned := NewRevisionOwned(revSpec(NewReleaseOwned(spec("2.0.0", &deny)), NewReleaseOwned(spec("1.0.0", nil))))
	if !reflect.DeepEqual(copied, owned) {
		t.Errorf("owned revision differs:\n%+v\n%+v", owned, copied)
	}
	if r, _ := owned.Release(must(vt.ParseVersion("1.0.0"))); r.EffectivePolicy().Verdict() != vt.Deprecated {
		t.Errorf("release without POLICY: effective %s, want the header's deprecated", r.EffectivePolicy().Verdict())
	}
}

func TestImmutability(t *testing.T) {
	t.Parallel()
	contents := []Content{NewContent(must(vt.ParseName("a.jar")), vt.DigestOf(nil))}
	r := NewRelease(ReleaseSpec{Version: must(vt.ParseVersion("1.0.0")), Contents: contents})
	contents[0] = Content{}
	if r.Contents()[0].Name().String() != "a.jar" {
		t.Error("changing the spec's slice changed the release")
	}
	got := r.Contents()
	got[0] = Content{}
	if r.Contents()[0].Name().String() != "a.jar" {
		t.Error("changing a returned slice changed the release")
	}
	rev := NewRevision(RevisionSpec{Releases: []Release{r}})
	rs := rev.Releases()
	rs[0] = Release{}
	if rev.Releases()[0].Version().String() != "1.0.0" {
		t.Error("changing the returned releases changed the revision")
	}
}

func TestNeverNil(t *testing.T) {
	t.Parallel()
	var r Release
	var rev Revision
	if r.Contents() == nil || r.Dependencies() == nil || r.Exclusions() == nil || r.Preferences() == nil {
		t.Error("a zero release returns a nil slice")
	}
	if rev.Releases() == nil || rev.ReleasesByVersion() == nil {
		t.Error("a zero revision returns a nil slice")
	}
	if _, ok := rev.Predecessor(); ok || !rev.IsGenesis() {
		t.Error("a zero revision claims a predecessor")
	}
}

func TestReleaseLookupAndOrder(t *testing.T) {
	t.Parallel()
	rev := NewRevision(RevisionSpec{Releases: []Release{
		release("1.10.0", nil), release("1.2.0", nil), release("1.2.0-rc.1", nil),
	}})
	var got []string
	for _, r := range rev.ReleasesByVersion() {
		got = append(got, r.Version().String())
	}
	if want := "1.2.0-rc.1 1.2.0 1.10.0"; join(got) != want {
		t.Errorf("by version: %s, want %s", join(got), want)
	}
	got = got[:0]
	for r := range rev.ReleasesByVersionSeq() {
		got = append(got, r.Version().String())
		if len(got) == 2 {
			break
		}
	}
	if want := "1.2.0-rc.1 1.2.0"; join(got) != want {
		t.Errorf("by version, stopped after two: %s, want %s", join(got), want)
	}
	if file := rev.Releases()[0].Version().String(); file != "1.10.0" {
		t.Errorf("file order lost: first is %s", file)
	}
	for _, v := range []string{"1.10.0", "1.2.0", "1.2.0-rc.1"} {
		if r, ok := rev.Release(must(vt.ParseVersion(v))); !ok || r.Version().String() != v {
			t.Errorf("Release(%s) = %v %v", v, r.Version(), ok)
		}
	}
	if _, ok := rev.Release(must(vt.ParseVersion("1.3.0"))); ok {
		t.Error("Release(unknown) found one")
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
