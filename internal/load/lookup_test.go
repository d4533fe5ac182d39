package load

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFileFindsEveryPath checks Result.File, which searches the files by
// halves: every file of a load is found by its path, in a tree whose
// directory names sort differently from their paths ("a.b" before
// "a.b-c" as names, "a.b-c/…" before "a.b/…" as paths), with examples
// and with an overlay that adds a file; paths that were not read give nil.
func TestFileFindsEveryPath(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("not a journal\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{
		"a.b/20260101T000000Z.journal", "a.b/20260102T000000Z.journal",
		"a.b-c/20260101T000000Z.journal", "a.b-c/20260101T000000Z.journal.example",
		"a.bc/20250101T000000Z.journal", "z.z/20260101T000000Z.journal",
	} {
		write(rel)
	}
	overlay := map[string][]byte{"a.b/20260103T000000Z.journal": []byte("new\n")}
	for _, c := range []struct {
		name  string
		opts  Options
		files int
	}{
		{"plain", Options{}, 5},
		{"examples and overlay", Options{Examples: true, Source: Overlay(root, nil, overlay)}, 7},
		{"dropped documents", Options{DropDocs: true, Workers: 1}, 5},
	} {
		opts := c.opts
		res := loadNoHang(t, root, opts)
		if len(res.Files) != c.files {
			t.Fatalf("%s: %d files read, want %d", c.name, len(res.Files), c.files)
		}
		for _, f := range res.Files {
			if got := res.File(f.Path); got != f {
				t.Errorf("%s: File(%q) = %v, want the file read", c.name, f.Path, got)
			}
		}
		for _, rel := range []string{"", "a.b", "a.b/", "a.b/20260104T000000Z.journal", "a.b-c/20260101T000000Z", "b.b/20260101T000000Z.journal", "z.z/x/20260101T000000Z.journal"} {
			if f := res.File(rel); f != nil {
				t.Errorf("%s: File(%q) = %s, want nil", c.name, rel, f.Path)
			}
		}
	}
}
