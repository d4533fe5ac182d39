// Package outpath holds the one rule for the paths journal-lint writes, in
// every command and every output format (text, JSON, SARIF, GitHub
// annotations, step summaries, diffs): a path is relative to the top level
// of the git work tree that holds the Journal root, or, outside any work
// tree, relative to the current directory, always with forward slashes.
//
// GitHub (code scanning, annotations, pull-request files) names files by
// their repository-relative path, and so does git; with this rule the same
// tree gives the same paths from the repository root, from a subdirectory,
// and from an unrelated directory given an absolute root.
package outpath

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/r35157/journal-lint/internal/gitrepo"
)

// Base returns the absolute directory that output paths about target (an
// absolute path of the Journal root or of a file; it need not exist) are
// relative to, and whether it is the top level of a git work tree: the top
// level of the work tree that holds target's nearest existing directory,
// else the working directory. A missing git executable counts as no work
// tree. Base never fails: without a working directory it returns "".
func Base(ctx context.Context, target string) (base string, inRepo bool) {
	if repo, err := gitrepo.Open(ctx, target); err == nil {
		if _, err := repo.Rel(target); err == nil {
			return repo.Top(), true
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	return wd, false
}

// Rel returns the absolute path target relative to the absolute directory
// base, with forward slashes: "." for base itself, a path starting with
// "../" for one beside it. Symbolic links in the existing part of both are
// resolved first, so that /tmp and its real path name the same place. When
// no relative path exists (another volume) or base is "", it returns target
// itself with forward slashes.
func Rel(base, target string) string {
	if base == "" {
		return filepath.ToSlash(target)
	}
	rel, err := filepath.Rel(gitrepo.ResolveExisting(base), gitrepo.ResolveExisting(target))
	if err != nil {
		return filepath.ToSlash(target)
	}
	return filepath.ToSlash(rel)
}

// Prefix returns the output path of the Journal root (absolute, clean) by
// the package rule, "" when it is the base itself: the prefix that turns a
// root-relative path into an output path (see [Join]). Inside a work tree
// it is the root's path as git stores it (gitrepo.StoredTop): a root
// whose path holds a symbolic link below the top is named by the link's
// path, not by its target's, wherever the link leads.
func Prefix(ctx context.Context, root string) string {
	if top, rel, ok := gitrepo.StoredTop(root); ok {
		if base, inRepo := Base(ctx, top); inRepo && gitrepo.ResolveExisting(top) == base {
			return rel
		}
	}
	base, _ := Base(ctx, root)
	p := Rel(base, root)
	if p == "." {
		return ""
	}
	return p
}

// Join returns the root-relative path p (forward slashes) as an output
// path under prefix (from [Prefix]), cleaned, so that "journals" and
// "../.journal-lint.yaml" give ".journal-lint.yaml". An empty p is the
// root itself: the prefix, or "." for an empty prefix.
func Join(prefix, p string) string {
	prefix = strings.TrimSuffix(filepath.ToSlash(prefix), "/")
	switch {
	case p == "" && prefix == "":
		return "."
	case p == "":
		return prefix
	case prefix == "" || prefix == ".":
		return path.Clean(p)
	}
	return path.Clean(prefix + "/" + p)
}

// Of returns the output path of the file p (absolute or relative to the
// working directory) by the package rule. A path that cannot be made
// absolute is returned with forward slashes as given.
func Of(ctx context.Context, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	base, _ := Base(ctx, abs)
	return Rel(base, abs)
}
