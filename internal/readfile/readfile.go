// Package readfile is the one way journal-lint reads a file it did not
// write: Journals, the configuration, files named on the command line. A
// pull request chooses those files, so every read is bounded and stable:
//
//   - only regular files are read, after symlinks are resolved (or with
//     [Options.NoFollow], never through one): a FIFO, a device such as
//     /dev/zero or a directory is refused before a byte is read, and a
//     FIFO cannot block the open;
//   - a size limit per kind of file ([MaxJournal] by "Lines and encoding" in
//     docs/journal-format.md,
//     [MaxConfig]) is checked before reading and enforced while reading;
//   - a file that changes while it is read is read again, a few times,
//     and then refused with [ErrChanged]: the size, modification time,
//     change time, device and inode before and after the read must agree,
//     the bytes of a second read through the same descriptor must be the
//     first read's (a writer through a shared mapping changes them without
//     changing the file's size or times, and a read can catch half of its
//     write), and a file changed so recently that the file system's coarse
//     clock cannot tell a later write apart is read again later and
//     compared;
//   - a caller that vouches for the bytes themselves, against a digest or
//     a git blob id ([Options.Verified], [Options.Trust]), gets them after
//     one read.
//
// [Digest] hashes a file as a stream under the same rules, so that hashing
// a large file costs no more memory than a buffer.
package readfile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"
)

// The size limits of the kinds of files journal-lint reads.
const (
	// MaxJournal is the largest Journal file in bytes ("Lines and encoding" in
	// docs/journal-format.md: 16 MiB).
	MaxJournal = 16 << 20
	// MaxConfig is the largest configuration file in bytes (1 MiB): far
	// above any real .journal-lint.yaml, far below what hurts.
	MaxConfig = 1 << 20
	// MaxPack is the largest rule-pack executable in bytes (256 MiB): ten
	// times a Go pack built with debug information (docs/plugins.md).
	MaxPack = 256 << 20
)

// Attempts is how many times a file that changes while it is read is read
// before [ErrChanged].
const Attempts = 4

// racyWindow is how recent a change may be for the file system's clock not
// to tell it from a change during the read: Linux stamps files from a
// coarse clock that lags the real time by up to a scheduler tick (4 ms at
// 250 Hz, 10 ms at 100 Hz).
const racyWindow = 20 * time.Millisecond

// ErrNotRegular is the error for a path that is not a regular file (after
// resolving symlinks, unless NoFollow): a directory, FIFO, socket or device.
var ErrNotRegular = errors.New("not a regular file")

// ErrChanged is the error for a file that kept changing while it was read
// (the diagnostic code fs/changed-during-read).
var ErrChanged = errors.New("the file changed while it was being read; read it again when writers are done")

// TooLargeError is the error for a file over its size limit.
type TooLargeError struct {
	// Size is the size seen: the size before reading, or Max+1 when the
	// file grew past Max while it was read (Grew).
	Size int64
	// Max is the limit in bytes.
	Max int64
	// Grew reports a file that was within the limit when it was opened and
	// grew past it while it was read.
	Grew bool
}

func (e *TooLargeError) Error() string {
	if e.Grew {
		return fmt.Sprintf("file grew past the limit of %d bytes while it was read", e.Max)
	}
	return fmt.Sprintf("file is %d bytes; the limit is %d", e.Size, e.Max)
}

// Options adjust [Read] and [Digest].
type Options struct {
	// Max is the size limit in bytes; 0 means [MaxJournal].
	Max int64
	// NoFollow refuses a path that is itself a symlink (the loader's walk
	// has already decided what each entry is, and must not be led
	// elsewhere by an entry swapped for a symlink).
	NoFollow bool
	// Verified says that the caller checks the bytes itself (against the
	// digest of the text it read before): the file is read once, and
	// nothing checks that it did not change meanwhile (no second read).
	// The size limit and the refusal of what is no regular file stay.
	Verified bool
	// Trust, when set, is asked about the bytes of each read before they
	// are checked against the file: bytes it vouches for (such as bytes
	// whose git blob id is the one the index holds for the file) are
	// taken after that one read, without the second read and the stat
	// that catch a writer, and without a stamp ([ReadStamped] gives 0:
	// no stat vouches for them). Other bytes get the checks as usual.
	// [Digest] does not ask it.
	Trust func(data []byte) bool
	// Hook, when not nil, runs at the named point of each attempt ("open":
	// before the file is opened; "read": after its bytes were read, before
	// they are checked against the file). It is a test seam.
	Hook func(point string)
}

func (o Options) max() int64 {
	if o.Max <= 0 {
		return MaxJournal
	}
	return o.Max
}

