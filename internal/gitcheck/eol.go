package gitcheck

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/internal/safetext"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// StagedConversion reports, with --staged, each Journal file the commit
// adds or changes (its index entry differs from HEAD's) whose staged blob
// is its work-tree copy with the line endings converted: git converted
// them as it stored the file (gitattributes(5), "text"), so the digest the
// author computed from the file is not the digest the commit stores
// (repo/eol-converted). The blob is what counts, not today's attributes:
// a blob converted under attributes changed since (set right, but the
// file not staged again) is reported too. A work-tree copy changed in
// other ways since it was staged is no conversion and is left alone. It
// reads the loaded files' attributes (Attrs).
func (t *Tree) StagedConversion(ctx context.Context) (diag.List, error) {
	if !t.Staged {
		return nil, nil
	}
	// The files whose index entry differs from HEAD's: git's short answer,
	// not a listing of both (every file before the first commit).
	var changed map[string]bool
	if _, err := t.Repo.ResolveCommit(ctx, "HEAD"); err == nil {
		changes, err := t.Repo.IndexDiff(ctx, "HEAD", t.RootRel)
		if err != nil {
			return nil, fmt.Errorf("git diff: %w", err)
		}
		changed = map[string]bool{}
		for _, c := range changes {
			if p, ok := t.UnderRoot(c.Path); ok && c.Status != 'D' {
				changed[p] = true
			}
		}
	}
	var out diag.List
	for _, f := range t.Load.Files {
		if changed != nil && !changed[f.Path] {
			continue
		}
		blob := t.Load.Source(f.Path)
		tp := t.TopPath(f.Path)
		work, err := readfile.Read(filepath.Join(t.Repo.Top(), filepath.FromSlash(tp)), readfile.Options{NoFollow: true})
		if blob == nil || err != nil || bytes.Equal(work, blob) || !bytes.Equal(gitfacts.ToLF(work), blob) {
			continue
		}
		renormalize := "git add --renormalize " + safetext.ShellWord(tp)
		digests := fmt.Sprintf("the commit would store %s, but the file in the work tree is %s", vt.DigestOf(blob), vt.DigestOf(work))
		d := diag.Diagnostic{Code: rules.RepoEOLConverted, Severity: diag.Error, Path: f.Path}
		if a := t.Attrs.Get(f.Path); a != nil && a.Text != "unset" {
			d.Message = fmt.Sprintf("git converted the line endings of this revision as it was staged (%s): %s", a.Describe(), digests)
			d.Help = "keep git from converting Journals, then stage the exact bytes again (" + renormalize +
				"); end " + t.attributesFile() + " with these lines, and stage it too:\n" + gitfacts.NoConversionLines + t.attributesCaveat(load.ArtifactDir(f.Path))
		} else {
			d.Message = "the staged blob of this revision has other line endings than the file in the work tree (git converted them when the file was staged, under attributes that no longer ask for it): " + digests
			d.Help = "stage the exact bytes again: " + renormalize
		}
		out = append(out, d)
	}
	return out, nil
}

