package check

import (
	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/syntax"
)

// headJudge is what the head-only rules judged the heads with: the tree
// and the rules' configuration (lintConfig's perHead).
type headJudge struct {
	tree *lint.StaticTree
	rc   lint.RunConfig
}

// dropCarriedOver drops, under --new-only, each finding of a head-only
// rule (deps/…: kind rules.ChainHead) on a revision added since the
// compared commit that the newest accepted revision of its chain at that
// commit has too, judged against the same tree: the same code, value path
// (syntax.Document.ValuePath) and message. A DEPENDS that successors carry over names the
// same missing artifact as before, and no revision can fix that; what the
// added revisions bring is reported (on the head, where head-only rules
// report, even when an earlier added revision brought it). The other
// rules' findings stay: a text's own problem (style/crlf) is fixed in the
// next revision, which is this one.
func (g *gate) dropCarriedOver(r *run, l diag.List, heads headJudge) diag.List {
	carried := map[string]map[string]bool{} // new revision's path → keys of its predecessor's findings
	key := func(code, vp, msg string) string { return code + "\x00" + vp + "\x00" + msg }
	predecessorKeys := func(p string) map[string]bool {
		keys, ok := carried[p]
		if ok {
			return keys
		}
		carried[p] = nil
		if f := r.load.File(p); f == nil || f.Outcome != chain.Appended {
			return nil
		}
		pf := r.load.Predecessor(p)
		for pf != nil {
			if g.Accepted(pf.Path) {
				break
			}
			pf = r.load.Predecessor(pf.Path) // added since the commit too
		}
		if pf == nil {
			return nil
		}
		doc := r.load.Doc(pf.Path)
		if doc == nil {
			return nil
		}
		keys = map[string]bool{}
		for _, d := range lint.Run([]*syntax.Document{doc}, heads.tree, heads.rc) {
			keys[key(d.Code, doc.ValuePath(d.Range), d.Message)] = true
		}
		carried[p] = keys
		return keys
	}
	kept := l[:0]
	for _, d := range l {
		if d.Path != "" && headOnly(d.Code) && heads.tree != nil {
			if keys := predecessorKeys(d.Path); keys != nil {
				vp, ok := r.paths.get(&d)
				if !ok {
					if doc := r.load.Doc(d.Path); doc != nil {
						vp = doc.ValuePath(d.Range)
					}
				}
				if keys[key(d.Code, vp, d.Message)] {
					continue
				}
			}
		}
		kept = append(kept, d)
	}
	return kept
}
