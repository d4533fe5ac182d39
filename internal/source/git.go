package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/readfile"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Git is a tree that git holds, under the Journal root's place in the
// repository: the index's entries ([Index], what `git commit` would record)
// or a commit's tree ([Commit]). It is what a checkout of that tree would
// put on disk, with exact blob bytes (no line-ending conversion, no
// filters): regular files, symbolic links, and a submodule as an empty
// directory. The root always exists, empty when git holds nothing under
// it. Its blobs are read through `git cat-file --batch`, or for the index
// from the work tree where a file there holds exactly the blob's bytes;
// Close ends the git that reads one at a time.
type Git struct {
	// entries are git's entries under the root, sorted by path (the
	// order of the index and of a tree listed recursively), and rels
	// their root-relative paths; a submodule's entry is not among them.
	entries []gitrepo.Entry
	rels    []string
	// dirs are the directories by root-relative path ("" the root).
	dirs   map[string]*gitDir
	blobs  func(context.Context, []string, func(string, int64, io.Reader) error) error
	reader *gitrepo.BlobReader
	format string // the repository's object format
	// work is the absolute directory of the root in the work tree, for
	// the index's blobs read from there (fromWork); "" for none.
	work string
}

// workMisses is the number of files whose work-tree copy held other bytes
// than git's blob after which [Git.Stream] reads the rest from git alone,
// once they are also more than the files found there: a work tree that
// converts line endings, or a sparse checkout, costs that many reads more.
const workMisses = 64

// gitDir is the listing of one directory of a [Git]: its entries by name,
// and for each the index of its file in Git.entries, or -1 for a
// directory.
type gitDir struct {
	list []Entry
	file []int32
}

// Index returns the index's entries under prefix (the root relative to the
// top level of repo, "" for the top level) as a [Git] source. An unmerged
// entry (merge stages 1 to 3) is an error: there is no one staged content
// to check until the merge is resolved. Git failing is an error. A blob is
// read from the work tree when the file there holds exactly its bytes (the
// bytes' blob id is the entry's object), else from git: a work tree holds
// nearly all of what a pre-commit hook checks, and reading a file costs
// less than git's inflating the object.
func Index(ctx context.Context, repo *gitrepo.Repo, prefix string) (*Git, error) {
	index, err := repo.Index(ctx, prefix)
	if err != nil {
		return nil, err
	}
	entries := make([]gitrepo.Entry, index.Len())
	for i, e := range index.All() {
		if e.Stage != 0 {
			return nil, fmt.Errorf("the index has an unmerged entry %q: resolve the merge first", e.Path)
		}
		entries[i] = e
	}
	return newGit(ctx, repo, prefix, entries).fromWorkTree(repo, prefix), nil
}

// StagedDirs is [Index] restricted to the directories dirs (root-relative
// names of directories directly under the root), made without reading the
// index: the files the commit rev holds there (gitrepo.Repo.TreeDirs)
// with changes applied, which must be everything the index changes under
// those directories since rev (gitrepo.Repo.IndexDiff). A check that takes
// the rest of the tree from a summary of it reads only the directories
// that changed. An unmerged change is an error.
func StagedDirs(ctx context.Context, repo *gitrepo.Repo, prefix string, dirs []string, rev string, changes []gitrepo.RawChange) (*Git, error) {
	tops := make([]string, len(dirs))
	for i, d := range dirs {
		tops[i] = d
		if prefix != "" {
			tops[i] = prefix + "/" + d
		}
	}
	entries, err := repo.TreeDirs(ctx, rev, tops)
	if err != nil {
		return nil, err
	}
	byPath := make(map[string]int, len(entries))
	for i, e := range entries {
		byPath[e.Path] = i
	}
	for _, c := range changes {
		if c.Status == 'U' {
			return nil, fmt.Errorf("the index has an unmerged entry %q: resolve the merge first", c.Path)
		}
		i, ok := byPath[c.Path]
		switch {
		case c.Status == 'D' && ok:
			entries[i].Path = "" // dropped below
		case c.Status != 'D' && ok:
			entries[i].Mode, entries[i].Object = c.NewMode, c.NewObject
		case c.Status != 'D':
			byPath[c.Path] = len(entries)
			entries = append(entries, gitrepo.Entry{Mode: c.NewMode, Object: c.NewObject, Path: c.Path})
		}
	}
	entries = slices.DeleteFunc(entries, func(e gitrepo.Entry) bool { return e.Path == "" })
	return newGit(ctx, repo, prefix, entries).fromWorkTree(repo, prefix), nil
}

