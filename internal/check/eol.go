package check

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/internal/source"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// stagedConversion reports, with --staged, each Journal file the commit
// adds or changes (its index entry differs from HEAD's) whose staged blob
// is its work-tree copy with the line endings converted: git converted
// them as it stored the file (gitattributes(5), "text"), so the digest the
// author computed from the file is not the digest the commit stores
// (repo/eol-converted). The blob is what counts, not today's attributes:
// a blob converted under attributes changed since (set right, but the
// file not staged again) is reported too. A work-tree copy changed in
// other ways since it was staged is no conversion and is left alone. It
// needs the attributes that eolConversion learnt.
func (g *gate) stagedConversion(ctx context.Context, r *run) (diag.List, error) {
	if !g.staged {
		return nil, nil
	}
	// The files whose index entry differs from HEAD's: git's short answer,
	// not a listing of both (every file before the first commit).
	var changed map[string]bool
	if _, err := g.Repo.ResolveCommit(ctx, "HEAD"); err == nil {
		changes, err := g.Repo.IndexDiff(ctx, "HEAD", g.RootRel)
		if err != nil {
			return nil, fmt.Errorf("git diff: %w", err)
		}
		changed = map[string]bool{}
		for _, c := range changes {
			if p, ok := g.UnderRoot(c.Path); ok && c.Status != 'D' {
				changed[p] = true
			}
		}
	}
	var out diag.List
	for _, f := range r.load.Files {
		if changed != nil && !changed[f.Path] {
			continue
		}
		blob := r.load.Source(f.Path)
		tp := g.TopPath(f.Path)
		work, err := readfile.Read(filepath.Join(g.Repo.Top(), filepath.FromSlash(tp)), readfile.Options{NoFollow: true})
		if blob == nil || err != nil || bytes.Equal(work, blob) || !bytes.Equal(gitfacts.ToLF(work), blob) {
			continue
		}
		renormalize := "git add --renormalize " + safetext.ShellWord(tp)
		digests := fmt.Sprintf("the commit would store %s, but the file in the work tree is %s", vt.DigestOf(blob), vt.DigestOf(work))
		d := diag.Diagnostic{Code: rules.RepoEOLConverted, Severity: diag.Error, Path: f.Path}
		if a := g.eolAttrs.Get(f.Path); a != nil && a.Text != "unset" {
			d.Message = fmt.Sprintf("git converted the line endings of this revision as it was staged (%s): %s", a.Describe(), digests)
			d.Help = "keep git from converting Journals, then stage the exact bytes again (" + renormalize +
				"); the lines to add to the .gitattributes at the top of the repository, which is staged too:\n" + gitfacts.NoConversionLines
		} else {
			d.Message = "the staged blob of this revision has other line endings than the file in the work tree (git converted them when the file was staged, under attributes that no longer ask for it): " + digests
			d.Help = "stage the exact bytes again: " + renormalize
		}
		out = append(out, d)
	}
	return out, nil
}

