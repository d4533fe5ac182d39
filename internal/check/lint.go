package check

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/par"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// lintConfig returns the configurations of the two passes of the lint
// rules (package internal/lint): every rule about one document, which runs
// on every parsed document while the tree streams, and the rules about the
// tree's current state (kind rules.ChainHead), which run on chain heads only once the
// whole tree is known: an older revision is immutable and describes
// history, so repeating its findings in every revision helps nobody.
func lintConfig(r *run) (perDoc, perHead lint.RunConfig, err error) {
	enabled := func(code string) bool {
		_, on := r.cfg.Severity(code, diag.Warning)
		return on
	}
	perDoc = lint.RunConfig{
		Now:     r.opts.Now,
		Enabled: func(code string) bool { return !headOnly(code) && enabled(code) },
		Options: ruleOptions(r.cfg),
	}
	if err := perDoc.Validate(); err != nil {
		return perDoc, perHead, fmt.Errorf("rule options: %w", err)
	}
	perHead = perDoc
	perHead.Enabled = func(code string) bool { return headOnly(code) && enabled(code) }
	return perDoc.Prepared(), perHead.Prepared(), nil
}

// headOnly reports whether the rule with code runs on chain heads only.
func headOnly(code string) bool { return rules.KindOf(code) == rules.ChainHead }

// treeHead is what the tree view of the lint rules (lint.TreeOf) keeps of
// the newest valid document of a coordinate: its Journal version and the
// versions of its releases, in file order, each followed by a newline (no
// version holds one). It shares no memory with the document's text.
type treeHead struct {
	coordinate vt.Coordinate
	version    vt.JournalVersion
	releases   string
}

// treeHeads returns, for each coordinate of a valid document of a, the
// newest such document's entry (the first one, in file order, among
// equals), in the order the coordinates first appear.
func treeHeads(a *load.Artifact) []treeHead {
	var out []treeHead
next:
	for _, f := range a.Files {
		d := f.Doc
		if d == nil || !d.RevisionOK {
			continue
		}
		h := treeHead{coordinate: f.Summary.Coordinate, version: d.Revision.JournalVersion()}
		for i := range out {
			if out[i].coordinate == h.coordinate {
				if h.version.Compare(out[i].version) > 0 {
					out[i] = headOf(h, d)
				}
				continue next
			}
		}
		out = append(out, headOf(h, d))
	}
	return out
}

// headOf fills h's release versions from d, a valid document, copied into
// one string so that the tree does not keep the text alive. It reads them
// from d's release blocks, which are the revision's releases in file order,
// so that no copy of the releases is made.
func headOf(h treeHead, d *syntax.Document) treeHead {
	var b strings.Builder
	for _, rel := range d.Releases {
		b.WriteString(rel.Version.String())
		b.WriteByte('\n')
	}
	h.releases = b.String()
	return h
}

// buildTree merges the tree heads of every artifact, in artifact order, the
// way lint.TreeOf does for the whole list of documents: of the heads of
// one coordinate, the first with the latest Journal version. The heads
// are sorted by coordinate, stably, so that equals keep artifact order; an
// artifact directory is usually named by the coordinate of its head, so
// they usually come sorted already.
func buildTree(perArtifact [][]treeHead) *lint.StaticTree {
	n := 0
	for _, hs := range perArtifact {
		n += len(hs)
	}
	all := make([]treeHead, 0, n)
	for _, hs := range perArtifact {
		all = append(all, hs...)
	}
	byCoordinate := func(a, b treeHead) int { return a.coordinate.Compare(b.coordinate) }
	if !slices.IsSortedFunc(all, byCoordinate) {
		slices.SortStableFunc(all, byCoordinate)
	}
	t := &lint.StaticTree{}
	t.Grow(len(all))
	for i := 0; i < len(all); {
		best := all[i]
		j := i + 1
		for ; j < len(all) && all[j].coordinate == best.coordinate; j++ {
			if all[j].version.Compare(best.version) > 0 {
				best = all[j]
			}
		}
		t.AddText(best.coordinate, best.releases) // in ascending order: each appends
		i = j
	}
	return t
}

// sameTreeHeads reports whether two runs found the same tree heads in every
// artifact, in the same order: then [buildTree] makes the same tree of
// both. An artifact taken over from the prior run shares its slice, so
// the comparison costs little.
func sameTreeHeads(a, b [][]treeHead) bool {
	return slices.EqualFunc(a, b, func(x, y []treeHead) bool {
		return slices.EqualFunc(x, y, func(h, k treeHead) bool {
			return h.coordinate == k.coordinate && h.version.Compare(k.version) == 0 && h.releases == k.releases
		})
	})
}

