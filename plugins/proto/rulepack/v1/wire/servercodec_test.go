package wire

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// TestServerCodecKeepsDocuments: a pack's codec leaves the documents of a
// request encoded, as a window of the request when they follow each other
// and as a copy when other fields lie between them, and decodes the other
// fields.
func TestServerCodecKeepsDocuments(t *testing.T) {
	digest, err := vt.ParseDigest("sha256:" + strings.Repeat("0", 64))
	if err != nil {
		t.Fatal(err)
	}
	doc := func(path string) []byte {
		return AppendDocument(nil, &Document{Path: path, Text: []byte("JOURNAL_FORMAT 1\n"), Digest: digest}, NeedAll)
	}
	config := protowire.AppendBytes(protowire.AppendTag(nil, checkRequestConfigJSON, protowire.BytesType), []byte(`{"a":1}`))
	other := protowire.AppendVarint(protowire.AppendTag(nil, checkRequestParseText, protowire.VarintType), 1)
	a, b := doc("a.journal"), doc("b.journal")
	cat := func(parts ...[]byte) []byte { return slices.Concat(parts...) }
	for _, c := range []struct {
		name   string
		data   []byte
		window bool
	}{
		{"after the other fields", cat(config, other, a, b), true},
		{"before them", cat(a, b, config, other), true},
		{"between them", cat(config, a, b, other), true},
		{"among them", cat(a, config, b, other), false},
	} {
		data := bytes.Clone(c.data)
		var req pb.CheckRequest
		if err := (serverCodec{}).Unmarshal(data, &req); err != nil {
			t.Fatal(err)
		}
		raw, err := requestDocuments(&req)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := DecodeDocuments(raw)
		if string(req.ConfigJson) != `{"a":1}` || err != nil || len(docs) != 2 || docs[0].Path != "a.journal" || docs[1].Path != "b.journal" {
			t.Fatalf("%s: config %q, documents %v, %v", c.name, req.ConfigJson, docs, err)
		}
		inData := &docs[0].Text[0] == &data[bytes.Index(c.data, []byte("JOURNAL_FORMAT"))]
		if inData != c.window {
			t.Errorf("%s: documents are a window of the request: %v", c.name, inData)
		}
	}
	// A truncated list is an error, not a panic.
	raw := cat(a, b)
	for _, n := range []int{1, 7, len(raw)/2 + 3, len(raw) - 1} {
		if _, err := DecodeDocuments(raw[:n]); err == nil {
			t.Errorf("DecodeDocuments of %d of %d bytes: no error", n, len(raw))
		}
	}
}
