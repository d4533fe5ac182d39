package load

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/r35157/journal-lint/internal/syntax"
)

// TestDropDocsKeepState checks that a load with DropDocs and KeepState
// gathers the same accepted state as a load that keeps its documents,
// while dropping every document, and that Source still gives each file's
// bytes (read again).
func TestDropDocsKeepState(t *testing.T) {
	t.Parallel()
	root, _ := genTree(t, 80)
	full := loadNoHang(t, root, Options{Workers: 2})
	lean := loadNoHang(t, root, Options{Workers: 2, DropDocs: true, KeepState: true, Compact: true})
	if lean.State == nil || full.State == nil {
		t.Fatal("no state")
	}
	if g, w := lean.State.RevisionCount(), full.State.RevisionCount(); g != w || g == 0 {
		t.Errorf("%d accepted revisions, want %d", g, w)
	}
	if g, w := lean.State.Artifacts(), full.State.Artifacts(); g != w {
		t.Errorf("%d artifacts, want %d", g, w)
	}
	if lean.Revisions != full.Revisions || lean.Chains != full.Chains {
		t.Errorf("counts %d/%d, want %d/%d", lean.Chains, lean.Revisions, full.Chains, full.Revisions)
	}
	for _, f := range lean.Files {
		if f.Doc != nil {
			t.Fatalf("%s: document kept", f.Path)
		}
		if want := full.File(f.Path).Doc.Src; string(lean.Source(f.Path)) != string(want) {
			t.Errorf("%s: Source differs from the bytes read", f.Path)
		}
	}
}

// TestDocReadAgain: with DropDocs, Doc parses a file again, once for
// consecutive calls, and gives nil once the file holds other bytes.
func TestDocReadAgain(t *testing.T) {
	t.Parallel()
	root, _ := genTree(t, 20)
	lean := loadNoHang(t, root, Options{Workers: 2, DropDocs: true})
	f := lean.Files[0]
	d := lean.Doc(f.Path)
	if d == nil || d.Digest != f.Summary.Digest {
		t.Fatalf("%s: no document, or another one", f.Path)
	}
	if lean.Doc(f.Path) != d {
		t.Error("a consecutive call parsed the file again")
	}
	g := lean.Files[1]
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(g.Path)), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if lean.Doc(g.Path) != nil {
		t.Errorf("%s: a document for bytes the load did not read", g.Path)
	}
	if d2 := lean.Doc(f.Path); d2 == nil || d2.Digest != d.Digest {
		t.Errorf("%s: no document, or another one, after a different path", f.Path)
	}
}

// TestRecycleAskedAfterVisit: with DropDocs, Recycle is asked after each
// visit, so a Visit that learns only at its first call whether it keeps
// the documents it sees (as a check's rule packs that start alongside the
// load do) keeps them whole, or has them recycled.
func TestRecycleAskedAfterVisit(t *testing.T) {
	t.Parallel()
	root, _ := genTree(t, 60)
	for _, keep := range []bool{true, false} {
		var (
			decide sync.Once
			keeps  bool
			mu     sync.Mutex
			seen   = map[*syntax.Document]int{} // directives at the visit
		)
		visit := func(a *Artifact) {
			decide.Do(func() { keeps = keep })
			mu.Lock()
			defer mu.Unlock()
			for _, f := range a.Files {
				if f.Doc != nil {
					seen[f.Doc] = len(f.Doc.Directives)
				}
			}
		}
		recycle := func() bool {
			decide.Do(func() {}) // after the first visit's decision
			return !keeps
		}
		loadNoHang(t, root, Options{Workers: 2, DropDocs: true, Visit: visit, Recycle: recycle})
		whole := 0
		for doc, n := range seen {
			if len(doc.Directives) == n && n > 0 {
				whole++
			}
		}
		if keep && whole != len(seen) || !keep && whole != 0 || len(seen) == 0 {
			t.Errorf("keep %v: %d of %d visited documents whole after the load", keep, whole, len(seen))
		}
	}
}
