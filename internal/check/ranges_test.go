package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Every diagnostic that names a file has a range: whole-file and directory
// findings (fs/*) get diag.FileStart, so JSON's contract holds and SARIF
// results have a region.
func TestEveryFileDiagnosticHasARange(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for rel, b := range map[string]string{
		"notes.txt": "stray\n",
		"com.example.widget/20260110T080000Z.journal": gateGenesis,
		"com.example.widget/not-a-time.journal":       gateGenesis,
		"com.example.widget/old/x.journal":            gateGenesis,
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("20260110T080000Z.journal", filepath.Join(root, "com.example.widget", "20270101T000000Z.journal")); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) < 4 {
		t.Fatalf("want at least 4 diagnostics, got %v", res.Diagnostics)
	}
	for _, d := range res.Diagnostics {
		if d.Path != "" && !d.Range.IsValid() {
			t.Errorf("%s on %s has no range", d.Code, d.Path)
		}
		for _, r := range d.Related {
			if r.Path != "" && !r.Range.IsValid() {
				t.Errorf("%s: related %s has no range", d.Code, r.Path)
			}
		}
	}
}
