package gitrepo

import (
	"cmp"
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// A tree object, in git's object format, is the bytes "tree", a space,
// the size of the contents in decimal and a NUL byte, then the contents:
// one entry per file or sub-directory, "<mode> <name>\0<raw object id>",
// with the mode in octal without leading zeros ("40000" for a tree) and
// the entries in git's order (see [compareNames]). An object's id is the
// hash of those bytes ([objectID]). A sub-directory without files has no
// entry: git never stores an empty tree below the top.

// treeMode is the mode of a sub-directory's entry in a tree object.
const treeMode = "40000"

// gitlinkMode is the mode of a submodule's entry (its object is a commit,
// which git does not look for in the repository).
const gitlinkMode = "160000"

// fileModes are the modes of the entries of files, as git writes them both
// in a tree object and in "diff --raw": regular, executable, symbolic link,
// submodule.
var fileModes = map[string]bool{"100644": true, "100755": true, "120000": true, gitlinkMode: true}

// maxTreeBytes is the largest tree object [Repo.PatchTree] reads; the top
// tree of 100,000 files in a Journal's layout is about 1.3 MB.
const maxTreeBytes = 256 << 20

// TreeAt returns the object id of the tree at prefix (relative to the top
// level, with forward slashes; "" for the top) in the commit rev: what
// "git rev-parse rev:prefix^{tree}" prints. A prefix that rev does not
// hold gives "" and no error; one that names anything but a directory
// (a file, a symbolic link, a submodule) is an error, and so is a rev
// that names no commit ([*RevisionError]).
func (r *Repo) TreeAt(ctx context.Context, rev, prefix string) (string, error) {
	if err := checkRelPath(prefix); err != nil {
		return "", err
	}
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return "", err
	}
	if prefix == "" {
		out, err := r.output(ctx, "", nil, "rev-parse", "--verify", "--quiet", "--end-of-options", commit+"^{tree}")
		if err != nil {
			return "", err
		}
		return strings.TrimSpace(string(out)), nil
	}
	// Without -r, ls-tree names the entry of the path itself.
	entries, err := r.lsTree(ctx, []string{commit, "--", prefix})
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Path != prefix {
			continue
		}
		if e.Mode != "040000" {
			return "", fmt.Errorf("%s in %s is not a directory (mode %s)", prefix, rev, e.Mode)
		}
		return e.Object, nil
	}
	return "", nil
}

// TreeDiff lists the entries directly under the trees a and b (object
// ids of trees, or of commits standing for theirs) that differ, by name in
// git's order, as "git diff-tree --raw" without -r prints them: each
// change's Old side is a's and its New side b's, its Path the entry's name
// and its Status 'A', 'D', 'M' or 'T'; a sub-directory's entry has the
// mode 040000 on the side that holds it, and 000000 (with an all-zero
// object id) on the side that does not. Its work is that of the top
// trees, never of their files. An id git does not know is an error.
func (r *Repo) TreeDiff(ctx context.Context, a, b string) ([]RawChange, error) {
	out, err := r.output(ctx, "", nil, "diff-tree", "--raw", "--no-abbrev", "-z", "--no-renames", "--end-of-options", a, b)
	if err != nil {
		return nil, err
	}
	return parseRaw(out)
}

