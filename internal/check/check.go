// Package check is the engine behind `journal-lint check`: it runs the one
// validation path (package load) in collect-all mode, then its analyzers
// (the lint rules of package internal/lint, and the others listed in [analyzers]),
// and applies the configuration (severity overrides, rules turned off,
// ignore entries). It never changes what is valid: validity diagnostics pass
// through the configuration untouched.
package check

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/source"
	"github.com/r35157/journal-lint/rules"

	"github.com/r35157/journal-lint/internal/readfile"
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
	// modified, deleted or renamed since are errors (revisions.go).
	Against string
	// Staged loads the git index (the staged content) instead of the work
	// tree, and compares against HEAD unless Against names a revision.
	Staged bool
	// NewOnly keeps lint findings only on revisions added since Against.
	NewOnly bool
	// Overlay maps root-relative paths to unsaved buffer contents that stand
	// in for the files on disk (load.Overlay): an editor checks its
	// buffers in the context of the tree. It is ignored with Staged.
	Overlay map[string][]byte
	// Packs are the rule packs of Config, started by plugin.Launch (or
	// plugin.Start) for the same Config and owned by the caller, who closes
	// them after Run; nil when Config has none (Run fails when it has
	// some). Packs that are still starting let the load begin: its first
	// visit waits for them.
	Packs *plugin.Packs
	// KeepState keeps every parsed document and the accepted state in
	// Result.Load, for a caller that queries them afterwards (the language
	// server). Without it the tree streams and Result.Load holds only
	// per-file summaries and the sources that diagnostics point into.
	KeepState bool
	// Workers is the number of files read and parsed in parallel (and of
	// chain heads linted after the load); 0 means GOMAXPROCS. The result
	// does not depend on it.
	Workers int
	// Progress, when set, follows the reading of the tree's files
	// (load.Options.Progress), such as a progress line on a terminal.
	Progress load.Progress
	// Loaded, when set, is called once the tree is loaded, before the
	// rules that need all of it, the git gate's judgements and the
	// report: what the run allocates from then on is small beside what
	// the load keeps, which lets the command line lower the garbage
	// collector's goal there (cli/gc.go). It is called once per run.
	Loaded func()
	// Prior is an earlier Result of Run for the same Root and Examples,
	// both with KeepState and without Against or Staged: the artifacts
	// that did not change since are taken over from it instead of being
	// read, parsed and linted again (reuse.go; load.Options.Prior says what
	// counts as unchanged, and what the caller answers for about the
	// files on disk). Without Rescan, what Prior learned from git about a
	// work tree (its files at HEAD and in the index, their attributes) is
	// taken over too: the caller answers for the repository as for the
	// files. Ignored when it does not fit.
	Prior *Result
	// Rescan, with Prior, lists the tree again and takes over only the
	// artifact directories whose files have the sizes and modification
	// times Prior recorded (load.Options.Rescan), and asks git again
	// unless the repository's stamp (gitrepo.Repo.Stamp: index, HEAD and
	// refs, configuration, attribute files) is the one Prior took.
	Rescan bool
	// ShownRoot is how messages about the root itself name it
	// (load.Options.ShownRoot); "" names it by Root.
	ShownRoot string
	// Cache is the persistent cache to take unchanged artifacts from and
	// keep this run's findings in (memo.go); nil uses none. A check with
	// rule packs, KeepState, Overlay or Prior uses none either. Run
	// neither trims nor closes it.
	Cache *memo.Store

	// wholeTree keeps a staged check from taking the tree from a summary
	// (summary.go), for the check that one started over.
	wholeTree bool
}

// Result is what a check found.
type Result struct {
	// Load is the loader's result: files and diagnostics, with
	// Options.KeepState also every document and the accepted state. Its
	// diagnostics are what the load found: the git gate's notes on them
	// (diag.Note) are only in Diagnostics.
	Load *load.Result
	// Diagnostics are every diagnostic after configuration, sorted by path,
	// line, column and code.
	Diagnostics diag.List
	// Files, Artifacts and Revisions count the Journal files read, the
	// artifacts and the accepted revisions.
	Files, Artifacts, Revisions int
	// Baseline is the commit the gate compared with (--against, or HEAD
	// for --staged); nil without a gate.
	Baseline *Baseline
	// GitSkipped says why a check of a work tree (without --against or
	// --staged) skipped what it asks git (repo/eol-conversion, and the
	// explanations of chain diagnostics by committed revisions): the
	// *gitrepo.UnsafeRepositoryError of a repository git refuses. It is
	// nil when git answered, or when the root lies in no repository.
	GitSkipped error
	// Fingerprints are the stable fingerprints of Diagnostics by index, set
	// when comparing against a revision (render.Report.Fingerprints).
	Fingerprints map[int]string
	// Reused and Computed count the artifacts taken from the cache's
	// records and those read and checked, with Options.Cache; both 0
	// without one.
	Reused, Computed int
	// FromSummary counts the artifact directories a staged check took from
	// the cache's summary of HEAD's tree (summary.go) instead of reading
	// them; 0 when it read the whole tree.
	FromSummary int
	// Log is the transparency log's part of a check against a revision
	// (logGate); nil when the base configuration keeps no log, the base
	// has no checkpoint, or the log was found at fault.
	Log *LogPreview

	run *run
}

