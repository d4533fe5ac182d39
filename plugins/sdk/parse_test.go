package sdk

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	"github.com/r35157/journal-lint/internal/syntax"
)

// TestParseTextAsWire: a document that parses its text itself
// (CheckRequest.parse_text) gives exactly what it decodes from the host's
// encoding of its directives and model, for every part a pack may need,
// on every document of a generated tree with a fault of every expressible
// validity code (forks, misplaced, cross-artifact, invalid texts) and
// random byte-level mutations, and on unusual texts. A long test
// (longtest.Whole): one goroutine but for the load.
func TestParseTextAsWire(t *testing.T) {
	longtest.Whole(t)
	t.Parallel()
	root := filepath.Join(t.TempDir(), "journals")
	if _, err := gen.WriteFaulted(root, gen.Options{Files: 400, Seed: 5}, gen.FaultOptions{InjectSeed: 200, Mutations: 40, MutateSeed: 700}); err != nil {
		t.Fatal(err)
	}
	lr, err := load.Load(context.Background(), root, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var docs []*syntax.Document
	for _, f := range lr.Files {
		if f.Doc != nil {
			docs = append(docs, f.Doc)
		}
	}
	for i, src := range []string{
		"",
		"JOURNAL_FORMAT 1\n",
		"garbage \"unterminated\nRELEASE\nRELEASE \"\" x\n",
		"DESCRIPTION \"\xff\xfe bad \\u00e9\"\nRELEASE 1.0.0 \"\xc3\"\n",
		"\xef\xbb\xbfJOURNAL_FORMAT 1\r\nARTIFACT com.example.é\r\nJOURNAL_VERSION 20260110T080000Z\r\nDESCRIPTION \"\"\r\nINFO https://example.com/x\r\n" +
			"POLICY deny \"gone\"\r\nRELEASE 1.0.0\r\nLICENSE (MIT OR Apache-2.0) AND BSD-3-Clause\r\nDESCRIPTION \"Ünï \\\"q\\\"\"\r\n",
		"\xff\xfeJ\x00",
	} {
		d, _ := syntax.Parse(fmt.Sprintf("x/%d.journal", i), []byte(src))
		docs = append(docs, d)
	}
	chain := &protocol.Chain{Coordinate: "com.example.x", Accepted: true}
	valid, invalid := 0, 0
	for _, needs := range []Needs{NeedAll, NeedRevision, NeedDirectives, NeedText | NeedChain, NeedChain | NeedRevision} {
		var onWire, asText []byte
		for _, doc := range docs {
			onWire = protocol.AppendCheckDocumentFor(onWire, doc, chain, protocol.Needs(needs))
			asText = protocol.AppendCheckDocumentFor(asText, doc, chain, protocol.Needs(needs)|protocol.ParseText)
		}
		want, err := decodeBatch(onWire, false, needs)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeBatch(asText, true, needs)
		if err != nil {
			t.Fatal(err)
		}
		// ReleaseBlock before anything else converts only its block.
		blocks, err := decodeBatch(asText, true, needs)
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range blocks {
			w := want[i]
			for _, v := range append(versions(w), "no-such-version") {
				gb, gok := g.ReleaseBlock(v)
				wb, wok := w.ReleaseBlock(v)
				if gok != wok || !reflect.DeepEqual(gb, wb) {
					t.Fatalf("needs %v: %s: ReleaseBlock(%q) differs:\n got %v %+v\nwant %v %+v", needs, w.Path, v, gok, gb, wok, wb)
				}
			}
			g.done()
		}
		if len(got) != len(docs) || len(want) != len(docs) {
			t.Fatalf("needs %v: %d and %d documents, want %d", needs, len(got), len(want), len(docs))
		}
		// Every document parsed and done before any is compared, as the
		// server does them one after the other: a parse the parser gets
		// back must leave nothing of an earlier document changed.
		for _, g := range got {
			g.Revision()
			g.Directives()
			g.done()
		}
		for i, doc := range docs {
			g, w := got[i], want[i]
			if g.Path != w.Path || string(g.Text) != string(w.Text) || g.Digest != w.Digest || g.Valid != w.Valid || !reflect.DeepEqual(g.Chain, w.Chain) {
				t.Fatalf("needs %v: %s: path, text, digest, validity or chain differ", needs, doc.Path)
			}
			if !reflect.DeepEqual(g.Directives(), w.Directives()) {
				t.Fatalf("needs %v: %s: directives differ:\n got %+v\nwant %+v", needs, doc.Path, g.Directives(), w.Directives())
			}
			if !reflect.DeepEqual(g.ReleaseBlocks(), w.ReleaseBlocks()) {
				t.Fatalf("needs %v: %s: release blocks differ", needs, doc.Path)
			}
			// Every value of the model, in the host's encoding (the parser's
			// model and the decoded one differ only in nil and empty lists).
			if !proto.Equal(protocol.EncodeRevision(g.Revision()), protocol.EncodeRevision(w.Revision())) {
				t.Fatalf("needs %v: %s: models differ:\n got %v\nwant %v", needs, doc.Path, protocol.EncodeRevision(g.Revision()), protocol.EncodeRevision(w.Revision()))
			}
			if needs == NeedAll {
				if doc.RevisionOK {
					valid++
				} else {
					invalid++
				}
			}
		}
	}
	if valid < 300 || invalid < 20 {
		t.Fatalf("%d valid and %d invalid documents", valid, invalid)
	}
}

// versions returns the versions of d's release blocks as written.
func versions(d *Document) []string {
	var out []string
	for _, b := range d.ReleaseBlocks() {
		out = append(out, b.Version)
	}
	return out
}