// PatchTree returns the object id (lowercase hex) of the tree that tree
// (the id of a tree object, or "" for none) becomes with changes applied,
// without writing anything into the repository. The changes are
// [Repo.IndexDiff]'s answer for a commit and prefix (paths relative to
// the top level, all under prefix; statuses 'A', 'D', 'M', 'T'), and tree
// is the commit's tree at prefix ([Repo.TreeAt]); the result is then the
// id that "git write-tree --prefix=PREFIX/" ("git write-tree" for prefix
// "") prints for the index. A result without files is the id of the empty
// tree, which "git write-tree" prints for an empty index (with a prefix,
// git refuses instead).
//
// It reads, through one "git cat-file --batch", the tree objects on the
// paths of the changes (tree, then each sub-directory that a change lies
// in) and the new objects of the changes (git refuses to write a tree
// whose blob is missing), patches their entries, and hashes the trees
// again from the bottom up by git's tree object format, in the
// repository's object format ([Repo.ObjectFormat]); without changes it
// returns tree unread. The work is that of the changed directories, not
// of the whole tree.
//
// Rather than return an id that git would not write, it fails on: a
// change git could not write a tree from ('U' unmerged, or any other
// status), a path outside prefix, a malformed mode or object id, a
// change that does not fit tree (a deletion or modification of an entry
// that is not there with the old mode and object, an addition of one that
// is), a new object of the empty blob that the index holds only as
// intended to be added ("git add -N": [Repo.IndexDiff] lists such an
// entry as an empty file, while "git write-tree" leaves it out, as a
// check of the index does), a tree object that is missing, is not a
// tree, or is not as git writes one (unknown modes, names out of order),
// a missing new object, and git failing.
//
// Trees that no change goes through are not read: an id there that git
// would write differently from the index (a tree with non-canonical
// modes, written by another tool) is kept as it is.
func (r *Repo) PatchTree(ctx context.Context, tree, prefix string, changes []RawChange) (string, error) {
	p := &patcher{r: r, idLen: 20}
	if r.format == "sha256" {
		p.idLen = 32
	}
	if err := checkRelPath(prefix); err != nil {
		return "", err
	}
	var root string
	if tree != "" {
		var err error
		if root, err = p.objectID(tree); err != nil {
			return "", fmt.Errorf("tree %s: %w", tree, err)
		}
	}
	if len(changes) == 0 {
		if root == "" {
			return hex.EncodeToString(objectID(r.format, "tree", nil)), nil
		}
		return tree, nil
	}
	top := &dirChanges{}
	var emptyBlobs []string
	empty := BlobID(r.format, nil)
	for _, c := range changes {
		if err := p.checkChange(c); err != nil {
			return "", fmt.Errorf("%s: %w", c.Path, err)
		}
		rel := c.Path
		if c.Path == prefix {
			return "", fmt.Errorf("%s: a file where the tree is", c.Path)
		}
		if prefix != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(c.Path, prefix+"/"); !ok {
				return "", fmt.Errorf("%s: not under %s", c.Path, prefix)
			}
		}
		if err := checkRelPath(rel); err != nil || rel == "" {
			return "", fmt.Errorf("%q: not a path of a file under %q", c.Path, prefix)
		}
		if !top.add(rel, c) {
			return "", fmt.Errorf("%s: changed twice", c.Path)
		}
		if c.Status != 'D' && c.NewObject == empty {
			emptyBlobs = append(emptyBlobs, c.Path)
		}
	}
	if err := r.checkNotIntentToAdd(ctx, emptyBlobs); err != nil {
		return "", err
	}
	p.objects = r.NewBlobReader(ctx)
	defer p.objects.Close()
	id, err := p.patch(top, root, prefix)
	if err != nil {
		return "", err
	}
	if id == "" {
		id = string(objectID(r.format, "tree", nil))
	}
	return hex.EncodeToString([]byte(id)), nil
}

// checkRelPath reports an error unless p is a path relative to the top
// level as git spells it: "" or names without "/" that are neither "."
// nor "..", joined by "/".
func checkRelPath(p string) error {
	if p == "" {
		return nil
	}
	for name := range strings.SplitSeq(p, "/") {
		if name == "" || name == "." || name == ".." || strings.ContainsRune(name, 0) {
			return fmt.Errorf("%q is not a path relative to the top level", p)
		}
	}
	return nil
}

