// Package source is where a load's bytes come from (architecture "Reuse
// lives at the edges"): the work tree on disk ([Disk]), the tree git
// holds in its index or in a commit ([Git]), or either with an editor's
// unsaved buffers over it ([Overlay]). A load lists directories and
// reads files only through a [Source], so the one validation path is the
// same whatever the bytes are read from, and a source that git serves
// reads its blobs from one `git cat-file --batch` straight into the
// parser ([Streamer]), never through a temporary copy of the tree.
//
// Paths given to and returned by a Source are relative to the Journal
// root, with forward slashes; "" is the root itself.
package source

import (
	"context"
	"io/fs"

	"github.com/r35157/journal-lint/internal/gitrepo"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Entry is one entry of a directory listing.
type Entry struct {
	// Name is the entry's name within its directory.
	Name string
	// Type holds the type bits of the entry (fs.FileMode.Type()): 0 for a
	// regular file, fs.ModeDir, fs.ModeSymlink, and so on.
	Type fs.FileMode
	// Stat is the entry's stat stamp sum (readfile.Stamp of its lstat)
	// when the listing was asked for stamps and the source has them (only
	// [Disk] does); 0 otherwise, which never matches another stamp.
	Stat uint64
}

// File is the content of one regular file.
type File struct {
	// Data is the file's exact bytes, owned by the caller.
	Data []byte
	// Stamp is the stat stamp sum of the bytes read (readfile.ReadStamped)
	// for a source that has one ([Disk]); 0 otherwise.
	Stamp uint64
	// Recent reports that the file's times were so recent when it was read
	// that its Stamp must not be trusted later (readfile.Recent).
	Recent bool
}

// Source is a tree of files under a Journal root. Its methods are safe for
// concurrent use.
type Source interface {
	// Stat returns the type bits of the entry at rel without following a
	// final symbolic link, except for the root (""), which may be named
	// through one. Its errors are those of os.Lstat: errors.Is(err,
	// fs.ErrNotExist) for a missing entry.
	Stat(rel string) (fs.FileMode, error)
	// ReadDir lists the directory rel sorted by name, with stamps
	// (Entry.Stat) when stat is set and the source has them. Its errors
	// are those of os.ReadDir.
	ReadDir(rel string, stat bool) ([]Entry, error)
	// ReadFile reads the regular file rel whole, never through a symbolic
	// link. Its errors are those of readfile.ReadStamped:
	// readfile.ErrNotRegular, *readfile.TooLargeError for a file over
	// readfile.MaxJournal, readfile.ErrChanged, and errors.Is(err, fs.ErrNotExist)
	// for a missing file.
	ReadFile(rel string) (File, error)
	// ReadAgain returns the bytes of the regular file rel when their
	// SHA-256 digest is want, else nil: the bytes a load read earlier,
	// asked for again after it let them go.
	ReadAgain(rel string, want vt.Digest) []byte
	// AddressOf returns the content address that a file of the tree
	// holding exactly data has ([BlobAddress] in the object format of the
	// repository the tree is in).
	AddressOf(data []byte) string
}

// Streamer is a [Source] that reads many files best as one ordered stream
// (git's objects through one `git cat-file --batch`). A load reads through
// Stream when its source has it.
type Streamer interface {
	Source
	// Stream reads the files rels in order and calls fn once for each
	// with its index in rels and what ReadFile would have returned, on
	// one goroutine, the next file's read overlapping fn. It stops early,
	// returning nil, when fn returns false, and returns ctx's error once
	// ctx is cancelled; any other error is the source failing (git
	// exiting, a malformed answer) after the calls it made.
	Stream(ctx context.Context, rels []string, fn func(i int, f File, err error) bool) error
}

// Local is a [Streamer] that holds a copy of most of its files that is
// best read in parallel (the index's [Git]: the work tree holds nearly
// every staged blob). While HasLocal, a load reads each file through
// ReadLocal first, on all its workers, and streams only those it did not
// give; then it streams the rest.
type Local interface {
	Streamer
	// ReadLocal returns the regular file rel from the copy when the copy
	// holds exactly its bytes, and whether it does; Stream reads the
	// others, and reports what is no regular file. It is safe for
	// concurrent use.
	ReadLocal(rel string) (File, bool)
	// HasLocal reports whether ReadLocal may still give a file; once
	// false, it stays false and a load streams all it has left to read.
	HasLocal() bool
}

// Addresser is a [Source] that knows the content address of some of its
// files without reading them (see [BlobAddress]). A load keys what it
// finds of an artifact by its files' addresses (load.Key), so that a
// later run can take it over without reading them.
type Addresser interface {
	Source
	// Address returns the content address of the regular file rel, and
	// whether the source knows it without reading the file.
	Address(rel string) (string, bool)
}

// Voucher is a [Source] that knows, for some of its files, the content
// address that something other than their bytes vouches for: git's stat
// comparison of the work tree, which an edit during the run can outdate.
// A load asks for a record by these addresses as by an [Addresser]'s, but
// keeps what it read under them only when the bytes read have them.
type Voucher interface {
	Source
	// Vouch returns the address vouched for the regular file rel, and
	// whether there is one.
	Vouch(rel string) (string, bool)
	// Confirm reports whether the file rel is size bytes long, the size
	// of the bytes its vouched address names (a record of them says so):
	// git's stat comparison vouches for the bytes git wrote at checkout,
	// which attributes in force then may have converted (line endings,
	// an encoding, a filter) though those in force now convert nothing.
	Confirm(rel string, size int) bool
}

// BlobAddress returns the content address of a file that holds exactly
// data: "git:" and the object id git gives a blob of those bytes in the
// object format (a repository's, "sha1" or "sha256"; "" is "sha1"), the
// SHA-1 or SHA-256 of "blob", the size in decimal, a NUL byte and the
// bytes. A file read from a tree on disk and the same bytes in git's
// index or a commit have the same address, so the checks of a work tree
// and of what git holds share what they found.
func BlobAddress(format string, data []byte) string {
	return ObjectAddress(gitrepo.BlobID(format, data))
}

// ObjectAddress returns the content address of a file whose bytes are
// the blob git names object ([BlobAddress]).
func ObjectAddress(object string) string { return "git:" + object }
