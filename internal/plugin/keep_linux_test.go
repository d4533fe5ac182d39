package plugin_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/plugin/packtest"
)

// Kept copies need the change time of a file (readfile.Durable), which
// Linux gives.

// TestKeptCopy: with a keep directory, the first start keeps its verified
// copy of the pack there and the next starts run it without copying again
// (the copy's inode stays), as long as neither the configured file nor
// the copy changed; a configured file with other bytes is still refused
// by its pin, and a touched file or a tampered copy is copied and verified
// again.
func TestKeptCopy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exe := filepath.Join(dir, "license-policy")
	copyFile(t, packtest.Path(t, "license-policy"), exe)
	s := spec(t, "license-policy")
	s.Path = exe
	old := time.Now().Add(-time.Minute) // not too recent for its stamp to count
	if err := os.Chtimes(exe, old, old); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(t.TempDir(), "packs")
	kept := filepath.Join(keep, s.SHA256, "license-policy")

	startOnce(t, s, keep)
	first := inode(t, kept)
	startOnce(t, s, keep)
	if got := inode(t, kept); got != first {
		t.Errorf("an unchanged pack was copied again (inode %d, then %d)", first, got)
	}

	// Touched: its stamp no longer vouches for it, so it is verified
	// again (and kept anew).
	if err := os.Chtimes(exe, old.Add(time.Second), old.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	startOnce(t, s, keep)
	touched := inode(t, kept)
	if touched == first {
		t.Error("a touched pack ran from the kept copy without being verified")
	}

	// The kept copy written to: copied and verified again.
	f, err := os.OpenFile(kept, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		if err := os.Chmod(kept, 0o700); err != nil {
			t.Fatal(err)
		}
		f, err = os.OpenFile(kept, os.O_WRONLY|os.O_APPEND, 0)
	}
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("tampered"))
	f.Close()
	startOnce(t, s, keep)
	if inode(t, kept) == touched {
		t.Error("a kept copy that was written to ran again")
	}

	// Other bytes under the configured path: the pin refuses them,
	// although a copy of the pinned bytes is kept.
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, append(b, 0), 0o755); err != nil {
		t.Fatal(err)
	}
	var ve *plugin.VerifyError
	if _, err := plugin.Start(context.Background(), configOf(s), keep); !errors.As(err, &ve) {
		t.Errorf("a pack with other bytes than its pin: %v, want a VerifyError", err)
	}
}

// TestKeptCopyConcurrentStarts starts one pack from several goroutines
// with one keep directory, as an editor, a hook and a terminal do: every
// start runs the pinned pack.
func TestKeptCopyConcurrentStarts(t *testing.T) {
	t.Parallel()
	s := spec(t, "license-policy")
	keep := filepath.Join(t.TempDir(), "packs")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { startOnce(t, s, keep) })
	}
	wg.Wait()
}

// startOnce starts the pack of s with the keep directory keep, requires
// it to describe itself, and closes it.
func startOnce(t *testing.T, s plugin.Spec, keep string) {
	t.Helper()
	ps, err := plugin.Start(context.Background(), configOf(s), keep)
	if err != nil {
		t.Error(err)
		return
	}
	defer ps.Close()
	if infos := ps.Infos(); len(infos) != 1 || infos[0].SHA256 != s.SHA256 {
		t.Errorf("infos = %+v", infos)
	}
}

// inode returns the inode number of the file at path.
func inode(t *testing.T, path string) uint64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

// copyFile copies the executable at from to to.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
