//go:build unix

package lsp_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/r35157/journal-lint/internal/lsp/lsptest"
)

// A rule pack that fails reports plugin/failed on no file, as check does;
// the editor shows it in each buffer, where a broken pack would otherwise
// look like a clean file.
func TestFailedPackShowsInEachBuffer(t *testing.T) {
	root := tree(t)
	top := filepath.Dir(root)
	pack := filepath.Join(top, "bin", "broken")
	if err := os.MkdirAll(filepath.Dir(pack), 0o755); err != nil {
		t.Fatal(err)
	}
	script := []byte("#!/bin/sh\necho 'broken pack: cannot start' >&2\nexit 3\n")
	if err := os.WriteFile(pack, script, 0o755); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(script)
	cfg := filepath.Join(top, ".journal-lint.yaml")
	old, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	add := "plugins:\n  - path: bin/broken\n    sha256: " + hex.EncodeToString(sum[:]) + "\n"
	if err := os.WriteFile(cfg, append(old, add...), 0o644); err != nil {
		t.Fatal(err)
	}
	c := lsptest.Start(t, opts())
	_, ds := open(t, c, root, widgetFork)
	if !hasCode(ds, "plugin/failed") {
		t.Fatalf("want plugin/failed in the buffer, got %v", codes(ds))
	}
	if !hasCode(ds, "chain/fork") {
		t.Errorf("the buffer's own findings are gone: %v", codes(ds))
	}
}
