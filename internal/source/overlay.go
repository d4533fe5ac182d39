package source

import (
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/readfile"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Overlay is a [Source] in which some files hold given bytes, such as an
// editor's unsaved buffers, instead of what the source under it holds, so
// that a check of it reports what a check of the tree would once the
// buffers are saved (and the saves succeed). Nothing is ever written.
//
//   - A buffer stands in for its file, whatever the path.
//   - A buffer at a clean root-relative path is listed: as a regular file
//     where the source has no entry, in its directories, each made up
//     where the source has none, up to the root (saving makes them all).
//     What its path and name are is the walk's to judge, as on disk.
//   - Where the source has an entry of another kind at a buffer's path,
//     or at one of its directories' (a symbolic link, a directory, a
//     file), that entry stays what it is: saving writes through a link,
//     or fails, and the check reports the entry. (Through a link to
//     another artifact's directory the saved file lands there, which the
//     overlay does not show.)
//
// A listed buffer has no stat stamp (Entry.Stat and File.Stamp 0), so
// nothing compared by stamps ever takes a buffer for the file on disk. An
// Overlay reads every file through ReadFile: it is no [Streamer],
// whatever the source under it is.
type Overlay struct {
	under   Source
	buffers map[string][]byte
	// listed are the entries the buffers add to each directory ("" for
	// the root), sorted by name.
	listed map[string][]listedEntry
}

// listedEntry is an entry a buffer adds to a directory: its file, or one
// of its directories.
type listedEntry struct {
	name string
	dir  bool
}

// NewOverlay returns under with buffers, by root-relative path (forward
// slashes), standing in for its files. A path that is not clean (empty,
// ".", "..", a slash at either end or doubled, a NUL byte) is read but
// never listed. The map is not copied: the caller must not change it
// while the Overlay is in use.
func NewOverlay(under Source, buffers map[string][]byte) *Overlay {
	// Each directory's names, and whether a buffer's path goes through
	// the name (where one buffer's file is another's directory, the
	// directory).
	names := map[string]map[string]bool{}
	for rel := range buffers {
		if !cleanRel(rel) {
			continue
		}
		parts := strings.Split(rel, "/")
		for i, name := range parts {
			dir := strings.Join(parts[:i], "/")
			if names[dir] == nil {
				names[dir] = map[string]bool{}
			}
			names[dir][name] = names[dir][name] || i < len(parts)-1
		}
	}
	o := &Overlay{under: under, buffers: buffers, listed: make(map[string][]listedEntry, len(names))}
	for dir, isDir := range names {
		for _, name := range slices.Sorted(maps.Keys(isDir)) {
			o.listed[dir] = append(o.listed[dir], listedEntry{name: name, dir: isDir[name]})
		}
	}
	return o
}

// cleanRel reports whether rel is a clean root-relative path: not empty,
// no "." or ".." element, no empty element, no NUL byte.
func cleanRel(rel string) bool {
	if rel == "" || strings.ContainsRune(rel, 0) {
		return false
	}
	for _, e := range strings.Split(rel, "/") {
		if e == "" || e == "." || e == ".." {
			return false
		}
	}
	return true
}

// Holds reports whether the overlay holds a buffer for rel, read in place
// of the file there.
func (o *Overlay) Holds(rel string) bool {
	_, ok := o.buffers[rel]
	return ok
}

// Dirs returns the directories of the root in which the overlay lists a
// buffer (the first element of its path), sorted by name: those whose
// listings may differ from the source under the overlay.
func (o *Overlay) Dirs() []string {
	var out []string
	for _, e := range o.listed[""] {
		if e.dir {
			out = append(out, e.name)
		}
	}
	return out
}

// ListsInRoot reports whether the overlay lists a buffer directly in the
// root, or a directory there whose name is no artifact coordinate: what
// it adds to the root's own listing, beyond its artifact directories.
func (o *Overlay) ListsInRoot() bool {
	for _, e := range o.listed[""] {
		if _, err := vt.ParseCoordinate(e.name); !e.dir || err != nil {
			return true
		}
	}
	return false
}

// entry returns the entry the overlay lists at rel, and whether it lists
// one.
func (o *Overlay) entry(rel string) (listedEntry, bool) {
	dir, name := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, name = rel[:i], rel[i+1:]
	}
	es := o.listed[dir]
	i, found := slices.BinarySearchFunc(es, name, func(e listedEntry, name string) int { return strings.Compare(e.name, name) })
	if !found {
		return listedEntry{}, false
	}
	return es[i], true
}

// madeUp reports whether the overlay shows a directory at rel where the
// source has no entry: the root, or a directory of a listed buffer.
func (o *Overlay) madeUp(rel string) bool {
	if rel == "" {
		return len(o.listed) > 0
	}
	e, ok := o.entry(rel)
	return ok && e.dir
}

// Stat is the source's answer, except where the source has no entry: a
// listed buffer is a regular file there, and its directories and the root
// are directories.
func (o *Overlay) Stat(rel string) (fs.FileMode, error) {
	mode, err := o.under.Stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		if rel == "" {
			if o.madeUp(rel) {
				return fs.ModeDir, nil
			}
		} else if e, ok := o.entry(rel); ok {
			if e.dir {
				return fs.ModeDir, nil
			}
			return 0, nil
		}
	}
	return mode, err
}

// ReadDir is the source's listing with what the buffers add: an entry
// where the source has none (a regular file, or a directory on a
// buffer's path), and a buffer over a regular file loses the file's
// stamp. A directory the overlay makes up lists only what the buffers
// add.
func (o *Overlay) ReadDir(rel string, stat bool) ([]Entry, error) {
	entries, err := o.under.ReadDir(rel, stat)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) || !o.madeUp(rel) {
			return nil, err
		}
		entries = nil
	}
	for _, e := range o.listed[rel] {
		i, found := slices.BinarySearchFunc(entries, e.name, byName)
		switch {
		case !found && e.dir:
			entries = slices.Insert(entries, i, Entry{Name: e.name, Type: fs.ModeDir})
		case !found:
			entries = slices.Insert(entries, i, Entry{Name: e.name})
		case !e.dir && entries[i].Type == 0:
			entries[i].Stat = 0
		}
	}
	return entries, nil
}

// byName orders a sorted listing's entries by name.
func byName(e Entry, name string) int { return strings.Compare(e.Name, name) }

// ReadFile returns the buffer at rel, without a stamp, refused as the
// disk refuses a file over readfile.MaxJournal; else the source's file.
func (o *Overlay) ReadFile(rel string) (File, error) {
	b, ok := o.buffers[rel]
	if !ok {
		return o.under.ReadFile(rel)
	}
	if len(b) > readfile.MaxJournal {
		return File{}, &readfile.TooLargeError{Size: int64(len(b)), Max: readfile.MaxJournal}
	}
	return File{Data: b}, nil
}

// ReadAgain returns the buffer at rel when its digest is want, nil when
// it is not; else the source's answer.
func (o *Overlay) ReadAgain(rel string, want vt.Digest) []byte {
	b, ok := o.buffers[rel]
	if !ok {
		return o.under.ReadAgain(rel, want)
	}
	if vt.DigestOf(b) != want {
		return nil
	}
	return b
}

// AddressOf is the source's.
func (o *Overlay) AddressOf(data []byte) string { return o.under.AddressOf(data) }
