package gitcheck

import (
	"context"
	"fmt"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/rules"
)

// AdviseFork returns a note that replaces the help of each chain/fork
// diagnostic of the load result whose advice, to name the current head's digest in PREDECESSOR,
// cannot be followed: during a merge (MERGE_HEAD exists), where both
// revisions were committed on their branches, and when the forking
// revision is committed at HEAD. Changing a committed revision is
// history/revision-modified, and `journal-lint new` refuses while the tree
// is invalid, so that advice went in a circle. The help says what works:
// abort the merge, take the other branch's revision out of its history
// and redraft it on top of this branch's head; or, when the merged branch
// brings a revision the remote's default branch holds (a feature branch
// brought up to date), take this branch's revision out instead; and when
// the default branch holds both, which no branch can mend, have it fixed
// there.
func (t *Tree) AdviseFork(ctx context.Context) ([]diag.Note, error) {
	var forks []int
	for i, d := range t.Load.Diagnostics {
		if d.Code == rules.ChainFork && d.Path != "" {
			forks = append(forks, i)
		}
	}
	if len(forks) == 0 {
		return nil, nil
	}
	merging := t.Repo.Merging()
	files, err := t.Listed(ctx)
	if err != nil {
		return nil, err
	}
	var notes []diag.Note
	for _, i := range forks {
		d := t.Load.Diagnostics[i]
		head := ""
		for _, rel := range d.Related {
			if rel.Message == "the current head" {
				head = rel.Path
			}
		}
		_, committed := files.Head[d.Path]
		if head == "" || !merging && !committed {
			continue
		}
		coord := load.ArtifactDir(d.Path)
		if t.published(ctx, d.Path) && t.published(ctx, head) {
			// The default branch holds the fork itself (pushed past the
			// checks): no branch can mend it by a merge or a rebase.
			abort := ""
			if merging {
				abort = "this merge cannot mend it: abort it (git merge --abort) and "
			}
			notes = append(notes, diag.Note{At: i, DropFixes: true, Help: fmt.Sprintf("the default branch (origin/HEAD) holds both %s and %s, successors of the same revision: "+
				"it is broken itself, and not by this branch; %shave it fixed there first (whoever added %s takes it out and redrafts it on top of %s: "+
				"journal-lint new %s), then bring this branch up to date",
				t.TopPath(head), t.TopPath(d.Path), abort, t.TopPath(d.Path), t.TopPath(head), coord)})
			continue
		}
		if merging {
			// The revision that came with the merged branch is the one
			// HEAD does not hold.
			ours, theirs := head, d.Path
			if committed {
				ours, theirs = d.Path, head
			}
			if t.published(ctx, theirs) && !t.published(ctx, ours) {
				// The default branch merged into a feature branch: its
				// revision is accepted, and this branch's must go.
				notes = append(notes, diag.Note{At: i, DropFixes: true, Help: fmt.Sprintf("two branches each added a successor to the same revision, and a chain is linear: "+
					"this merge cannot be finished as it is, and %s, which the merged branch adds, stays: the default branch (origin/HEAD) has accepted it. "+
					"Abort the merge (git merge --abort); then take %s out of this branch (git rebase -i: drop the commit that adds it, or edit it out), "+
					"merge again, redraft it on top of the head the merge brings (journal-lint new %s), and commit",
					t.TopPath(theirs), t.TopPath(ours), coord)})
				continue
			}
			notes = append(notes, diag.Note{At: i, DropFixes: true, Help: fmt.Sprintf("two branches each added a successor to the same revision, and a chain is linear: "+
				"this merge cannot be finished as it is (changing the PREDECESSOR of a committed revision modifies an accepted revision). "+
				"Abort it (git merge --abort); then rebase the branch that adds %s onto this branch without that revision "+
				"(git rebase -i: drop the commit that adds it, or edit it out), redraft it on top of the head this branch has "+
				"(journal-lint new %s), commit, and merge again",
				t.TopPath(theirs), coord)})
			continue
		}
		notes = append(notes, diag.Note{At: i, DropFixes: true, Help: fmt.Sprintf("%s is committed at HEAD, and changing its PREDECESSOR modifies an accepted revision: "+
			"if the commit that added it is not merged yet, take it out of the branch (git rebase -i: drop that commit, "+
			"or edit the revision out) and redraft it on top of the head (journal-lint new %s)",
			t.TopPath(d.Path), coord)})
	}
	return notes, nil
}

// published reports whether the remote's default branch
// (gitfacts.PublishedRef) holds the root-relative path p; false without
// one.
func (t *Tree) published(ctx context.Context, p string) bool {
	entries, err := t.Repo.Tree(ctx, gitfacts.PublishedRef, t.TopPath(p))
	return err == nil && len(entries) > 0
}
