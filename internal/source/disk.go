package source

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/readfile"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Disk is the tree under a directory on disk: the work tree, or any
// directory outside git. It opens files read-only and only regular files,
// never through a symbolic link (package readfile).
type Disk struct {
	// Root is the absolute, clean directory of the Journal root.
	Root string
	// Hook, when set, runs at the named point of each read attempt of
	// ReadFile ("open": before the file is opened; "read": after its bytes
	// were read, before they are checked against the file), with the
	// file's absolute path, so that a test can make a file vanish or
	// change at exactly that moment. It is a test seam.
	Hook func(point, abs string)
	// Format is the object format of the git repository the tree is in
	// ("sha1" or "sha256", gitrepo.Repo.ObjectFormat), for the addresses
	// of its files' bytes (AddressOf); "" is "sha1".
	Format string
	// Blob, when set, returns the object id (in hex, in Format) of the
	// blob that git's index holds for the root-relative path rel, and
	// whether it holds one. ReadFile then takes such a file's bytes after
	// one read when their blob id is that object (readfile.Options.Trust):
	// they are a whole content that git holds, even when the read met a
	// writer, so they need no second read or stat; they get no stamp.
	// Other bytes get readfile's checks as usual.
	Blob func(rel string) (object string, ok bool)
	// Unlike, when set with Blob, is told the root-relative path of each
	// file read whose bytes are not the blob Blob names for it. It may be
	// called from several goroutines at once.
	Unlike func(rel string)
}

// AddressOf returns the blob address of data (BlobAddress) in d.Format.
func (d *Disk) AddressOf(data []byte) string { return BlobAddress(d.Format, data) }

// abs returns the absolute path of rel.
func (d *Disk) abs(rel string) string { return filepath.Join(d.Root, filepath.FromSlash(rel)) }

// Stat is os.Stat of the root and os.Lstat of anything below it.
func (d *Disk) Stat(rel string) (fs.FileMode, error) {
	stat := os.Lstat
	if rel == "" {
		stat = os.Stat
	}
	fi, err := stat(d.abs(rel))
	if err != nil {
		return 0, err
	}
	return fi.Mode().Type(), nil
}

// ReadDir lists rel with os.ReadDir; with stat, each entry's stamp costs
// one lstat.
func (d *Disk) ReadDir(rel string, stat bool) ([]Entry, error) {
	des, err := os.ReadDir(d.abs(rel))
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(des))
	for i, e := range des {
		out[i] = Entry{Name: e.Name(), Type: e.Type()}
		if stat {
			out[i].Stat = statOf(e)
		}
	}
	return out, nil
}

// statOf returns the stat stamp sum of a directory entry (one lstat); 0
// when it cannot be had.
func statOf(e fs.DirEntry) uint64 {
	fi, err := e.Info()
	if err != nil {
		return 0
	}
	return readfile.Stamp(fi)
}

// Confirm reports whether rel is a regular file of size bytes (one lstat,
// links not followed), for a [Voucher] built on the disk: a checkout that
// converted a file under other attributes than today's changed its size,
// as a line-ending conversion does.
func (d *Disk) Confirm(rel string, size int) bool {
	fi, err := os.Lstat(d.abs(rel))
	return err == nil && fi.Mode().IsRegular() && fi.Size() == int64(size)
}

// ReadFile reads rel with readfile.ReadStamped: at most
// readfile.MaxJournal bytes, read again when the file changed while it was
// read; bytes that are the index's blob (Blob) are read once.
func (d *Disk) ReadFile(rel string) (File, error) {
	abs := d.abs(rel)
	opts := readfile.Options{Max: readfile.MaxJournal, NoFollow: true}
	if d.Hook != nil {
		opts.Hook = func(point string) { d.Hook(point, abs) }
	}
	if d.Blob != nil {
		if object, ok := d.Blob(rel); ok {
			opts.Trust = func(data []byte) bool {
				same := gitrepo.BlobID(d.Format, data) == object
				if !same && d.Unlike != nil {
					d.Unlike(rel)
				}
				return same
			}
		}
	}
	data, stamp, recent, err := readfile.ReadStamped(abs, opts)
	return File{Data: data, Stamp: stamp, Recent: recent}, err
}

// ReadAgain reads rel once without the checks that it did not change
// meanwhile, since the digest says whether these are the bytes; only when
// it is not (a writer may have been caught saving) does it read the way
// ReadFile does.
func (d *Disk) ReadAgain(rel string, want vt.Digest) []byte {
	abs := d.abs(rel)
	opts := readfile.Options{Max: readfile.MaxJournal, NoFollow: true, Verified: true}
	if data, err := readfile.Read(abs, opts); err == nil && vt.DigestOf(data) == want {
		return data
	}
	opts.Verified = false
	if data, err := readfile.Read(abs, opts); err == nil && vt.DigestOf(data) == want {
		return data
	}
	return nil
}
