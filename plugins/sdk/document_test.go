package sdk

import (
	"bytes"
	"context"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/load"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	"github.com/r35157/journal-lint/internal/syntax"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// TestCursor checks the forward-scanning cursor of decodeDirectives against
// diag.LineIndex on texts with CRLF, multi-byte and invalid UTF-8, for
// offsets in file order, out of order and out of range.
func TestCursor(t *testing.T) {
	pieces := []string{"a", "bc ", "\n", "\r\n", "é", "日本", "\xff", "\xe6\x97", " ", "\"q\""}
	rnd := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 300; iter++ {
		var text []byte
		for n := rnd.IntN(40); n > 0; n-- {
			text = append(text, pieces[rnd.IntN(len(pieces))]...)
		}
		x := diag.NewLineIndex(text)
		d := &Document{Text: text}
		c := cursor{d: d, line: 1}
		var offs []int
		for n := rnd.IntN(30); n > 0; n-- {
			offs = append(offs, rnd.IntN(len(text)+3)-1)
		}
		if iter%2 == 0 {
			slices.Sort(offs)
		}
		for i := 0; i+1 < len(offs); i += 2 {
			s, e := offs[i], offs[i+1]
			got := c.rangeOf(s, e)
			want := d.Range(s, e)
			if got != want {
				t.Fatalf("text %q: range(%d, %d) = %v, want %v", text, s, e, got, want)
			}
			if want.Start != Pos(x.Pos(want.Start.Offset)) {
				t.Fatalf("text %q: Document.Range disagrees with LineIndex at %d", text, want.Start.Offset)
			}
		}
	}
}

// TestDirectives checks decoded directives and release blocks against the
// parser's own view of a document.
func TestDirectives(t *testing.T) {
	src := "JOURNAL_FORMAT 1\r\nARTIFACT com.example.é\nJOURNAL_VERSION 20260110T080000Z\n" +
		"DESCRIPTION \"Ünïcode \\\"quoted\\\"\"\n\nRELEASE 1.0.0\nLICENSE MIT OR Apache-2.0\n" +
		"# comment\nRELEASE 2.0.0\nRELEASE 3.0.0\nDESCRIPTION \"three\"\nLICENSE MIT\n"
	sd, _ := syntax.Parse("a.journal", []byte(src))
	d := decodeOne(t, protocol.EncodeDocument(sd, nil))
	dirs := d.Directives()
	if len(dirs) != len(sd.Directives) {
		t.Fatalf("%d directives, want %d", len(dirs), len(sd.Directives))
	}
	for i, x := range sd.Directives {
		got := dirs[i]
		if got.Keyword != x.Keyword || got.Range != rangeOf(x.Range()) || got.KeywordRange != rangeOf(x.KeywordRange()) || got.Line != x.Range().Start.Line {
			t.Errorf("directive %d = %+v, want %+v", i, got, x)
		}
		if len(got.Args) != len(x.Args) {
			t.Fatalf("directive %d: %d args, want %d", i, len(got.Args), len(x.Args))
		}
		for j, a := range x.Args {
			g := got.Args[j]
			if g.Raw != string(sd.Src[a.Range().Start.Offset:a.Range().End.Offset]) || g.Text != a.Text || g.Quoted != a.Quoted || g.Range != rangeOf(a.Range()) {
				t.Errorf("directive %d arg %d = %+v, want %+v", i, j, g, a)
			}
		}
	}
	var versions []string
	var sizes []int
	for _, b := range d.ReleaseBlocks() {
		versions = append(versions, b.Version)
		sizes = append(sizes, len(b.Directives))
		if cap(b.Directives) != len(b.Directives) {
			t.Errorf("block %s: directives not capped", b.Version)
		}
	}
	if !slices.Equal(versions, []string{"1.0.0", "2.0.0", "3.0.0"}) || !slices.Equal(sizes, []int{1, 0, 2}) {
		t.Errorf("blocks %v with %v directives", versions, sizes)
	}
	if l, ok := d.ReleaseBlocks()[2].Find("LICENSE"); !ok || l.Args[0].Text != "MIT" || l.Line != 12 {
		t.Errorf("Find(LICENSE) = %+v, %v", l, ok)
	}
}

// decodeOne decodes m as the only document of a request that did not come
// through the pack's codec.
func decodeOne(t *testing.T, m *pb.Document) *Document {
	t.Helper()
	raw, err := requestDocuments(&pb.CheckRequest{Documents: []*pb.Document{m}})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := decodeBatch(raw, false, NeedAll)
	if err != nil || len(docs) != 1 {
		t.Fatalf("decodeBatch: %d documents, %v", len(docs), err)
	}
	return docs[0]
}

// TestDecodeBatch decodes the documents of a generated tree as the host
// sends them (hand-encoded, kept undecoded by the pack's codec) and as a
// request of generated messages, and checks that both give the documents
// the host parsed.
func TestDecodeBatch(t *testing.T) {
	root := filepath.Join(t.TempDir(), "journals")
	if _, err := gen.Write(root, gen.Options{Files: 200, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	lr, err := load.Load(context.Background(), root, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var raw []byte
	msgs := &pb.CheckRequest{ConfigJson: []byte(`{"a":1}`)}
	var docs []*syntax.Document
	for i, f := range lr.Files {
		if f.Doc == nil {
			continue
		}
		var entries []*pb.ChainEntry
		for _, e := range lr.State.Entries(f.Doc.Coordinate) {
			entries = append(entries, &pb.ChainEntry{Path: e.Source, JournalVersion: e.Revision.JournalVersion().String(), Digest: e.Revision.Digest().String()})
		}
		cc := &pb.ChainContext{Coordinate: f.Doc.Coordinate.String(), Accepted: i%4 != 0, Revisions: entries}
		raw = protocol.AppendCheckDocument(raw, f.Doc, &protocol.Chain{Coordinate: cc.Coordinate, Accepted: cc.Accepted, Revisions: protocol.AppendChainEntries(nil, entries)})
		msgs.Documents = append(msgs.Documents, protocol.EncodeDocument(f.Doc, cc))
		docs = append(docs, f.Doc)
	}
	// The host's request: config, then the documents as unknown fields.
	req := &pb.CheckRequest{ConfigJson: msgs.ConfigJson}
	req.ProtoReflect().SetUnknown(raw)
	data, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var got pb.CheckRequest
	if err := (codec{}).Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if string(got.ConfigJson) != `{"a":1}` || len(got.Documents) != 0 {
		t.Fatalf("codec: config %q, %d decoded documents", got.ConfigJson, len(got.Documents))
	}
	fast := batch(t, &got)
	slow := batch(t, msgs)
	if len(fast) != len(docs) || len(slow) != len(docs) {
		t.Fatalf("%d and %d documents, want %d", len(fast), len(slow), len(docs))
	}
	valid := 0
	for i, sd := range docs {
		for _, d := range []*Document{fast[i], slow[i]} {
			if d.Path != sd.Path || string(d.Text) != string(sd.Src) || d.Digest != sd.Digest || d.Valid != sd.RevisionOK {
				t.Fatalf("%s: decoded as %s, %d bytes, %v, valid %v", sd.Path, d.Path, len(d.Text), d.Digest, d.Valid)
			}
			if d.Valid && !proto.Equal(protocol.EncodeRevision(d.Revision()), protocol.EncodeRevision(sd.Revision)) {
				t.Fatalf("%s: model differs", sd.Path)
			}
			if !reflect.DeepEqual(d.Chain, fast[i].Chain) || d.Chain.Coordinate != sd.Coordinate.String() || len(d.Chain.Revisions) == 0 {
				t.Fatalf("%s: chain %+v", sd.Path, d.Chain)
			}
			if !reflect.DeepEqual(d.Directives(), fast[i].Directives()) || len(d.Directives()) != len(sd.Directives) {
				t.Fatalf("%s: directives differ", sd.Path)
			}
			if !reflect.DeepEqual(d.ReleaseBlocks(), fast[i].ReleaseBlocks()) || len(d.ReleaseBlocks()) != len(sd.Releases) {
				t.Fatalf("%s: release blocks differ", sd.Path)
			}
		}
		if sd.RevisionOK {
			valid++
			if !reflect.DeepEqual(fast[i].Revision(), slow[i].Revision()) {
				t.Fatalf("%s: the two decodings differ", sd.Path)
			}
		}
	}
	if valid < 150 {
		t.Fatalf("only %d valid documents", valid)
	}
	// A truncated batch is an error, not a panic.
	for _, n := range []int{1, 7, len(raw) / 2, len(raw) - 1} {
		if _, err := decodeBatch(raw[:n], false, NeedAll); err == nil {
			t.Errorf("decodeBatch of %d of %d bytes: no error", n, len(raw))
		}
	}
}

func batch(t *testing.T, req *pb.CheckRequest) []*Document {
	t.Helper()
	raw, err := requestDocuments(req)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := decodeBatch(raw, false, NeedAll)
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// TestCodecKeepsDocuments: the pack's codec leaves the documents of a
// request encoded, as a window of the request when they follow each other
// and as a copy when other fields lie between them, and decodes the other
// fields.
func TestCodecKeepsDocuments(t *testing.T) {
	doc := func(path string) []byte {
		d, _ := syntax.Parse(path, []byte("JOURNAL_FORMAT 1\n"))
		return protocol.AppendCheckDocument(nil, d, nil)
	}
	config := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte(`{"a":1}`))
	parse := protowire.AppendVarint(protowire.AppendTag(nil, 3, protowire.VarintType), 1)
	a, b := doc("a.journal"), doc("b.journal")
	cat := func(parts ...[]byte) []byte { return slices.Concat(parts...) }
	for _, c := range []struct {
		name   string
		data   []byte
		window bool
	}{
		{"after the other fields", cat(config, parse, a, b), true},
		{"before them", cat(a, b, config, parse), true},
		{"between them", cat(config, a, b, parse), true},
		{"among them", cat(a, config, b, parse), false},
	} {
		data := bytes.Clone(c.data)
		var req pb.CheckRequest
		if err := (codec{}).Unmarshal(data, &req); err != nil {
			t.Fatal(err)
		}
		docs := req.ProtoReflect().GetUnknown()
		if string(req.ConfigJson) != `{"a":1}` || !req.ParseText || !bytes.Equal(docs, cat(a, b)) {
			t.Fatalf("%s: config %q, parse %v, documents %x", c.name, req.ConfigJson, req.ParseText, docs)
		}
		inData := &docs[0] == &data[bytes.Index(c.data, a)]
		if inData != c.window {
			t.Errorf("%s: documents are a window of the request: %v", c.name, inData)
		}
	}
}
