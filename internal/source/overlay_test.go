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

// An Overlay lists the buffers that placed accepts where the disk has no
// file, in directories it makes up where the disk has none; it reads a
// buffer instead of the file, whatever its path; it gives no buffer a
// stamp; and it leaves everything else to the disk.
func TestOverlay(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for rel, text := range map[string]string{"a.b/1.journal": "disk 1\n", "a.b/3.journal": "disk 3\n", "stray.txt": "x"} {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	buffers := map[string][]byte{
		"a.b/1.journal":   []byte("buffer 1\n"), // stands in for a file on disk
		"a.b/2.journal":   []byte("buffer 2\n"), // beside files on disk
		"c.d/1.journal":   []byte("buffer c\n"), // in a directory the disk lacks
		"a.b/notes.txt":   []byte("not placed\n"),
		"e.f/g/1.journal": []byte("nested\n"),
		"a.b/big.journal": make([]byte, readfile.MaxJournal+1),
	}
	placed := func(rel string) bool { return strings.HasSuffix(rel, ".journal") }
	o := NewOverlay(&Disk{Root: root}, buffers, placed)

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
	if d := cmp.Diff([]entry{{"a.b", fs.ModeDir, true}, {"c.d", fs.ModeDir, false}, {"stray.txt", 0, true}}, list("")); d != "" {
		t.Errorf("root (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]entry{{"1.journal", 0, false}, {"2.journal", 0, false}, {"3.journal", 0, true}, {"big.journal", 0, false}}, list("a.b")); d != "" {
		t.Errorf("a.b (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]entry{{"1.journal", 0, false}}, list("c.d")); d != "" {
		t.Errorf("c.d (-want +got):\n%s", d)
	}
	if _, err := o.ReadDir("e.f", false); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a directory only a misplaced buffer names: %v, want it missing", err)
	}
	for rel, want := range map[string]fs.FileMode{"c.d": fs.ModeDir, "c.d/1.journal": 0, "a.b/2.journal": 0, "a.b": fs.ModeDir} {
		if got, err := o.Stat(rel); err != nil || got != want {
			t.Errorf("Stat(%q) = %v, %v; want %v", rel, got, err, want)
		}
	}
	if _, err := o.Stat("a.b/notes.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat of a buffer that is not placed: %v, want the disk's answer", err)
	}

	for rel, want := range map[string]string{"a.b/1.journal": "buffer 1\n", "a.b/3.journal": "disk 3\n", "a.b/notes.txt": "not placed\n"} {
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
	if got, want := strings.Join(slices.Sorted(slices.Values(o.Dirs())), " "), "a.b c.d"; got != want {
		t.Errorf("Dirs() = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(root, "c.d")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the overlay made a directory on disk: %v", err)
	}
}
