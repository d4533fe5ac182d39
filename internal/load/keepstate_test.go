package load

import (
	"testing"
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
