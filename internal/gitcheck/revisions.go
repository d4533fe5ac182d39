package gitcheck

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// Revisions reports every Journal file of the commit that was modified,
// deleted or renamed since, and the notes that explain the chain
// diagnostics those changes caused (explainChanged).
func (t *Tree) Revisions(ctx context.Context) (diag.List, []diag.Note, error) {
	changes, err := t.Repo.Diff(ctx, t.Commit, t.Staged, t.RootRel)
	if err != nil {
		return nil, nil, fmt.Errorf("--against: %w", err)
	}
	type finding struct {
		status        byte
		path, oldPath string // root-relative; oldPath for renames
		entry         gitrepo.Entry
	}
	var found []finding
	seen := map[string]bool{}
	for _, c := range changes {
		switch c.Status {
		case 'M', 'T', 'D':
			p, ok := t.JournalPath(c.Path)
			if !ok || seen[p] {
				continue
			}
			if e, ok := t.AtBase(p); ok {
				seen[p] = true
				found = append(found, finding{status: c.Status, path: p, entry: e})
			}
		case 'R':
			old, ok := t.JournalPath(c.OldPath)
			if !ok || seen[old] {
				continue
			}
			if e, ok := t.AtBase(old); ok {
				seen[old] = true
				if np, ok := t.UnderRoot(c.Path); ok {
					found = append(found, finding{status: 'R', path: np, oldPath: old, entry: e})
				} else { // moved out of the root: gone from the tree
					found = append(found, finding{status: 'D', path: old, entry: e})
				}
			}
		}
	}
	if len(found) == 0 {
		return nil, nil, nil
	}
	var objects []string
	for _, f := range found {
		if f.entry.IsRegular() {
			objects = append(objects, f.entry.Object)
		}
	}
	blobs, _, err := t.Repo.ReadBlobs(ctx, objects, syntax.MaxSize)
	if err != nil {
		return nil, nil, fmt.Errorf("--against: %w", err)
	}
	// byDigest finds new files that hold the exact bytes of a deleted one:
	// a rename git could not see (the new file is untracked).
	byDigest := map[vt.Digest]string{}
	for _, f := range t.Load.Files {
		if _, old := t.AtBase(f.Path); f.Summary.Read && !old {
			byDigest[f.Summary.Digest] = f.Path
		}
	}
	var out diag.List
	// changedFrom maps the digest at the commit of each modified, deleted
	// or renamed revision to its path, to explain chain diagnostics.
	changedFrom := map[vt.Digest]string{}
	for _, f := range found {
		before, haveBefore := blobs[f.entry.Object]
		if haveBefore {
			if src := t.Load.Source(f.path); src == nil || !bytes.Equal(src, before) {
				changedFrom[vt.DigestOf(before)] = f.path
			}
		}
		var beforeDigest string
		if haveBefore {
			beforeDigest = vt.DigestOf(before).String()
		} else {
			beforeDigest = "(not a regular file at " + t.At() + ")"
		}
		switch f.status {
		case 'M', 'T', 'D':
			if doc := t.Load.Doc(f.path); doc != nil {
				now, nowDigest, notes := doc.Src, doc.Digest.String(), []string(nil)
				if haveBefore && bytes.Equal(doc.Src, before) {
					stored, differs, err := t.storedBlob(ctx, f.path, f.entry)
					if err != nil {
						return nil, nil, err
					}
					if !differs {
						continue // a mode change: the revision is the same
					}
					now, nowDigest = stored, vt.DigestOf(stored).String()
					if stored == nil {
						nowDigest = fmt.Sprintf("a blob larger than %d bytes", syntax.MaxSize)
					}
					notes = append(notes, "git stores other bytes than the work tree holds: the .gitattributes convert them on checkout")
				}
				if haveBefore && bytes.Equal(gitfacts.ToLF(now), gitfacts.ToLF(before)) {
					notes = append(notes, "the files differ only in line endings")
				}
				msg := fmt.Sprintf("accepted revision %s was modified: its digest at %s is %s, now %s", t.TopPath(f.path), t.At(), beforeDigest, nowDigest)
				if len(notes) > 0 {
					msg += " (" + strings.Join(notes, "; ") + ")"
				}
				out = append(out, diag.Diagnostic{Code: rules.HistoryRevisionModified, Severity: diag.Error, Path: f.path,
					Message: msg,
					Help: fmt.Sprintf("an accepted revision is immutable: restore it (git checkout %s -- %s) and put the change in a new successor revision (journal-lint new %s)",
						t.CheckoutRev(), safetext.ShellWord(t.TopPath(f.path)), load.ArtifactDir(f.path))})
				continue
			}
			if f.status != 'D' {
				if _, err := t.Source.Stat(f.path); err == nil {
					out = append(out, diag.Diagnostic{Code: rules.HistoryRevisionModified, Severity: diag.Error, Path: f.path,
						Message: fmt.Sprintf("accepted revision %s was modified: it is no longer a regular Journal file (its digest at %s is %s)", t.TopPath(f.path), t.At(), beforeDigest),
						Help:    fmt.Sprintf("restore it: git checkout %s -- %s", t.CheckoutRev(), safetext.ShellWord(t.TopPath(f.path)))})
					continue
				}
			}
			if haveBefore {
				if np, ok := byDigest[vt.DigestOf(before)]; ok {
					out = append(out, renamed(f.path, np, t, beforeDigest, true))
					continue
				}
			}
			out = append(out, diag.Diagnostic{Code: rules.HistoryRevisionDeleted, Severity: diag.Error, Path: f.path,
				Message: fmt.Sprintf("accepted revision %s was deleted (its digest at %s is %s)", t.TopPath(f.path), t.At(), beforeDigest),
				Help: fmt.Sprintf("accepted revisions stay forever: restore it (git checkout %s -- %s); to retract releases, write a successor revision that changes their POLICY",
					t.CheckoutRev(), safetext.ShellWord(t.TopPath(f.path)))})
		case 'R':
			// The new path may not be loaded (an invalid name): its bytes
			// are read from the tree that was checked.
			work, exists := t.workBytes(f.path)
			same := exists && haveBefore && bytes.Equal(work, before)
			out = append(out, renamed(f.oldPath, f.path, t, beforeDigest, same))
		}
	}
	if err := t.adviseUndo(ctx, out); err != nil {
		return nil, nil, err
	}
	return out, t.explainChanged(changedFrom), nil
}

