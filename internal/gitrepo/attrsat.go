package gitrepo

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
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
// holds rev's .gitattributes files above the paths (for at most
// [FewAttributePaths] paths) or rev's whole tree ("git read-tree"). The
// repository's own index is left alone, and so is its directory: the
// temporary index is neither split nor sparse. (git 2.40's "check-attr
// --source" does the same; older gits have only the index.)
func (r *Repo) AttributesAt(ctx context.Context, rev, dir string, paths []string, names ...string) ([][]string, error) {
	if len(paths) == 0 || len(names) == 0 {
		return make([][]string, len(paths)), nil
	}
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	// For a few paths, the temporary index holds only the .gitattributes
	// files of rev that can apply to them, those of their directories and
	// of the directories above: git reads rev's tree into it in
	// proportion to the paths, not to the tree.
	var sources []string
	few := len(paths) <= FewAttributePaths
	if few {
		sources = attributeFilesAbove(dir, paths)
		few = len(strings.Join(sources, " ")) <= maxArgBytes // else a command line too long for some systems
	}
	tmp, err := os.MkdirTemp("", "journal-lint-index-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	at := *r
	at.env = append(append([]string(nil), r.env...), "GIT_INDEX_FILE="+filepath.Join(tmp, "index"))
	at.opts = append(append([]string(nil), r.opts...), "-c", "core.splitIndex=false", "-c", "index.sparse=false")
	if err := at.fillIndex(ctx, commit, few, sources); err != nil {
		return nil, err
	}
	return at.Attributes(ctx, true, dir, paths, names...)
}

// fillIndex fills the index of r (a Repo with its own GIT_INDEX_FILE)
// with the .gitattributes files sources of commit when few is set, else
// with commit's whole tree.
func (r *Repo) fillIndex(ctx context.Context, commit string, few bool, sources []string) error {
	if !few {
		_, err := r.run(ctx, r.top, nil, "read-tree", commit)
		return err
	}
	files, err := r.lsTree(ctx, append([]string{"-r", commit, "--"}, sources...))
	if err != nil {
		return err
	}
	var info strings.Builder
	for _, f := range files {
		fmt.Fprintf(&info, "%s %s\t%s\x00", f.Mode, f.Object, f.Path)
	}
	_, err = r.run(ctx, r.top, []byte(info.String()), "update-index", "-z", "--index-info")
	return err
}

// FewAttributePaths is the number of paths up to which [Repo.AttributesAt]
// reads only the .gitattributes files above the paths, not the commit's
// whole tree: a few milliseconds where the tree of a million files takes
// seconds.
const FewAttributePaths = 256

// attributeFilesAbove returns the top-relative paths of the .gitattributes
// files that git reads for the paths (relative to dir, itself relative to
// the top level), one per directory from the top level down to each
// path's own, without repeats.
func attributeFilesAbove(dir string, paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		for _, f := range attributesAbove(path.Join(dir, p)) {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}
