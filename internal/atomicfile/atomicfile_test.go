package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write replaces a file whole and leaves no temporary file behind, also
// when it fails.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "checkpoint")
	for _, data := range []string{"first\n", "second, longer\n"} {
		if err := Write(name, []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != data {
			t.Fatalf("read %q, %v; want %q", got, err, data)
		}
	}
	if err := Write(filepath.Join(dir, "missing", "x"), []byte("x")); err == nil {
		t.Error("a write into a missing directory succeeded")
	}
	// A rename onto a directory fails: the temporary file goes too.
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "f"), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(dir, "sub"), []byte("x")); err == nil {
		t.Error("a rename onto a non-empty directory succeeded")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}
