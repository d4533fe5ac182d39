package check

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/readfile"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// describe says which attributes of a file make git convert it, for
// messages: "text: auto, eol: unspecified", or that core.autocrlf and
// core.eol decide.
func (a *eolAttr) describe() string {
	if a.text == "unspecified" && a.eol == "unspecified" {
		return "no text attribute, so core.autocrlf and core.eol decide"
	}
	return fmt.Sprintf("text: %s, eol: %s", a.text, a.eol)
}

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
	if _, err := g.repo.ResolveCommit(ctx, "HEAD"); err == nil {
		changes, err := g.repo.IndexDiff(ctx, "HEAD", g.rootRel)
		if err != nil {
			return nil, fmt.Errorf("git diff: %w", err)
		}
		changed = map[string]bool{}
		for _, c := range changes {
			if p, ok := g.underRoot(c.Path); ok && c.Status != 'D' {
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
		tp := g.topPath(f.Path)
		work, err := readfile.Read(filepath.Join(g.repo.Top(), filepath.FromSlash(tp)), readfile.Options{NoFollow: true})
		if blob == nil || err != nil || bytes.Equal(work, blob) || !bytes.Equal(normalizeEOL(work), blob) {
			continue
		}
		renormalize := "git add --renormalize " + shellQuote(tp)
		digests := fmt.Sprintf("the commit would store %s, but the file in the work tree is %s", vt.DigestOf(blob), vt.DigestOf(work))
		d := diag.Diagnostic{Code: rules.RepoEOLConverted, Severity: diag.Error, Path: f.Path}
		if a := g.eolAttrs.get(f.Path); a != nil && a.text != "unset" {
			d.Message = fmt.Sprintf("git converted the line endings of this revision as it was staged (%s): %s", a.describe(), digests)
			d.Help = "keep git from converting Journals, then stage the exact bytes again (" + renormalize +
				"); the lines to add to the .gitattributes at the top of the repository, which is staged too:\n" + gitattributesLines
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
	if g.commit == "" || r.sum.readsChanged() {
		// Beside a summary no .gitattributes that decides a loaded file's
		// attributes differs from HEAD's (summary.go): nothing to report.
		return nil, nil
	}
	changed, err := g.repo.ChangedAttributeFiles(ctx, g.commit, g.staged)
	if err != nil || len(changed) == 0 {
		return nil, err
	}
	var paths []string
	for _, f := range r.load.Files {
		if a := g.eolAttrs.get(f.Path); a != nil && a.text != "unset" {
			paths = append(paths, f.Path)
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	before, err := g.repo.AttributesAt(ctx, g.commit, g.rootRel, paths, attrNames...)
	if err != nil {
		return nil, fmt.Errorf("git check-attr: %w", err)
	}
	n, first := 0, ""
	for i, p := range paths {
		if eolAttrOf(before[i]).text == "unset" {
			if n++; n == 1 {
				first = g.topPath(p) + ", " + g.eolAttrs.get(p).describe()
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
	if p, ok := g.underRoot(attrs); ok {
		attrs = p
	} else if g.rootRel != "" {
		attrs = strings.Repeat("../", strings.Count(g.rootRel, "/")+1) + attrs
	}
	return diag.List{{
		Code:     rules.RepoEOLConversionEnabled,
		Severity: diag.Error,
		Path:     attrs,
		Message: fmt.Sprintf("this change of .gitattributes makes git convert the line endings of %s that the attributes of %s keep byte for byte (first: %s)",
			files, g.at(), first),
		Help: "keep Journals byte for byte: end the .gitattributes at the top of the repository with these lines (a later line wins):\n" +
			gitattributesLines,
	}}, nil
}
