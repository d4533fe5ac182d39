package check

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/load"
)

// rootLink is a directory on the root's path, inside the work tree, that
// is a symbolic link on disk or, for a staged check, in the index.
type rootLink struct {
	path   string // top-relative, forward slashes
	target string // as the link holds it
}

// firstLink returns the first of the directories on the top-relative path
// rel below top (top itself excluded, rel included) that is a symbolic
// link, or false when none is.
func firstLink(top, rel string) (rootLink, bool) {
	if rel == "" {
		return rootLink{}, false
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		fi, err := os.Lstat(filepath.Join(top, filepath.FromSlash(p)))
		if err != nil {
			return rootLink{}, false
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(filepath.Join(top, filepath.FromSlash(p)))
			return rootLink{path: p, target: filepath.ToSlash(target)}, true
		}
	}
	return rootLink{}, false
}

// stagedLink reports whether the index holds a symbolic link at the
// top-relative path p, or cannot be read (then the link is judged as the
// work tree holds it); a directory there, staged as its files, is none.
func stagedLink(ctx context.Context, repo *gitrepo.Repo, p string) bool {
	_, ok, err := indexLink(ctx, repo, p)
	return ok || err != nil
}

// indexLink returns the index's entry at the top-relative path p when it
// is a symbolic link, and whether it is one. It lists the index under p:
// everything below a directory there.
func indexLink(ctx context.Context, repo *gitrepo.Repo, p string) (gitrepo.Entry, bool, error) {
	index, err := repo.Index(ctx, p)
	if err != nil {
		return gitrepo.Entry{}, false, err
	}
	dir, name := path.Split(p)
	e, ok := index.Find(strings.TrimSuffix(dir, "/"), name)
	return e, ok && e.IsSymlink(), nil
}

// stagedRootLink finds, for a staged check that found nothing under the
// root, the symbolic link that the index may hold on the root's path
// instead (the root or a directory above it, the first from the top),
// whatever the work tree holds there, and returns it with its target (the
// link's blob). With files under the root, the index holds none: it then
// asks git nothing.
func (g *gate) stagedRootLink(ctx context.Context, r *run) (*rootLink, error) {
	if files, _, _ := r.sum.counts(); !g.staged || g.RootRel == "" || len(r.load.Files) > 0 || files > 0 {
		return nil, nil
	}
	parts := strings.Split(g.RootRel, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		e, ok, err := indexLink(ctx, g.Repo, p)
		if err != nil {
			return nil, fmt.Errorf("git ls-files: %w", err)
		}
		if ok {
			blobs, _, err := g.Repo.ReadBlobs(ctx, []string{e.Object}, 4096)
			if err != nil {
				return nil, fmt.Errorf("git cat-file: %w", err)
			}
			return &rootLink{path: p, target: string(blobs[e.Object])}, nil
		}
	}
	return nil, nil
}

// diagnostic is the fs/unexpected-entry error on the root (path "") for
// a root whose path holds l, under a gate.
func (l rootLink) diagnostic(rootRel string) diag.Diagnostic {
	d := load.UnexpectedEntry("", fs.ModeSymlink, "")
	what := "the Journal root " + rootRel
	if l.path != rootRel {
		what = l.path + ", a directory on the Journal root's path " + rootRel + ","
	}
	d.Message += " (" + what + " is a link to " + l.target + "; the gate judges the tree as git stores it)"
	d.Help = "a pull request cannot move the Journal root: replace the link with the directory it stands for, and keep the accepted revisions under " + rootRel
	return d
}