// ConversionEnabled reports, with a compared commit (--staged, --against),
// a change of .gitattributes that makes git convert the line endings of
// loaded Journal files whose attributes at the commit kept them byte for
// byte (text unset): one repo/eol-conversion-enabled error on the changed
// .gitattributes, which takes the place of the repo/eol-conversion
// warning. It reads the loaded files' attributes (Attrs).
func (t *Tree) ConversionEnabled(ctx context.Context) (diag.List, error) {
	if t.Commit == "" || t.ChangedOnly {
		// Beside a summary no .gitattributes that decides a loaded file's
		// attributes differs from HEAD's: nothing to report.
		return nil, nil
	}
	changed, err := t.Repo.ChangedAttributeFiles(ctx, t.Commit, t.Staged)
	if err != nil || len(changed) == 0 {
		return nil, err
	}
	var paths []string
	for _, f := range t.Load.Files {
		if a := t.Attrs.Get(f.Path); a != nil && a.Text != "unset" {
			paths = append(paths, f.Path)
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	before, err := t.Repo.AttributesAt(ctx, t.Commit, t.RootRel, paths, gitfacts.AttrNames()...)
	if err != nil {
		return nil, fmt.Errorf("git check-attr: %w", err)
	}
	n, first, firstDir := 0, "", ""
	for i, p := range paths {
		if gitfacts.AttrsOf(before[i]).Text == "unset" {
			if n++; n == 1 {
				first, firstDir = t.TopPath(p)+", "+t.Attrs.Get(p).Describe(), load.ArtifactDir(p)
			}
		}
	}
	if n == 0 {
		return nil, nil
	}
	files := "1 Journal file"
	if n > 1 {
		files = fmt.Sprintf("%d Journal files", n)
	}
	// The diagnostic's path is root-relative, like every other: the
	// .gitattributes usually lies above the root.
	attrs := changed[0]
	if p, ok := t.UnderRoot(attrs); ok {
		attrs = p
	} else if t.RootRel != "" {
		attrs = strings.Repeat("../", strings.Count(t.RootRel, "/")+1) + attrs
	}
	stageIt := ""
	if t.Staged {
		stageIt = ", and stage it"
	}
	return diag.List{{
		Code:     rules.RepoEOLConversionEnabled,
		Severity: diag.Error,
		Path:     attrs,
		Message: fmt.Sprintf("this change of .gitattributes makes git convert the line endings of %s that the attributes of %s keep byte for byte (first: %s)",
			files, t.At(), first),
		Help: "keep Journals byte for byte: end " + t.attributesFile() + " with these lines (a later line wins)" + stageIt + ":\n" +
			gitfacts.NoConversionLines + t.attributesCaveat(firstDir),
	}}, nil
}

// EOLConversion reports, once, that git may convert the line endings of
// Journal files: the loaded files whose attributes (Attrs, which must hold
// every loaded file's) do not unset text, and the summarised groups of
// directories a summary of HEAD's tree speaks for instead of the load
// (package check). The first file named is that of the first directory.
func (t *Tree) EOLConversion(summarised []EOLGroup) diag.List {
	// The files in directory order, those of the directories a summary
	// speaks for among them.
	groups := slices.Clone(summarised)
	for _, f := range t.Load.Files {
		a := t.Attrs.Get(f.Path)
		if a.Text == "unset" {
			continue
		}
		dir := load.ArtifactDir(f.Path)
		if n := len(groups); n > 0 && groups[n-1].Dir == dir {
			groups[n-1].Count++
			continue
		}
		groups = append(groups, EOLGroup{Dir: dir, Count: 1, First: EOLFirst(t.Facts, f.Path, a)})
	}
	converted, first, firstDir := 0, "", ""
	if len(groups) > 0 {
		g := slices.MinFunc(groups, func(a, b EOLGroup) int { return strings.Compare(a.Dir, b.Dir) })
		first, firstDir = g.First, g.Dir
	}
	for _, gr := range groups {
		converted += gr.Count
	}
	if converted == 0 {
		return nil
	}
	n, which := "1 Journal file", "its digest"
	if converted > 1 {
		n, which = fmt.Sprintf("%d Journal files", converted), "their digests"
	}
	return diag.List{{
		Code:     rules.RepoEOLConversion,
		Severity: diag.Warning,
		Message:  fmt.Sprintf("git may convert the line endings of %s, which changes %s (first: %s)", n, which, first),
		Help: "end " + t.attributesFile() + " with these lines and commit it:\n" +
			gitfacts.NoConversionLines + "\n" +
			"Not eol=lf: that also makes git rewrite CRLF-authored Journals, changing their digests. " +
			"A checkout that already converted a file: delete it and check it out again (git checkout -- PATH)." +
			t.attributesCaveat(firstDir),
	}}
}

// attributesFile names, for help texts, the .gitattributes to end with
// gitfacts.NoConversionLines: the deepest one that exists in the work tree
// from the root up to the top of the repository, since the lines of a
// deeper .gitattributes win over those above it (gitattributes(5)), so
// lines added above it would change nothing; "the .gitattributes at the
// top of the repository" when there is none below the top. The path is
// relative to the top of the work tree. What wins over that file too
// (attributesCaveat) is said apart.
func (t *Tree) attributesFile() string {
	for dir := t.RootRel; t.Repo != nil && dir != "" && dir != "."; dir = path.Dir(dir) {
		name := dir + "/.gitattributes"
		if t.isFile(name) {
			return name + " (the deepest .gitattributes above the Journals, whose lines win over those above it)"
		}
	}
	if t.Repo != nil && !t.isFile(".gitattributes") {
		if fi, err := os.Lstat(filepath.Join(t.Repo.Top(), ".gitattributes")); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "a .gitattributes file at the top of the repository, in place of the symbolic link there, which git does not read,"
		}
	}
	return "the .gitattributes at the top of the repository"
}

// attributesCaveat returns what a help text that names attributesFile
// must add, on a line of its own after a newline, or "": that a
// .gitattributes in the artifact directory dir (root-relative) must go,
// as its lines win over the root's (and only Journals belong there), and
// that the repository's info/attributes, whose lines win over every
// .gitattributes, must lose the lines it has.
func (t *Tree) attributesCaveat(dir string) string {
	if t.Repo == nil {
		return ""
	}
	var out []string
	if name := t.TopPath(dir + "/.gitattributes"); dir != "" && t.isFile(name) {
		out = append(out, "Delete "+name+" too: only Journals belong in an artifact directory, and its lines would win over these.")
	}
	info := t.Repo.InfoAttributes()
	if data, err := readfile.Read(info, readfile.Options{}); err == nil && setsConversion(string(data)) {
		if dir, err := filepath.EvalSymlinks(filepath.Dir(info)); err == nil {
			info = filepath.Join(dir, filepath.Base(info)) // as the top is
		}
		shown := filepath.ToSlash(info)
		if rel, err := filepath.Rel(t.Repo.Top(), info); err == nil {
			shown = filepath.ToSlash(rel)
		}
		out = append(out, "The repository's "+shown+" sets line-ending attributes, and its lines win over every .gitattributes: take out those that apply to Journals.")
	}
	if len(out) == 0 {
		return ""
	}
	return "\n" + strings.Join(out, "\n")
}

// setsConversion reports whether the attributes file text has a line that
// sets, unsets or unspecifies text, eol, crlf (the old name of text) or
// binary (the macro that unsets text): what may decide git's line-ending
// conversion, so that a file of other attributes goes unmentioned.
func setsConversion(text string) bool {
	for line := range strings.Lines(text) {
		fields := strings.Fields(line)
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		for _, a := range fields[1:] {
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-!"), "=")
			switch name {
			case "text", "eol", "crlf", "binary":
				return true
			}
		}
	}
	return false
}

// isFile reports whether the path name, relative to the top of the work
// tree, is a regular file there.
func (t *Tree) isFile(name string) bool {
	fi, err := os.Lstat(filepath.Join(t.Repo.Top(), filepath.FromSlash(name)))
	return err == nil && fi.Mode().IsRegular()
}

// EOLGroup is what EOLConversion counts of one artifact directory: its
// files that git may convert, and the first one.
type EOLGroup struct {
	// Dir is the artifact directory.
	Dir string
	// Count is how many of its files git may convert.
	Count int
	// First describes the first of them (EOLFirst).
	First string
}

// EOLFirst describes the root-relative path p, whose attributes are a,
// as the first file of repo/eol-conversion: its path from the top of the
// work tree of f, and the attributes.
func EOLFirst(f *gitfacts.Facts, p string, a *gitfacts.Attrs) string {
	return f.TopPath(p) + " (" + a.Describe() + ")"
}
