package check

import (
	"slices"
	"sync"

	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/syntax"
)

// visitor runs the per-artifact analyzers while the tree streams through
// the load (load.Options.Visit): the lint rules about one document on
// every document, and the history diff over the artifact's chain. It keeps
// per artifact only its findings, the chain head's file and what the
// head-only rules need of the tree (lint.Tree). Visits run concurrently;
// each writes only its artifact's slots, so the results combine in
// artifact order whatever order the visits ran in.
type visitor struct {
	r      *run
	perDoc lint.RunConfig

	// prior is the visitor of the run this one takes over from, or nil.
	prior *visitor

	mu    sync.Mutex
	diags []diag.List
	dirs  []string // the artifact directories
	trees [][]treeHead
	head  []headRef      // zero for an artifact without an accepted revision
	refs  lint.RefsArena // holds the references of head
}

func newVisitor(r *run, perDoc lint.RunConfig) *visitor {
	return &visitor{r: r, perDoc: perDoc}
}

// slot makes the per-artifact slices hold index i of the of artifacts
// (load.Artifact.Of), sized once for all of them; it must be called with
// v.mu held.
func (v *visitor) slot(i, of int) {
	if n := max(i+1, of); len(v.diags) < n {
		v.diags = slices.Grow(v.diags, n-len(v.diags))[:n]
		v.dirs = slices.Grow(v.dirs, n-len(v.dirs))[:n]
		v.trees = slices.Grow(v.trees, n-len(v.trees))[:n]
		v.head = slices.Grow(v.head, n-len(v.head))[:n]
	}
}

// visit analyzes one artifact (see [visitor]).
func (v *visitor) visit(a *load.Artifact) {
	if st, _ := v.r.packs(); st != nil {
		if a.Record != nil && v.r.memo != nil && v.r.memo.packs {
			st.Known(a) // its record holds the packs' findings
		} else {
			st.Visit(a)
		}
	}
	if v.reused(a.Index, a.Of, a.Prior) {
		return
	}
	if a.Record != nil {
		if vr, ok := a.Record.Extra.(*visitRecord); ok {
			v.fromRecord(a, vr)
			return
		}
	}
	docs := make([]*syntax.Document, 0, len(a.Files))
	for _, f := range a.Files {
		if f.Doc != nil {
			docs = append(docs, f.Doc)
		}
	}
	ds := lint.Run(docs, nil, v.perDoc)
	ds = append(ds, history(v.r, a)...)
	takeSubjects(ds, a)
	th := treeHeads(a)
	var h headRef // the zero headRef (no path) when no revision was accepted
	if len(a.Chain) > 0 {
		e := a.Chain[len(a.Chain)-1]
		h = headRef{path: e.Source, digest: e.Revision.Digest()}
	}
	m := v.r.memo
	var refs []byte // the head's references, for the artifact's record
	v.mu.Lock()
	v.slot(a.Index, a.Of)
	if h.path != "" {
		h.refs = v.refs.Keep(docOf(a, h.path))
		if m != nil {
			w := codec.NewWriter(nil)
			lint.AppendHeadRefs(w, h.refs)
			refs = w.Bytes()
		}
	}
	v.diags[a.Index] = ds
	v.dirs[a.Index] = a.Dir
	v.trees[a.Index] = th
	v.head[a.Index] = h
	v.mu.Unlock()
	var paths []string
	if v.r.keepsPaths() {
		paths = artifactPaths(a, ds)
		v.r.paths.keep(a.Files, ds, paths)
	}
	if m != nil {
		m.computed.Add(1)
		if a.Key != (load.Key{}) {
			m.record(a, ds, paths, th, h.path, refs)
		}
	}
}

// fromRecord takes what an earlier run's visit found of a from its record.
func (v *visitor) fromRecord(a *load.Artifact, vr *visitRecord) {
	m := v.r.memo
	m.reused.Add(1)
	v.r.paths.keep(a.Files, vr.diags, vr.paths)
	if len(vr.packs) > 0 {
		m.mu.Lock()
		m.packFound = append(m.packFound, vr.packs...)
		m.mu.Unlock()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.slot(a.Index, a.Of)
	// The references are read only if the head must be judged again
	// (headRules).
	h := headRef{path: vr.head, raw: vr.refs}
	for _, f := range a.Files {
		if f.Path == h.path {
			h.digest = f.Summary.Digest
		}
	}
	v.diags[a.Index] = vr.diags
	v.dirs[a.Index] = a.Dir
	v.trees[a.Index] = vr.trees
	v.head[a.Index] = h
}

// heads returns the chain head of every visited artifact that has one.
func (v *visitor) heads() []headRef {
	out := make([]headRef, 0, len(v.head))
	for _, h := range v.head {
		if h.path != "" {
			out = append(out, h)
		}
	}
	return out
}

// treesByDir returns the tree heads of each visited artifact by its
// directory.
func (v *visitor) treesByDir() map[string][]treeHead {
	out := make(map[string][]treeHead, len(v.dirs))
	for i, d := range v.dirs {
		out[d] = v.trees[i]
	}
	return out
}

// dropHeads lets go of the tree heads and chain heads of every visit, for
// a run that no later run takes over (Options.KeepState): once the tree is
// built and heads has been called, only the memory of findings stays.
func (v *visitor) dropHeads() {
	v.trees, v.head, v.refs = nil, nil, lint.RefsArena{}
}

// takeSubjects gives each diagnostic of ds on a document of a the
// subject of its fingerprint while the text is at hand
// (diag.Diagnostic.Subject), so that printing the report reads no file
// again and fingerprints the bytes that were checked.
func takeSubjects(ds diag.List, a *load.Artifact) {
	var doc *syntax.Document // of the diagnostic before: a rule reports a document's findings together
	for i := range ds {
		d := &ds[i]
		if !d.NeedsText() {
			continue
		}
		if doc == nil || doc.Path != d.Path {
			if doc = docOf(a, d.Path); doc == nil {
				continue
			}
		}
		d.TakeSubject(doc.Src)
	}
}

// docOf returns the document of the file of a at path, or nil.
func docOf(a *load.Artifact, path string) *syntax.Document {
	for _, f := range a.Files {
		if f.Path == path {
			return f.Doc
		}
	}
	return nil
}

// docsOf maps the path of each file of a to its document.
func docsOf(a *load.Artifact) map[string]*syntax.Document {
	m := make(map[string]*syntax.Document, len(a.Files))
	for _, f := range a.Files {
		if f.Doc != nil {
			m[f.Path] = f.Doc
		}
	}
	return m
}
