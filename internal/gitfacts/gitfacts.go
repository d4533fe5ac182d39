// Package gitfacts answers what git says of the Journal tree under a root
// for one check: which Journal files the compared commit (the merge base
// of the revision a check runs --against and HEAD) holds, the index's
// entries, HEAD's files and the committed bytes of a few of them, and the
// attributes that decide git's conversions (attrs.go). Each answer is
// asked of git once, on first use, and kept for the run; paths
// are root-relative with forward slashes unless a name says "top" (git's
// paths, relative to the top of the work tree).
//
// The git gate of package check is built on it: the history/revision-*
// codes, the notes that explain broken chains by edited committed files,
// and --new-only all ask a [Facts].
package gitfacts

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/source"
	"github.com/r35157/journal-lint/internal/syntax"
)

// PublishedRef names the remote's default branch (git clone sets it):
// a revision is accepted, by the pre-commit hook's reckoning, once that
// branch holds it (README, "The pre-commit hook").
const PublishedRef = "refs/remotes/origin/HEAD"

// Facts is what git says of the tree under one root. The caller fills the
// exported fields. The methods that ask git (LoadBase, Listed, Indexed,
// CommittedFiles) need Repo and write to the Facts: none may run alongside
// another call. The others only read, and need no Repo: with none they
// answer as for a tree git holds nothing of.
type Facts struct {
	// Repo is the repository whose work tree holds the root; nil outside
	// one.
	Repo *gitrepo.Repo
	// RootRel is the root relative to the top of the work tree, "" for
	// the top itself.
	RootRel string
	// Examples makes <timestamp>.journal.example files Journals too.
	Examples bool
	// Against is the revision compared against as given ("origin/main";
	// "HEAD" for --staged), Commit the commit compared with (BaseCommit of
	// Against and the merge being committed, Merged), Rev the commit
	// Against names; all "" without one.
	Against, Commit, Rev string
	// Merged are the commits a staged merge merges into HEAD
	// (gitrepo.Repo.MergeHeads), whose merge with HEAD Commit is the
	// merge base of; nil for none.
	Merged []string
	// MergeSource names the revision whose Journal files, brought in by
	// a merge under way as it holds them, count as accepted (Accepted):
	// PublishedRef for a staged check not given a revision (diff
	// --staged, which compares with HEAD, so Merged leaves the merged
	// revisions added); "" for none.
	MergeSource string
	// StagedIndex is the index the tree is loaded from (--staged), nil for
	// the work tree: AtBase takes the entry of a path git reports unchanged
	// since Commit from it.
	StagedIndex *source.Git

	// baseChanged holds what differs between Commit and the index, and
	// baseFull, when the index cannot tell, Commit's Journal files (see
	// AtBase); changedDirs are the artifact directories of baseChanged.
	baseChanged map[string]gitrepo.RawChange
	baseFull    map[string]gitrepo.Entry
	changedDirs map[string]bool
	// merged holds, during a merge, the files the index adds since
	// Commit that MergeSource holds alike (loadMerged).
	merged map[string]bool
	// files, index and committed are what Listed, Indexed and
	// CommittedFiles asked.
	files     *Files
	index     *gitrepo.IndexList
	committed map[string]*Committed
}

// BaseCommit returns the commit that a check against rev compares with:
// the merge base of rev and HEAD ("git merge-base REV HEAD"), what
// "REV...HEAD" means to git and what a pull request's diff shows, so that
// what the base branch gained after the branch forked is never reported as
// deleted. Without a HEAD (an initial commit) it is rev itself. A shallow
// clone without the merge base is an error that says to fetch more
// history; so is rev naming no commit, history unrelated to HEAD's, and a
// criss-cross history with several merge bases, of which git would pick
// one that may lack revisions accepted through the other.
// The rule packs of such a check come from the configuration at the same
// commit (check.BaseConfig), so both must ask here. merged are the
// commits a merge under way merges into HEAD, for a check of the staged
// merge (gitrepo.Repo.MergeHeads): the merge base is then that of rev and
// the merge being committed, which the same check compares with once the
// merge is committed, so that what the merge brings from rev counts as
// accepted and what it drops of rev as deleted.
func BaseCommit(ctx context.Context, repo *gitrepo.Repo, rev string, merged ...string) (string, error) {
	commit, err := repo.ResolveCommit(ctx, rev)
	if err != nil {
		return "", err
	}
	head, err := repo.ResolveCommit(ctx, "HEAD")
	if err != nil {
		return commit, nil
	}
	base, err := repo.MergeBase(ctx, commit, append([]string{head}, merged...)...)
	if several, ok := errors.AsType[*gitrepo.MergeBasesError](err); ok {
		return "", fmt.Errorf("%s and HEAD have %d merge bases (a criss-cross history: each merged the other at another point), and no one of them holds every revision both accepted: "+
			"merge %s into this branch (or rebase onto it) and check again", rev, len(several.Bases), rev)
	}
	if errors.Is(err, gitrepo.ErrNoMergeBase) {
		if shallow, _ := repo.IsShallow(ctx); shallow {
			return "", fmt.Errorf("this clone is shallow and lacks the merge base of %s and HEAD: fetch more history (actions/checkout: fetch-depth: 0; or git fetch --unshallow)", rev)
		}
		return "", fmt.Errorf("%s and HEAD have no common history (no merge base)", rev)
	}
	return base, err
}