// adviseUndo adds to the help of each history/revision-* diagnostic of a
// staged check against HEAD (a repository without the remote's default
// branch, where every committed revision counts as accepted) whose
// revision HEAD's own commit added (HEAD's one parent lacks it, or HEAD
// has none and names a branch): a commit not pushed yet may be undone
// instead (README, "The pre-commit hook"), and git commit --amend, whose
// hook compares with the commit it replaces, cannot do it. A merge gets no
// such advice (undoing it drops the merged branch), nor does a shallow
// clone's boundary commit (what it added is unknown), a detached first
// commit, a commit that a remote-tracking branch or a tag holds (pushed,
// or released), or a merge under way (merging). It asks git five
// times at most, whatever the number of findings.
func (t *Tree) adviseUndo(ctx context.Context, out diag.List) error {
	if !t.Staged || t.Against != "HEAD" || len(out) == 0 {
		return nil
	}
	paths := make([]string, len(out)) // the revisions at HEAD, top-relative
	var dirs []string
	for i, d := range out {
		p := d.Path
		if d.Code == rules.HistoryRevisionRenamed && len(d.Related) > 0 {
			p = d.Related[0].Path
		}
		paths[i] = t.TopPath(p)
		dirs = append(dirs, path.Dir(paths[i]))
	}
	if t.Repo.Merging() {
		return nil // a merge under way: git refuses to reset, and HEAD~1 is not the point
	}
	pushed, err := t.Repo.RemoteHolds(ctx, t.Commit)
	if err != nil {
		return fmt.Errorf("git for-each-ref: %w", err)
	}
	if pushed {
		return nil // a remote-tracking branch holds HEAD: it is published
	}
	parents, err := t.Repo.Parents(ctx, t.Commit)
	if err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	var undo string
	var before map[string]bool
	switch {
	case len(parents) == 0:
		// The first commit: its branch goes back to unborn. Detached
		// (a rebase stopped at the root), deleting HEAD would break the
		// repository: no advice.
		branch, err := t.Repo.HeadBranch(ctx)
		if err != nil {
			return fmt.Errorf("git symbolic-ref: %w", err)
		}
		if branch == "" {
			return nil
		}
		undo = "git update-ref -d " + safetext.ShellWord(branch)
	case len(parents) > 1:
		return nil // a merge: undoing it would drop the merged branch
	case len(parents) == 1:
		if _, err := t.Repo.ResolveCommit(ctx, parents[0]); err != nil {
			return nil // a shallow clone's boundary: what HEAD added is unknown
		}
		slices.Sort(dirs)
		entries, err := t.Repo.TreeDirs(ctx, parents[0], slices.Compact(dirs))
		if err != nil {
			return fmt.Errorf("git ls-tree: %w", err)
		}
		before = map[string]bool{}
		for _, e := range entries {
			before[e.Path] = true
		}
		undo = "git reset --soft HEAD~1"
	}
	for i := range out {
		if !before[paths[i]] {
			out[i].Help += "; or, if HEAD's commit, which added it, is not pushed yet, undo that commit and keep its changes " +
				"(" + undo + "), then commit again (git commit --amend compares with the commit it replaces)"
		}
	}
	return nil
}

