package protocol

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/syntax"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// TestAppendDocument holds the hand-written encoder to proto.Marshal of
// EncodeDocument, byte for byte, on a generated tree (with chain contexts)
// and on invalid and unusual texts. A long test: 300 files, 60 when tests
// run small (longtest.Small).
func TestAppendDocument(t *testing.T) {
	root := filepath.Join(t.TempDir(), "journals")
	files := longtest.Size(300, 60)
	if _, err := gen.Write(root, gen.Options{Files: files, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	lr, err := load.Load(context.Background(), root, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var docs []*syntax.Document
	var chains []*pb.ChainContext
	for _, f := range lr.Files {
		if f.Doc == nil {
			continue
		}
		cc := &pb.ChainContext{Coordinate: f.Doc.Coordinate.String(), Accepted: len(docs)%3 != 0}
		for _, e := range lr.State.Entries(f.Doc.Coordinate) {
			cc.Revisions = append(cc.Revisions, &pb.ChainEntry{Path: e.Source, JournalVersion: e.Revision.JournalVersion().String(), Digest: e.Revision.Digest().String()})
		}
		docs = append(docs, f.Doc)
		chains = append(chains, cc)
	}
	for i, src := range []string{
		"",
		"JOURNAL_FORMAT 1\n",
		"garbage \"unterminated\nRELEASE\nRELEASE \"\" x\n",
		"JOURNAL_FORMAT 1\r\nARTIFACT com.example.é\r\nJOURNAL_VERSION 20260110T080000Z\r\nDESCRIPTION \"\"\r\nINFO https://example.com/x\r\n" +
			"POLICY deny \"gone\"\r\nRELEASE 1.0.0\r\nLICENSE (MIT OR Apache-2.0) AND BSD-3-Clause\r\nDESCRIPTION \"Ünï \\\"q\\\"\"\r\n",
	} {
		d, _ := syntax.Parse("x/"+string(rune('a'+i))+".journal", []byte(src))
		docs = append(docs, d)
		chains = append(chains, nil)
	}
	valid := 0
	for i, d := range docs {
		if d.RevisionOK {
			valid++
		}
		want, err := proto.Marshal(EncodeDocument(d, chains[i]))
		if err != nil {
			t.Fatal(err)
		}
		var ch *Chain
		if cc := chains[i]; cc != nil {
			ch = &Chain{Coordinate: cc.Coordinate, Accepted: cc.Accepted, Revisions: AppendChainEntries(nil, cc.Revisions)}
		}
		got := AppendDocument([]byte("prefix"), d, ch)
		if !bytes.HasPrefix(got, []byte("prefix")) || !bytes.Equal(got[6:], want) {
			t.Fatalf("%s: AppendDocument differs from proto.Marshal(EncodeDocument)\n got %x\nwant %x", d.Path, got[6:], want)
		}
		// As an element of CheckRequest.documents, carried as unknown fields.
		req := &pb.CheckRequest{ConfigJson: []byte("{}")}
		req.ProtoReflect().SetUnknown(AppendCheckDocument(nil, d, ch))
		raw, err := proto.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		var back pb.CheckRequest
		if err := proto.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		if len(back.Documents) != 1 || !proto.Equal(back.Documents[0], EncodeDocument(d, chains[i])) || string(back.ConfigJson) != "{}" {
			t.Fatalf("%s: request does not decode to the document", d.Path)
		}
	}
	if valid < files*5/6 {
		t.Fatalf("only %d valid documents", valid)
	}
}
