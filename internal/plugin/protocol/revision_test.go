package protocol

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/syntax"
)

var updateParserDigest = flag.Bool("update-parser-digest", false, "record the digest of TestParserRevision for a new syntax.ParserRevision")

// TestParserRevision holds syntax.ParserRevision to what the parser makes
// of a corpus (testdata/parser-revision.txt records both): the wire form of every part of every document of a
// generated tree with a fault of every expressible validity code and
// random byte-level mutations, and of the parser's own test texts. A rule
// pack whose SDK names the host's revision parses the texts itself, so a
// change to this output without a new revision would give such packs
// other directives or models than the host's. A long test
// (longtest.Whole): it runs on one goroutine but for the load.
func TestParserRevision(t *testing.T) {
	longtest.Whole(t)
	root := filepath.Join(t.TempDir(), "journals")
	if _, err := gen.WriteFaulted(root, gen.Options{Files: 300, Seed: 17}, gen.FaultOptions{InjectSeed: 300, Mutations: 30, MutateSeed: 900}); err != nil {
		t.Fatal(err)
	}
	lr, err := load.Load(context.Background(), root, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var b []byte
	for _, f := range lr.Files {
		if f.Doc != nil {
			b = AppendCheckDocument(b[:0], f.Doc, nil)
			h.Write(b)
		}
	}
	texts, err := filepath.Glob(filepath.Join("..", "..", "syntax", "testdata", "*"))
	if err != nil || len(texts) == 0 {
		t.Fatalf("no parser test texts: %v", err)
	}
	for _, name := range texts {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := syntax.Parse(filepath.Base(name), src)
		b = AppendCheckDocument(b[:0], doc, nil)
		h.Write(b)
	}
	got := syntax.ParserRevision + " " + hex.EncodeToString(h.Sum(nil))
	file := filepath.Join("testdata", "parser-revision.txt")
	want, err := os.ReadFile(file)
	if err != nil && !*updateParserDigest {
		t.Fatal(err)
	}
	if recorded := strings.TrimSpace(string(want)); got == recorded {
		return
	} else if !*updateParserDigest {
		t.Fatalf("%s records %q, the parser now makes %q of the corpus. If what the parser makes of some text changed, "+
			"give syntax.ParserRevision a new value; then (or when only the corpus or the generator changed) "+
			"run go test ./internal/plugin/protocol -run TestParserRevision -update-parser-digest", file, recorded, got)
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(got+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
