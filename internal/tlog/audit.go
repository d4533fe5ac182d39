package tlog

import (
	"fmt"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/par"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// Audit compares leaves, the log's leaves from index first on (in log
// order), with tree, the accepted revisions those leaves should be (every
// one of the tree for first 0), and returns the findings: tlog/missing-file
// for a leaf without its exact file (on checkpoint, the log's checkpoint
// path as the diagnostics name it), tlog/unlogged for a revision of tree
// the leaves lack and tlog/order for a logged revision whose predecessor
// is logged later, or not at all (from first 0 only: a partial audit does
// not see the earlier leaves; and not for a predecessor that has no file in
// tree while a leaf lacks its file, which may be that predecessor's: the
// tlog/missing-file finding says what happened). The diagnostics' paths
// are root-relative.
func Audit(first int64, leaves []tlog.Hash, tree []Revision, checkpoint string) diag.List {
	at := make(map[tlog.Hash]int, len(leaves))
	for i, h := range leaves {
		at[h] = int(first) + i
	}
	hashes := hashAll(tree)
	found := make([]bool, len(leaves))                             // leaf j has its file in tree
	logged := make(map[vt.Digest]int, min(len(tree), len(leaves))) // revision digest → leaf index
	inTree := make(map[vt.Digest]bool, len(tree))
	for k, r := range tree {
		inTree[r.Entry.Digest] = true
		if i, ok := at[hashes[k]]; ok {
			found[i-int(first)] = true
			logged[r.Entry.Digest] = i
		}
	}
	var out diag.List
	lost := false // some leaf has no file in tree
	for j, h := range leaves {
		i := int(first) + j
		if !found[j] {
			lost = true
			out = append(out, diag.Diagnostic{Code: rules.TLogMissingFile, Severity: diag.Error, Path: checkpoint, Range: diag.FileStart,
				Message: fmt.Sprintf("leaf %d of the log (%s) has no file with its exact bytes in the tree: a logged revision was deleted, changed or never committed", i, h),
				Help:    "a logged revision can never change: restore the file from git history (git log --diff-filter=D -- <root>), or find who rewrote the default branch"})
		}
	}
	for k, r := range tree {
		i, ok := at[hashes[k]]
		if !ok {
			out = append(out, diag.Diagnostic{Code: rules.TLogUnlogged, Severity: diag.Warning, Path: r.Path, Range: diag.FileStart,
				Message: fmt.Sprintf("this accepted revision is not in the log (size %d) yet", int(first)+len(leaves)),
				Help:    "the operator's next `journal-lint tlog append --sign` logs it (docs/tlog.md)"})
			continue
		}
		if r.Entry.Predecessor.IsZero() {
			continue
		}
		j, ok := logged[r.Entry.Predecessor]
		if !ok && first > 0 {
			continue // logged before first, or not at all: a full audit says which
		}
		if !ok && !inTree[r.Entry.Predecessor] && lost {
			continue // perhaps the lost file of a leaf: tlog/missing-file says so
		}
		if !ok || j > i {
			where := "not at all"
			if ok {
				where = fmt.Sprintf("at leaf %d", j)
			}
			out = append(out, diag.Diagnostic{Code: rules.TLogOrder, Severity: diag.Error, Path: r.Path, Range: diag.FileStart,
				Message: fmt.Sprintf("this revision is leaf %d of the log, but its predecessor %s is logged %s", i, r.Entry.Predecessor, where),
				Help:    "appends follow the batch order (docs/tlog.md): a log written otherwise was not written by journal-lint"})
		}
	}
	return out
}

// hashAll returns the leaf hashes of the revisions, in their order,
// computed on every core (package par) in groups of hashGroup.
func hashAll(revs []Revision) []tlog.Hash {
	out := make([]tlog.Hash, len(revs))
	par.For((len(revs)+hashGroup-1)/hashGroup, 0, func(g int) {
		for i := g * hashGroup; i < min((g+1)*hashGroup, len(revs)); i++ {
			out[i] = revs[i].Entry.Hash()
		}
	})
	return out
}

// hashGroup is how many leaf hashes [hashAll] computes in one piece of
// work: enough that handing out the pieces costs nothing measurable.
const hashGroup = 4096
