package gitcheck

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"sort"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/internal/source"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// workBytes returns the bytes of the root-relative Journal path p in the
// checked tree (the loaded text when the load holds it), and whether p is
// a regular file there.
func (t *Tree) workBytes(p string) ([]byte, bool) {
	if src := t.Load.Source(p); src != nil {
		return src, true
	}
	if mode, err := t.Source.Stat(p); err != nil || !mode.IsRegular() {
		return nil, false
	}
	f, err := t.Source.ReadFile(p)
	return f.Data, err == nil
}

// ExplainCommitted returns the notes on the chain diagnostics of the load
// result of a check of the work tree (not of the index): on any chain/
// diagnostic of a revision whose work-tree copy differs from its committed
// bytes at HEAD (the edit is the cause, whatever link it broke), and on
// each chain/missing-predecessor whose PREDECESSOR is the digest of the
// committed bytes (at HEAD, else in the index) of another file of the same
// artifact whose work-tree copy is different or gone. The real cause is that copy, not the link: the
// diagnostic says the accepted revision was modified (or deleted, or had
// its line endings converted), says how to restore it, and no longer
// suggests naming another digest. With a gate (--against), the history
// diagnostics already explain edits, so only line endings are explained.
func (t *Tree) ExplainCommitted(ctx context.Context) ([]diag.Note, error) {
	var chainDiags []int
	for i, d := range t.Load.Diagnostics {
		if rules.Category(d.Code) == "chain" && d.Path != "" {
			chainDiags = append(chainDiags, i)
		}
	}
	if len(chainDiags) == 0 {
		return nil, nil
	}
	files, err := t.Listed(ctx)
	if err != nil {
		return nil, err
	}
	var paths []string // every path the diagnostics may need, read at once
	for _, i := range chainDiags {
		paths = append(paths, files.ByDir[load.ArtifactDir(t.Load.Diagnostics[i].Path)+"/"]...)
	}
	committed, err := t.CommittedFiles(ctx, paths)
	if err != nil {
		return nil, err
	}
	conv, err := gitfacts.ReadConversion(ctx, t.Repo)
	if err != nil {
		return nil, fmt.Errorf("git config: %w", err)
	}
	var notes []diag.Note
	for _, i := range chainDiags {
		d := t.Load.Diagnostics[i]
		doc := t.Load.Doc(d.Path) // read and parsed again when the load dropped it
		if doc == nil {
			continue
		}
		dir := load.ArtifactDir(d.Path) + "/"
		// The revision itself was committed and edited since: the edit is
		// the cause, whatever link it broke. What a checkout wrote
		// (core.autocrlf converting LF to CRLF) is no edit: it converted
		// the predecessor as well, which the note below explains.
		if c := committed[d.Path]; c != nil && c.Head != nil && !bytes.Equal(c.Head, doc.Src) && !t.checkoutConverted(d.Path, conv, c.Head, doc.Src) {
			tp := t.TopPath(d.Path)
			notes = append(notes, diag.Note{At: i, DropFixes: true,
				Message: fmt.Sprintf(" (this revision differs from its committed bytes at HEAD, digest %s)", vt.DigestOf(c.Head)),
				Help: fmt.Sprintf("a committed revision is accepted and immutable: restore it (git checkout HEAD -- %s) and put the change in a new successor revision (journal-lint new %s)",
					safetext.ShellWord(tp), load.ArtifactDir(d.Path))})
			continue
		}
		if d.Code != rules.ChainMissingPredecessor || !doc.PredecessorOK {
			continue
		}
		for _, p := range files.ByDir[dir] {
			c := committed[p]
			if p == d.Path || c == nil {
				continue
			}
			blob, where := c.Head, "HEAD"
			if blob == nil || vt.DigestOf(blob) != doc.Predecessor {
				blob, where = c.Index, "the index"
			}
			if blob == nil || vt.DigestOf(blob) != doc.Predecessor {
				continue
			}
			work, exists := t.workBytes(p)
			if exists && bytes.Equal(work, blob) {
				continue
			}
			eolOnly := exists && bytes.Equal(gitfacts.ToLF(work), gitfacts.ToLF(blob))
			if t.Commit != "" && !eolOnly {
				continue // the history diagnostics explain it
			}
			notes = append(notes, t.explainOne(i, doc, p, work, exists, eolOnly, where, c.NoConvert, exists && t.checkoutConverted(p, conv, blob, work)))
			break
		}
	}
	return notes, nil
}