// Read returns the bytes of the regular file at path. The errors are
// [ErrNotRegular], [*TooLargeError], [ErrChanged], and those of opening or
// reading the file without the path, which the caller names
// (errors.Is(err, fs.ErrNotExist) for a missing file).
func Read(path string, opts Options) ([]byte, error) {
	data, _, _, err := ReadStamped(path, opts)
	return data, err
}

// ReadStamped is [Read] that also returns the stamp of the file ([Stamp])
// as the bytes it returns were read, taken from the open file before they
// were read (and the same after, or the file would have been read again):
// a stamp that vouches for exactly these bytes, at no system call of its
// own; 0 for bytes that [Options.Trust] took. recent reports whether the
// file's times were then recent ([Recent], as of just before the file was
// opened).
func ReadStamped(path string, opts Options) (data []byte, stamp uint64, recent bool, err error) {
	err = attempts(path, opts, func() sink { return new(exactBuffer) }, func(s sink, before os.FileInfo, racy bool) {
		data = s.result()
		if before != nil {
			stamp, recent = Stamp(before), racy
		}
	})
	return data, stamp, recent, err
}

// file is what readOnce needs of an open file.
type file interface {
	io.ReadCloser
	io.ReaderAt
	Stat() (os.FileInfo, error)
}

// sink is what one attempt reads a file into.
type sink interface {
	io.Writer
	// result is what the sink keeps of the bytes: the bytes, or their digest.
	result() []byte
	// sameAgain reads r from its start to its end, or to one byte past
	// what the sink was given, and reports whether that gave the same
	// bytes.
	sameAgain(r io.ReaderAt) (bool, error)
}

// exactBuffer collects a file's bytes in one allocation of the size the
// file had when it was opened (plus the byte that shows whether it grew),
// since a Document keeps these bytes for as long as it lives.
type exactBuffer struct {
	buf  []byte
	size int // the size readOnce announced with Grow, minus one
}

// Grow makes room for n bytes; readOnce passes the file's size plus one.
func (b *exactBuffer) Grow(n int) {
	b.size = n - 1
	if cap(b.buf)-len(b.buf) < n {
		b.buf = slices.Grow(b.buf, n)
	}
}

// Write appends p.
func (b *exactBuffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *exactBuffer) result() []byte { return b.buf }

// sameAgain compares a second read with the buffer as it comes, in reads
// of the size of a pooled buffer: a Journal takes one read, which asks
// for one byte more than the buffer holds, so that a short count shows
// the end of the file.
func (b *exactBuffer) sameAgain(r io.ReaderAt) (bool, error) {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	want := b.buf
	var off int64
	for {
		n := min(len(*buf), len(want)+1)
		got, err := r.ReadAt((*buf)[:n], off)
		if got > len(want) || !bytes.Equal((*buf)[:got], want[:got]) {
			return false, nil
		}
		want, off = want[got:], off+int64(got)
		if got < n {
			if err != nil && err != io.EOF {
				return false, err
			}
			return len(want) == 0, nil
		}
	}
}

