package plugin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/plugin/packtest"
	"github.com/r35157/journal-lint/internal/readfile"
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
	s, old := ownPack(t)
	exe := s.Path
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

// ownPack returns the spec of a copy of the license-policy pack of the
// test's own, which the test may change, and the modification time given
// to it: a minute ago, not too recent for its stamp to count.
func ownPack(t *testing.T) (plugin.Spec, time.Time) {
	t.Helper()
	b, err := os.ReadFile(packtest.Path(t, "license-policy"))
	if err != nil {
		t.Fatal(err)
	}
	s := spec(t, "license-policy")
	s.Path = filepath.Join(t.TempDir(), "license-policy")
	if err := os.WriteFile(s.Path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(s.Path, old, old); err != nil {
		t.Fatal(err)
	}
	// The writes above set the file's change time to now, and a start
	// keeps no record for a file changed too recently for its stamp to
	// vouch for it (readfile.Recent): wait that window out, or a start
	// that comes within it copies again.
	for {
		fi, err := os.Lstat(s.Path)
		if err != nil {
			t.Fatal(err)
		}
		if !readfile.Recent(fi, time.Now()) {
			return s, old
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestKeptCopyNeedsAPrivateCache: a keep directory in a cache directory
// that others can write to (the fallback under a shared temporary
// directory, made by another user first) is not used. Such a user can
// stat the configured file and the file they put in the keep directory,
// and so write a record that vouches for other bytes than the pinned ones;
// the start runs the pinned bytes all the same.
func TestKeptCopyNeedsAPrivateCache(t *testing.T) {
	t.Parallel()
	s, _ := ownPack(t)
	exe := s.Path
	for _, c := range []struct {
		name             string
		cacheMode, packs os.FileMode
	}{
		{"cache writable by all", 0o777, 0o700},
		{"packs writable by its group", 0o755, 0o770},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := filepath.Join(t.TempDir(), "cache")
			keep := filepath.Join(cache, "packs")
			forged := filepath.Join(keep, s.SHA256, "license-policy")
			if err := os.MkdirAll(filepath.Dir(forged), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(forged, []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			src, ok := readfile.Durable(lstat(t, exe))
			cp, _ := readfile.Durable(lstat(t, forged))
			if !ok {
				t.Fatal("no durable stamp")
			}
			sum := sha256.Sum256([]byte(exe))
			rec := filepath.Join(keep, s.SHA256, hex.EncodeToString(sum[:16])+".stamp")
			if err := os.WriteFile(rec, []byte(src+"\n"+cp+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(keep, c.packs); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(cache, c.cacheMode); err != nil {
				t.Fatal(err)
			}
			startOnce(t, s, keep)
		})
	}
}

// lstat returns the Lstat of path.
func lstat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// TestKeptCopyFallsBackToAPrivateCopy: a keep directory where the copy
// cannot be made (here a path too long for it; in use, a full disk or a
// directory made read-only) costs the keeping only: the pack is copied
// and verified under the temporary directory and starts, and nothing is
// left in the keep directory that a later start could take.
func TestKeptCopyFallsBackToAPrivateCopy(t *testing.T) {
	t.Parallel()
	s := spec(t, "license-policy")
	for _, c := range []struct {
		name string
		room int // how long a path under the keep directory may be
	}{
		// journal-lint-pack-<up to 10 digits> and /license-policy
		{"no room for the copy's directory", 10},
		{"no room for the copy", 35},
	} {
		t.Run(c.name, func(t *testing.T) {
			keep := t.TempDir()
			for len(keep) < 4095-c.room-100 {
				keep = filepath.Join(keep, strings.Repeat("k", 99))
			}
			keep = filepath.Join(keep, strings.Repeat("k", 4095-c.room-len(keep)-1))
			startOnce(t, s, keep)
			if des, err := os.ReadDir(keep); err != nil || len(des) != 0 {
				t.Errorf("left in the keep directory: %v (%v)", des, err)
			}
		})
	}
}

// TestKeptCopyRewrittenInPlace: a configured file whose bytes are changed
// in place, keeping its inode and size, and given its modification time
// back (touch -d) is still refused by its pin: its change time, which no
// user can set, tells it from the file the record vouches for.
func TestKeptCopyRewrittenInPlace(t *testing.T) {
	t.Parallel()
	s, old := ownPack(t)
	exe := s.Path
	keep := filepath.Join(t.TempDir(), "packs")
	startOnce(t, s, keep)
	before := lstat(t, exe)
	f, err := os.OpenFile(exe, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0xff}, before.Size()-1); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(exe, old, before.ModTime()); err != nil {
		t.Fatal(err)
	}
	if after := lstat(t, exe); after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("the rewrite changed the size or modification time")
	}
	var ve *plugin.VerifyError
	if _, err := plugin.Start(context.Background(), configOf(s), keep); !errors.As(err, &ve) {
		t.Errorf("a pack rewritten in place with its times given back: %v, want a VerifyError", err)
	}
}