// Commit returns the tree of the commit rev under prefix (as for [Index])
// as a [Git] source. A rev that names no commit is a
// *gitrepo.RevisionError; git failing is an error.
func Commit(ctx context.Context, repo *gitrepo.Repo, rev, prefix string) (*Git, error) {
	entries, err := repo.Tree(ctx, rev, prefix)
	if err != nil {
		return nil, err
	}
	return newGit(ctx, repo, prefix, entries), nil
}

// newGit builds the directories that the entries under prefix imply. The
// entries name each file once (a tree's, or an index's without unmerged
// entries), so a file is listed in its directory as it comes, and a
// directory in its parent when it is first met.
func newGit(ctx context.Context, repo *gitrepo.Repo, prefix string, entries []gitrepo.Entry) *Git {
	if !slices.IsSortedFunc(entries, byPath) {
		entries = slices.Clone(entries)
		slices.SortStableFunc(entries, byPath)
	}
	g := &Git{entries: entries[:0:0], dirs: map[string]*gitDir{"": {}}, blobs: repo.Blobs, reader: repo.NewBlobReader(ctx), format: repo.ObjectFormat()}
	// dirOf makes the directory rel known, listed in its parent.
	var dirOf func(rel string)
	dirOf = func(rel string) {
		if _, ok := g.dirs[rel]; ok {
			return
		}
		g.dirs[rel] = &gitDir{}
		parent, name := split(rel)
		dirOf(parent)
		g.dirs[parent].add(Entry{Name: name, Type: fs.ModeDir}, -1)
	}
	n := 0
	for i, e := range entries {
		rel := e.Path
		if prefix != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(e.Path, prefix+"/"); !ok {
				continue
			}
		}
		if typ := gitType(e.Mode); typ == fs.ModeDir { // a submodule: an empty directory
			dirOf(rel)
		} else {
			entries[n] = entries[i] // in place: entries is this source's own from here on
			g.rels = append(g.rels, rel)
			parent, name := split(rel)
			dirOf(parent)
			g.dirs[parent].add(Entry{Name: name, Type: typ}, int32(n))
			n++
		}
	}
	g.entries = entries[:n]
	for _, d := range g.dirs {
		if !slices.IsSortedFunc(d.list, byName) {
			order := make([]int, len(d.list))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int { return byName(d.list[a], d.list[b]) })
			list, file := make([]Entry, len(order)), make([]int32, len(order))
			for i, j := range order {
				list[i], file[i] = d.list[j], d.file[j]
			}
			d.list, d.file = list, file
		}
		if d.list == nil {
			d.list = []Entry{}
		}
	}
	return g
}

// fromWorkTree makes g read blobs from repo's work tree where it holds
// them ([Index]), and returns g. A repository without a work tree (bare)
// leaves g reading from git alone.
func (g *Git) fromWorkTree(repo *gitrepo.Repo, prefix string) *Git {
	if top := repo.Top(); top != "" {
		g.work = filepath.Join(top, filepath.FromSlash(prefix))
	}
	return g
}

// fromWork returns the bytes of the regular file rel in the work tree
// when they are exactly the blob object, and whether they are. The file
// is read once, without following a symbolic link: its blob id vouches
// for the bytes read, whatever changes the file meanwhile.
func (g *Git) fromWork(rel, object string) ([]byte, bool) {
	if g.work == "" {
		return nil, false
	}
	abs := filepath.Join(g.work, filepath.FromSlash(rel))
	data, err := readfile.Read(abs, readfile.Options{Max: readfile.MaxJournal, NoFollow: true, Verified: true})
	if err != nil || gitrepo.BlobID(g.format, data) != object {
		return nil, false
	}
	return data, true
}

