// Package check is the engine behind `journal-lint check`: it runs the one
// validation path (package load) in collect-all mode, then its analyzers
// (the lint rules of package rules, and the others listed in [analyzers]),
// and applies the configuration (severity overrides, rules turned off,
// ignore entries). It never changes what is valid: validity diagnostics pass
// through the configuration untouched.
package check

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/rules"
)

// Options control one check run.
type Options struct {
	// Root is the absolute, clean Journal root.
	Root string
	// Examples loads *.journal.example files as Journals too.
	Examples bool
	// Config is the effective configuration; nil means config.Default().
	Config *config.Config
	// Now is the current time for time rules; zero means time.Now().
	Now time.Time
	// Against is a git revision: Journal files that exist there and were
	// modified, deleted or renamed since are errors (gitgate.go).
	Against string
	// Staged loads the git index (the staged content) instead of the work
	// tree, and compares against HEAD unless Against names a revision.
	Staged bool
	// NewOnly keeps lint findings only on revisions added since Against.
	NewOnly bool
	// Overlay maps root-relative paths to unsaved buffer contents that stand
	// in for the files on disk (load.Options.Overlay): an editor checks its
	// buffers in the context of the tree. It is ignored with Staged.
	Overlay map[string][]byte
	// Packs are the rule packs of Config, started by [StartPacks] for the
	// same Config and owned by the caller, who closes them after Run; nil
	// when Config has none (Run fails when it has some).
	Packs *Packs
}

// Result is what a check found.
type Result struct {
	// Load is the loader's result (files, documents, accepted state).
	Load *load.Result
	// Diagnostics are every diagnostic after configuration, sorted by path,
	// line, column and code.
	Diagnostics diag.List
	// Files, Artifacts and Revisions count the Journal files read, the
	// artifacts and the accepted revisions.
	Files, Artifacts, Revisions int
	// Fingerprints are the stable fingerprints of Diagnostics by index, set
	// when comparing against a revision (render.Report.Fingerprints).
	Fingerprints map[int]string

	sources map[string][]byte
}

// run is the state an analyzer sees: the options, the effective
// configuration and the load result with its parsed documents.
type run struct {
	opts Options
	cfg  *config.Config
	load *load.Result
	// docs are the parsed documents in load order (by path); valid are
	// those whose text is a valid Journal.
	docs, valid []*syntax.Document
	// gate is the git side of the run (gitgate.go); never nil in Run.
	gate *gate
}

// An analyzer adds diagnostics to a check after loading. Each lives in its
// own file of this package.
type analyzer func(ctx context.Context, r *run) (diag.List, error)

// analyzers run in this order; their diagnostics are merged and sorted.
var analyzers = []analyzer{
	lintRules,
	history,
	gitGate,
}

// concurrent analyzers start right after loading and run alongside
// [analyzers] (a rule pack works in its own process, so the built-in
// analyzers need not wait for it). They only read the run: [analyzers] may
// amend the load's diagnostics, which these must not look at. Their
// diagnostics follow those of [analyzers], in this order, and their errors
// come after any error of [analyzers].
var concurrent = []analyzer{
	rulePacks,
}

// Registry returns what config.Validate needs to know about the rules.
func Registry() config.Registry {
	var codes []string
	opts := map[string]config.OptionSpec{}
	for _, r := range rules.All() {
		codes = append(codes, r.Code)
		if len(r.Options) > 0 {
			spec := config.OptionSpec{}
			for _, o := range r.Options {
				spec[o.Name] = config.OptionAny
			}
			opts[r.Code] = spec
		}
	}
	return config.Registry{Codes: codes, Options: opts}
}

// Run checks the tree under opts.Root. Its errors are a cancelled ctx or an
// analyzer that could not run (such as an invalid rule option, which config
// validation normally catches first), and [errPacksNotStarted] when the
// configuration has rule packs and opts.Packs is nil. Run never closes
// opts.Packs.
func Run(ctx context.Context, opts Options) (*Result, error) {
	cfg := opts.Config
	if cfg == nil {
		cfg = config.Default()
	}
	if len(cfg.Plugins) > 0 && opts.Packs == nil {
		return nil, errPacksNotStarted
	}
	g, err := openGate(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer g.close()
	overlay := opts.Overlay
	if opts.Staged {
		overlay = nil
	}
	lr, err := load.Load(ctx, g.loadRoot, load.Options{Examples: opts.Examples, Overlay: overlay})
	if err != nil {
		return nil, err
	}
	r := &run{opts: opts, cfg: cfg, load: lr, gate: g}
	sources := make(map[string][]byte, len(lr.Files))
	for _, f := range lr.Files {
		if f.Doc != nil {
			r.docs = append(r.docs, f.Doc)
			sources[f.Path] = f.Doc.Src
			if f.Doc.RevisionOK {
				r.valid = append(r.valid, f.Doc)
			}
		}
	}
	found, err := runAnalyzers(ctx, r)
	if err != nil {
		return nil, err
	}
	// Analyzers may amend the load's diagnostics, so they are taken last.
	all := append(append(diag.List{}, lr.Diagnostics...), found...)
	out, unused := config.Apply(cfg, all)
	out = append(out, configDiagnostics(cfg, unused, opts.Root, sources)...)
	out.Sort()
	out, fps := g.finish(r, out, opts.NewOnly)
	res := &Result{
		Load:        lr,
		Diagnostics: out,
		Files:       len(lr.Files),
		Artifacts:   lr.State.Artifacts(),
		Revisions:   lr.State.RevisionCount(),
		sources:     sources,
	}
	res.Fingerprints = fps
	return res, nil
}

// runAnalyzers runs [concurrent] in the background while [analyzers] run in
// sequence, and returns their diagnostics in that order (analyzers, then
// concurrent ones) whatever finished first. The first error in the same
// order wins; the background analyzers are cancelled and waited for before
// runAnalyzers returns, so no rule pack outlives it.
func runAnalyzers(ctx context.Context, r *run) (diag.List, error) {
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		ds  diag.List
		err error
	}
	bg := make([]chan result, len(concurrent))
	for i, a := range concurrent {
		bg[i] = make(chan result, 1)
		go func() {
			ds, err := a(bctx, r)
			bg[i] <- result{ds, err}
		}()
	}
	var found diag.List
	var firstErr error
	for _, a := range analyzers {
		ds, err := a(ctx, r)
		if err != nil {
			firstErr = err
			cancel()
			break
		}
		found = append(found, ds...)
	}
	for _, ch := range bg {
		res := <-ch
		if firstErr == nil {
			if res.err != nil {
				firstErr = res.err
				cancel()
			}
			found = append(found, res.ds...)
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return found, nil
}

// Source returns the bytes of the file at root-relative path, or nil when
// it was not read.
func (r *Result) Source(path string) []byte { return r.sources[path] }

// configDiagnostics reports the unused ignore entries of cfg with a path
// relative to root, like every other diagnostic (it may start with "../"),
// and adds the configuration's text to sources for snippets.
func configDiagnostics(cfg *config.Config, unused []config.IgnoreEntry, root string, sources map[string][]byte) diag.List {
	ds := config.UnusedIgnoreDiagnostics(cfg, unused)
	if len(ds) == 0 || cfg.File == "" {
		return ds
	}
	rel, err := filepath.Rel(root, cfg.File)
	if err != nil {
		return ds
	}
	rel = filepath.ToSlash(rel)
	if data, err := os.ReadFile(cfg.File); err == nil {
		sources[rel] = data
	}
	for i := range ds {
		ds[i].Path = rel
	}
	return ds
}
