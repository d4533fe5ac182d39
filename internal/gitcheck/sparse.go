package gitcheck

import (
	"context"
	"fmt"
	"sort"

	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/safetext"
)

// RefuseSparse returns an error when the work tree is a sparse checkout
// that leaves Journal files under the root out: git marks their index
// entries skip-worktree (git-sparse-checkout(1)) and leaves no copy on
// disk, so a gate that reads the work tree would pass an invalid revision
// there unseen and report an edited one as deleted. It reads the index
// entries under the root (gitfacts.Facts.Indexed); nil when none is marked.
func RefuseSparse(ctx context.Context, t *gitfacts.Facts) error {
	if err := t.Indexed(ctx); err != nil {
		return err
	}
	if t.Index().SkipWorktree() == 0 {
		return nil
	}
	var out []string
	for p, e := range t.IndexEntries() {
		if e.SkipWorktree() {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil
	}
	sort.Strings(out)
	root := t.RootRel
	if root == "" {
		root = "."
	}
	files := "files"
	if len(out) == 1 {
		files = "file"
	}
	return fmt.Errorf("the work tree is a sparse checkout that leaves %d Journal %s under %s out (skip-worktree, such as %s), and the gate cannot judge what it cannot read: check the whole root out (git sparse-checkout add %s, or git sparse-checkout disable), or check the commit's files from the index with --staged",
		len(out), files, root, t.TopPath(out[0]), safetext.ShellWord(root))
}