// checkoutConverted reports whether work, the work-tree copy of the
// root-relative path p, is its committed blob as a checkout here writes
// it: a checkout under conv turns LF into CRLF for p's attributes
// (gitfacts.Attrs.CheckoutWritesCRLF), the blob has no CRLF (git never
// turns CRLF into LF on checkout), and work is the blob with CRLF line
// endings. Without p's attributes it reports false.
func (t *Tree) checkoutConverted(p string, conv gitfacts.Conversion, blob, work []byte) bool {
	if bytes.Contains(blob, []byte("\r\n")) || !bytes.Contains(work, []byte("\r\n")) || !bytes.Equal(gitfacts.ToLF(work), blob) {
		return false
	}
	a := t.Attrs.Get(p)
	return a != nil && a.CheckoutWritesCRLF(conv)
}

// explainOne returns the note on the chain/missing-predecessor diagnostic
// at index at of the load result (of doc), whose PREDECESSOR is the digest of the bytes of p at where ("HEAD" or
// "the index"): p's work-tree copy is work (exists false: none), which
// differs from them (eolOnly: only in line endings; noConvert: the
// attributes keep git from converting p; converted: as a checkout here
// writes them, checkoutConverted).
func (t *Tree) explainOne(at int, doc *syntax.Document, p string, work []byte, exists, eolOnly bool, where string, noConvert, converted bool) diag.Note {
	tp := t.TopPath(p)
	restore := "git checkout -- " + safetext.ShellWord(tp)
	if where == "HEAD" {
		restore = "git checkout HEAD -- " + safetext.ShellWord(tp)
	}
	n := diag.Note{At: at, DropFixes: true}
	switch {
	case eolOnly && converted:
		n.Message = fmt.Sprintf(": it is the digest of the committed bytes of %s, whose working-tree copy differs from them only in line endings (git converted them on checkout)", tp)
		n.Help = "keep git from converting Journals: end " + t.attributesFile() + " with these lines and commit it:\n" + gitfacts.NoConversionLines +
			"\nthen delete " + tp + " and check it out again (git checkout -- " + safetext.ShellWord(tp) + ") to get its committed bytes back" +
			t.attributesCaveat(load.ArtifactDir(p))
		n.Related = []diag.Related{{Path: p,
			Message: "committed with digest " + doc.Predecessor.String() + "; the working-tree copy has other line endings"}}
	case eolOnly:
		why := "not as a checkout here writes them"
		if noConvert {
			why = ".gitattributes keeps git from converting Journals"
		}
		n.Message = fmt.Sprintf(": it is the digest of the committed bytes of %s, whose working-tree copy differs from them only in line endings (%s, so an editor or another tool changed them)", tp, why)
		n.Help = "an accepted revision is immutable: restore its committed bytes (" + restore + ")"
		n.Related = []diag.Related{{Path: p,
			Message: "committed with digest " + doc.Predecessor.String() + "; the working-tree copy has other line endings"}}
	case !exists:
		n.Message = fmt.Sprintf(": it is the digest of accepted revision %s at %s, which is missing from the work tree", tp, where)
		n.Help = "accepted revisions stay forever: restore it (" + restore + ")"
		n.Related = []diag.Related{{Path: p, Message: "had this digest at " + where}}
	default:
		n.Message = fmt.Sprintf(": it is the digest of accepted revision %s at %s, which was modified in the work tree (now %s)", tp, where, vt.DigestOf(work))
		n.Help = fmt.Sprintf("an accepted revision is immutable: restore it (%s) and put the change in a new successor revision (journal-lint new %s)",
			restore, load.ArtifactDir(p))
		n.Related = []diag.Related{{Path: p, Message: "had this digest at " + where}}
	}
	return n
}