// run is the state an analyzer sees: the options, the effective
// configuration and the load result.
type run struct {
	opts Options
	cfg  *config.Config
	load *load.Result
	// gate is the git side of the run (gitgate.go); never nil in Run.
	gate *gate
	// memo is the run's use of the persistent cache (memo.go); nil for
	// none.
	memo *checkMemo
	// packs returns the stream that runs the rule packs over the
	// documents as the load visits them (packStream), started at the
	// first call, which waits for packs that are still starting; it
	// returns nil without rule packs, and the packs' start-up error.
	packs func() (*plugin.Stream, error)
	// visitor and heads hold the per-artifact findings and those of the
	// head-only rules, for a later run that takes this one as
	// Options.Prior.
	visitor *visitor
	heads   *headCache
	mu      sync.Mutex
	sources map[string][]byte // sources kept after the load, by path
	// logPreview is what logGate found of the transparency log.
	logPreview *LogPreview
	// paths are the value paths of the diagnostics, for the gate's
	// fingerprints and the cache's records (keepsPaths).
	paths valuePaths
	// sum is the run's use of tree summaries (summary.go); nil for none.
	sum *summaryUse
	// read is the source the load read: the gate's, with the editor's
	// buffers over it (load.Overlay).
	read source.Source
}

// keepSource records src as the text of the file at path, for snippets of
// diagnostics found after the load dropped its document.
func (r *run) keepSource(path string, src []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sources == nil {
		r.sources = map[string][]byte{}
	}
	r.sources[path] = src
}

// An analyzer adds diagnostics to a check after loading, and notes on the
// load's diagnostics (diag.Note; only the git gate has some), which Run
// applies (diag.Amend) before the configuration. Each lives in its own
// file of this package.
type analyzer func(ctx context.Context, r *run) (diag.List, []diag.Note, error)

// analyzers run after loading, in this order; their diagnostics are merged
// and sorted. The analyzers that look at one artifact at a time run while
// the tree streams instead (see [visitor]).
var analyzers = []analyzer{
	gitGate,
	logGate,
}

// concurrent analyzers start right after loading and run alongside
// [analyzers] (a rule pack works in its own process, so the built-in
// analyzers need not wait for it). They only read the run. Their
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
	return config.Registry{Codes: codes, Options: opts, CheckValue: func(code, name, text string) error {
		r, _ := rules.Lookup(code) // known: config.Validate asks only of those
		_, err := r.ParseOptions(map[string]string{name: text})
		return err
	}}
}