// checkNotIntentToAdd reports an error when the index holds any of paths
// (whose staged object is the empty blob) only as intended to be added:
// those that "git diff-index --cached --ita-invisible-in-index" (git 2.11
// and later; an older git fails on the option) does not list as added
// to the empty tree.
func (r *Repo) checkNotIntentToAdd(ctx context.Context, paths []string) error {
	emptyTree := hex.EncodeToString(objectID(r.format, "tree", nil))
	// A few hundred paths at a time keep the command line short.
	for batch := range slices.Chunk(paths, 500) {
		args := append([]string{"diff-index", "--cached", "--raw", "--no-abbrev", "-z", "--no-renames", "--ita-invisible-in-index", emptyTree, "--"}, batch...)
		out, err := r.output(ctx, "", nil, args...)
		if err != nil {
			return err
		}
		listed, err := parseRaw(out)
		if err != nil {
			return err
		}
		added := make(map[string]bool, len(listed))
		for _, c := range listed {
			added[c.Path] = c.Status == 'A'
		}
		for _, p := range batch {
			if !added[p] {
				return fmt.Errorf("%s: only intended to be added (git add -N), which git write-tree leaves out", p)
			}
		}
	}
	return nil
}

// dirChanges are the changes in one directory: to its files, by name, and
// below its sub-directories, by name. A name can be in both, when a file
// gives way to a directory or the other way round.
type dirChanges struct {
	files map[string]RawChange
	dirs  map[string]*dirChanges
}

// add records c under the path rel (relative to d's directory) and
// reports whether no change had that path before.
func (d *dirChanges) add(rel string, c RawChange) bool {
	first, rest, below := strings.Cut(rel, "/")
	if below {
		if d.dirs == nil {
			d.dirs = map[string]*dirChanges{}
		}
		sub := d.dirs[first]
		if sub == nil {
			sub = &dirChanges{}
			d.dirs[first] = sub
		}
		return sub.add(rest, c)
	}
	if _, dup := d.files[first]; dup {
		return false
	}
	if d.files == nil {
		d.files = map[string]RawChange{}
	}
	d.files[first] = c
	return true
}

// patcher is the state of one [Repo.PatchTree].
type patcher struct {
	r       *Repo
	idLen   int // bytes of a raw object id
	objects *BlobReader
}

// objectID decodes the object id s (lowercase hex of the repository's
// format, not all zeros, which git's diff writes for "no object").
func (p *patcher) objectID(s string) (string, error) {
	id, err := hex.DecodeString(s)
	if err != nil || len(id) != p.idLen || s != strings.ToLower(s) {
		return "", fmt.Errorf("malformed object id %q", s)
	}
	if !slices.ContainsFunc(id, func(b byte) bool { return b != 0 }) {
		return "", fmt.Errorf("no object (%s)", s)
	}
	return string(id), nil
}

// checkChange reports an error unless c is a change that git can write a
// tree from, with well-formed modes and objects on the sides it has.
func (p *patcher) checkChange(c RawChange) error {
	switch c.Status {
	case 'A', 'D', 'M', 'T':
	case 'U':
		return fmt.Errorf("unmerged (git write-tree refuses an index with conflicts)")
	default:
		return fmt.Errorf("unexpected status %q", c.Status)
	}
	if c.Status != 'A' {
		if _, err := p.objectID(c.OldObject); err != nil || !fileModes[c.OldMode] {
			return fmt.Errorf("malformed old side %s %s", c.OldMode, c.OldObject)
		}
	}
	if c.Status != 'D' {
		if _, err := p.objectID(c.NewObject); err != nil || !fileModes[c.NewMode] {
			return fmt.Errorf("malformed new side %s %s", c.NewMode, c.NewObject)
		}
	}
	return nil
}

// treeEntry is one entry of a tree object; its strings are substrings of
// the object's contents, when it was read from one.
type treeEntry struct {
	mode, name string
	id         string // raw
	raw        string // the entry's bytes in the object read; "" for a new one
}

// isDir reports whether e is a sub-directory.
func (e treeEntry) isDir() bool { return e.mode == treeMode }

// appendTo appends e as a tree object holds it to b.
func (e treeEntry) appendTo(b []byte) []byte {
	if e.raw != "" {
		return append(b, e.raw...)
	}
	b = append(append(append(b, e.mode...), ' '), e.name...)
	return append(append(b, 0), e.id...)
}

// compareNames orders entries as git does in a tree object (tree.c,
// base_name_compare): by the bytes of their names, where a directory's
// name compares as if it ended with "/" ("a.b" < "a/" < "a0", while the
// file "a" < "a.b").
func compareNames(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	return cmp.Compare(nameEnd(a, n, aDir), nameEnd(b, n, bDir))
}

