package plugin

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
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
// that drops its documents and recycles each once visited sends every
// document, with the parts a pack needs, exactly as they are encoded from
// a load that kept them, with the artifact's chain, on a tree with
// rejected, invalid and misplaced files (whose chain is another
// artifact's, visited before or after them), and each document once. The
// last artifact is taken as known (Stream.Known, as a check does with an
// artifact its cache vouches for): none of its documents is sent, and the
// misplaced file that names it gets its chain all the same. A long test:
// 1500 files, 300 when tests run small (longtest.Small).
func TestStreamSendsTheSameDocuments(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	size := longtest.Size(1500, 300)
	if _, err := gen.Write(root, gen.Options{Files: size, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	for i, code := range []string{rules.ChainFork, rules.FSDirectoryMismatch, rules.ChainCrossArtifact, rules.SyntaxUnknownDirective} {
		if _, err := gen.Inject(root, code, uint64(i+3)); err != nil {
			t.Fatal(err)
		}
	}
	// A file of the last artifact misplaced into the first directory: its
	// chain is not known when its directory is visited.
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	last := filepath.Join(root, dirs[len(dirs)-1].Name())
	files, err := os.ReadDir(last)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(last, files[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "aaa.first"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "aaa.first", files[0].Name()), text, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	kept, err := load.Load(ctx, root, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lastDir := dirs[len(dirs)-1].Name()
	for _, needs := range []wire.Needs{wire.NeedAll, wire.NeedText | wire.NeedChain} {
		want := map[string][]byte{}
		var c protocol.Converter
		for _, f := range kept.Files {
			if !f.Summary.Read || strings.HasPrefix(f.Path, lastDir+"/") {
				continue
			}
			cc := protocol.ChainContext(f)
			if f.Summary.CoordinateOK {
				cc.Revisions = protocol.Revisions(kept.State.Entries(f.Summary.Coordinate))
			}
			want[f.Path] = wire.AppendDocument(nil, c.Document(f.Doc, cc, needs), needs)
		}

		st := newStream(ctx, &Packs{packs: []*pack{{needs: needs}}})
		got := map[string][]byte{}
		go func() {
			defer close(st.done)
			for b := range st.feeds[0] {
				for path, enc := range split(t, b.enc[0]) {
					if _, dup := got[path]; dup {
						t.Errorf("%s sent twice", path)
					}
					got[path] = enc
				}
				st.sent(b)
			}
		}()
		// The last artifact is visited after aaa.first whatever order
		// the workers finish in: aaa.first's document then waits.
		firstVisited := make(chan struct{})
		visit := func(a *load.Artifact) {
			switch a.Dir {
			case lastDir:
				<-firstVisited
				st.Known(a)
			case "aaa.first":
				st.Visit(a)
				close(firstVisited)
			default:
				st.Visit(a)
			}
		}
		dropped, err := load.Load(ctx, root, load.Options{DropDocs: true, Recycle: st.Recyclable, Visit: visit})
		if err != nil {
			t.Fatal(err)
		}
		if len(st.later) == 0 {
			t.Error("no document waited for another artifact's chain")
		}
		if _, err := st.Finish(ctx, dropped); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || len(want) < size*9/10 {
			t.Fatalf("needs %04b: sent %d documents, want %d", needs, len(got), len(want))
		}
		for path, w := range want {
			if !bytes.Equal(got[path], w) {
				t.Errorf("needs %04b: %s: the stream's encoding differs", needs, path)
			}
		}
	}
}

// split cuts the encoding of CheckRequest.documents into its elements by
// path.
func split(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for len(b) > 0 {
		_, _, k := protowire.ConsumeTag(b)
		if k < 0 {
			t.Fatal("malformed documents")
		}
		_, m := protowire.ConsumeBytes(b[k:])
		docs, err := wire.DecodeDocuments(b[:k+max(m, 0)])
		if m < 0 || err != nil || len(docs) != 1 {
			t.Fatalf("malformed documents: %v", err)
		}
		out[docs[0].Path] = bytes.Clone(b[:k+m]) // the buffer is reused once sent
		b = b[k+m:]
	}
	return out
}
