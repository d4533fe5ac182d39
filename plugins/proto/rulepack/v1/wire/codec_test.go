package wire_test

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// doc is a document of the test corpus with the accepted revisions its
// chain context encodes.
type doc struct {
	*wire.Document
	entries []wire.ChainEntry
}

// corpus returns the documents of a generated tree of n files with a
// fault of every kind the generator injects at random, with their chain
// contexts (a fifth without), and of a few unusual texts without one, as
// the host converts them. Each document has directives of its own.
func corpus(t testing.TB, n int) []doc {
	t.Helper()
	root := filepath.Join(t.TempDir(), "journals")
	if _, err := gen.WriteFaulted(root, gen.Options{Files: n, Seed: 17}, gen.FaultOptions{InjectSeed: 300, Mutations: n / 10, MutateSeed: 900}); err != nil {
		t.Fatal(err)
	}
	lr, err := load.Load(context.Background(), root, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []doc
	for i, f := range lr.Files {
		if f.Doc == nil {
			continue
		}
		cc := &wire.ChainContext{Accepted: f.Outcome != chain.Rejected}
		var entries []wire.ChainEntry
		if f.Summary.CoordinateOK {
			c := f.Summary.Coordinate
			cc.Coordinate = c.String()
			cc.Revisions = protocol.Revisions(lr.State.Entries(c))
			for _, e := range lr.State.Entries(c) {
				entries = append(entries, wire.ChainEntry{Path: e.Source, JournalVersion: e.Revision.JournalVersion(), Digest: e.Revision.Digest()})
			}
		}
		if i%5 == 4 {
			cc, entries = nil, nil
		}
		out = append(out, doc{convert(f.Doc, cc), entries})
	}
	for i, src := range []string{
		"",
		"JOURNAL_FORMAT 1\n",
		"garbage \"unterminated\nRELEASE\nRELEASE \"\" x\n",
		"ARTIFACT \"bad \xff utf8\"\n",
		"JOURNAL_FORMAT 1\r\nARTIFACT com.example.é\r\nJOURNAL_VERSION 20260110T080000Z\r\nDESCRIPTION \"\"\r\nINFO https://example.com/x\r\n" +
			"POLICY deny \"gone\"\r\nRELEASE 1.0.0\r\nLICENSE (MIT OR Apache-2.0) AND BSD-3-Clause\r\nDESCRIPTION \"Ünï \\\"q\\\"\"\r\n",
	} {
		d, _ := syntax.Parse("x/"+string(rune('a'+i))+".journal", []byte(src))
		out = append(out, doc{convert(d, nil), nil})
	}
	return out
}

// convert is the host's conversion of doc, with arrays of its own.
func convert(doc *syntax.Document, cc *wire.ChainContext) *wire.Document {
	var c protocol.Converter
	d := *c.Document(doc, cc, wire.NeedAll)
	return &d
}

// needsCases are the sets of parts the tests encode documents with.
var needsCases = []wire.Needs{0, wire.NeedText, wire.NeedDirectives, wire.NeedRevision, wire.NeedChain, wire.NeedRevision | wire.NeedChain, wire.NeedAll}

// TestCodecMatchesGenerated holds the hand codec to the generated one:
// AppendDocument, and an Encoder that wrote the earlier documents,
// write the bytes proto.Marshal writes for the generated message of the
// same document and parts, and DecodeDocuments reads back every part that
// was sent, on a generated tree with faults and unusual texts.
func TestCodecMatchesGenerated(t *testing.T) {
	n := longtest.Size(400, 120)
	docs := corpus(t, n)
	valid := 0
	encs := make([]wire.Encoder, len(needsCases)) // across documents, as the host's
	for _, d := range docs {
		if d.Valid {
			valid++
		}
		for i, needs := range needsCases {
			got := wire.AppendDocument([]byte("prefix"), d.Document, needs)
			want, err := proto.Marshal(&pb.CheckRequest{Documents: []*pb.Document{generated(d, needs)}})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(got, []byte("prefix")) || !bytes.Equal(got[6:], want) {
				t.Fatalf("%s, needs %04b: AppendDocument differs from proto.Marshal\n got %x\nwant %x", d.Path, needs, got[6:], want)
			}
			if e := encs[i].AppendDocument(nil, d.Document, needs); !bytes.Equal(e, want) {
				t.Fatalf("%s, needs %04b: an Encoder that wrote earlier revisions writes another document", d.Path, needs)
			}
			back, err := wire.DecodeDocuments(got[6:])
			if err != nil || len(back) != 1 {
				t.Fatalf("%s, needs %04b: decoded %d documents: %v", d.Path, needs, len(back), err)
			}
			same(t, d, back[0], needs.Normal())
		}
	}
	t.Logf("%d valid documents of %d", valid, len(docs))
	if valid < n*5/8 || valid == len(docs) {
		t.Fatalf("%d valid documents of %d", valid, len(docs))
	}
}

// same requires that r carries the parts in needs of d, and nothing else.
func same(t *testing.T, d doc, r *wire.Received, needs wire.Needs) {
	t.Helper()
	text := d.Text
	if needs&wire.NeedText == 0 {
		text = nil
	}
	if r.Path != d.Path || !bytes.Equal(r.Text, text) || r.Digest != d.Digest || r.Valid != d.Valid {
		t.Fatalf("%s, needs %04b: path %q, text, digest or validity differ", d.Path, needs, r.Path)
	}
	var chain wire.Chain
	if d.Chain != nil && needs&wire.NeedChain != 0 {
		chain = wire.Chain{Coordinate: d.Chain.Coordinate, Accepted: d.Chain.Accepted, Revisions: d.entries}
	}
	if !reflect.DeepEqual(r.Chain, chain) {
		t.Fatalf("%s, needs %04b: chain %+v, want %+v", d.Path, needs, r.Chain, chain)
	}
	rev, err := r.Revision()
	if err != nil {
		t.Fatal(err)
	}
	want := model.Revision{}
	if d.Valid && needs&wire.NeedRevision != 0 {
		want = d.Revision
	}
	if !proto.Equal(pbRevision(rev), pbRevision(want)) {
		t.Fatalf("%s, needs %04b: models differ:\n got %v\nwant %v", d.Path, needs, pbRevision(rev), pbRevision(want))
	}
	dirs, err := r.Directives()
	if err != nil {
		t.Fatal(err)
	}
	if needs&wire.NeedDirectives == 0 {
		if dirs != nil {
			t.Fatalf("%s, needs %04b: directives sent", d.Path, needs)
		}
		return
	}
	if len(dirs) != len(d.Directives) {
		t.Fatalf("%s: %d directives, want %d", d.Path, len(dirs), len(d.Directives))
	}
	for i, x := range d.Directives {
		y := dirs[i]
		if x.Start != y.Start || x.End != y.End || x.KeywordStart != y.KeywordStart || x.KeywordEnd != y.KeywordEnd || len(x.Args) != len(y.Args) {
			t.Fatalf("%s: directive %d is %+v, want %+v", d.Path, i, y, x)
		}
		for j, a := range x.Args {
			b := y.Args[j]
			if a.Start != b.Start || a.End != b.End || a.Quoted != b.Quoted || a.Quoted && b.Text != validUTF8(a.Text) {
				t.Fatalf("%s: directive %d argument %d is %+v, want %+v", d.Path, i, j, b, a)
			}
		}
	}
}