// byPath orders git's entries by path, as git lists them.
func byPath(a, b gitrepo.Entry) int { return strings.Compare(a.Path, b.Path) }

// byName orders a directory's entries by name.
func byName(a, b Entry) int { return strings.Compare(a.Name, b.Name) }

// add lists the entry e in d, with the index of its file (-1 for none).
func (d *gitDir) add(e Entry, file int32) {
	d.list = append(d.list, e)
	d.file = append(d.file, file)
}

// lookup returns the entry rel and the index of its file in g.entries (-1
// for a directory), and whether there is one. The root is a directory.
func (g *Git) lookup(rel string) (Entry, int32, bool) {
	if rel == "" {
		return Entry{Type: fs.ModeDir}, -1, true
	}
	parent, name := split(rel)
	d, ok := g.dirs[parent]
	if !ok {
		return Entry{}, -1, false
	}
	i, ok := slices.BinarySearchFunc(d.list, name, func(e Entry, name string) int { return strings.Compare(e.Name, name) })
	if !ok {
		return Entry{}, -1, false
	}
	// A directory wins over a file of the same name, which git's trees
	// and index do not hold anyway.
	for j := i; j < len(d.list) && d.list[j].Name == name; j++ {
		if d.file[j] < 0 {
			return d.list[j], -1, true
		}
	}
	return d.list[i], d.file[i], true
}