// Run checks the tree under opts.Root. Its errors are a cancelled ctx or an
// analyzer that could not run (such as an invalid rule option, which config
// validation normally catches first), the start-up error of opts.Packs
// (plugin.Packs.Wait), and [errPacksNotStarted] when the configuration has
// rule packs and opts.Packs is nil. Run never closes opts.Packs.
//
// The tree streams through the load: each artifact's documents are linted
// and its chain diffed as soon as the artifact is read, and then dropped,
// so memory holds the artifacts in flight, one summary per revision and
// the diagnostics. Rule packs get the documents as the load visits them
// (plugin.Stream), a batch at a time, and let each batch go once they
// answered. The git gate reads again, through the load's source, the few
// documents it needs afterwards (load.Result.Doc).
func Run(ctx context.Context, opts Options) (*Result, error) {
	cfg := opts.Config
	if cfg == nil {
		cfg = config.Default()
	}
	if len(cfg.Plugins) > 0 && opts.Packs == nil {
		return nil, errPacksNotStarted
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now() // one time for the whole run, and its records
	}
	prior := priorRun(opts)
	opts.Prior = nil // a run must not keep the chain of all earlier ones alive
	r := &run{opts: opts, cfg: cfg}
	sum, err := newSummaryUse(r, prior)
	if err != nil {
		return nil, err
	}
	r.sum = sum
	defer sum.wait() // no question to git outlives the run
	// Without rule packs to wait for, the cache's records are read while
	// git lists the tree (memo.Store.Table reads in the background),
	// unless a summary may stand for them.
	var early *checkMemo
	var earlyErr error
	opened := len(cfg.Plugins) == 0 && (sum == nil || !sum.mayUse)
	if opened {
		early, earlyErr = openMemo(r)
	}
	g, err := openGate(ctx, opts, prior, sum)
	if err != nil {
		return nil, err
	}
	defer g.close()
	if sum.readsChanged() {
		g.askAttributes(ctx, g.src.(*source.Git).Paths)
	}
	overlay := opts.Overlay
	if opts.Staged {
		overlay = nil
	}
	r.gate = g
	perDoc, perHead, err := lintConfig(r)
	if err != nil {
		return nil, err
	}
	switch {
	case sum != nil && sum.hit:
		// The summary stands for the records of the unchanged
		// directories; the changed ones have none.
	case opened:
		r.memo, err = early, earlyErr
	default:
		r.memo, err = openMemo(r)
	}
	if err != nil {
		return nil, err
	}
	if r.memo != nil {
		r.memo.perDoc = perDoc
	}
	if err := g.fromCache(ctx, r.memo); err != nil {
		return nil, err
	}
	g.askLoadAttributes(ctx)
	if err := g.trustBase(ctx, r.memo, cfg); err != nil {
		return nil, err
	}
	v := newVisitor(r, perDoc)
	r.packs = sync.OnceValues(func() (*plugin.Stream, error) { return packStream(ctx, r) })
	defer func() {
		if st, _ := r.packs(); st != nil {
			st.Close()
		}
	}()
	var priorHeads *headCache
	if sameRules(prior, r) {
		v.prior, priorHeads = prior.visitor, prior.heads
	}
	keepDocs := opts.KeepState
	r.read = load.Overlay(opts.Root, g.src, overlay)
	lopts := load.Options{Examples: opts.Examples, Workers: opts.Workers, Visit: v.visit, DropDocs: !keepDocs, Progress: opts.Progress, ShownRoot: opts.ShownRoot, Source: r.read}
	if !keepDocs {
		// The visitor keeps no document past its visit, and rule packs get
		// theirs while the tree streams (plugin.Stream): unless no pack
		// needs them, they read the directives and models later. The load
		// asks after each visit, which waited for the packs.
		lopts.Recycle = func() bool {
			st, _ := r.packs()
			return st == nil || st.Recyclable()
		}
	}
	if prior != nil {
		lopts.Prior, lopts.Rescan = prior.load, opts.Rescan
	}
	if r.memo != nil {
		lopts.Memo = r.memo
	}
	lr, err := load.Load(ctx, opts.Root, lopts)
	if err != nil {
		return nil, err
	}
	if sum.needsWholeTree(lr.Diagnostics) {
		g.close()
		opts.wholeTree = true
		return Run(ctx, opts)
	}
	if sources, ok := g.probed(); ok && r.memo != nil {
		r.memo.table.Put("", vouchedKey, sources) // committed with the run's records
	}
	v.prior = nil
	r.load, r.visitor = lr, v
	if opts.Loaded != nil {
		opts.Loaded()
	}
	g.askAhead(ctx)
	var tree *lint.StaticTree
	if prior != nil && prior.heads != nil && sameTreeHeads(v.trees, prior.visitor.trees) {
		tree = prior.heads.tree // built by the same code from the same heads, and never changed
	} else {
		tree = buildTree(sum.treeHeads(v))
	}
	r.heads = newHeadCache(tree, priorHeads)
	chainHeads := v.heads()
	var dirTrees map[string][]treeHead // for the tree's summary
	if sum != nil {
		dirTrees = v.treesByDir()
	}
	if !opts.KeepState {
		v.dropHeads() // the tree and chainHeads hold what is left of them
	}
	heads, err := headRules(ctx, r, perHead, r.heads, chainHeads)
	r.heads.prior = nil
	if err != nil {
		return nil, err
	}
	clean := sum != nil && cleanForSummary(append([]diag.List{lr.Diagnostics, heads}, v.diags...)...)
	found, notes, err := runAnalyzers(ctx, r)
	if err != nil {
		return nil, err
	}
	// After the analyzers: the records wait for the rule packs' findings.
	if err := r.memo.commit(); err != nil {
		return nil, err
	}
	if err := sum.keep(r, dirTrees, clean); err != nil {
		return nil, err
	}
	// The lists are copied once, into a list of their total length: a rule
	// pack may bring tens of thousands of findings.
	all := slices.Concat(append(append(append([]diag.List{diag.Amend(lr.Diagnostics, notes)}, v.diags...), heads), found...)...)
	if !opts.KeepState {
		// Only a later run (KeepState) takes the visitor and the heads
		// over: the report need not hold them.
		r.visitor, r.heads = nil, nil
	}
	if all, err = g.reviseWorkTree(ctx, r, all); err != nil {
		return nil, err
	}
	out, unused := config.Apply(cfg, cfg.RootRel(opts.Root), all)
	out = append(out, configDiagnostics(cfg, unused, opts.Root, r)...)
	out.FillFileRanges()
	out.Sort()
	out, fps := g.finish(r, out, opts.NewOnly, headJudge{tree: tree, rc: perHead})
	files, chains, revisions := sum.counts()
	res := &Result{
		Load:        lr,
		Diagnostics: out,
		Files:       files + len(lr.Files),
		Artifacts:   chains + lr.Chains,
		Revisions:   revisions + lr.Revisions,
		run:         r,
	}
	res.Fingerprints = fps
	res.Baseline = g.baseline(ctx)
	res.GitSkipped = g.skipped
	res.Log = r.logPreview
	if r.memo != nil {
		res.Reused, res.Computed = int(r.memo.reused.Load()), int(r.memo.computed.Load())
	}
	if sum != nil && sum.hit {
		res.FromSummary = len(sum.old)
	}
	return res, nil
}

