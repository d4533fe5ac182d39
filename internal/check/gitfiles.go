package check

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sort"
	"strings"

	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/source"
	"github.com/r35157/journal-lint/internal/syntax"
)

// loadBase learns which Journal files the compared commit holds (at)
// (atBase) from the index, which the check lists anyway, and what git says
// differs between the commit and the index (changes and err, what
// gitrepo.Repo.IndexDiff returned), instead of listing the commit's whole
// tree. While an unmerged entry makes the index an unreliable witness, it
// lists the commit's tree.
func (g *gate) loadBase(ctx context.Context, changes []gitrepo.RawChange, err error) error {
	if err != nil {
		return err
	}
	g.baseChanged = make(map[string]gitrepo.RawChange, len(changes))
	g.changedDirs = map[string]bool{}
	for _, c := range changes {
		if c.Status == 'U' {
			return g.listBase(ctx)
		}
		if p, ok := g.underRoot(c.Path); ok {
			g.baseChanged[p] = c
			dir, _, _ := strings.Cut(p, "/")
			g.changedDirs[dir] = true
		}
	}
	if _, staged := g.src.(*source.Git); !staged {
		err = g.indexed(ctx)
	}
	return err
}

// baseDiff is what git said differs between the compared commit and the
// index (loadBase), once done is closed.
type baseDiff struct {
	done    chan struct{}
	changes []gitrepo.RawChange
	err     error
}

// listBase lists the Journal files of the compared commit's tree, for
// atBase.
func (g *gate) listBase(ctx context.Context) error {
	entries, err := g.repo.Tree(ctx, g.commit, g.rootRel)
	if err != nil {
		return err
	}
	// Only regular files can be accepted revisions: a symbolic link
	// (or a submodule) at the commit never was one.
	g.baseFull = map[string]gitrepo.Entry{}
	for _, e := range entries {
		if p, ok := g.journalPath(e.Path); ok && e.IsRegular() {
			g.baseFull[p] = e
		}
	}
	return nil
}

// atBase reports whether the compared commit holds a Journal file (a regular
// file at a Journal's place, as journalPath says) at the root-relative
// path p, and its entry there; false without a compared commit. A path
// git does not report changed between the commit and the index holds the
// index's entry.
func (g *gate) atBase(p string) (gitrepo.Entry, bool) {
	switch {
	case g.commit == "":
		return gitrepo.Entry{}, false
	case g.baseFull != nil:
		e, ok := g.baseFull[p]
		return e, ok
	}
	if !g.isJournal(p) {
		return gitrepo.Entry{}, false
	}
	var e gitrepo.Entry
	var ok bool
	if c, changed := g.baseChanged[p]; changed {
		e, ok = gitrepo.Entry{Mode: c.OldMode, Object: c.OldObject, Path: c.Path}, c.Status != 'A'
	} else if index, staged := g.src.(*source.Git); staged {
		e, ok = index.Entry(p)
	} else {
		e, ok = g.indexEntry(p)
	}
	if !ok || !e.IsRegular() {
		return gitrepo.Entry{}, false
	}
	return e, true
}

// baseCommit returns the commit that a check against rev compares with:
// the merge base of rev and HEAD ("git merge-base REV HEAD"), what
// "REV...HEAD" means to git and what a pull request's diff shows, so that
// what the base branch gained after the branch forked is never reported as
// deleted. Without a HEAD (an initial commit) it is rev itself. A shallow
// clone without the merge base is an error that says to fetch more
// history. The rule packs of such a check come from the configuration at
// the same commit (BaseConfig), so both must ask here.
func baseCommit(ctx context.Context, repo *gitrepo.Repo, rev string) (string, error) {
	commit, err := repo.ResolveCommit(ctx, rev)
	if err != nil {
		return "", err
	}
	head, err := repo.ResolveCommit(ctx, "HEAD")
	if err != nil {
		return commit, nil
	}
	base, err := repo.MergeBase(ctx, commit, head)
	if errors.Is(err, gitrepo.ErrNoMergeBase) {
		if shallow, _ := repo.IsShallow(ctx); shallow {
			return "", fmt.Errorf("this clone is shallow and lacks the merge base of %s and HEAD: fetch more history (actions/checkout: fetch-depth: 0; or git fetch --unshallow)", rev)
		}
		return "", fmt.Errorf("%s and HEAD have no common history (no merge base)", rev)
	}
	return base, err
}

// committedFile is what git holds of one Journal path: the blob at HEAD
// and the blob in the index (either may be missing) and whether the
// .gitattributes keep git from converting the file (text unset).
type committedFile struct {
	head, index []byte
	noConvert   bool
}

// gitFiles is what git lists of the Journal paths under the root (read once
// per run by [gate.listed]); paths are root-relative.
type gitFiles struct {
	head map[string]string // regular file → blob object at HEAD
	// byDir lists, per artifact directory (with its final slash), the
	// regular files at HEAD or in the index, sorted.
	byDir map[string][]string
}

