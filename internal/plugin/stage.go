package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
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
// A file that cannot be read, is not a regular file or does not match is
// a [*VerifyError]; other errors (no temporary directory) are returned as
// they are.
func stage(s Spec) (dir, exe string, err error) {
	path := s.Executable()
	fail := func(got string, err error) (string, string, error) {
		return "", "", &VerifyError{Pack: s.Label(), Path: path, Want: s.SHA256, Got: got, Err: err}
	}
	want, err := hex.DecodeString(s.SHA256)
	if err != nil || len(want) != sha256.Size {
		return fail("", errors.New("the pinned sha256 is not 64 hexadecimal digits"))
	}
	src, err := os.Open(path)
	if err != nil {
		return fail("", readfile.PathCause(err))
	}
	defer src.Close()
	if fi, err := src.Stat(); err != nil {
		return fail("", readfile.PathCause(err))
	} else if !fi.Mode().IsRegular() {
		return fail("", errors.New("not a regular file"))
	}
	dir, err = os.MkdirTemp("", "journal-lint-pack-")
	if err != nil {
		return "", "", err
	}
	exe = filepath.Join(dir, filepath.Base(path))
	sum, err := copyHashed(exe, src)
	if err != nil {
		os.RemoveAll(dir)
		var re readError
		if errors.As(err, &re) {
			return fail("", readfile.PathCause(re.err))
		}
		return "", "", err
	}
	if got := hex.EncodeToString(sum); got != s.SHA256 {
		os.RemoveAll(dir)
		return fail(got, nil)
	}
	return dir, exe, nil
}

// readError is a copy that failed while reading the source.
type readError struct{ err error }

func (e readError) Error() string { return e.err.Error() }

// copyHashed writes what src holds to a new executable file at dst and
// returns the sha256 of the bytes written. The file is open for writing
// only while syscall.ForkLock is held for reading, so no fork of this
// process (which takes it for writing) can inherit the descriptor and make
// the later exec of dst fail with "text file busy".
func copyHashed(dst string, src io.Reader) ([]byte, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o700)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	buf := make([]byte, 256<<10)
	for {
		n, rerr := src.Read(buf)
		if n > 0 {
			h.Write(buf[:n])
			if _, err := f.Write(buf[:n]); err != nil {
				f.Close()
				return nil, err
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			f.Close()
			return nil, readError{rerr}
		}
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}