// split returns the directory of the root-relative path p ("" for the
// root) and its last element.
func split(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

// gitType returns the type bits of a file of git's mode: a symbolic link,
// a submodule (a directory), or else a regular file.
func gitType(mode string) fs.FileMode {
	switch mode {
	case "120000":
		return fs.ModeSymlink
	case "160000":
		return fs.ModeDir
	}
	return 0
}

// pathError returns the error os would for op on rel.
func pathError(op, rel string, err error) error {
	return &fs.PathError{Op: op, Path: rel, Err: err}
}

// Stat returns the type of rel: a directory, a file's type, or an error
// that wraps fs.ErrNotExist.
func (g *Git) Stat(rel string) (fs.FileMode, error) {
	if e, _, ok := g.lookup(rel); ok {
		return e.Type, nil
	}
	return 0, pathError("lstat", rel, fs.ErrNotExist)
}

// ReadDir lists the directory rel; git has no stamps, so stat is ignored.
func (g *Git) ReadDir(rel string, stat bool) ([]Entry, error) {
	if d, ok := g.dirs[rel]; ok {
		return slices.Clone(d.list), nil
	}
	if _, _, ok := g.lookup(rel); ok {
		return nil, pathError("readdirent", rel, syscall.ENOTDIR)
	}
	return nil, pathError("open", rel, fs.ErrNotExist)
}

// regular returns the object of the regular file rel, or the error
// ReadFile gives for rel.
func (g *Git) regular(rel string) (string, error) {
	_, i, ok := g.lookup(rel)
	switch {
	case !ok:
		return "", pathError("open", rel, fs.ErrNotExist)
	case i < 0 || !g.entries[i].IsRegular():
		return "", readfile.ErrNotRegular
	}
	return g.entries[i].Object, nil
}

// ReadFile reads the blob of rel: from the work tree when it holds the
// bytes (fromWork), else from git.
func (g *Git) ReadFile(rel string) (File, error) {
	object, err := g.regular(rel)
	if err != nil {
		return File{}, err
	}
	if data, ok := g.fromWork(rel, object); ok {
		return File{Data: data}, nil
	}
	return g.fromGit(object)
}

// fromGit reads the blob object from git, one at a time.
func (g *Git) fromGit(object string) (File, error) {
	data, size, err := g.reader.Read(object, readfile.MaxJournal)
	if err != nil {
		return File{}, err
	}
	if data == nil && size > readfile.MaxJournal {
		return File{}, &readfile.TooLargeError{Size: size, Max: readfile.MaxJournal}
	}
	return File{Data: data}, nil
}

// ReadAgain reads the blob of rel again; git's objects do not change, so
// the digest only guards against a caller that asks for another file.
func (g *Git) ReadAgain(rel string, want vt.Digest) []byte {
	f, err := g.ReadFile(rel)
	if err != nil || vt.DigestOf(f.Data) != want {
		return nil
	}
	return f.Data
}

// Stream reads the blobs of rels from the work tree where it holds them
// ([Index]), each other one from git as it comes; once more than
// workMisses of them, and more than were found, were not in the work tree,
// the rest through one `git cat-file --batch`.
func (g *Git) Stream(ctx context.Context, rels []string, fn func(i int, f File, err error) bool) error {
	if g.work == "" {
		return g.stream(ctx, rels, fn)
	}
	misses := 0
	for i, rel := range rels {
		if err := ctx.Err(); err != nil {
			return err
		}
		object, err := g.regular(rel)
		if err != nil {
			if !fn(i, File{}, err) {
				return nil
			}
			continue
		}
		f := File{}
		if data, ok := g.fromWork(rel, object); ok {
			f.Data = data
		} else if misses++; misses > workMisses && 2*misses > i+1 {
			return g.stream(ctx, rels[i:], func(j int, f File, err error) bool { return fn(i+j, f, err) })
		} else {
			f, err = g.fromGit(object)
		}
		if !fn(i, f, err) {
			return nil
		}
	}
	return nil
}

// stream reads the blobs of rels through one `git cat-file --batch`, as
// Stream does.
func (g *Git) stream(ctx context.Context, rels []string, fn func(i int, f File, err error) bool) error {
	objects := make([]string, 0, len(rels))
	at := make([]int, 0, len(rels)) // the index in rels of each object
	next := 0                       // the next index of rels to call fn for
	stopped := false
	// upTo calls fn for the files before index end that are no blobs.
	upTo := func(end int) bool {
		for ; next < end && !stopped; next++ {
			if _, err := g.regular(rels[next]); err != nil {
				stopped = !fn(next, File{}, err)
			}
		}
		return !stopped
	}
	for i, rel := range rels {
		if object, err := g.regular(rel); err == nil {
			objects = append(objects, object)
			at = append(at, i)
		}
	}
	k := 0
	errStop := errors.New("stopped")
	err := g.blobs(ctx, objects, func(object string, size int64, body io.Reader) error {
		i := at[k]
		k++
		if !upTo(i) {
			return errStop
		}
		next = i + 1
		if size > readfile.MaxJournal {
			stopped = !fn(i, File{}, &readfile.TooLargeError{Size: size, Max: readfile.MaxJournal})
		} else {
			data := make([]byte, size)
			if _, err := io.ReadFull(body, data); err != nil {
				return fmt.Errorf("git cat-file: reading %s: %w", object, err)
			}
			stopped = !fn(i, File{Data: data}, nil)
		}
		if stopped {
			return errStop
		}
		return nil
	})
	switch {
	case errors.Is(err, errStop):
		return nil
	case err != nil:
		return err
	}
	upTo(len(rels))
	return ctx.Err()
}

// Close ends the git that reads blobs one at a time, if it runs.
func (g *Git) Close() { g.reader.Close() }

// AddressOf returns the blob address of data (BlobAddress) in the
// repository's object format.
func (g *Git) AddressOf(data []byte) string { return BlobAddress(g.format, data) }

// Address returns "git:" and the object id of the blob of the regular
// file rel ([BlobAddress]), as git lists it.
func (g *Git) Address(rel string) (string, bool) {
	object, err := g.regular(rel)
	if err != nil {
		return "", false
	}
	return ObjectAddress(object), true
}

// Entry returns git's entry of the file at the root-relative path rel,
// and whether the source holds one.
func (g *Git) Entry(rel string) (gitrepo.Entry, bool) {
	if _, i, ok := g.lookup(rel); ok && i >= 0 {
		return g.entries[i], true
	}
	return gitrepo.Entry{}, false
}

// Paths returns the root-relative paths of the source's files (regular
// files and symbolic links), sorted. The caller must not change the
// slice.
func (g *Git) Paths() []string { return g.rels }
