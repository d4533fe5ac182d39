package check

import (
	"sync"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/syntax"
)

// valuePaths are the value paths (syntax.Document.ValuePath) of a run's diagnostics by
// file and range, taken while their documents are at hand (a visit, a
// head-only rule) or from the cache's records, so that the gate's revision
// fingerprints (gate.finish) read no document again. A run keeps them when
// it has a gate or a cache (run.keepsPaths). The zero value is empty.
type valuePaths struct {
	mu sync.Mutex
	m  map[vpKey]string
}

// vpKey names a diagnostic's place for its value path: its file and
// range.
type vpKey struct {
	path string
	rng  diag.Range
}

// keep records paths as the value paths of the diagnostics of files, in
// order, then of ds (the order of [artifactPaths]); extra diagnostics
// without a path are left out.
func (p *valuePaths) keep(files []*load.File, ds diag.List, paths []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[vpKey]string{}
	}
	i := 0
	add := func(d *diag.Diagnostic) {
		if i < len(paths) {
			p.m[vpKey{d.Path, d.Range}] = paths[i]
		}
		i++
	}
	for _, f := range files {
		for j := range f.Diagnostics {
			add(&f.Diagnostics[j])
		}
	}
	for j := range ds {
		add(&ds[j])
	}
}

// get returns the value path kept for d, and whether one was.
func (p *valuePaths) get(d *diag.Diagnostic) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.m[vpKey{d.Path, d.Range}]
	return s, ok
}

// artifactPaths returns the value paths of the diagnostics of a's files,
// in order, then of ds, the findings of its visit; a's documents must be
// at hand.
func artifactPaths(a *load.Artifact, ds diag.List) []string {
	var paths []string
	for _, f := range a.Files {
		for _, d := range f.Diagnostics {
			paths = append(paths, f.Doc.ValuePath(d.Range))
		}
	}
	for _, d := range ds {
		paths = append(paths, docOf(a, d.Path).ValuePath(d.Range))
	}
	return paths
}

// docPaths returns the value paths of found, diagnostics on doc.
func docPaths(doc *syntax.Document, found diag.List) []string {
	paths := make([]string, len(found))
	for i, d := range found {
		paths[i] = doc.ValuePath(d.Range)
	}
	return paths
}

// keepsPaths reports whether r keeps its diagnostics' value paths: for
// the revision fingerprints of a gate, or for the cache's records.
func (r *run) keepsPaths() bool {
	return r.memo != nil || (r.gate != nil && r.gate.Commit != "")
}