// runAnalyzers runs [concurrent] in the background while [analyzers] run in
// sequence, and returns the list of diagnostics of each, in that order
// (analyzers, then concurrent ones) whatever finished first, and all their
// notes in the same order. The first error in the same order wins; the
// background analyzers are cancelled and waited for before runAnalyzers
// returns, so no rule pack outlives it.
func runAnalyzers(ctx context.Context, r *run) ([]diag.List, []diag.Note, error) {
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		ds    diag.List
		notes []diag.Note
		err   error
	}
	bg := make([]chan result, len(concurrent))
	for i, a := range concurrent {
		bg[i] = make(chan result, 1)
		go func() {
			ds, notes, err := a(bctx, r)
			bg[i] <- result{ds, notes, err}
		}()
	}
	var found []diag.List
	var notes []diag.Note
	var firstErr error
	for _, a := range analyzers {
		ds, ns, err := a(ctx, r)
		if err != nil {
			firstErr = err
			cancel()
			break
		}
		found, notes = append(found, ds), append(notes, ns...)
	}
	for _, ch := range bg {
		res := <-ch
		if firstErr == nil {
			if res.err != nil {
				firstErr = res.err
				cancel()
			}
			found, notes = append(found, res.ds), append(notes, res.notes...)
		}
	}
	if firstErr != nil {
		return nil, nil, firstErr
	}
	return found, notes, nil
}

// Source returns the bytes of the file at root-relative path, or nil when
// it was not read or has no diagnostic (the streaming load keeps only the
// sources that snippets need).
func (r *Result) Source(path string) []byte {
	if r.Load != nil {
		if src := r.Load.Source(path); src != nil {
			return src
		}
	}
	return r.run.sources[path]
}

// configDiagnostics reports the unused ignore entries of cfg and, for a
// check against a revision, its changed plugins: entries and protected
// settings (trust.go), with a path relative to root like every other
// diagnostic (it may start with "../"), and adds the configuration's text
// to sources for snippets.
func configDiagnostics(cfg *config.Config, unused []config.IgnoreEntry, root string, r *run) diag.List {
	ds := config.UnusedIgnoreDiagnostics(cfg, cfg.RootRel(root), unused)
	if cfg.File == "" || (len(ds) == 0 && cfg.Base == "") {
		return ds
	}
	data, err := readfile.Read(cfg.File, readfile.Options{Max: readfile.MaxConfig})
	if err != nil {
		data = nil
	}
	ds = append(ds, pluginsChanged(cfg, data)...)
	ds = append(ds, gateChanged(cfg, data)...)
	rel, err := filepath.Rel(root, cfg.File)
	if err != nil || len(ds) == 0 {
		return ds
	}
	rel = filepath.ToSlash(rel)
	if data != nil {
		r.keepSource(rel, data)
	}
	for i := range ds {
		ds[i].Path = rel
	}
	return ds
}
