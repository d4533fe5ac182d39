//go:build unix

package readfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Neither a link to a device, a FIFO (which would block an open until a
// writer came) nor a directory is read, followed or not.
func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	for _, p := range []string{zero, fifo, dir} {
		for _, opts := range []Options{{}, {NoFollow: true}, {Verified: true, NoFollow: true}} {
			done := make(chan error, 1)
			go func() { _, err := Read(p, opts); done <- err }()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotRegular) {
					t.Errorf("Read(%s, %+v) = %v, want ErrNotRegular", filepath.Base(p), opts, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("Read(%s, %+v) blocks", filepath.Base(p), opts)
			}
		}
		if _, _, err := Digest(p, Options{}); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Digest(%s) = %v, want ErrNotRegular", filepath.Base(p), err)
		}
	}
}