// nameEnd returns the byte of name at n, or past its end '/' for a
// directory and 0 for a file.
func nameEnd(name string, n int, dir bool) byte {
	switch {
	case n < len(name):
		return name[n]
	case dir:
		return '/'
	}
	return 0
}

// compareEntries is [compareNames] of two entries.
func compareEntries(a, b treeEntry) int { return compareNames(a.name, a.isDir(), b.name, b.isDir()) }

// parseTree parses the contents of a tree object, checking that they are
// as git writes them.
func (p *patcher) parseTree(data string) ([]treeEntry, error) {
	entries := make([]treeEntry, 0, len(data)/(p.idLen+16)) // an entry is the id, a mode and a name

	for rest := data; len(rest) > 0; {
		sp := strings.IndexByte(rest, ' ')
		nul := strings.IndexByte(rest, 0)
		if sp <= 0 || nul < sp+2 || len(rest) < nul+1+p.idLen {
			return nil, fmt.Errorf("malformed entry at byte %d", len(data)-len(rest))
		}
		e := treeEntry{mode: rest[:sp], name: rest[sp+1 : nul], id: rest[nul+1 : nul+1+p.idLen], raw: rest[:nul+1+p.idLen]}
		if e.mode != treeMode && !fileModes[e.mode] {
			return nil, fmt.Errorf("entry %q has mode %q, which git does not write", e.name, e.mode)
		}
		if checkRelPath(e.name) != nil || strings.Contains(e.name, "/") {
			return nil, fmt.Errorf("entry with the name %q", e.name)
		}
		if len(entries) > 0 && compareEntries(entries[len(entries)-1], e) >= 0 {
			return nil, fmt.Errorf("entry %q is out of git's order", e.name)
		}
		entries = append(entries, e)
		rest = rest[nul+1+p.idLen:]
	}
	return entries, nil
}

// findEntry returns the index of the entry named name in entries (sorted
// by [compareEntries]); ok is false when there is none. A file and a
// directory of the same name are an error.
func findEntry(entries []treeEntry, name string) (i int, ok bool, err error) {
	search := func(dir bool) (int, bool) {
		return slices.BinarySearchFunc(entries, name, func(e treeEntry, n string) int { return compareNames(e.name, e.isDir(), n, dir) })
	}
	fi, fok := search(false)
	di, dok := search(true)
	switch {
	case fok && dok:
		return 0, false, fmt.Errorf("two entries named %q", name)
	case fok:
		return fi, true, nil
	case dok:
		return di, true, nil
	}
	return 0, false, nil
}

// readTree reads and parses the tree object id (raw); dir names it in
// errors.
func (p *patcher) readTree(id, dir string) ([]treeEntry, error) {
	typ, data, size, err := p.objects.readObject(hex.EncodeToString([]byte(id)), maxTreeBytes)
	if err != nil {
		return nil, fmt.Errorf("the tree of %q: %w", dir, err)
	}
	if typ != "tree" {
		return nil, fmt.Errorf("the tree of %q: object %x is a %s", dir, id, typ)
	}
	if size > maxTreeBytes {
		return nil, fmt.Errorf("the tree of %q: object %x is larger than %d bytes", dir, id, maxTreeBytes)
	}
	entries, err := p.parseTree(string(data))
	if err != nil {
		return nil, fmt.Errorf("the tree of %q (object %x): %w", dir, id, err)
	}
	return entries, nil
}

