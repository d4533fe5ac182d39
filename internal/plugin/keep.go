package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/r35157/journal-lint/internal/atomicfile"
	"github.com/r35157/journal-lint/internal/readfile"
)

// A keep directory holds the verified copies of rule packs' executables
// that a command leaves for the next one, so that a pack whose file has not
// changed starts without being copied and hashed again (the persistent
// cache's packs/ directory; the CLI passes it to [Launch]). For a pin it
// holds, in <keep>/<pin>/:
//
//   - the copy, under the configured executable's own name (what ps shows),
//     made, hashed and renamed into place as [stage] makes a private copy;
//   - a record per configured path, <id of the path>.stamp: the durable
//     stamps (readfile.Durable) of that path's file and of the copy when
//     the copy was verified from that file's bytes.
//
// A later start runs the copy only while both stamps hold: the configured
// file was not written, replaced, touched or changed in mode since (so it
// still holds the pinned bytes, and a pin that no longer matches it is
// still reported), and neither was the copy. Anything else copies and
// verifies as without a keep directory. So does a keep directory that
// others could write to ([privateKeep]): the stamps in a record are what
// anyone who can stat the files reads, not a secret.
//
// The directory's modification time says when its copy was last used,
// for the cache's trim.

// kept returns the copy in keep of the executable at path (whose Lstat is
// fi) pinned to pin, when a record vouches for it, else "".
func kept(keep, pin, path string, fi os.FileInfo) string {
	dir := filepath.Join(keep, pin)
	rec, err := os.ReadFile(recordPath(dir, path))
	if err != nil {
		return ""
	}
	src, cp, ok := strings.Cut(strings.TrimSuffix(string(rec), "\n"), "\n")
	if !ok || src != durableStamp(fi) {
		return ""
	}
	exe := filepath.Join(dir, filepath.Base(path))
	cfi, err := os.Lstat(exe)
	if err != nil || !cfi.Mode().IsRegular() || cp != durableStamp(cfi) {
		return ""
	}
	markUsed(dir)
	return exe
}

// keepCopy moves the verified copy exe into keep as the copy of path for
// pin and records the stamps: fi, the Lstat of path taken before its bytes
// were read, and the copy's. It returns the copy's new path, or exe where
// the copy cannot be kept. No record is written for a file too recently
// changed to be vouched for by its stamp (readfile.Recent).
func keepCopy(keep, pin, path string, fi os.FileInfo, exe string) string {
	dir := filepath.Join(keep, pin)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return exe
	}
	final := filepath.Join(dir, filepath.Base(path))
	if err := os.Rename(exe, final); err != nil {
		return exe
	}
	markUsed(dir)
	cfi, err := os.Lstat(final)
	src := durableStamp(fi)
	if err != nil || src == "" || readfile.Recent(fi, time.Now()) {
		return final
	}
	_ = atomicfile.Write(recordPath(dir, path), []byte(src+"\n"+durableStamp(cfi)+"\n"))
	return final
}

// privateKeep reports whether the keep directory keep can hold copies
// that run: a directory (not a link) of this user's that no one else can
// write, in a directory of this user's that others outside its group
// cannot write either (so cannot put another directory in keep's place).
// Whoever else could write there could put other bytes in the keep
// directory and a record that vouches for them, since a durable stamp is
// what anyone who can stat the files reads: a cache directory that others
// share (one under the temporary directory that another user made first)
// keeps no copies, and every start copies and verifies.
func privateKeep(keep string) bool {
	fi, err := os.Lstat(keep)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 || !readfile.Mine(fi) {
		return false
	}
	parent, err := os.Stat(filepath.Dir(keep))
	return err == nil && parent.IsDir() && parent.Mode().Perm()&0o002 == 0 && readfile.Mine(parent)
}

// durableStamp is readfile.Durable's stamp of fi, "" without one.
func durableStamp(fi os.FileInfo) string {
	s, _ := readfile.Durable(fi)
	return s
}

// recordPath is the record of the configured path in dir: named by the
// SHA-256 of its absolute form, so that every configuration that pins the
// same bytes under another path has its own.
func recordPath(dir, path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(dir, hex.EncodeToString(sum[:16])+".stamp")
}

// markUsed sets dir's modification time to now when it is an hour old or
// more, as the Go build cache marks its entries: what the trim keeps.
func markUsed(dir string) {
	now := time.Now()
	if fi, err := os.Stat(dir); err == nil && now.Sub(fi.ModTime()) >= time.Hour {
		_ = os.Chtimes(dir, now, now)
	}
}
