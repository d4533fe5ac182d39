package chain

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// longChain builds a state with one chain of n revisions (one hour apart,
// each with one release) and returns it with its coordinate and the Journal
// version of every revision.
func longChain(tb testing.TB, n int) (*State, vt.Coordinate, []vt.JournalVersion) {
	tb.Helper()
	const c = "com.example.long-chain"
	st := NewStage(Empty())
	t0 := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	versions := make([]vt.JournalVersion, 0, n)
	pred := ""
	for i := range n {
		v := t0.Add(time.Duration(i) * time.Hour).Format("20060102T150405Z")
		text := fmt.Sprintf("JOURNAL_FORMAT 1\nARTIFACT %s\nJOURNAL_VERSION %s\n%sDESCRIPTION \"revision %d\"\n\nRELEASE 1.0.%d\nLICENSE MIT\nCONTENT a.tar.gz sha256:%064x\n",
			c, v, pred, i, i, i)
		doc, ds := syntax.Parse(v+".journal", []byte(text))
		if len(ds) != 0 {
			tb.Fatal(ds)
		}
		if _, out, ds := st.Ingest(doc, Link{}); out != Appended {
			tb.Fatalf("revision %d: %v %v", i, out, ds)
		}
		sum := sha256.Sum256([]byte(text))
		pred = "PREDECESSOR sha256:" + hex.EncodeToString(sum[:]) + "\n"
		versions = append(versions, doc.JournalVersion)
	}
	coord, err := vt.ParseCoordinate(c)
	if err != nil {
		tb.Fatal(err)
	}
	return st.Freeze(), coord, versions
}

// TestLongChain checks the benchmark's chain and the as-of answers on it.
func TestLongChain(t *testing.T) {
	t.Parallel()
	s, c, vs := longChain(t, 500)
	if got := s.RevisionCount(); got != 500 {
		t.Fatalf("%d revisions", got)
	}
	for i, v := range vs {
		e, ok := s.AsOf(c, v)
		if !ok || e.Revision.JournalVersion() != v {
			t.Fatalf("AsOf(revision %d) = %v %v", i, e.Revision.JournalVersion(), ok)
		}
	}
	between, err := vt.ParseJournalVersion("20200101T013000Z") // between revisions 1 and 2
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := s.AsOf(c, between); !ok || e.Revision.JournalVersion() != vs[1] {
		t.Errorf("AsOf(between) = %v %v, want %v", e.Revision.JournalVersion(), ok, vs[1])
	}
	before, _ := vt.ParseJournalVersion("20191231T235959Z")
	if _, ok := s.AsOf(c, before); ok {
		t.Error("AsOf before the genesis found a revision")
	}
}

// BenchmarkAsOf measures a newest-at-or-before query on a chain of 10,000
// revisions; half the queries hit a revision exactly, half fall between.
func BenchmarkAsOf(b *testing.B) {
	s, c, vs := longChain(b, 10_000)
	queries := make([]vt.JournalVersion, 0, 4096)
	for i := range cap(queries) {
		v := vs[(i*7919)%len(vs)]
		if i%2 == 1 {
			t, err := time.Parse("20060102T150405Z", v.String())
			if err != nil {
				b.Fatal(err)
			}
			if v, err = vt.ParseJournalVersion(t.Add(30 * time.Minute).Format("20060102T150405Z")); err != nil {
				b.Fatal(err)
			}
		}
		queries = append(queries, v)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok := s.AsOf(c, queries[i%len(queries)]); !ok {
			b.Fatal("no revision")
		}
		i++
	}
}
