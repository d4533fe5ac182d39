package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
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
// it. Stream reads its blobs through `git cat-file --batch`; for the
// index's entries only, ReadFile and ReadLocal read one from the work
// tree where a file there holds exactly the blob's bytes. Close ends the
// git that reads one at a time.
type Git struct {
	// The files under the root (regular files and symbolic links, not a
	// submodule) in git's order, which sorts their paths. File i's path
	// relative to the top level is paths[ends[i-1]:ends[i]] (from 0 for
	// the first), its root-relative path that without its first cut
	// bytes, its object id objects[i*width:(i+1)*width] (git names every
	// object in full), and its mode and tag kinds[kind[i]]. Nothing holds
	// a pointer per file: at a million files, the collector would trace
	// millions of them at every cycle.
	paths   string
	ends    []int
	cut     int
	objects string
	width   int
	kind    []uint8
	kinds   []gitrepo.Entry // Mode and Tag only
	// dirs are the directories, the root first; byDir finds one by its
	// root-relative path ("" the root).
	dirs   []gitDir
	byDir  map[string]int32
	blobs  func(context.Context, []string, func(string, int64, io.Reader) error) error
	reader *gitrepo.BlobReader
	format string // the repository's object format
	// work is the absolute directory of the root in the work tree, for
	// the index's blobs read from there (fromWork); "" for none. streak
	// counts the files ReadLocal last did not find there in a row.
	work   string
	streak atomic.Int64
}

// workMisses is the number of files in a row whose work-tree copy held
// other bytes than git's blob after which [Git.ReadLocal] stops reading
// the work tree: a work tree that converts line endings, or a sparse
// checkout, costs that many reads more, and a stretch of unstaged edits
// shorter than that does not stop it. A test lowers it.
var workMisses int64 = 1024

// gitDir is one directory of a [Git]: its root-relative path, and its
// entries sorted by name, each a file's index or ^j for the directory
// Git.dirs[j] (a kid).
type gitDir struct {
	path string
	kids []int32
}

// Index returns the index's entries under prefix (the root relative to the
// top level of repo, "" for the top level) as a [Git] source. An unmerged
// entry (merge stages 1 to 3) is an error: there is no one staged content
// to check until the merge is resolved. An entry added with intent to add
// (git add -N) is left out, as git write-tree and git commit leave it out.
// Git failing is an error. A blob is
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
	entries, err = withoutIntentToAdd(ctx, repo, prefix, entries)
	if err != nil {
		return nil, err
	}
	g, err := newGit(ctx, repo, prefix, entries)
	if err != nil {
		return nil, err
	}
	return g.fromWorkTree(repo, prefix), nil
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
	if entries, err = withoutIntentToAdd(ctx, repo, prefix, entries); err != nil {
		return nil, err
	}
	g, err := newGit(ctx, repo, prefix, entries)
	if err != nil {
		return nil, err
	}
	return g.fromWorkTree(repo, prefix), nil
}

// withoutIntentToAdd returns entries, index entries under prefix, less
// those added with intent to add (git add -N): they hold the empty blob
// and are no part of what a commit takes, as git write-tree leaves them
// out. Only when an entry holds the empty blob is git asked which
// (gitrepo.Repo.IntentToAdd); its failing is an error.
func withoutIntentToAdd(ctx context.Context, repo *gitrepo.Repo, prefix string, entries []gitrepo.Entry) ([]gitrepo.Entry, error) {
	empty := gitrepo.BlobID(repo.ObjectFormat(), nil)
	if !slices.ContainsFunc(entries, func(e gitrepo.Entry) bool { return e.Object == empty }) {
		return entries, nil
	}
	intent, err := repo.IntentToAdd(ctx, prefix)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(entries, func(e gitrepo.Entry) bool { return e.Object == empty && intent[e.Path] }), nil
}

// Commit returns the tree of the commit rev under prefix (as for [Index])
// as a [Git] source. A rev that names no commit is a
// *gitrepo.RevisionError; git failing is an error.
func Commit(ctx context.Context, repo *gitrepo.Repo, rev, prefix string) (*Git, error) {
	entries, err := repo.Tree(ctx, rev, prefix)
	if err != nil {
		return nil, err
	}
	return newGit(ctx, repo, prefix, entries)
}

