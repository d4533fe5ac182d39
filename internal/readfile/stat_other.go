//go:build !linux

package readfile

import (
	"os"
	"time"
)

// open opens path for reading. It looks at the file first (with Lstat
// when noFollow is set, refusing a symlink) and refuses anything but a
// regular file: opening a FIFO would block until a writer came. A file
// swapped between the look and the open is opened with openFlags (on
// Unix, without waiting for a FIFO's writer or following a link), and
// refused by Read's check of the open file.
func open(path string, noFollow bool) (file, error) {
	stat := os.Stat
	if noFollow {
		stat = os.Lstat
	}
	fi, err := stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	fh, err := os.OpenFile(path, os.O_RDONLY|openFlags(noFollow), 0)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return fh, nil
}

// same reports whether a and b describe the same file in the same state.
func same(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// identity returns what tells the states of a file apart (see [same]) and
// its mode, for [Stamp].
func identity(fi os.FileInfo) [3]int64 {
	return [3]int64{fi.Size(), fi.ModTime().UnixNano(), int64(fi.Mode())}
}

// durableIdentity is false: without a change time, a stamp does not tell
// a file that was written and then given its old modification time back.
func durableIdentity(fi os.FileInfo) ([3]int64, bool) { return identity(fi), false }

// changedSince reports whether fi's modification time is at or after t.
func changedSince(fi os.FileInfo, t time.Time) bool { return !fi.ModTime().Before(t) }
