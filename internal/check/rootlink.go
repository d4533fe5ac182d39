package check

import (
	"context"
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
// is a symbolic link on disk.
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
	index, err := repo.Index(ctx, p)
	if err != nil {
		return true
	}
	dir, name := path.Split(p)
	e, ok := index.Find(strings.TrimSuffix(dir, "/"), name)
	return ok && e.IsSymlink()
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
