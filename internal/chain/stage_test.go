package chain

import (
	"fmt"
	"testing"

	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// revisionText returns a valid Journal text of com.example.a at day d of
// January 2026 with predecessor pred (nil for the genesis).
func revisionText(day int, pred []byte) []byte {
	p := ""
	if pred != nil {
		p = "PREDECESSOR " + vt.DigestOf(pred).String() + "\n"
	}
	return fmt.Appendf(nil, "JOURNAL_FORMAT 1\nARTIFACT com.example.a\nJOURNAL_VERSION 202601%02dT000000Z\n%sDESCRIPTION \"a\"\n", day, p)
}

func parse(t testing.TB, b []byte) *syntax.Document {
	doc, ds := syntax.Parse("a", b)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return doc
}

// TestStageCopyOnWrite checks that staging on a base never changes it: the
// base's chains, digest index and counts stay as they were.
func TestStageCopyOnWrite(t *testing.T) {
	t.Parallel()
	g := revisionText(1, nil)
	s1 := revisionText(2, g)
	s2 := revisionText(3, s1)
	st := NewStage(Empty())
	st.Ingest(parse(t, g), Link{})
	st.Ingest(parse(t, s1), Link{})
	base := st.Freeze()

	next := NewStage(base)
	if _, out, ds := next.Ingest(parse(t, s2), Link{}); out != Appended || len(ds) != 0 {
		t.Fatalf("ingest: %v %v", out, ds)
	}
	after := next.Freeze()
	c := parse(t, g).Coordinate
	if n := len(base.Entries(c)); n != 2 || base.RevisionCount() != 2 {
		t.Errorf("base changed: %d entries, count %d", n, base.RevisionCount())
	}
	if _, ok := base.ByDigest(vt.DigestOf(s2)); ok {
		t.Error("base's digest index changed")
	}
	if n := len(after.Entries(c)); n != 3 || after.RevisionCount() != 3 {
		t.Errorf("new state: %d entries, count %d", n, after.RevisionCount())
	}
	// A stage that accepts nothing returns its base unchanged.
	if again := NewStage(after); again.Freeze() != after {
		t.Error("an empty stage built a new state")
	}
}

func TestAsOfAndExact(t *testing.T) {
	t.Parallel()
	st := NewStage(Empty())
	var prev []byte
	for day := 1; day <= 9; day += 2 {
		cur := revisionText(day, prev)
		st.Ingest(parse(t, cur), Link{})
		prev = cur
	}
	s := st.Freeze()
	c, _ := vt.ParseCoordinate("com.example.a")
	for _, tc := range []struct {
		at   string
		want string // Journal version found, "" for none
	}{
		{"20251231T000000Z", ""},
		{"20260101T000000Z", "20260101T000000Z"},
		{"20260102T000000Z", "20260101T000000Z"},
		{"20260105T000000Z", "20260105T000000Z"},
		{"20260108T235959Z", "20260107T000000Z"},
		{"20300101T000000Z", "20260109T000000Z"},
	} {
		at, _ := vt.ParseJournalVersion(tc.at)
		e, ok := s.AsOf(c, at)
		got := ""
		if ok {
			got = e.Revision.JournalVersion().String()
		}
		if got != tc.want {
			t.Errorf("AsOf(%s) = %q, want %q", tc.at, got, tc.want)
		}
		_, exact := s.Exact(c, at)
		if exact != (tc.want == tc.at) {
			t.Errorf("Exact(%s) = %v", tc.at, exact)
		}
	}
}