// At names the compared commit in messages: the revision as given when it
// is the merge base itself, else the merge base's short name and how it was
// found.
func (f *Facts) At() string {
	switch {
	case f.Rev == f.Commit:
		return f.Against
	case len(f.Merged) > 0:
		return ShortCommit(f.Commit) + " (the merge base of " + f.Against + " and the merge being committed)"
	}
	return ShortCommit(f.Commit) + " (the merge base of " + f.Against + " and HEAD)"
}

// CheckoutRev is the revision to restore files from in help texts: the
// revision as given when it is the merge base, else the merge base's short
// name.
func (f *Facts) CheckoutRev() string {
	if f.Rev == f.Commit {
		return f.Against
	}
	return ShortCommit(f.Commit)
}

// ShortCommit is the first 12 hex digits of the object name c (all of a
// shorter one), as messages name commits.
func ShortCommit(c string) string { return c[:min(len(c), 12)] }

// JournalPath turns a top-relative git path into a root-relative one when
// it names a Journal file at its place (IsJournal).
func (f *Facts) JournalPath(top string) (string, bool) {
	p, ok := f.UnderRoot(top)
	if !ok || !f.IsJournal(p) {
		return "", false
	}
	return p, true
}

// IsJournal reports whether the root-relative path p names a Journal file
// at its place: <coordinate dir>/<name>.journal, or .journal.example with
// Examples.
func (f *Facts) IsJournal(p string) bool {
	return strings.Count(p, "/") == 1 && (strings.HasSuffix(p, load.Suffix) || (f.Examples && strings.HasSuffix(p, load.ExampleSuffix)))
}

// UnderRoot turns a top-relative git path into a root-relative one, and
// reports whether it lies under the root.
func (f *Facts) UnderRoot(top string) (string, bool) {
	if f.RootRel == "" {
		return top, true
	}
	return strings.CutPrefix(top, f.RootRel+"/")
}

// TopPath turns a root-relative path into a top-relative git path.
func (f *Facts) TopPath(p string) string {
	if f.RootRel == "" {
		return p
	}
	return f.RootRel + "/" + p
}

// LoadBase learns which Journal files Commit holds (AtBase) from the
// index, which a check lists anyway, and from what git says differs
// between Commit and the index (changes and err, what
// gitrepo.Repo.IndexDiff returned), instead of listing Commit's whole
// tree. While an unmerged entry makes the index an unreliable witness, it
// lists Commit's tree. Its errors are err and git's.
func (f *Facts) LoadBase(ctx context.Context, changes []gitrepo.RawChange, err error) error {
	if err != nil {
		return err
	}
	f.baseChanged = make(map[string]gitrepo.RawChange, len(changes))
	f.changedDirs = map[string]bool{}
	for _, c := range changes {
		if c.Status == 'U' {
			return f.listBase(ctx)
		}
		if p, ok := f.UnderRoot(c.Path); ok {
			f.baseChanged[p] = c
			dir, _, _ := strings.Cut(p, "/")
			f.changedDirs[dir] = true
		}
	}
	if f.StagedIndex == nil {
		err = f.Indexed(ctx)
	} else {
		err = f.loadMerged(ctx)
	}
	return err
}

