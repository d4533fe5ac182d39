//go:build linux

package readfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// open opens path for reading without blocking on a FIFO, and without
// following a final symlink when noFollow is set. It uses the system calls
// directly rather than an *os.File: Go's runtime would try to register
// every file opened non-blocking with its network poller, one failing
// system call per Journal of a tree.
func open(path string, noFollow bool) (file, error) {
	flags := syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if noFollow {
		flags |= syscall.O_NOFOLLOW
	}
	for {
		fd, err := syscall.Open(path, flags, 0)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.ELOOP && noFollow:
			return nil, ErrNotRegular // a symlink, refused
		case err != nil:
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return rawFile{fd: fd, path: path}, nil
	}
}

// rawFile is an open file descriptor read with plain system calls.
type rawFile struct {
	fd   int
	path string
}

func (f rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: f.path, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f rawFile) Stat() (os.FileInfo, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "stat", Path: f.path, Err: err}
		}
		return &statInfo{st: st, name: filepath.Base(f.path)}, nil
	}
}

// ReadAt reads from offset off with one pread (again when interrupted);
// a count short of len(p) comes with io.EOF, since a regular file gives
// fewer bytes only at its end (a count cut short otherwise only makes
// readOnce's comparison fail and read the file again).
func (f rawFile) ReadAt(p []byte, off int64) (int, error) {
	for {
		n, err := syscall.Pread(f.fd, p, off)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: f.path, Err: err}
		case n < len(p):
			return n, io.EOF
		}
		return n, nil
	}
}

func (f rawFile) Close() error { return syscall.Close(f.fd) }

// statInfo is the os.FileInfo of a Stat_t, with what readOnce, same and
// changedSince ask of it. Its methods take a pointer, so that Sys hands out
// the Stat_t itself rather than a copy on the heap at every call.
type statInfo struct {
	st   syscall.Stat_t
	name string
}

func (i *statInfo) Name() string { return i.name }
func (i *statInfo) Size() int64  { return i.st.Size }
func (i *statInfo) Mode() fs.FileMode {
	switch i.st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	}
	return fs.ModeIrregular
}
func (i *statInfo) ModTime() time.Time { return time.Unix(i.st.Mtim.Sec, i.st.Mtim.Nsec) }
func (i *statInfo) IsDir() bool        { return i.Mode().IsDir() }
func (i *statInfo) Sys() any           { return &i.st }

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

// identity returns what tells the states of a file apart (see [same]) and
// its mode, for [Stamp]. The mode is the system's own (type and
// permission bits), which an Lstat and an Fstat of one file report alike
// (a statInfo's Mode has only the type).
func identity(fi os.FileInfo) [6]int64 {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return [6]int64{0, 0, fi.Size(), fi.ModTime().UnixNano(), 0, int64(fi.Mode())}
	}
	return [6]int64{int64(st.Dev), int64(st.Ino), st.Size, st.Mtim.Nano(), st.Ctim.Nano(), int64(st.Mode)}
}

// durableIdentity is identity with the change time, which Linux always
// gives.
func durableIdentity(fi os.FileInfo) ([6]int64, bool) {
	_, ok := fi.Sys().(*syscall.Stat_t)
	return identity(fi), ok
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
