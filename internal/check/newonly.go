package check

import (
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/fingerprint"
	"github.com/r35157/journal-lint/rules"
)

// isLintCode reports whether code is a finding about a revision that
// --new-only may drop: any kind but a validity code, a code of the
// append-only gate itself or a configuration warning (a rule pack's code is
// a lint finding too).
func isLintCode(code string) bool {
	switch rules.KindOf(code) {
	case rules.Validity, rules.Repository, rules.Config:
		return false
	}
	return true
}

// finish applies --new-only to the sorted diagnostics l (lint findings on
// accepted revisions, gitfacts.Facts.Accepted, are dropped) and, when there is a
// gate, computes the revision fingerprint of every diagnostic on a
// revision whose identity is known (fingerprint.Revision). The map is
// indexed like the returned list.
func (g *gate) finish(r *run, l diag.List, newOnly bool, heads headJudge) (diag.List, map[int]string) {
	if g == nil || g.Commit == "" {
		return l, nil
	}
	if newOnly {
		kept := l[:0:0]
		for _, d := range l {
			if d.Path != "" && isLintCode(d.Code) && g.Accepted(d.Path) {
				continue
			}
			kept = append(kept, d)
		}
		l = g.dropCarriedOver(r, kept, heads)
	}
	fps := map[int]string{}
	for i := range l {
		d := &l[i]
		f := r.load.File(d.Path)
		if f == nil || !f.Summary.Read || !f.Summary.CoordinateOK || !f.Summary.JournalVersionOK {
			continue
		}
		vp, ok := r.paths.get(d)
		if !ok && d.Range.IsValid() && !d.Range.IsFileStart() {
			// Read again when the load dropped it; none when the file no
			// longer holds the bytes that were checked.
			doc := r.load.Doc(d.Path)
			if doc == nil {
				continue
			}
			vp = doc.ValuePath(d.Range)
		}
		fps[i] = fingerprint.Revision(d.Code, f.Summary.Coordinate.String(), f.Summary.JournalVersion.String(), f.Summary.Digest.String(), vp)
	}
	return l, fps
}