// headRules runs the head-only lint rules on the document of each chain
// head (paths, in any order) against the tree of hc, and records their
// findings there; a head whose findings hc's prior run still holds is not
// linted again, and neither is one on which the rules' judgement of its
// references (lint.HeadRefs, kept while the tree streamed) finds nothing
// to report. A document the load dropped is read and parsed again; one
// whose bytes changed since gets no findings (its digest no longer names
// the accepted revision).
func headRules(ctx context.Context, r *run, rc lint.RunConfig, hc *headCache, heads []headRef) (diag.List, error) {
	if !anyEnabled(rc) {
		return nil, nil
	}
	slices.SortFunc(heads, func(a, b headRef) int { return strings.Compare(a.path, b.path) })
	r.memo.sinceTree(hc.tree)
	outs := make([]diag.List, len(heads))
	// The findings of a prior run stand where nothing they depend on
	// changed, and only the other heads that the rules report on are read
	// again. For a later run (KeepState), a head they do not report on is
	// remembered with the coordinates its judgement looked up.
	report := make([]bool, len(heads))
	par.ForWorkers(len(heads), r.opts.Workers, func() func(int) {
		judge := lint.JudgeHeads(hc.tree, rc) // memoizes: one per goroutine
		var arena lint.RefsArena              // the references read from records
		return func(i int) {
			h := &heads[i]
			if found, ok := hc.lookup(h.path, r.headDigest); ok {
				outs[i] = found
				return
			}
			if found, ok := r.memo.headFound(h.path, h.digest, hc.tree); ok {
				outs[i] = found
				return
			}
			if h.raw != nil {
				h.refs = arena.Read(codec.NewReader(h.raw))
			}
			if judge(h.refs) {
				report[i] = true
				return
			}
			if r.opts.KeepState {
				hc.store(h.path, headFindings{digest: r.headDigest(h.path), looked: h.refs.Coordinates()})
			}
			if r.memo != nil { // without a cache, nothing to decode the references for
				r.memo.recordVerdict(h.path, h.digest, h.refs.Coordinates(), hc.tree)
			}
		}
	})
	if !r.opts.KeepState {
		// The judgement is made: let the references go before the heads
		// are read again.
		for i := range heads {
			heads[i].refs = lint.HeadRefs{}
		}
	}
	par.For(len(heads), r.opts.Workers, func(i int) {
		if !report[i] || ctx.Err() != nil {
			return
		}
		h := heads[i]
		// Read again when the load dropped it; nil when the file no
		// longer holds the accepted bytes.
		if doc := r.load.Doc(h.path); doc != nil {
			rt := &recordingTree{Tree: hc.tree}
			outs[i] = lint.Run([]*syntax.Document{doc}, rt, rc)
			hc.store(h.path, headFindings{digest: r.headDigest(h.path), found: outs[i], looked: rt.looked, all: rt.all})
			if r.keepsPaths() {
				paths := docPaths(doc, outs[i])
				r.paths.keep(nil, outs[i], paths)
				r.memo.recordHead(doc, outs[i], paths, rt, hc.tree)
			}
		} else {
			r.memo.forgetHead(h.path, h.digest)
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out diag.List
	for _, o := range outs {
		out = append(out, o...)
	}
	return out, nil
}

// headRef names the head revision of a chain: its file and digest, and
// what the head-only rules read of it.
type headRef struct {
	path   string
	digest vt.Digest
	refs   lint.HeadRefs
	// raw, for a head taken from a cache record, is its references as the
	// record holds them (lint.AppendHeadRefs), read into refs only when
	// the head is judged again.
	raw []byte
}

// headDigest returns the digest of the chain head at path, that of its
// file in the load.
func (r *run) headDigest(path string) vt.Digest {
	if f := r.load.File(path); f != nil {
		return f.Summary.Digest
	}
	return vt.Digest{}
}

// anyEnabled reports whether rc runs at least one lint rule.
func anyEnabled(rc lint.RunConfig) bool {
	for _, rule := range lint.All() {
		if rc.Enabled(rule.Code) {
			return true
		}
	}
	return false
}

// ruleOptions turns the configuration's options into the rules' raw texts.
func ruleOptions(cfg *config.Config) map[string]map[string]string {
	out := map[string]map[string]string{}
	for code, ro := range cfg.Options {
		m := map[string]string{}
		for name, o := range ro.Values {
			m[name] = o.Text()
		}
		out[code] = m
	}
	return out
}
