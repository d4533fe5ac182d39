package chain

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
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

// TestSuccessorHelpNamesTheHead: a successor written without PREDECESSOR
// (chain/duplicate-genesis) and one naming another artifact's revision
// (chain/cross-artifact) get the head's digest in their help, and a fix
// that, applied, makes the revision follow the head; an artifact without
// a revision gets the help of a genesis instead, and a second genesis
// dated before the head, which cannot follow it, neither digest nor fix.
func TestSuccessorHelpNamesTheHead(t *testing.T) {
	t.Parallel()
	g := revisionText(1, nil)
	s1 := revisionText(2, g)
	head := vt.DigestOf(s1).String()
	st := NewStage(Empty())
	st.Ingest(parse(t, g), Link{})
	st.Ingest(parse(t, s1), Link{})
	c := parse(t, g).Coordinate

	lone := revisionText(3, nil)
	_, out, ds, _ := st.Chain(c).Ingest(parse(t, lone), nil)
	if out != Rejected || len(ds) != 1 || ds[0].Code != rules.ChainDuplicateGenesis {
		t.Fatalf("no PREDECESSOR: %v %v", out, ds)
	}
	if !strings.Contains(ds[0].Help, "PREDECESSOR "+head+";") {
		t.Errorf("duplicate-genesis help %q does not name the head %s", ds[0].Help, head)
	}
	if len(ds[0].Fixes) != 1 || len(ds[0].Fixes[0].Edits) != 1 {
		t.Fatalf("duplicate-genesis fixes %v, want one edit", ds[0].Fixes)
	}
	e := ds[0].Fixes[0].Edits[0]
	fixed := slices.Concat(lone[:e.Range.Start.Offset], []byte(e.NewText), lone[e.Range.End.Offset:])
	if want := revisionText(3, s1); !bytes.Equal(fixed, want) {
		t.Errorf("fixed text\n%s\nwant\n%s", fixed, want)
	}
	if _, out, ds, _ := st.Chain(c).Ingest(parse(t, fixed), nil); out != Appended {
		t.Errorf("the fixed revision: %v %v", out, ds)
	}

	b, err := vt.ParseCoordinate("com.example.b")
	if err != nil {
		t.Fatal(err)
	}
	other := func(vt.Digest) (vt.Coordinate, string, bool) { return b, "com.example.b/x.journal", true }
	stray := revisionText(4, []byte("not of this chain"))
	if _, _, _, p := st.Chain(c).Ingest(parse(t, stray), nil); p == nil {
		t.Fatal("a PREDECESSOR of no revision of the chain is not pending")
	} else if ds := p.Resolve(other); len(ds) != 1 || ds[0].Code != rules.ChainCrossArtifact ||
		!strings.HasSuffix(ds[0].Help, head) || len(ds[0].Fixes) != 1 {
		t.Errorf("cross-artifact with a head: %+v", ds)
	}
	empty := NewStage(Empty())
	if _, _, _, p := empty.Chain(c).Ingest(parse(t, stray), nil); p == nil {
		t.Fatal("not pending in an empty chain")
	} else if ds := p.Resolve(other); len(ds) != 1 || !strings.Contains(ds[0].Help, "a first revision is a genesis") || ds[0].Fixes != nil {
		t.Errorf("cross-artifact without a head: %+v", ds)
	}
	// Dated before the head, it cannot follow it: no digest, no fix.
	s3 := revisionText(5, revisionText(3, s1))
	st.Ingest(parse(t, revisionText(3, s1)), Link{})
	st.Ingest(parse(t, s3), Link{})
	_, _, ds, _ = st.Chain(c).Ingest(parse(t, revisionText(4, nil)), nil)
	if len(ds) != 1 || ds[0].Code != rules.ChainDuplicateGenesis || strings.Contains(ds[0].Help, "sha256:") || ds[0].Fixes != nil {
		t.Errorf("an early second genesis: %+v", ds)
	}
}
