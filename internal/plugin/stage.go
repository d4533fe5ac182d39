package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/r35157/journal-lint/internal/readfile"
)

// stage copies the executable of s into a new private directory (mode
// 0700, under the system's temporary directory), hashing the bytes as it
// copies them, and returns the directory and the copy's path when the
// bytes match the pin. The copy is what runs: whatever happens to the
// configured file afterwards (another file renamed over it, a write in
// place), the bytes that run are the bytes that were verified, because no
// one but this process can write to the directory. The caller removes dir.
//
// The configured path is opened as [openPack] does (no symbolic link, only
// a regular file of at most readfile.MaxPack bytes), and the copy ends
// when ctx is done or the pack's timeout passes: a path that a pull
// request points at /proc/self/pagemap or a FIFO costs a bounded read, or
// none. Every failure removes the directory before stage returns.
// A file that cannot be read, is not a regular file, is too large or does
// not match is a [*VerifyError]; a copy that ran out of time is one too,
// and ctx's error when ctx ended it; other errors (no temporary
// directory) are returned as they are.
//
// With a keep directory (see keep.go; "" for none), a copy that a record
// there vouches for runs instead, with dir "", and a new copy is made
// there and kept for the next start; where it cannot be made there (a
// full disk), the private copy is made as without one.
func stage(ctx context.Context, s Spec, keep string) (dir, exe string, err error) {
	path := s.Executable()
	fail := func(got string, err error) (string, string, error) {
		return "", "", &VerifyError{Pack: s.Label(), Path: path, Want: s.SHA256, Got: got, Err: err}
	}
	want, err := hex.DecodeString(s.SHA256)
	if err != nil || len(want) != sha256.Size {
		return fail("", errors.New("the pinned sha256 is not 64 hexadecimal digits"))
	}
	if err := refuseLink(path); err != nil {
		return fail("", err)
	}
	var fi os.FileInfo
	if keep != "" {
		fi, err = os.Lstat(path)
		switch {
		case err != nil || durableStamp(fi) == "" || os.MkdirAll(keep, 0o700) != nil || !privateKeep(keep):
			keep = "" // nothing can vouch for the file: a private copy
		default:
			if exe := kept(keep, s.SHA256, path, fi); exe != "" {
				return "", exe, nil
			}
		}
	}
	// A copy to keep is made beside where it is kept, to be renamed there.
	private, err := os.MkdirTemp(keep, "journal-lint-pack-")
	if err != nil {
		if keep != "" { // a full disk, say: a private copy still runs
			return stage(ctx, s, "")
		}
		return "", "", err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(private)
		}
	}()
	exe = filepath.Join(private, filepath.Base(path))
	cctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	sum, err := copyHashed(cctx, exe, path)
	switch {
	case ctx.Err() != nil:
		return "", "", ctx.Err()
	case cctx.Err() != nil:
		return fail("", fmt.Errorf("copying it took longer than the pack's timeout of %s", s.timeout()))
	case err != nil:
		var re readError
		if errors.As(err, &re) {
			return fail("", packReadCause(re.err))
		}
		if keep != "" { // the copy could not be written there
			os.RemoveAll(private)
			return stage(ctx, s, "")
		}
		return "", "", err
	}
	if got := hex.EncodeToString(sum); got != s.SHA256 {
		_, _, err = fail(got, nil)
		return "", "", err
	}
	if keep != "" {
		if final := keepCopy(keep, s.SHA256, path, fi, exe); final != exe {
			os.RemoveAll(private)
			return "", final, nil
		}
	}
	return private, exe, nil
}

// refuseLink returns an error when path itself is a symbolic link: a rule
// pack runs from the file its configuration names, never through a link
// that a change of the tree can point elsewhere. (The open that follows
// refuses a link too, without a race; this one says why.)
func refuseLink(path string) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return errors.New("a symbolic link: the path must name the executable itself")
	}
	return nil
}

// packReadCause is the reason a pack's file could not be read, for a
// [*VerifyError]: the cause of a failed open or read, without the path
// the error names already.
func packReadCause(err error) error {
	var tl *readfile.TooLargeError
	if errors.As(err, &tl) {
		return fmt.Errorf("larger than %d bytes, the limit for a rule pack", tl.Max)
	}
	return readfile.PathCause(err)
}

// readError is a copy that failed while reading the source.
type readError struct{ err error }

func (e readError) Error() string { return e.err.Error() }

// packOptions are the rules a rule pack's file is read under (openPack):
// never through a symbolic link, only a regular file (a FIFO or a device
// is refused before a byte is read), at most readfile.MaxPack bytes.
var packOptions = readfile.Options{Max: readfile.MaxPack, NoFollow: true}

// copyHashed copies the rule pack at src (read under packOptions) to a
// new executable file at dst and returns the sha256 of the bytes written.
// The copy stops with ctx's error when ctx is done. The file is open for
// writing only while syscall.ForkLock is held for reading, so no fork of
// this process (which takes it for writing) can inherit the descriptor and
// make the later exec of dst fail with "text file busy".
func copyHashed(ctx context.Context, dst, src string) ([]byte, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o700)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	w := &hashingWriter{ctx: ctx, h: h, w: f}
	if err := readfile.Copy(src, packOptions, w); err != nil {
		f.Close()
		if w.err != nil {
			return nil, w.err
		}
		return nil, readError{err}
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// hashingWriter hashes what it writes to w, and fails once ctx is done;
// err is its own failure (of ctx or of w), as opposed to the reader's.
type hashingWriter struct {
	ctx context.Context
	h   hash.Hash
	w   io.Writer
	err error
}

func (hw *hashingWriter) Write(p []byte) (int, error) {
	if hw.err = hw.ctx.Err(); hw.err != nil {
		return 0, hw.err
	}
	hw.h.Write(p)
	n, err := hw.w.Write(p)
	hw.err = err
	return n, err
}
