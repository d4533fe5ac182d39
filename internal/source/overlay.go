package source

import (
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/readfile"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Overlay is a [Source] in which some files hold given bytes, such as an
// editor's unsaved buffers, instead of what the source under it holds, so
// that a check of it reports what a check of the tree would once the
// buffers are saved. Nothing is ever written.
//
//   - A buffer stands in for its file, whatever the path.
//   - A buffer directly inside a directory named as an artifact
//     coordinate is listed: as a regular file where the source has no
//     entry, in that directory, made up where the source has none, under
//     the root, made up where the source has none either (saving makes
//     them all). Its name is the walk's to judge, as on disk.
//   - Where the source has an entry of another kind at a buffer's path,
//     or at its directory's (a symbolic link, a directory, a file), that
//     entry stays what it is: saving writes through a link, or fails, and
//     the check reports the entry. (Through a link to another artifact's
//     directory the saved file lands there, which the overlay does not
//     show.)
//
// A listed buffer has no stat stamp (Entry.Stat and File.Stamp 0), so
// nothing compared by stamps ever takes a buffer for the file on disk. An
// Overlay reads every file through ReadFile: it is no [Streamer],
// whatever the source under it is.
type Overlay struct {
	under   Source
	buffers map[string][]byte
	// listed are the names of the listed buffers, by their directory,
	// sorted.
	listed map[string][]string
}

// NewOverlay returns under with buffers, by root-relative path (forward
// slashes), standing in for its files. The map is not copied: the caller
// must not change it while the Overlay is in use.
func NewOverlay(under Source, buffers map[string][]byte) *Overlay {
	o := &Overlay{under: under, buffers: buffers, listed: map[string][]string{}}
	for rel := range buffers {
		dir, name, ok := strings.Cut(rel, "/")
		if !ok || name == "" || strings.Contains(name, "/") {
			continue
		}
		if _, err := vt.ParseCoordinate(dir); err == nil {
			o.listed[dir] = append(o.listed[dir], name)
		}
	}
	for _, names := range o.listed {
		slices.Sort(names)
	}
	return o
}

// Dirs returns the directories of the root that hold a listed buffer,
// in no fixed order: those whose listings differ from the source under
// the overlay.
func (o *Overlay) Dirs() []string {
	out := make([]string, 0, len(o.listed))
	for dir := range o.listed {
		out = append(out, dir)
	}
	return out
}

// isListed reports whether rel is the path of a listed buffer.
func (o *Overlay) isListed(rel string) bool {
	dir, name, ok := strings.Cut(rel, "/")
	if !ok {
		return false
	}
	_, found := slices.BinarySearch(o.listed[dir], name)
	return found
}

// madeUp reports whether the overlay shows a directory at rel where the
// source has no entry: the root, or the directory of a listed buffer.
func (o *Overlay) madeUp(rel string) bool {
	if rel == "" {
		return len(o.listed) > 0
	}
	_, ok := o.listed[rel]
	return ok
}

// Stat is the source's answer, except where the source has no entry: a
// listed buffer is a regular file there, and its directory and the root
// are directories.
func (o *Overlay) Stat(rel string) (fs.FileMode, error) {
	mode, err := o.under.Stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		switch {
		case o.isListed(rel):
			return 0, nil
		case o.madeUp(rel):
			return fs.ModeDir, nil
		}
	}
	return mode, err
}

// ReadDir is the source's listing with the listed buffers: a buffer over a
// regular file loses the file's stamp, and one where the source has no
// entry is added; the root lists the directories of buffers that the
// source lacks. A directory the overlay makes up lists only its buffers.
func (o *Overlay) ReadDir(rel string, stat bool) ([]Entry, error) {
	entries, err := o.under.ReadDir(rel, stat)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) || !o.madeUp(rel) {
			return nil, err
		}
		entries = nil
	}
	if rel == "" {
		for dir := range o.listed {
			if i, found := slices.BinarySearchFunc(entries, dir, byName); !found {
				entries = slices.Insert(entries, i, Entry{Name: dir, Type: fs.ModeDir})
			}
		}
		return entries, nil
	}
	for _, name := range o.listed[rel] {
		i, found := slices.BinarySearchFunc(entries, name, byName)
		switch {
		case !found:
			entries = slices.Insert(entries, i, Entry{Name: name})
		case entries[i].Type == 0:
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
