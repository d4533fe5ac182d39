package cli

import (
	"context"

	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/gitrepo"
)

// publishedBase is the revision that `check --staged` without --against
// compares with, the pre-commit hook's idea of the accepted revisions: a
// revision is accepted once the remote's default branch holds it
// (refs/remotes/origin/HEAD, which git clone sets), so "origin/HEAD",
// through its merge base with HEAD, as the pull-request gate compares with
// the base branch. A revision committed but not yet merged there may still
// be amended or rebased. Without origin/HEAD, without a HEAD, or without
// one merge base of the two (none, or several in a criss-cross history) it
// is "" (check.Options: HEAD itself). The README
// ("The pre-commit hook") documents it.
func publishedBase(ctx context.Context, root string) string {
	repo, err := gitrepo.Open(ctx, root)
	if err != nil {
		return ""
	}
	const base = gitfacts.PublishedRef
	if _, err := repo.ResolveCommit(ctx, base); err != nil {
		return ""
	}
	if _, err := repo.MergeBase(ctx, base, "HEAD"); err != nil {
		return ""
	}
	return "origin/HEAD"
}