// newGit builds the directories that the entries under prefix imply. The
// entries name each file once (a tree's, or an index's without unmerged
// entries), so a file is listed in its directory as it comes, and a
// directory in its parent when it is first met. Entries of over 256
// kinds (mode and tag) are an error.
func newGit(ctx context.Context, repo *gitrepo.Repo, prefix string, entries []gitrepo.Entry) (*Git, error) {
	if !slices.IsSortedFunc(entries, byPath) {
		entries = slices.Clone(entries)
		slices.SortStableFunc(entries, byPath)
	}
	g := &Git{dirs: []gitDir{{}}, byDir: map[string]int32{"": 0}, blobs: repo.Blobs, reader: repo.NewBlobReader(ctx), format: repo.ObjectFormat()}
	if prefix != "" {
		g.cut = len(prefix) + 1
	}
	// rel returns the root-relative path of e, and whether it lies under
	// the root.
	under := prefix + "/"
	rel := func(e gitrepo.Entry) (string, bool) {
		if prefix == "" {
			return e.Path, true
		}
		return strings.CutPrefix(e.Path, under)
	}
	var paths, objects strings.Builder
	n, size := 0, 0
	for _, e := range entries {
		if _, ok := rel(e); ok && gitType(e.Mode) != fs.ModeDir {
			n, size = n+1, size+len(e.Path)
			g.width = max(g.width, len(e.Object))
		}
	}
	paths.Grow(size)
	objects.Grow(n * g.width)
	g.ends, g.kind = make([]int, 0, n), make([]uint8, 0, n)
	// dirOf returns the directory rel, made known and listed in its
	// parent when first met. Like the paths and objects, what it keeps is
	// a copy: a string of git's answer would keep all of it.
	var dirOf func(rel string) int32
	dirOf = func(rel string) int32 {
		if j, ok := g.byDir[rel]; ok {
			return j
		}
		j := int32(len(g.dirs))
		rel = strings.Clone(rel)
		g.dirs = append(g.dirs, gitDir{path: rel})
		g.byDir[rel] = j
		parent, _ := split(rel)
		p := dirOf(parent)
		g.dirs[p].kids = append(g.dirs[p].kids, ^j)
		return j
	}
	for _, e := range entries {
		r, ok := rel(e)
		switch {
		case !ok:
		case gitType(e.Mode) == fs.ModeDir: // a submodule: an empty directory
			dirOf(r)
		default:
			i := int32(len(g.ends))
			paths.WriteString(e.Path)
			g.ends = append(g.ends, paths.Len())
			objects.WriteString(e.Object)
			for range g.width - len(e.Object) {
				objects.WriteByte(' ') // no object name: git reads it as none
			}
			k, ok := g.kindOf(e)
			if !ok {
				return nil, fmt.Errorf("git listed more than %d kinds of entries (mode and tag), at %q", math.MaxUint8+1, e.Path)
			}
			g.kind = append(g.kind, k)
			parent, _ := split(r)
			d := dirOf(parent)
			g.dirs[d].kids = append(g.dirs[d].kids, i)
		}
	}
	g.paths, g.objects = paths.String(), objects.String()
	byName := func(a, b int32) int { return strings.Compare(g.name(a), g.name(b)) }
	for _, d := range g.dirs {
		if !slices.IsSortedFunc(d.kids, byName) {
			slices.SortStableFunc(d.kids, byName)
		}
	}
	return g, nil
}

// kindOf returns the index in g.kinds of e's mode and tag, added when
// new, and false when 256 kinds are known already (git has a handful of
// modes and tags).
func (g *Git) kindOf(e gitrepo.Entry) (uint8, bool) {
	k := gitrepo.Entry{Mode: e.Mode, Tag: e.Tag}
	if i := slices.Index(g.kinds, k); i >= 0 {
		return uint8(i), true
	}
	if len(g.kinds) > math.MaxUint8 {
		return 0, false
	}
	k.Mode = strings.Clone(k.Mode)
	g.kinds = append(g.kinds, k)
	return uint8(len(g.kinds) - 1), true
}

// full returns the path of file i relative to the top level.
func (g *Git) full(i int32) string {
	start := 0
	if i > 0 {
		start = g.ends[i-1]
	}
	return g.paths[start:g.ends[i]]
}

// entry returns git's entry of file i (with no stage: git's trees have
// none, and Index refuses an unmerged entry).
func (g *Git) entry(i int32) gitrepo.Entry {
	e := g.kinds[g.kind[i]]
	e.Object, e.Path = strings.TrimRight(g.objects[int(i)*g.width:int(i+1)*g.width], " "), g.full(i)
	return e
}

// name returns the name of the entry kid within its directory.
func (g *Git) name(kid int32) string {
	var p string
	if kid >= 0 {
		p = g.full(kid)
	} else {
		p = g.dirs[^kid].path
	}
	_, name := split(p)
	return name
}