// ReadFrom reads r straight into the buffer until its end, or until it
// holds exactly the announced size of a non-empty file: readOnce's second
// stat of the file then tells whether more was written, which saves the
// read that would only have seen the end of the file.
func (b *exactBuffer) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	for {
		if len(b.buf) == cap(b.buf) {
			b.buf = slices.Grow(b.buf, 512)
		}
		n, err := r.Read(b.buf[len(b.buf):cap(b.buf)])
		b.buf = b.buf[:len(b.buf)+n]
		total += int64(n)
		if err == io.EOF || (err == nil && b.size > 0 && len(b.buf) == b.size) {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// Digest returns the SHA-256 of the regular file at path and its size in
// bytes, reading it as a stream under the rules of [Read] (a file that
// changes while it is hashed is hashed again). The errors are those of
// [Read].
func Digest(path string, opts Options) (sum [sha256.Size]byte, size int64, err error) {
	err = attempts(path, opts, func() sink { return &countingHash{h: sha256.New()} }, func(s sink, _ os.FileInfo, _ bool) {
		copy(sum[:], s.result())
		size = s.(*countingHash).n
	})
	return sum, size, err
}

// Copy writes the bytes of the regular file at path to w, reading it once
// under the size limit and the refusals of [Read] (no FIFO, device or
// directory, and with NoFollow no symlink, all refused before a byte is
// read): the caller checks what it got, as [Options.Verified] says. w may
// stop the copy by returning an error, which Copy returns. The errors are
// those of [Read] but ErrChanged, and w's.
func Copy(path string, opts Options, w io.Writer) error {
	opts.Verified = true
	_, _, err := readOnce(path, opts, writerSink{w})
	return err
}

// writerSink is the sink of [Copy]: the caller's writer, read once (a
// verified read, so never asked for a second read).
type writerSink struct{ io.Writer }

func (writerSink) result() []byte { return nil }

func (writerSink) sameAgain(io.ReaderAt) (bool, error) { return true, nil }

// countingHash is a hash that counts the bytes written to it.
type countingHash struct {
	h hash.Hash
	n int64
}

func (c *countingHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.h.Write(p)
}

func (c *countingHash) result() []byte { return c.h.Sum(nil) }

// sameAgain hashes a second read, to compare the digests.
func (c *countingHash) sameAgain(r io.ReaderAt) (bool, error) {
	d := &countingHash{h: sha256.New()}
	buf := copyBuffers.Get().(*[]byte)
	_, err := io.CopyBuffer(d, io.NewSectionReader(r, 0, c.n+1), *buf)
	copyBuffers.Put(buf)
	return d.n == c.n && bytes.Equal(d.result(), c.result()), err
}

// attempts reads path up to Attempts times into a fresh sink from newSink,
// until an attempt sees a stable file, and hands the sink to done with the
// file's state before that attempt read it and whether it was racy; a nil
// state for bytes that opts.Trust took. A racy attempt (see [racyWindow])
// counts only when the next attempt gives the same result.
func attempts(path string, opts Options, newSink func() sink, done func(s sink, before os.FileInfo, racy bool)) error {
	var prev []byte
	for attempt := 0; attempt < Attempts; attempt++ {
		s := newSink()
		before, racy, err := readOnce(path, opts, s)
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		switch {
		case errors.Is(err, errUnstable):
			prev = nil
		case err != nil:
			return err
		default:
			got := s.result()
			if before == nil || !racy || (prev != nil && bytes.Equal(prev, got)) {
				done(s, before, racy)
				return nil
			}
			prev = bytes.Clone(got)
		}
		// Wait longer than the racy window, so that the next attempt can
		// tell a finished write from a running one.
		time.Sleep(racyWindow * time.Duration(attempt+1))
	}
	return ErrChanged
}

// copyBuffers are the buffers of the second reads (io.Copy would allocate
// one per file).
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// errUnstable is the internal error of an attempt during which the file
// changed.
var errUnstable = errors.New("the file changed during the read")

// readOnce copies the regular file at path to w once, checking its size
// limit and that it did not change, and returns the file's state before
// the read (from the open file), or nil when opts.Trust took the bytes.
// racy reports a file changed so recently that a change during the read
// cannot be ruled out by its timestamps.
func readOnce(path string, opts Options, w sink) (before os.FileInfo, racy bool, err error) {
	if opts.Hook != nil {
		opts.Hook("open")
	}
	start := time.Now()
	fh, err := open(path, opts.NoFollow)
	if err != nil {
		return nil, false, err
	}
	defer fh.Close()
	before, err = fh.Stat()
	if err != nil {
		return nil, false, err
	}
	if !before.Mode().IsRegular() {
		return nil, false, ErrNotRegular
	}
	max := opts.max()
	if before.Size() > max {
		return nil, false, &TooLargeError{Size: before.Size(), Max: max}
	}
	if g, ok := w.(interface{ Grow(int) }); ok {
		g.Grow(int(before.Size()) + 1)
	}
	n, err := io.Copy(w, io.LimitReader(fh, max+1))
	if err != nil {
		return nil, false, err
	}
	if n > max {
		return nil, false, &TooLargeError{Size: n, Max: max, Grew: true}
	}
	if opts.Hook != nil {
		opts.Hook("read")
	}
	if opts.Verified {
		return before, false, nil
	}
	if b, ok := w.(*exactBuffer); ok && opts.Trust != nil && opts.Trust(b.buf) {
		return nil, false, nil
	}
	// The same bytes once more, through the same descriptor: a writer
	// through a shared mapping changes them without changing the size or
	// the times below.
	agrees, err := w.sameAgain(fh)
	if err != nil {
		return nil, false, err
	}
	if !agrees {
		return nil, false, errUnstable
	}
	// The path must still name the file that was read (not replaced by a
	// rename or a symlink: then its device and inode differ), and the file
	// must not have changed (its size and times). A stat of the path says
	// both, so the open file is not asked again.
	after, err := lstatOrStat(path, opts.NoFollow)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, false, errUnstable
		}
		return nil, false, err
	}
	if !same(before, after) || after.Size() != n {
		return nil, false, errUnstable
	}
	return before, changedSince(after, start.Add(-racyWindow)), nil
}

func lstatOrStat(path string, noFollow bool) (os.FileInfo, error) {
	if noFollow {
		return os.Lstat(path)
	}
	return os.Stat(path)
}

// PathCause returns the error that an *fs.PathError in err's chain wraps,
// without the operation and path (for a message that names the file
// already), or err itself when there is none.
func PathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
