package plugin

import (
	"bytes"
	"context"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
	"github.com/r35157/journal-lint/rules"
)

// TestStreamSendsTheSameDocuments: a Stream fed by the visits of a load
// that drops its documents sends every document, with every part, exactly
// as the NewInput of a load that kept them encodes it, on a tree with
// rejected, invalid and misplaced files (whose chain is another
// artifact's), and each document once; so does a stream to packs that
// parse the texts themselves when the load recycles each document once
// visited. A long test: 1500 files, 300 when tests run small
// (longtest.Small).
func TestStreamSendsTheSameDocuments(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	files := longtest.Size(1500, 300)
	if _, err := gen.Write(root, gen.Options{Files: files, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	for i, code := range []string{rules.ChainFork, rules.FSDirectoryMismatch, rules.ChainCrossArtifact, rules.SyntaxUnknownDirective} {
		if _, err := gen.Inject(root, code, uint64(i+3)); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	kept, err := load.Load(ctx, root, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, needs := range []protocol.Needs{protocol.NeedsAll, protocol.NeedsAll | protocol.ParseText} {
		want := map[string][]byte{}
		in := NewInput(kept)
		for _, b := range in.batches {
			for path, enc := range split(t, in.documents(b, needs)) {
				want[path] = enc
			}
		}

		st := newStream(ctx, &Set{Packs: []*Pack{{needs: needs}}})
		st.chain = true
		got := map[string][]byte{}
		go func() {
			defer close(st.done)
			for b := range st.feeds[0] {
				for path, enc := range split(t, st.in.documents(b, needs)) {
					if _, dup := got[path]; dup {
						t.Errorf("%s sent twice", path)
					}
					got[path] = enc
				}
				st.in.sent(b)
			}
		}()
		if st.Recyclable() != (needs&protocol.ParseText != 0) {
			t.Fatalf("needs %b: Recyclable is %v", needs, st.Recyclable())
		}
		dropped, err := load.Load(ctx, root, load.Options{DropDocs: true, Recycle: st.Recyclable, Visit: st.Visit})
		if err != nil {
			t.Fatal(err)
		}
		if len(st.later) == 0 {
			t.Error("no document waited for another artifact's chain")
		}
		st.res = nil // no pack ran: nothing to merge
		if _, err := st.Finish(ctx, dropped); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || len(want) < files {
			t.Fatalf("needs %b: sent %d documents, want %d", needs, len(got), len(want))
		}
		for path, w := range want {
			if !bytes.Equal(got[path], w) {
				t.Errorf("needs %b: %s: the stream's encoding differs", needs, path)
			}
		}
	}
}

// split cuts the encoding of CheckRequest.documents into its documents by
// path.
func split(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		v, m := protowire.ConsumeBytes(b[n:])
		if n < 0 || m < 0 || num != wire.CheckRequestDocuments || typ != protowire.BytesType {
			t.Fatal("malformed documents")
		}
		_, _, k := protowire.ConsumeTag(v)
		path, _ := protowire.ConsumeString(v[k:])
		out[path] = bytes.Clone(v) // the buffer is reused once sent
		b = b[n+m:]
	}
	return out
}