// patch applies d to the tree object id (raw, "" for none) of the
// directory dir (relative to the top level) and returns the raw id of the
// tree it becomes, or "" when that has no entries.
func (p *patcher) patch(d *dirChanges, id, dir string) (string, error) {
	var entries []treeEntry
	if id != "" {
		var err error
		if entries, err = p.readTree(id, dir); err != nil {
			return "", err
		}
	}
	removed := map[int]bool{}
	replaced := map[int]treeEntry{}
	var added []treeEntry
	newDirs := map[string]bool{}
	lookup := func(name string) (int, bool, error) {
		i, ok, err := findEntry(entries, name)
		if err != nil {
			return 0, false, fmt.Errorf("the tree of %q: %w", dir, err)
		}
		return i, ok && !removed[i], nil
	}
	names := slices.Sorted(maps.Keys(d.files))
	// Deletions first, then the sub-directories, then the rest: a file
	// and a directory of the same name swap places.
	for _, name := range names {
		c := d.files[name]
		if c.Status != 'D' {
			continue
		}
		i, ok, err := lookup(name)
		if err != nil {
			return "", err
		}
		if err := p.matchOld(c, entries, i, ok); err != nil {
			return "", err
		}
		removed[i] = true
	}
	for _, name := range slices.Sorted(maps.Keys(d.dirs)) {
		i, ok, err := lookup(name)
		if err != nil {
			return "", err
		}
		var old string
		if ok {
			if !entries[i].isDir() {
				return "", fmt.Errorf("%s: a file in the tree, but changes lie below it", path.Join(dir, name))
			}
			old = entries[i].id
		}
		sub, err := p.patch(d.dirs[name], old, path.Join(dir, name))
		if err != nil {
			return "", err
		}
		switch {
		case ok && sub == "":
			removed[i] = true
		case ok:
			replaced[i] = treeEntry{mode: treeMode, name: name, id: sub}
		case sub != "":
			added = append(added, treeEntry{mode: treeMode, name: name, id: sub})
			newDirs[name] = true
		}
	}
	for _, name := range names {
		c := d.files[name]
		if c.Status == 'D' {
			continue
		}
		i, ok, err := lookup(name)
		if err != nil {
			return "", err
		}
		if c.Status == 'A' && ok {
			return "", fmt.Errorf("%s: added, but the tree has it", c.Path)
		}
		if c.Status != 'A' {
			if err := p.matchOld(c, entries, i, ok); err != nil {
				return "", err
			}
		}
		if newDirs[name] {
			return "", fmt.Errorf("%s: both a file and a directory", c.Path)
		}
		if c.NewMode != gitlinkMode {
			// git write-tree refuses an entry whose object it lacks.
			if _, _, _, err := p.objects.readObject(c.NewObject, 0); err != nil {
				return "", fmt.Errorf("%s: %w", c.Path, err)
			}
		}
		id, _ := p.objectID(c.NewObject) // checkChange checked it
		e := treeEntry{mode: c.NewMode, name: name, id: id}
		if ok {
			replaced[i] = e
		} else {
			added = append(added, e)
		}
	}
	return p.write(entries, removed, replaced, added), nil
}

// matchOld reports an error unless entries[i] (ok: there is one) is the
// old side of the change c.
func (p *patcher) matchOld(c RawChange, entries []treeEntry, i int, ok bool) error {
	if !ok {
		return fmt.Errorf("%s: changed, but the tree lacks it", c.Path)
	}
	e := entries[i]
	if e.mode != c.OldMode || hex.EncodeToString([]byte(e.id)) != c.OldObject {
		return fmt.Errorf("%s: the tree has %s %x, the change %s %s", c.Path, e.mode, e.id, c.OldMode, c.OldObject)
	}
	return nil
}

// write returns the raw id of the tree object of entries without those
// removed, with those replaced, and with those added; "" when none is
// left.
func (p *patcher) write(entries []treeEntry, removed map[int]bool, replaced map[int]treeEntry, added []treeEntry) string {
	slices.SortFunc(added, compareEntries)
	size := 0
	for _, e := range entries {
		size += len(e.raw)
	}
	body := make([]byte, 0, size+len(added)*(p.idLen+64))
	j := 0
	for i, e := range entries {
		if removed[i] {
			continue
		}
		if r, ok := replaced[i]; ok {
			e = r
		}
		for ; j < len(added) && compareEntries(added[j], e) < 0; j++ {
			body = added[j].appendTo(body)
		}
		body = e.appendTo(body)
	}
	for ; j < len(added); j++ {
		body = added[j].appendTo(body)
	}
	if len(body) == 0 {
		return ""
	}
	return string(objectID(p.r.format, "tree", body))
}
