//go:build unix

package readfile

import (
	"os"
	"syscall"
	"time"
)

// open opens path for reading without blocking on a FIFO, and without
// following a final symlink when noFollow is set.
func open(path string, noFollow bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if noFollow {
		flags |= syscall.O_NOFOLLOW
	}
	fh, err := os.OpenFile(path, flags, 0)
	if err != nil && noFollow && isLoop(err) {
		return nil, ErrNotRegular // a symlink, refused
	}
	return fh, err
}

func isLoop(err error) bool {
	pe, ok := err.(*os.PathError)
	return ok && pe.Err == syscall.ELOOP
}

// same reports whether a and b describe the same file in the same state:
// device, inode, size, modification time and change time.
func same(a, b os.FileInfo) bool {
	sa, oka := a.Sys().(*syscall.Stat_t)
	sb, okb := b.Sys().(*syscall.Stat_t)
	if !oka || !okb {
		return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
	}
	return sa.Dev == sb.Dev && sa.Ino == sb.Ino && sa.Size == sb.Size &&
		sa.Mtim == sb.Mtim && sa.Ctim == sb.Ctim
}

// changedSince reports whether fi's modification or change time is at or
// after t.
func changedSince(fi os.FileInfo, t time.Time) bool {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if !time.Unix(st.Ctim.Sec, st.Ctim.Nsec).Before(t) {
			return true
		}
	}
	return !fi.ModTime().Before(t)
}