// conversionEnabled reports, with a compared commit (--staged, --against),
// a change of .gitattributes that makes git convert the line endings of
// loaded Journal files whose attributes at the commit kept them byte for
// byte (text unset): one repo/eol-conversion-enabled error on the changed
// .gitattributes, which takes the place of the repo/eol-conversion
// warning. It needs the attributes that eolConversion learnt.
func (g *gate) conversionEnabled(ctx context.Context, r *run) (diag.List, error) {
	if g.Commit == "" || r.sum.readsChanged() {
		// Beside a summary no .gitattributes that decides a loaded file's
		// attributes differs from HEAD's (summary.go): nothing to report.
		return nil, nil
	}
	changed, err := g.Repo.ChangedAttributeFiles(ctx, g.Commit, g.staged)
	if err != nil || len(changed) == 0 {
		return nil, err
	}
	var paths []string
	for _, f := range r.load.Files {
		if a := g.eolAttrs.Get(f.Path); a != nil && a.Text != "unset" {
			paths = append(paths, f.Path)
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	before, err := g.Repo.AttributesAt(ctx, g.Commit, g.RootRel, paths, gitfacts.AttrNames()...)
	if err != nil {
		return nil, fmt.Errorf("git check-attr: %w", err)
	}
	n, first := 0, ""
	for i, p := range paths {
		if gitfacts.AttrsOf(before[i]).Text == "unset" {
			if n++; n == 1 {
				first = g.TopPath(p) + ", " + g.eolAttrs.Get(p).Describe()
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
	if p, ok := g.UnderRoot(attrs); ok {
		attrs = p
	} else if g.RootRel != "" {
		attrs = strings.Repeat("../", strings.Count(g.RootRel, "/")+1) + attrs
	}
	return diag.List{{
		Code:     rules.RepoEOLConversionEnabled,
		Severity: diag.Error,
		Path:     attrs,
		Message: fmt.Sprintf("this change of .gitattributes makes git convert the line endings of %s that the attributes of %s keep byte for byte (first: %s)",
			files, g.At(), first),
		Help: "keep Journals byte for byte: end the .gitattributes at the top of the repository with these lines (a later line wins):\n" +
			gitfacts.NoConversionLines,
	}}, nil
}

// eolConversion reports, once, that git may convert the line endings of
// the loaded Journal files. It asks git only about the files whose
// attributes g does not know yet.
func (g *gate) eolConversion(ctx context.Context, r *run) (diag.List, error) {
	if g.asked != nil {
		<-g.asked
	}
	if len(r.load.Files) == 0 && len(r.sum.eolGroups()) == 0 {
		return nil, nil
	}
	if g.eolAttrs == nil {
		g.eolAttrs = gitfacts.NewAttrTable(g.Index(), g.RootRel)
	}
	var ask []string // root-relative paths
	for _, f := range r.load.Files {
		if g.eolAttrs.Get(f.Path) == nil {
			ask = append(ask, f.Path)
		}
	}
	if len(ask) > 0 {
		got, err := g.askEOL(ctx, ask)
		if err != nil {
			return nil, err
		}
		for i, p := range ask {
			g.eolAttrs.Set(p, got[i])
		}
	}
	// The files in directory order, those of the directories a summary
	// speaks for (summary.go) among them.
	groups := r.sum.eolGroups()
	for _, f := range r.load.Files {
		a := g.eolAttrs.Get(f.Path)
		if a.Text == "unset" {
			continue
		}
		dir := load.ArtifactDir(f.Path)
		if n := len(groups); n > 0 && groups[n-1].dir == dir {
			groups[n-1].count++
			continue
		}
		groups = append(groups, eolGroup{dir: dir, count: 1, first: g.eolFirst(f.Path, a)})
	}
	converted, first := 0, ""
	if len(groups) > 0 {
		first = slices.MinFunc(groups, func(a, b eolGroup) int { return strings.Compare(a.dir, b.dir) }).first
	}
	for _, gr := range groups {
		converted += gr.count
	}
	if converted == 0 {
		return nil, nil
	}
	n, which := "1 Journal file", "its digest"
	if converted > 1 {
		n, which = fmt.Sprintf("%d Journal files", converted), "their digests"
	}
	return diag.List{{
		Code:     rules.RepoEOLConversion,
		Severity: diag.Warning,
		Message:  fmt.Sprintf("git may convert the line endings of %s, which changes %s (first: %s)", n, which, first),
		Help: "add these lines to the .gitattributes at the top of the repository and commit it:\n" +
			gitfacts.NoConversionLines + "\n" +
			"Not eol=lf: that also makes git rewrite CRLF-authored Journals, changing their digests. " +
			"A checkout that already converted a file: delete it and check it out again (git checkout -- PATH).",
	}}, nil
}

// askAttributes asks git, while the tree loads, for the attributes that
// eolConversion needs of the root-relative paths that paths returns (on
// the same goroutine, so that listing them may ask git too; nil asks
// nothing): git reads the whole index for them, which would otherwise
// wait for the load and take the tail of the run. An answer git fails to
// give is asked again by eolConversion.
func (g *gate) askAttributes(ctx context.Context, paths func() []string) {
	g.asked = make(chan struct{})
	go func() {
		defer close(g.asked)
		ps := paths()
		if ps == nil {
			return
		}
		got, err := g.askEOL(ctx, ps)
		if err != nil {
			return
		}
		t := gitfacts.NewAttrTable(g.Index(), g.RootRel)
		for i, p := range ps {
			t.Set(p, got[i])
		}
		g.eolAttrs = t
	}()
}

// askLoadAttributes asks git, while the tree loads, for the attributes of
// the files it will load (askAttributes), when nothing gave them yet (a
// check without the cache): the staged paths, or for the work tree the
// Journal files that the index lists under the root (listed on the same
// goroutine when the check has not listed them yet), most of those the
// load reads. eolConversion then asks only about the others.
func (g *gate) askLoadAttributes(ctx context.Context) {
	// asked first: once it is set, askAttributes's goroutine may be
	// writing eolAttrs (and index). A gate that took a prior run's facts
	// over (stamped) may drop its attributes after the load, before
	// anything waits for such an answer (forgetStampedAttributes), so it
	// asks nothing ahead.
	if g == nil || g.Repo == nil || g.asked != nil || g.stamped || g.eolAttrs != nil {
		return
	}
	if src, ok := g.src.(*source.Git); ok {
		g.askAttributes(ctx, src.Paths)
		return
	}
	if g.staged {
		return
	}
	g.askAttributes(ctx, func() []string {
		if g.Indexed(ctx) != nil {
			return nil // asked again, and its error reported, after the load
		}
		var ps []string
		for p := range g.IndexEntries() {
			ps = append(ps, p)
		}
		return ps
	})
}

// askAhead asks git, once the work tree is loaded, the questions about
// the compared commit that the git gate asks after the head-only rules:
// what changed since the commit (history) and which .gitattributes did
// (conversionEnabled). Under a context that remembers git's answers
// (gitrepo.WithMemo, the command line), the gate's own questions then
// wait for these answers, which git gave while the head-only rules left
// a CPU idle; without one they would only be asked twice, so nothing is
// asked. Errors are left to the gate's own questions.
func (g *gate) askAhead(ctx context.Context) {
	if g == nil || g.Repo == nil || g.staged || g.Commit == "" || !gitrepo.Remembers(ctx) {
		return
	}
	g.ahead = make(chan struct{})
	go func() {
		defer close(g.ahead)
		_, _ = g.Repo.ChangedAttributeFiles(ctx, g.Commit, false)
		_, _ = g.Repo.Diff(ctx, g.Commit, false, g.RootRel)
	}()
}

// eolGroup is what eolConversion counts of one artifact directory: its
// files that git may convert, and the first one (eolFirst).
type eolGroup struct {
	dir   string
	count int
	first string
}

// eolFirst describes the root-relative path p, whose attributes are a,
// as the first file of repo/eol-conversion.
func (g *gate) eolFirst(p string, a *gitfacts.Attrs) string {
	return g.TopPath(p) + " (" + a.Describe() + ")"
}
