package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/r35157/journal-lint/internal/readfile"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// An Overlay lists the buffers at clean paths where the disk has no entry,
// in directories (and under a root) it makes up where the disk has none;
// it leaves a link or another kind of entry at a buffer's path, or at one
// of its directories', as it is; it reads a buffer instead of the file,
// whatever its path; it gives no buffer a stamp; and it leaves everything
// else to the disk.
func TestOverlay(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for rel, text := range map[string]string{"a.b/1.journal": "disk 1\n", "a.b/3.journal": "disk 3\n", "stray.txt": "x", "x.y": "a file\n"} {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("3.journal", filepath.Join(root, "a.b", "link.journal")); err != nil {
		t.Fatal(err)
	}
	buffers := map[string][]byte{
		"a.b/1.journal":              []byte("buffer 1\n"), // stands in for a file on disk
		"a.b/2.journal":              []byte("buffer 2\n"), // beside files on disk
		"a.b/notes.txt":              []byte("any name\n"), // the walk judges names
		"a.b/link.journal":           []byte("over a link\n"),
		"c.d/1.journal":              []byte("buffer c\n"), // in a directory the disk lacks
		"x.y/1.journal":              []byte("in a file\n"),
		"e.f/g/1.journal":            []byte("nested\n"),
		"a.b/../u.journal":           []byte("not clean\n"),
		"a.b//v.journal":             []byte("not clean\n"),
		"Not A Coordinate/1.journal": []byte("misplaced\n"),
		"a.b/big.journal":            make([]byte, readfile.MaxJournal+1),
	}
	o := NewOverlay(&Disk{Root: root}, buffers)

	type entry struct {
		Name    string
		Type    fs.FileMode
		Stamped bool
	}
	list := func(rel string) []entry {
		t.Helper()
		es, err := o.ReadDir(rel, true)
		if err != nil {
			t.Fatalf("ReadDir(%q): %v", rel, err)
		}
		var out []entry
		for _, e := range es {
			out = append(out, entry{e.Name, e.Type, e.Stat != 0})
		}
		return out
	}
	if d := cmp.Diff([]entry{{"Not A Coordinate", fs.ModeDir, false}, {"a.b", fs.ModeDir, true}, {"c.d", fs.ModeDir, false}, {"e.f", fs.ModeDir, false}, {"stray.txt", 0, true}, {"x.y", 0, true}}, list("")); d != "" {
		t.Errorf("root (-want +got):\n%s", d)
	}
	want := []entry{{"1.journal", 0, false}, {"2.journal", 0, false}, {"3.journal", 0, true}, {"big.journal", 0, false}, {"link.journal", fs.ModeSymlink, true}, {"notes.txt", 0, false}}
	if d := cmp.Diff(want, list("a.b")); d != "" {
		t.Errorf("a.b (-want +got):\n%s", d)
	}
	for dir, want := range map[string][]entry{"c.d": {{"1.journal", 0, false}}, "e.f": {{"g", fs.ModeDir, false}}, "e.f/g": {{"1.journal", 0, false}}} {
		if d := cmp.Diff(want, list(dir)); d != "" {
			t.Errorf("%s (-want +got):\n%s", dir, d)
		}
	}
	if _, err := o.ReadDir("x.y", false); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir of a file on disk that a buffer names as its directory: %v, want the disk's error", err)
	}
	for rel, want := range map[string]fs.FileMode{"c.d": fs.ModeDir, "c.d/1.journal": 0, "a.b/2.journal": 0, "a.b": fs.ModeDir, "a.b/link.journal": fs.ModeSymlink, "x.y": 0, "e.f/g": fs.ModeDir, "e.f/g/1.journal": 0} {
		if got, err := o.Stat(rel); err != nil || got != want {
			t.Errorf("Stat(%q) = %v, %v; want %v", rel, got, err, want)
		}
	}
	for _, rel := range []string{"u.journal", "a.b/u.journal", "a.b/v.journal"} {
		if _, err := o.Stat(rel); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Stat(%q), the clean form of a buffer's path that is not clean: %v, want the disk's answer", rel, err)
		}
	}

	// A root that does not exist yet is made up around its buffers.
	missing := NewOverlay(&Disk{Root: filepath.Join(root, "not-yet")}, map[string][]byte{"c.d/1.journal": []byte("c\n")})
	if mode, err := missing.Stat(""); err != nil || mode != fs.ModeDir {
		t.Errorf("Stat of a missing root with buffers = %v, %v; want a directory", mode, err)
	}
	if es, err := missing.ReadDir("", false); err != nil || len(es) != 1 || es[0].Name != "c.d" {
		t.Errorf("ReadDir of a missing root with buffers = %v, %v", es, err)
	}

	for rel, want := range map[string]string{"a.b/1.journal": "buffer 1\n", "a.b/3.journal": "disk 3\n", "e.f/g/1.journal": "nested\n"} {
		f, err := o.ReadFile(rel)
		if err != nil || string(f.Data) != want {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", rel, f.Data, err, want)
		}
		if (f.Stamp != 0) != (rel == "a.b/3.journal") {
			t.Errorf("ReadFile(%q): stamp %x; only a file read from disk has one", rel, f.Stamp)
		}
	}
	var tooLarge *readfile.TooLargeError
	if _, err := o.ReadFile("a.b/big.journal"); !errors.As(err, &tooLarge) {
		t.Errorf("an oversized buffer: %v, want the disk's refusal", err)
	}
	if got := o.ReadAgain("a.b/1.journal", vt.DigestOf([]byte("buffer 1\n"))); string(got) != "buffer 1\n" {
		t.Errorf("ReadAgain of the buffer = %q", got)
	}
	if got := o.ReadAgain("a.b/1.journal", vt.DigestOf([]byte("disk 1\n"))); got != nil {
		t.Errorf("ReadAgain by the disk's digest = %q, want nil: the buffer stands in for the file", got)
	}
	if got := o.ReadAgain("a.b/3.journal", vt.DigestOf([]byte("disk 3\n"))); string(got) != "disk 3\n" {
		t.Errorf("ReadAgain from the disk = %q", got)
	}
	if got, want := strings.Join(slices.Sorted(slices.Values(o.Dirs())), " "), "Not A Coordinate a.b c.d e.f x.y"; got != want {
		t.Errorf("Dirs() = %q, want %q", got, want)
	}
	if !o.ListsInRoot() || NewOverlay(&Disk{Root: root}, map[string][]byte{"a.b/1.journal": nil}).ListsInRoot() {
		t.Error("ListsInRoot: want true with a directory named as no coordinate, false with only a.b")
	}
	if _, err := os.Stat(filepath.Join(root, "c.d")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the overlay made a directory on disk: %v", err)
	}
}
