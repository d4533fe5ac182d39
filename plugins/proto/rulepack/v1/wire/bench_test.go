package wire_test

import (
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// BenchmarkCodec measures both directions of a Check request's documents
// over a generated tree of 2,000 files with every part, the hand codec
// against the generated one:
//
//   - encode: the host's side, from its parsed documents to the bytes of
//     the request's documents (hand: an Encoder, which writes a release
//     an artifact's earlier revision had once; generated: build the
//     messages, proto.Marshal);
//   - decode: the pack's side, from those bytes to every document's model
//     and directives, what a pack that reads them all pays (hand:
//     DecodeDocuments, Revision, Directives; generated: proto.Unmarshal,
//     then the model built from the messages).
//
// The bytes are the same either way (TestCodecMatchesGenerated); the
// benchmark is what keeps the hand codec (see the package doc).
func BenchmarkCodec(b *testing.B) {
	docs := corpus(b, 2000)
	var size int64
	var raw []byte
	for _, d := range docs {
		raw = wire.AppendDocument(raw, d.Document, wire.NeedAll)
	}
	size = int64(len(raw))
	b.Run("encode/hand", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		var buf []byte
		var enc wire.Encoder // as the host's, which remembers an artifact's releases
		for b.Loop() {
			buf = buf[:0]
			for i, d := range docs {
				if i > 0 && d.Chain != nil && docs[i-1].Chain != nil && d.Chain.Coordinate != docs[i-1].Chain.Coordinate {
					enc.Reset()
				}
				buf = enc.AppendDocument(buf, d.Document, wire.NeedAll)
			}
		}
	})
	b.Run("encode/generated", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			req := &pb.CheckRequest{Documents: make([]*pb.Document, len(docs))}
			for i, d := range docs {
				req.Documents[i] = generated(d, wire.NeedAll)
			}
			var err error
			if buf, err = (proto.MarshalOptions{}).MarshalAppend(buf[:0], req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/hand", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			got, err := wire.DecodeDocuments(raw)
			if err != nil {
				b.Fatal(err)
			}
			for _, d := range got {
				if _, err := d.Revision(); err != nil {
					b.Fatal(err)
				}
				if _, err := d.Directives(); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("decode/generated", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			decodeGenerated(b, raw)
		}
	})
}
