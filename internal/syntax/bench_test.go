package syntax

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// bigJournal builds a realistic valid text of n releases from the largest
// valid vector: its header, then n copies of its richest release block,
// each with its own version.
func bigJournal(tb testing.TB, n int) []byte {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join(vectorDir, "valid-basic", "com.example.widget", "20260301T080000Z.journal"))
	if err != nil {
		tb.Skip("shared vectors not present:", err)
	}
	head, _, ok := bytes.Cut(src, []byte("\nRELEASE "))
	if !ok {
		tb.Fatal("vector has no release")
	}
	var b bytes.Buffer
	b.Write(head)
	b.WriteString("\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `
RELEASE %d.%d.0
LICENSE MIT OR Apache-2.0
CONTENT widget-%d.%d.0.jar sha256:4444444444444444444444444444444444444444444444444444444444444444
CONTENT widget-%d.%d.0-sources.jar sha256:5555555555555555555555555555555555555555555555555555555555555555
DESCRIPTION "Release number %d: fixes and \"improvements\""
PUBLISHED 20260125T000000Z
POLICY deprecated "superseded"
DEPENDS org.example.core [1.2.0,1.3.0),[1.4.0,2.0.0) "runtime helpers"
DEPENDS org.example.logging 2.0.1
EXCLUDES org.example.legacy-shim "pulled in by core, never used"
PREFERS org.example.core 1.4.2
`, i/100+1, i%100, i/100+1, i%100, i/100+1, i%100, i)
	}
	return b.Bytes()
}

// TestBigJournal checks that the benchmark input is valid.
func TestBigJournal(t *testing.T) {
	t.Parallel()
	src := bigJournal(t, 2000)
	doc := mustParse(t, "big.journal", src)
	if len(doc.Revision.Releases()) != 2000 {
		t.Errorf("%d releases", len(doc.Revision.Releases()))
	}
}

// BenchmarkParse measures throughput on a 2,000-release Journal.
func BenchmarkParse(b *testing.B) {
	src := bigJournal(b, 2000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		_, ds := Parse("big.journal", src)
		if len(ds) != 0 {
			b.Fatal(ds)
		}
	}
}

// BenchmarkParseAdversarialReferences is a shape of issue "hostile input"
// §2: one release with 60,000 DEPENDS, 60,000 EXCLUDES and 60,000 PREFERS
// on distinct coordinates (about 8 MiB), which the reference checks once
// compared pairwise. The target is ≤ 2 s.
func BenchmarkParseAdversarialReferences(b *testing.B) {
	const n = 60_000
	var buf bytes.Buffer
	buf.WriteString("JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"w\"\n\n" +
		"RELEASE 1.0.0\nLICENSE MIT\nCONTENT w.jar sha256:4444444444444444444444444444444444444444444444444444444444444444\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&buf, "DEPENDS org.example.d%d [1.0.0,2.0.0)\n", i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&buf, "EXCLUDES org.example.e%d\n", i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&buf, "PREFERS org.example.d%d 1.5.0\n", i)
	}
	src := buf.Bytes()
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		doc, err := Parse("com.example.widget/20260110T080000Z.journal", src)
		if err != nil || !doc.RevisionOK {
			b.Fatalf("not valid: %v", err)
		}
	}
}

// BenchmarkParseTree parses every Journal file of the tree named by the
// JOURNAL_BENCH_ROOT environment variable (a tree of `journal-gen`, as
// `make bench-scale` builds), read into memory first: the parser's share
// of a check, on texts of the sizes a registry holds, each document
// recycled as a streaming check recycles it. It reports MB/s and the
// bytes allocated per byte of text.
func BenchmarkParseTree(b *testing.B) {
	root := os.Getenv("JOURNAL_BENCH_ROOT")
	if root == "" {
		b.Skip("JOURNAL_BENCH_ROOT is not set")
	}
	var texts [][]byte
	var total int64
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".journal" {
			return err
		}
		src, err := os.ReadFile(path)
		texts = append(texts, src)
		total += int64(len(src))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range texts {
			doc, _ := Parse("t.journal", src)
			Recycle(doc) // as a streaming check does once it is done with it
		}
	}
}
