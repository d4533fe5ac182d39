package gitrepo

import (
	"context"
	"os"
	"path"
	"path/filepath"
)

// ChangedAttributeFiles returns the .gitattributes files (relative to the
// top level, with forward slashes) that differ between the commit rev and
// the index (cached) or the work tree: added, deleted or modified.
func (r *Repo) ChangedAttributeFiles(ctx context.Context, rev string, cached bool) ([]string, error) {
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	// In two steps, commit to index and index to work tree, which git
	// answers from its index: one step from a commit to the work tree
	// costs git seconds on a large tree whatever changed (see Diff).
	out, err := r.output(ctx, "", nil, "diff", "--cached", "--name-only", "-z", "--no-renames", "--no-ext-diff", commit, "--")
	if err != nil {
		return nil, err
	}
	paths := splitNUL(out)
	if !cached {
		work, err := r.workChanges(ctx)
		if err != nil {
			return nil, err
		}
		for _, c := range work {
			paths = append(paths, c.Path)
		}
	}
	var files []string
	seen := map[string]bool{}
	for _, p := range paths {
		if path.Base(p) == ".gitattributes" && !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	return files, nil
}

// AttributesAt is [Repo.Attributes] with the .gitattributes files of the
// commit rev instead of the work tree's or the index's (the repository's
// info/attributes, the user's and the system's files and the configuration
// as they are now): "git check-attr --cached" over a temporary index that
// "git read-tree" fills with rev's tree, which leaves the repository's own
// index alone. (git 2.40's "check-attr --source" does the same; older gits
// have only the index.)
func (r *Repo) AttributesAt(ctx context.Context, rev, dir string, paths []string, names ...string) ([][]string, error) {
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "journal-lint-index-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	at := *r
	at.env = append(append([]string(nil), r.env...), "GIT_INDEX_FILE="+filepath.Join(tmp, "index"))
	if _, err := at.run(ctx, r.top, nil, "read-tree", commit); err != nil {
		return nil, err
	}
	return at.Attributes(ctx, true, dir, paths, names...)
}
