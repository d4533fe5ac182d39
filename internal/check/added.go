package check

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/source"
)

// AddedOptions name the revisions a commit or a branch adds, for
// [OpenAdded].
type AddedOptions struct {
	// Root is the absolute, clean Journal root; it must lie inside a git
	// work tree.
	Root string
	// Against is a git revision: the revisions added are those missing
	// from the merge base of Against and HEAD (as for Options.Against).
	Against string
	// Staged reads the git index instead of the work tree and, without
	// Against, compares against HEAD (as for Options.Staged).
	Staged bool
	// Examples counts *.journal.example files as Journals too.
	Examples bool
	// Cache, for Staged without Against, is the persistent cache whose
	// summary of HEAD's tree (summary.go) lets the source hold only the
	// artifact directories that the index changes, the others being known
	// valid; Config names the summary (as for Options.Config, nil means
	// config.Default()). Nil reads the whole index.
	Cache  *memo.Store
	Config *config.Config
	// WholeTree reads the whole index whatever the cache holds: for a
	// load that [Added.NeedsWholeTree] sent back.
	WholeTree bool
}

// Added is the git view that `journal-lint diff --staged` and `diff
// --against REV` share with check's append-only gate (the same revision
// resolution, merge base, shallow-clone and index handling): which tree to
// load, and which of its Journal files are revisions that the commit or
// branch adds. Close it when done.
type Added struct {
	g   *gate
	sum *summaryUse // nil without a summary to take the tree from
}

// OpenAdded resolves opts against git. With Staged, the tree is the index's
// entries under the root, which [Added.Source] reads: only the artifact
// directories the index changes since HEAD when opts.Cache holds a summary
// of HEAD's tree, which vouches that the others are valid.
// Errors are those of `check --against` and `check --staged`: no git, a
// root outside a work tree, a revision that names no commit, a shallow
// clone without the merge base, an unmerged index and git failing; each
// starts with the flag at fault. Without Against and Staged it returns an
// error too: there is nothing to compare with.
func OpenAdded(ctx context.Context, opts AddedOptions) (*Added, error) {
	if opts.Against == "" && !opts.Staged {
		return nil, errors.New("naming the added revisions needs --against REV or --staged")
	}
	// NewOnly makes openGate insist on a base to compare with, as
	// `diff --against` and `--staged` need one.
	o := Options{Root: opts.Root, Against: opts.Against, Staged: opts.Staged, Examples: opts.Examples, NewOnly: true}
	var sum *summaryUse
	if opts.Staged && opts.Against == "" && !opts.WholeTree && opts.Cache != nil && opts.Cache.Mode() != memo.Off && opts.Cache.Mode() != memo.Verify {
		cfg := opts.Config
		if cfg == nil {
			cfg = config.Default()
		}
		ns, err := namespace(&run{opts: o, cfg: cfg}, nil)
		if err != nil {
			return nil, err
		}
		sum = &summaryUse{store: opts.Cache, ns: ns, mayUse: true}
	}
	g, err := openGate(ctx, o, nil, sum)
	if err != nil {
		return nil, err
	}
	return &Added{g: g, sum: sum}, nil
}

// NeedsWholeTree reports whether a load of [Added.Source] that found ds
// must load the whole index after all (open the Added again with
// WholeTree): the source held only the directories that changed, and a
// chain of theirs names a revision outside its artifact, which only the
// whole tree tells apart (chain/cross-artifact or
// chain/missing-predecessor).
func (a *Added) NeedsWholeTree(ds diag.List) bool {
	return a.sum.needsWholeTree(ds)
}

// HasArtifact reports whether the artifact directory dir (root-relative)
// is in the tree: in the work tree, or with Staged also as an entry of the
// index under it (a directory the work tree lost is still the index's).
// When git or the disk cannot tell, it reports true: it serves a usage
// error for a COORDINATE that names no artifact, never a finding.
func (a *Added) HasArtifact(ctx context.Context, dir string) bool {
	fi, err := os.Stat(filepath.Join(a.g.Repo.Top(), filepath.FromSlash(a.g.TopPath(dir))))
	if err == nil && fi.IsDir() || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if a.g.staged {
		l, err := a.g.Repo.Index(ctx, a.g.TopPath(dir)+"/")
		return err != nil || l.Len() > 0
	}
	return false
}

// Source returns where to load the tree from (load.Options.Source): the
// disk under the Journal root, or the index for Staged.
func (a *Added) Source() source.Source { return a.g.src }

// IsNew reports whether the Journal file at the root-relative path p
// (forward slashes, as load.File.Path) did not exist at the compared
// commit: a revision that the commit or branch adds. Before the first
// commit (Staged without HEAD) every file is new. A file that exists there
// with other bytes is not new: it is an accepted revision that was
// modified, which check reports as history/revision-modified. Nor is a
// file that a merge under way brings in as the merged revision accepted
// it (gitfacts.Facts.Accepted).
func (a *Added) IsNew(p string) bool {
	if a.g.Commit == "" {
		return true
	}
	return !a.g.Accepted(p)
}

// At names the compared commit for messages: the revision as given
// ("HEAD", "origin/main"), or the merge base's short name and how it was
// found ("1a2b3c4d5e6f (the merge base of main and HEAD)"); "" before the
// first commit.
func (a *Added) At() string {
	if a.g.Commit == "" {
		return ""
	}
	return a.g.At()
}

// Close ends the git that reads the index, if any. It is safe on nil and
// more than once.
func (a *Added) Close() {
	if a != nil {
		a.g.close()
		a.sum.wait()
	}
}