// storedBlob returns the bytes git stores for the root-relative Journal
// path p, whose checked bytes equal those of base (its entry at the
// compared commit) although git reports it changed, and whether they
// differ from base's blob. For a check of the work tree that is the index
// entry (in CI, the pull request's commit): a .gitattributes that converts
// the file on checkout can turn a different blob back into the accepted
// bytes, and the blob is what a merge keeps. An index entry with base's
// blob, or none, is the same revision (a change of mode). The bytes are
// nil for a blob larger than any Journal (syntax.MaxSize). For --staged
// the checked bytes are the blob's already.
func (t *Tree) storedBlob(ctx context.Context, p string, base gitrepo.Entry) ([]byte, bool, error) {
	if t.Staged {
		return nil, false, nil
	}
	if err := t.Indexed(ctx); err != nil {
		return nil, false, err
	}
	e, ok := t.IndexEntry(p)
	if !ok || !e.IsRegular() || e.Object == base.Object {
		return nil, false, nil
	}
	blobs, _, err := t.Repo.ReadBlobs(ctx, []string{e.Object}, syntax.MaxSize)
	if err != nil {
		return nil, false, fmt.Errorf("--against: %w", err)
	}
	return blobs[e.Object], true, nil // nil: larger than any Journal
}

// explainChanged returns a note for each chain/missing-predecessor
// diagnostic of the load result whose PREDECESSOR is the digest, at the
// commit, of a revision that was changed since (changedFrom maps such
// digests to the revisions' root-relative paths): the chain broke because
// of that change.
func (t *Tree) explainChanged(changedFrom map[vt.Digest]string) []diag.Note {
	if len(changedFrom) == 0 {
		return nil
	}
	var notes []diag.Note
	for i, d := range t.Load.Diagnostics {
		if d.Code != rules.ChainMissingPredecessor {
			continue
		}
		if doc := t.Load.Doc(d.Path); doc != nil && doc.PredecessorOK {
			if p, ok := changedFrom[doc.Predecessor]; ok {
				notes = append(notes, diag.Note{At: i,
					Message: fmt.Sprintf(": it is the digest of %s at %s, which has changed since (see its history/revision-* diagnostic)", t.TopPath(p), t.At()),
					Help:    "restore " + t.TopPath(p) + " to its bytes at " + t.At() + "; accepted revisions are immutable",
					Related: []diag.Related{{Path: p, Message: "had this digest at " + t.At()}}})
			}
		}
	}
	return notes
}

// renamed is the history/revision-renamed diagnostic for a file moved from
// old to now (root-relative).
func renamed(old, now string, t *Tree, digest string, same bool) diag.Diagnostic {
	msg := fmt.Sprintf("accepted revision %s was renamed to %s", t.TopPath(old), t.TopPath(now))
	if !same {
		msg += " and its bytes changed"
	}
	msg += fmt.Sprintf(" (its digest at %s is %s)", t.At(), digest)
	return diag.Diagnostic{Code: rules.HistoryRevisionRenamed, Severity: diag.Error, Path: now,
		Message: msg,
		Related: []diag.Related{{Path: old, Message: "its path at " + t.At()}},
		Help: fmt.Sprintf("a revision's path is fixed by its ARTIFACT and JOURNAL_VERSION: move it back (git mv %s %s) and restore its bytes if they changed",
			safetext.ShellWord(t.TopPath(now)), safetext.ShellWord(t.TopPath(old)))}
}