// ReviseWorkTree corrects the diagnostics l of a check of the work tree
// (not --staged) where git, not the text, is the cause:
//
//   - a Journal path that git records as a symbolic link but that is a
//     plain file in the work tree (core.symlinks=false checks a link out as
//     a text file holding its target) gets one fs/unexpected-entry for the
//     link instead of the parse and lint findings of the target's name;
//   - style/crlf on a file whose committed bytes differ from its work-tree
//     copy only in line endings tells to restore the committed bytes, as
//     the chain diagnostics do, instead of fixing it in the next revision.
//
// It returns the corrected list; l's diagnostics are not modified.
func (t *Tree) ReviseWorkTree(ctx context.Context, l diag.List) (diag.List, error) {
	if t.Repo == nil || t.Staged {
		return l, nil
	}
	if err := t.Indexed(ctx); err != nil {
		return nil, err
	}
	links := map[string]bool{}
	if t.Index().Symlinks() > 0 { // else the entries need not be visited
		for p, e := range t.IndexEntries() {
			if e.IsSymlink() {
				if mode, err := t.Source.Stat(p); err == nil && mode.IsRegular() {
					links[p] = true
				}
			}
		}
	}
	var crlf []string
	for _, d := range l {
		if d.Code == rules.StyleCRLF && d.Path != "" {
			crlf = append(crlf, d.Path)
		}
	}
	conv, err := gitfacts.ReadConversion(ctx, t.Repo)
	if err != nil {
		return nil, fmt.Errorf("git config: %w", err)
	}
	crlf, err = t.mayDifferFromHEAD(ctx, crlf, conv)
	if err != nil {
		return nil, err
	}
	var committed map[string]*gitfacts.Committed
	if len(crlf) > 0 {
		committed, err = t.CommittedFiles(ctx, crlf)
	}
	if err != nil {
		return nil, err
	}
	out := make(diag.List, 0, len(l)+len(links))
	// One diagnostic for each link, in place of the findings on its text
	// (which may have none: the text may be a valid Journal).
	var paths []string
	for p := range links {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		target, _ := t.workBytes(p)
		d := load.UnexpectedEntry(p, fs.ModeSymlink, "")
		d.Message += fmt.Sprintf(" (to %q: git records it as a link, and core.symlinks=false checked it out as a text file holding the target)", string(target))
		out = append(out, d)
	}
	for _, d := range l {
		if links[d.Path] {
			continue
		}
		if d.Code == rules.StyleCRLF {
			if c := committed[d.Path]; c != nil && c.Head != nil {
				if work, ok := t.workBytes(d.Path); ok && !bytes.Equal(work, c.Head) && bytes.Equal(gitfacts.ToLF(work), gitfacts.ToLF(c.Head)) && !bytes.Contains(c.Head, []byte("\r\n")) {
					tp := t.TopPath(d.Path)
					restore := "restore them (git checkout HEAD -- " + safetext.ShellWord(tp) + ") instead of changing the revision"
					if t.checkoutConverted(d.Path, conv, c.Head, work) {
						// A checkout writes it so: one before the
						// attributes change would convert it again.
						restore = "keep git from converting Journals (see repo/eol-conversion), then " + restore
					}
					d.Help = "the committed bytes of this revision use LF line endings, and only this copy was converted: " + restore
				}
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// mayDifferFromHEAD returns the root-relative paths of the work tree's
// Journal files whose bytes may differ from their blob at HEAD: all but
// those that git reports unchanged since HEAD, that no editor's buffer
// stands in for (git sees only the disk), and whose attributes convert
// nothing under the configured core.autocrlf (conv; gitfacts.Attrs.ConvertsNothing), which
// hold the blob's exact bytes.
// Before the first commit there is no blob to differ from.
func (t *Tree) mayDifferFromHEAD(ctx context.Context, paths []string, conv gitfacts.Conversion) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	if _, err := t.Repo.ResolveCommit(ctx, "HEAD"); err != nil {
		return nil, nil
	}
	changes, err := t.Repo.Diff(ctx, "HEAD", false, t.RootRel)
	if err != nil {
		return nil, fmt.Errorf("git diff: %w", err)
	}
	changed := map[string]bool{}
	for _, c := range changes {
		for _, top := range []string{c.Path, c.OldPath} {
			if p, ok := t.UnderRoot(top); ok && top != "" {
				changed[p] = true
			}
		}
	}
	buffers, _ := t.Source.(*source.Overlay)
	var out []string
	for _, p := range paths {
		if a := t.Attrs.Get(p); changed[p] || (buffers != nil && buffers.Holds(p)) || a == nil || !a.ConvertsNothing(conv.AutoCRLF) {
			out = append(out, p)
		}
	}
	return out, nil
}
