package wire

import (
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// TestDirectivesUnpacked: a document's directives decode the same whether
// its arrays arrive packed, as a host writes them, or in the other
// encodings protobuf allows (each value its own field, a packed array in
// two pieces), which take the general way.
func TestDirectivesUnpacked(t *testing.T) {
	digest, err := vt.ParseDigest("sha256:" + strings.Repeat("1", 64))
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(`ARTIFACT com.example.a` + "\n" + `DESCRIPTION "q\"" x` + "\nRELEASE\n")
	dirs := []Directive{
		{Start: 0, End: 22, KeywordStart: 0, KeywordEnd: 8, Args: []Arg{{Start: 9, End: 22}}},
		{Start: 23, End: 42, KeywordStart: 23, KeywordEnd: 34, Args: []Arg{{Start: 35, End: 40, Quoted: true, Text: `q"`}, {Start: 41, End: 42}}},
		{Start: 43, End: 50, KeywordStart: 43, KeywordEnd: 50, Args: []Arg{}},
	}
	doc := &Document{Path: "a.journal", Text: text, Digest: digest, Directives: dirs}
	packed, err := DecodeDocuments(AppendDocument(nil, doc, NeedDirectives))
	if err != nil {
		t.Fatal(err)
	}
	want, err := packed[0].Directives()
	if err != nil || !reflect.DeepEqual(want, dirs) {
		t.Fatalf("packed: %+v, %v", want, err)
	}
	if _, ok := packed[0].packedDirectives(); !ok {
		t.Fatal("a host's encoding does not take the one-pass way")
	}
	var counts, spans []uint64
	var quoted []bool
	var decoded []string
	for _, d := range dirs {
		counts = append(counts, uint64(len(d.Args)))
		spans = append(spans, uint64(d.Start), uint64(d.End), uint64(d.KeywordStart), uint64(d.KeywordEnd))
		for _, a := range d.Args {
			spans = append(spans, uint64(a.Start), uint64(a.End))
			quoted = append(quoted, a.Quoted)
			if a.Quoted {
				decoded = append(decoded, a.Text)
			}
		}
	}
	packedField := func(b []byte, num protowire.Number, vs []uint64) []byte {
		var v []byte
		for _, x := range vs {
			v = protowire.AppendVarint(v, x)
		}
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
	}
	bools := make([]uint64, len(quoted))
	for i, q := range quoted {
		bools[i] = protowire.EncodeBool(q)
	}
	for name, encode := range map[string]func() []byte{
		"every value its own field": func() []byte {
			var b []byte
			for _, list := range []struct {
				num protowire.Number
				vs  []uint64
			}{{directivesArgCounts, counts}, {directivesSpans, spans}, {directivesQuoted, bools}} {
				for _, x := range list.vs {
					b = protowire.AppendVarint(protowire.AppendTag(b, list.num, protowire.VarintType), x)
				}
			}
			return b
		},
		"spans in two pieces": func() []byte {
			b := packedField(nil, directivesArgCounts, counts)
			b = packedField(b, directivesSpans, spans[:5])
			b = packedField(b, directivesSpans, spans[5:])
			return packedField(b, directivesQuoted, bools)
		},
	} {
		msg := encode()
		for _, s := range decoded {
			msg = protowire.AppendString(protowire.AppendTag(msg, directivesDecoded, protowire.BytesType), s)
		}
		var raw []byte
		raw, m := openMessage(raw, checkRequestDocuments)
		raw = appendString(raw, documentPath, doc.Path)
		raw = protowire.AppendBytes(protowire.AppendTag(raw, documentText, protowire.BytesType), text)
		raw = appendDigest(raw, documentDigest, digest)
		raw = protowire.AppendBytes(protowire.AppendTag(raw, documentDirectives, protowire.BytesType), msg)
		raw = closeMessage(raw, m)
		got, err := DecodeDocuments(raw)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := got[0].packedDirectives(); ok {
			t.Errorf("%s: took the one-pass way", name)
		}
		if d, err := got[0].Directives(); err != nil || !reflect.DeepEqual(d, want) {
			t.Errorf("%s: %+v, %v\nwant %+v", name, d, err, want)
		}
	}
}