// loadMerged learns which of the Journal files the index adds since
// Commit, during a merge, MergeSource holds as the index does (the same
// blob, a regular file): revisions that a merge of it (git pull, or a
// branch brought up to date with the remote's default branch) brings in,
// which it accepted although Commit (HEAD, for diff --staged) lacks them.
// It lists MergeSource's tree only in the directories of those files, and
// asks nothing when the index adds none or git is not merging.
func (f *Facts) loadMerged(ctx context.Context) error {
	dirs := map[string]bool{}
	for p, c := range f.baseChanged {
		if c.Status == 'A' {
			dir, _, _ := strings.Cut(p, "/")
			dirs[f.TopPath(dir)] = true
		}
	}
	if len(dirs) == 0 || f.MergeSource == "" || !f.Repo.Merging() {
		return nil
	}
	source, err := f.Repo.ResolveCommit(ctx, f.MergeSource)
	if err != nil || source == f.Commit {
		return nil // (no remote's default branch: nothing comes from it)
	}
	entries, err := f.Repo.TreeDirs(ctx, source, slices.Sorted(maps.Keys(dirs)))
	if err != nil {
		return err
	}
	f.merged = map[string]bool{}
	for _, e := range entries {
		p, ok := f.UnderRoot(e.Path)
		if c, changed := f.baseChanged[p]; !ok || !changed || c.Status != 'A' || !e.IsRegular() {
			continue
		}
		if ie, ok := f.StagedIndex.Entry(p); ok && ie.IsRegular() && ie.Object == e.Object {
			f.merged[p] = true
		}
	}
	return nil
}

// listBase lists the Journal files of Commit's tree, for AtBase.
func (f *Facts) listBase(ctx context.Context) error {
	entries, err := f.Repo.Tree(ctx, f.Commit, f.RootRel)
	if err != nil {
		return err
	}
	// Only regular files can be accepted revisions: a symbolic link
	// (or a submodule) at the commit never was one.
	f.baseFull = map[string]gitrepo.Entry{}
	for _, e := range entries {
		if p, ok := f.JournalPath(e.Path); ok && e.IsRegular() {
			f.baseFull[p] = e
		}
	}
	return nil
}

// AtBase reports whether Commit holds a Journal file (a regular file at a
// Journal's place, IsJournal) at the root-relative path p, and its entry
// there; false without a compared commit. A path git does not report
// changed between Commit and the index holds the index's entry. It asks
// git nothing: LoadBase must have run.
func (f *Facts) AtBase(p string) (gitrepo.Entry, bool) {
	switch {
	case f.Commit == "":
		return gitrepo.Entry{}, false
	case f.baseFull != nil:
		e, ok := f.baseFull[p]
		return e, ok
	}
	if !f.IsJournal(p) {
		return gitrepo.Entry{}, false
	}
	var e gitrepo.Entry
	var ok bool
	if c, changed := f.baseChanged[p]; changed {
		e, ok = gitrepo.Entry{Mode: c.OldMode, Object: c.OldObject, Path: c.Path}, c.Status != 'A'
	} else if f.StagedIndex != nil {
		e, ok = f.StagedIndex.Entry(p)
	} else {
		e, ok = f.IndexEntry(p)
	}
	if !ok || !e.IsRegular() {
		return gitrepo.Entry{}, false
	}
	return e, true
}

// Accepted reports whether the Journal file at the root-relative path p
// counts as an accepted revision for what --new-only keeps and what diff
// --staged and --against count as added: Commit holds it (AtBase), or a
// merge under way brings it in as MergeSource holds it (loadMerged). The
// history and log checks ask AtBase: they compare with Commit itself.
func (f *Facts) Accepted(p string) bool {
	if f.merged[p] {
		return true
	}
	_, ok := f.AtBase(p)
	return ok
}

// UnchangedDir reports whether git said that nothing under the artifact
// directory dir differs between Commit and the index, which then holds
// every Journal file of dir as Commit does (AtBase); false when LoadBase
// did not learn it from the index.
func (f *Facts) UnchangedDir(dir string) bool {
	return f.baseFull == nil && f.changedDirs != nil && !f.changedDirs[dir]
}

// Committed is what git holds of one Journal path: the blob at HEAD and
// the blob in the index (either may be nil: missing, or larger than any
// Journal) and whether the .gitattributes keep git from converting the
// file (text unset).
type Committed struct {
	Head, Index []byte
	NoConvert   bool
}

// Files is what git lists of the Journal paths under the root (Listed);
// paths are root-relative.
type Files struct {
	// Head maps each regular file at HEAD to its blob's object name.
	Head map[string]string
	// ByDir lists, per artifact directory (with its final slash), the
	// regular files at HEAD or in the index, sorted.
	ByDir map[string][]string
}