// listing returns the entry kid as ReadDir lists it.
func (g *Git) listing(kid int32) Entry {
	if kid < 0 {
		return Entry{Name: g.name(kid), Type: fs.ModeDir}
	}
	return Entry{Name: g.name(kid), Type: gitType(g.kinds[g.kind[kid]].Mode)}
}

// fromWorkTree makes g read blobs from repo's work tree (a [gitrepo.Repo]
// always has one) where it holds them ([Index]), and returns g.
func (g *Git) fromWorkTree(repo *gitrepo.Repo, prefix string) *Git {
	g.work = filepath.Join(repo.Top(), filepath.FromSlash(prefix))
	return g
}

// fromWork returns the bytes of the regular file rel in the work tree
// when they are exactly the blob object, and whether they are. The file
// is read once, without following a symbolic link in its last component
// (a linked directory on the way is followed): its blob id vouches for
// the bytes read, whatever the path leads to or changes meanwhile.
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

// lookup returns the entry rel as a kid (^0 for the root), and whether
// there is one.
func (g *Git) lookup(rel string) (int32, bool) {
	if rel == "" {
		return ^0, true
	}
	parent, name := split(rel)
	d, ok := g.byDir[parent]
	if !ok {
		return 0, false
	}
	kids := g.dirs[d].kids
	i, ok := slices.BinarySearchFunc(kids, name, func(kid int32, name string) int { return strings.Compare(g.name(kid), name) })
	if !ok {
		return 0, false
	}
	// A directory wins over a file of the same name, which git's trees
	// and index do not hold anyway.
	for j := i; j < len(kids) && g.name(kids[j]) == name; j++ {
		if kids[j] < 0 {
			return kids[j], true
		}
	}
	return kids[i], true
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
	if kid, ok := g.lookup(rel); ok {
		return g.listing(kid).Type, nil
	}
	return 0, pathError("lstat", rel, fs.ErrNotExist)
}

// ReadDir lists the directory rel; git has no stamps, so stat is ignored.
func (g *Git) ReadDir(rel string, stat bool) ([]Entry, error) {
	if d, ok := g.byDir[rel]; ok {
		kids := g.dirs[d].kids
		list := make([]Entry, len(kids))
		for i, kid := range kids {
			list[i] = g.listing(kid)
		}
		return list, nil
	}
	if _, ok := g.lookup(rel); ok {
		return nil, pathError("readdirent", rel, syscall.ENOTDIR)
	}
	return nil, pathError("open", rel, fs.ErrNotExist)
}

// regular returns the object of the regular file rel, or the error
// ReadFile gives for rel.
func (g *Git) regular(rel string) (string, error) {
	kid, ok := g.lookup(rel)
	switch {
	case !ok:
		return "", pathError("open", rel, fs.ErrNotExist)
	case kid < 0:
		return "", readfile.ErrNotRegular
	}
	e := g.entry(kid)
	if !e.IsRegular() {
		return "", readfile.ErrNotRegular
	}
	return e.Object, nil
}

// ReadLocal returns the blob of the regular file rel when the work tree
// holds its bytes (fromWork; an index's source only), and whether it does
// ([Local]). Once workMisses files in a row were not there, it stops
// looking.
func (g *Git) ReadLocal(rel string) (File, bool) {
	if !g.HasLocal() {
		return File{}, false
	}
	object, err := g.regular(rel)
	if err != nil {
		return File{}, false
	}
	data, ok := g.fromWork(rel, object)
	if !ok {
		g.streak.Add(1)
		return File{}, false
	}
	for { // back to 0, unless it stopped: a stop stays
		s := g.streak.Load()
		if s == 0 || s >= workMisses || g.streak.CompareAndSwap(s, 0) {
			break
		}
	}
	return File{Data: data}, true
}

// HasLocal reports whether ReadLocal may still find a file in the work
// tree ([Local]): false for a commit's tree, and once it stopped looking.
func (g *Git) HasLocal() bool {
	return g.work != "" && g.streak.Load() < workMisses
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

// Stream reads the blobs of rels through one `git cat-file --batch`.
func (g *Git) Stream(ctx context.Context, rels []string, fn func(i int, f File, err error) bool) error {
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
	if kid, ok := g.lookup(rel); ok && kid >= 0 {
		return g.entry(kid), true
	}
	return gitrepo.Entry{}, false
}

// Paths returns the root-relative paths of the source's files (regular
// files and symbolic links), sorted, in a new slice.
func (g *Git) Paths() []string {
	rels := make([]string, len(g.ends))
	for i := range rels {
		rels[i] = g.full(int32(i))[g.cut:]
	}
	return rels
}
