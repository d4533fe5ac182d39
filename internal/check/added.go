package check

import (
	"context"
	"errors"

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
}

// Added is the git view that `journal-lint diff --staged` and `diff
// --against REV` share with check's append-only gate (the same revision
// resolution, merge base, shallow-clone and index handling): which tree to
// load, and which of its Journal files are revisions that the commit or
// branch adds. Close it when done.
type Added struct{ g *gate }

// OpenAdded resolves opts against git. With Staged, the tree is the index's
// entries under the root, which [Added.Source] reads.
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
	g, err := openGate(ctx, Options{Root: opts.Root, Against: opts.Against, Staged: opts.Staged, Examples: opts.Examples, NewOnly: true}, nil, nil)
	if err != nil {
		return nil, err
	}
	return &Added{g: g}, nil
}

// Source returns where to load the tree from (load.Options.Source): the
// disk under the Journal root, or the index for Staged.
func (a *Added) Source() source.Source { return a.g.src }

// IsNew reports whether the Journal file at the root-relative path p
// (forward slashes, as load.File.Path) did not exist at the compared
// commit: a revision that the commit or branch adds. Before the first
// commit (Staged without HEAD) every file is new. A file that exists there
// with other bytes is not new: it is an accepted revision that was
// modified, which check reports as history/revision-modified.
func (a *Added) IsNew(p string) bool {
	if a.g.commit == "" {
		return true
	}
	_, old := a.g.atBase(p)
	return !old
}

// At names the compared commit for messages: the revision as given
// ("HEAD", "origin/main"), or the merge base's short name and how it was
// found ("1a2b3c4d5e6f (the merge base of main and HEAD)"); "" before the
// first commit.
func (a *Added) At() string {
	if a.g.commit == "" {
		return ""
	}
	return a.g.at()
}

// Baseline describes the compared commit, or nil before the first commit.
func (a *Added) Baseline(ctx context.Context) *Baseline { return a.g.baseline(ctx) }

// Close ends the git that reads the index, if any. It is safe on nil and
// more than once.
func (a *Added) Close() {
	if a != nil {
		a.g.close()
	}
}
