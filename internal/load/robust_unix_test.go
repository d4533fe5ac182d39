//go:build unix

package load

// The robustness tests of robust_test.go that make a FIFO, which only Unix
// file systems hold.

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/r35157/journal-lint/rules"
)

func TestLoadFileReplacedByFIFO(t *testing.T) {
	root, tr := genTree(t, 3)
	rel := tr.Files[0].Path
	abs := filepath.Join(root, filepath.FromSlash(rel))
	var want string
	setHook(t, "open", abs, func() {
		if err := os.Remove(abs); err != nil {
			t.Error(err)
		}
		if err := syscall.Mkfifo(abs, 0o644); err != nil {
			t.Error(err)
		}
		want = fingerprint(t, root)
	})
	res := loadNoHang(t, root, Options{})
	wantDiag(t, res, rules.FSUnexpectedEntry, rel)
	unchanged(t, root, want)
}

func TestLoadFIFOInTree(t *testing.T) {
	t.Parallel()
	root, tr := genTree(t, 3)
	dir := strings.Split(tr.Files[0].Path, "/")[0]
	fifos := []string{"pipe", dir + "/20991231T235959Z.journal", dir + "/20991231T235959Z.journal.example"}
	for _, rel := range fifos {
		if err := syscall.Mkfifo(filepath.Join(root, filepath.FromSlash(rel)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := fingerprint(t, root)
	res := loadNoHang(t, root, Options{Examples: true})
	for _, rel := range fifos {
		d := wantDiag(t, res, rules.FSUnexpectedEntry, rel)
		if rel != "pipe" && !strings.Contains(d.Message+d.Help, "regular file") && !strings.Contains(d.Message, "named pipe") {
			t.Errorf("%s: %q does not say what is wrong", rel, d.Message)
		}
	}
	unchanged(t, root, before)
}
