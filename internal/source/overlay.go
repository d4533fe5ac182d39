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
// editor's unsaved buffers, instead of what the source under it holds.
// A buffer stands in for its file whatever the path; a buffer whose
// file is not under it, at a path that placed says a Journal may have,
// is listed as a regular file, inside a directory listed as one where
// the source under it has no entry. Where that entry is something else
// (a file, a symbolic link), it stays what it is, and the buffer is not
// listed: a check reports the entry, as it would once the buffer is
// saved. Nothing is ever written.
//
// Every file with a buffer has no stat stamp (Entry.Stat and File.Stamp
// 0), so nothing compared by stamps ever takes a buffer for the file on
// disk. An Overlay reads every file through ReadFile: it is no
// [Streamer], whatever the source under it is.
type Overlay struct {
	under   Source
	buffers map[string][]byte
	// listed are the paths of the buffers that placed accepted, by their
	// directory, sorted by name.
	listed map[string][]string
}

// NewOverlay returns under with buffers, by root-relative path, standing
// in for its files. placed reports whether a root-relative path is where
// a Journal file may be (load.Placed), so that a buffer whose file under
// does not hold is listed. The map is not copied: the caller must not
// change it while the Overlay is in use.
func NewOverlay(under Source, buffers map[string][]byte, placed func(rel string) bool) *Overlay {
	o := &Overlay{under: under, buffers: buffers, listed: map[string][]string{}}
	for rel := range buffers {
		dir, name, ok := strings.Cut(rel, "/")
		if ok && !strings.Contains(name, "/") && placed(rel) {
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

// Stat is the source's answer, except for a listed buffer (a regular
// file) and its directory where the source has none.
func (o *Overlay) Stat(rel string) (fs.FileMode, error) {
	if dir, name, ok := strings.Cut(rel, "/"); ok {
		if _, found := slices.BinarySearch(o.listed[dir], name); found {
			return 0, nil
		}
	}
	mode, err := o.under.Stat(rel)
	if _, ok := o.listed[rel]; ok && errors.Is(err, fs.ErrNotExist) {
		return fs.ModeDir, nil
	}
	return mode, err
}

// ReadDir is the source's listing with the listed buffers: a buffer's
// entry is a regular file without a stamp, and the root lists the
// directories of buffers that the source lacks.
func (o *Overlay) ReadDir(rel string, stat bool) ([]Entry, error) {
	entries, err := o.under.ReadDir(rel, stat)
	names, synth := o.listed[rel]
	if err != nil && !(synth && errors.Is(err, fs.ErrNotExist)) {
		return nil, err
	}
	if rel == "" {
		for dir := range o.listed {
			if i, found := slices.BinarySearchFunc(entries, dir, byName); !found {
				entries = slices.Insert(entries, i, Entry{Name: dir, Type: fs.ModeDir})
			}
		}
		return entries, nil
	}
	for _, name := range names {
		i, found := slices.BinarySearchFunc(entries, name, byName)
		if found {
			entries[i] = Entry{Name: name}
		} else {
			entries = slices.Insert(entries, i, Entry{Name: name})
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