// listed returns the Journal paths of HEAD (none before the first commit)
// and of the index: two git commands for the whole root, once per run.
func (g *gate) listed(ctx context.Context) (*gitFiles, error) {
	if g.files != nil {
		return g.files, nil
	}
	f := &gitFiles{head: map[string]string{}, byDir: map[string][]string{}}
	regular := map[string]bool{}
	if _, err := g.repo.ResolveCommit(ctx, "HEAD"); err == nil {
		entries, err := g.repo.Tree(ctx, "HEAD", g.rootRel)
		if err != nil {
			return nil, fmt.Errorf("git ls-tree: %w", err)
		}
		for _, e := range entries {
			if p, ok := g.journalPath(e.Path); ok && e.IsRegular() {
				f.head[p] = e.Object
				regular[p] = true
			}
		}
	}
	if err := g.indexed(ctx); err != nil {
		return nil, err
	}
	for p, e := range g.indexEntries() {
		if e.IsRegular() {
			regular[p] = true
		}
	}
	for p := range regular {
		dir := coordinateOf(p) + "/"
		f.byDir[dir] = append(f.byDir[dir], p)
	}
	for _, ps := range f.byDir {
		sort.Strings(ps)
	}
	g.files = f
	return f, nil
}

// indexed lists the index's entries under the root for indexEntry and
// indexEntries: those vouchWorkTree listed, else with one git command,
// once per run.
func (g *gate) indexed(ctx context.Context) error {
	if g.index == nil {
		index, err := g.repo.Index(ctx, g.rootRel)
		if err != nil {
			return fmt.Errorf("git ls-files: %w", err)
		}
		g.index = index
	}
	return nil
}

// indexEntry returns the merged index entry of the root-relative path p
// of a Journal file, from what indexed listed; false for any other path,
// or an unmerged one.
func (g *gate) indexEntry(p string) (gitrepo.Entry, bool) {
	if g.index == nil || !g.isJournal(p) {
		return gitrepo.Entry{}, false
	}
	e, ok := g.index.Find(g.rootRel, p)
	return e, ok && e.Stage == 0
}

// indexEntries yields, in path order, the merged index entries of Journal
// files that indexed listed, with their root-relative paths.
func (g *gate) indexEntries() iter.Seq2[string, gitrepo.Entry] {
	return func(yield func(string, gitrepo.Entry) bool) {
		if g.index == nil {
			return
		}
		for _, e := range g.index.All() {
			if p, ok := g.journalPath(e.Path); ok && e.Stage == 0 && !yield(p, e) {
				return
			}
		}
	}
}

// committedFiles returns what git holds of each of the root-relative
// paths (see [committedFile]); a path git does not hold as a regular file
// is missing from the map. The blobs are read with one git cat-file and
// the attributes with one git check-attr for all paths; results are cached
// for the run.
func (g *gate) committedFiles(ctx context.Context, paths []string) (map[string]*committedFile, error) {
	f, err := g.listed(ctx)
	if err != nil {
		return nil, err
	}
	if g.committed == nil {
		g.committed = map[string]*committedFile{}
	}
	var want, objects []string
	for _, p := range paths {
		if _, done := g.committed[p]; done {
			continue
		}
		g.committed[p] = nil
		h, inHead := f.head[p]
		e, inIndex := g.indexEntry(p)
		inIndex = inIndex && e.IsRegular()
		if !inHead && !inIndex {
			continue
		}
		want = append(want, p)
		if inHead {
			objects = append(objects, h)
		}
		if inIndex && e.Object != h {
			objects = append(objects, e.Object)
		}
	}
	if len(want) > 0 {
		blobs, _, err := g.repo.ReadBlobs(ctx, objects, syntax.MaxSize)
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		attrs, err := g.repo.Attributes(ctx, false, g.rootRel, want, "text")
		if err != nil {
			return nil, fmt.Errorf("git check-attr: %w", err)
		}
		for i, p := range want {
			c := &committedFile{noConvert: attrs[i][0] == "unset"}
			if h, ok := f.head[p]; ok {
				c.head = blobs[h]
			}
			if e, ok := g.indexEntry(p); ok && e.IsRegular() {
				c.index = blobs[e.Object]
			}
			g.committed[p] = c
		}
	}
	out := make(map[string]*committedFile, len(paths))
	for _, p := range paths {
		if c := g.committed[p]; c != nil {
			out[p] = c
		}
	}
	return out, nil
}

// mayDifferFromHEAD returns the root-relative paths of the work tree's
// Journal files whose bytes may differ from their blob at HEAD: all but
// those that git reports unchanged since HEAD and whose attributes convert
// nothing under the configured core.autocrlf (eolAttr.convertsNothing), which
// hold the blob's exact bytes.
// Before the first commit there is no blob to differ from.
func (g *gate) mayDifferFromHEAD(ctx context.Context, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	if _, err := g.repo.ResolveCommit(ctx, "HEAD"); err != nil {
		return nil, nil
	}
	changes, err := g.repo.Diff(ctx, "HEAD", false, g.rootRel)
	if err != nil {
		return nil, fmt.Errorf("git diff: %w", err)
	}
	autocrlf, err := g.repo.Config(ctx, "core.autocrlf")
	if err != nil {
		return nil, fmt.Errorf("git config: %w", err)
	}
	changed := map[string]bool{}
	for _, c := range changes {
		for _, top := range []string{c.Path, c.OldPath} {
			if p, ok := g.underRoot(top); ok && top != "" {
				changed[p] = true
			}
		}
	}
	var out []string
	for _, p := range paths {
		if a := g.eolAttrs.get(p); changed[p] || a == nil || !a.convertsNothing(autocrlf) {
			out = append(out, p)
		}
	}
	return out, nil
}