// Listed returns the Journal paths of HEAD (none before the first commit)
// and of the index: two git commands for the whole root, once per run.
func (f *Facts) Listed(ctx context.Context) (*Files, error) {
	if f.files != nil {
		return f.files, nil
	}
	files := &Files{Head: map[string]string{}, ByDir: map[string][]string{}}
	regular := map[string]bool{}
	if _, err := f.Repo.ResolveCommit(ctx, "HEAD"); err == nil {
		entries, err := f.Repo.Tree(ctx, "HEAD", f.RootRel)
		if err != nil {
			return nil, fmt.Errorf("git ls-tree: %w", err)
		}
		for _, e := range entries {
			if p, ok := f.JournalPath(e.Path); ok && e.IsRegular() {
				files.Head[p] = e.Object
				regular[p] = true
			}
		}
	}
	if err := f.Indexed(ctx); err != nil {
		return nil, err
	}
	for p, e := range f.IndexEntries() {
		if e.IsRegular() {
			regular[p] = true
		}
	}
	for p := range regular {
		dir, _, _ := strings.Cut(p, "/")
		files.ByDir[dir+"/"] = append(files.ByDir[dir+"/"], p)
	}
	for _, ps := range files.ByDir {
		sort.Strings(ps)
	}
	f.files = files
	return files, nil
}

// Indexed lists the index's entries under the root, for Index, IndexEntry
// and IndexEntries, with one git command once per run.
func (f *Facts) Indexed(ctx context.Context) error {
	if f.index == nil {
		index, err := f.Repo.Index(ctx, f.RootRel)
		if err != nil {
			return fmt.Errorf("git ls-files: %w", err)
		}
		f.index = index
	}
	return nil
}

// Index returns what Indexed listed: every entry under the root, Journal
// or not, in path order; nil before Indexed.
func (f *Facts) Index() *gitrepo.IndexList { return f.index }

// IndexEntry returns the merged index entry of the root-relative path p
// of a Journal file, from what Indexed listed; false for any other path,
// or an unmerged one.
func (f *Facts) IndexEntry(p string) (gitrepo.Entry, bool) {
	if f.index == nil || !f.IsJournal(p) {
		return gitrepo.Entry{}, false
	}
	e, ok := f.index.Find(f.RootRel, p)
	return e, ok && e.Stage == 0
}

// IndexEntries yields, in path order, the merged index entries of Journal
// files that Indexed listed, with their root-relative paths.
func (f *Facts) IndexEntries() iter.Seq2[string, gitrepo.Entry] {
	return func(yield func(string, gitrepo.Entry) bool) {
		if f.index == nil {
			return
		}
		for _, e := range f.index.All() {
			if p, ok := f.JournalPath(e.Path); ok && e.Stage == 0 && !yield(p, e) {
				return
			}
		}
	}
}

// CommittedFiles returns what git holds of each of the root-relative
// paths ([Committed]); a path git holds as a regular file neither at HEAD
// nor in the index is missing from the map. The blobs are read with one
// git cat-file and the attributes with one git check-attr for all paths;
// results are kept for the run. Its errors are git's.
func (f *Facts) CommittedFiles(ctx context.Context, paths []string) (map[string]*Committed, error) {
	files, err := f.Listed(ctx)
	if err != nil {
		return nil, err
	}
	if f.committed == nil {
		f.committed = map[string]*Committed{}
	}
	var want, objects []string
	for _, p := range paths {
		if _, done := f.committed[p]; done {
			continue
		}
		f.committed[p] = nil
		h, inHead := files.Head[p]
		e, inIndex := f.IndexEntry(p)
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
		blobs, _, err := f.Repo.ReadBlobs(ctx, objects, syntax.MaxSize)
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		attrs, err := f.Repo.Attributes(ctx, false, f.RootRel, want, "text")
		if err != nil {
			return nil, fmt.Errorf("git check-attr: %w", err)
		}
		for i, p := range want {
			c := &Committed{NoConvert: attrs[i][0] == "unset"}
			if h, ok := files.Head[p]; ok {
				c.Head = blobs[h]
			}
			if e, ok := f.IndexEntry(p); ok && e.IsRegular() {
				c.Index = blobs[e.Object]
			}
			f.committed[p] = c
		}
	}
	out := make(map[string]*Committed, len(paths))
	for _, p := range paths {
		if c := f.committed[p]; c != nil {
			out[p] = c
		}
	}
	return out, nil
}

// TakeOver makes f use what p learned of the repository instead of asking
// again: the repository and root, the files of HEAD and the index, and the
// committed files read (copied, so that the two share nothing they write).
// It is for a later check of the same work tree, without a compared commit,
// that knows the repository did not change since (check.Options.Prior).
func (f *Facts) TakeOver(p *Facts) {
	f.Repo, f.RootRel, f.files, f.index = p.Repo, p.RootRel, p.files, p.index
	f.committed = maps.Clone(p.committed)
}

// ForgetCommitted drops the committed files read so far, which hold an
// attribute: for a taken-over Facts whose attributes may have changed.
func (f *Facts) ForgetCommitted() { f.committed = nil }
