package ref

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// text builds a valid Journal text for coordinate c at Journal version v,
// with predecessor pred (nil for a genesis) and one release per version in
// releases.
func text(c, v string, pred []byte, releases ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "JOURNAL_FORMAT 1\nARTIFACT %s\nJOURNAL_VERSION %s\n", c, v)
	if pred != nil {
		fmt.Fprintf(&b, "PREDECESSOR %s\n", digest(pred))
	}
	fmt.Fprintf(&b, "DESCRIPTION \"test artifact %s\"\n", c)
	for i, r := range releases {
		fmt.Fprintf(&b, "\nRELEASE %s\nLICENSE MIT\nCONTENT %s-%s.jar sha256:%064x\nPUBLISHED 20200101T00000%dZ\n", r, c, r, i+1, i%10)
	}
	return []byte(b.String())
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// tree writes files (root-relative path → text) under a new temporary root
// and returns the root.
func tree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	root := t.TempDir()
	for p, b := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func write(t testing.TB, root, rel string, b []byte) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
