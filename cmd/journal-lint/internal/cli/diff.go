package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/internal/render"
	"github.com/r35157/journal-lint/internal/render/diffrender"
	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// diffCommand is `journal-lint diff` (issue 4): semantic diffs between
// revisions, with a CI gate on what changed.
func diffCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "diff",
		Usage: "show what a revision changes in an artifact's worldview",
		UsageText: "journal-lint diff [flags] OLD.journal NEW.journal\n" +
			"journal-lint diff [flags] [--root DIR] COORDINATE [--from V] [--to V | --all]\n" +
			"journal-lint diff [flags] [--root DIR] --all\n" +
			"journal-lint diff [flags] [--root DIR] (--staged | --against REV) [COORDINATE]\n\n" +
			"Compares revisions as models: releases by version, content by name, dependencies,\n" +
			"exclusions and preferences by coordinate. With two files it compares them; with a\n" +
			"COORDINATE it compares the head with its predecessor, --from and --to pick any two\n" +
			"revisions by Journal version, and --all compares every consecutive pair, oldest first\n" +
			"(of every chain of the tree when no COORDINATE is given).\n" +
			"--staged and --against compare only the revisions a commit adds: the staged new files,\n" +
			"or the files new since the merge base of REV and HEAD, each with its predecessor.\n" +
			"Levels come from the history/<kind> rules and may be changed in .journal-lint.yaml.\n\n" +
			"Exit codes: 0 no change at or above --fail-on, 1 such changes, 2 usage error or input\n" +
			"that cannot be compared (unreadable, or not a valid Journal), 3 journal-lint failed.\n\n" +
			"Examples:\n" +
			"   journal-lint diff old.journal new.journal\n" +
			"   journal-lint diff --root data/nenjim/journals --examples --all net.example.quill\n" +
			"   journal-lint diff --format markdown --fail-on warning com.example.widget\n" +
			"   journal-lint diff --staged --fail-on warning              (pre-commit hook)\n" +
			"   journal-lint diff --against origin/main --format markdown (pull request)\n" +
			"   journal-lint diff --schema",
		Flags: append(rootFlags(),
			&ucli.StringFlag{Name: "from", Usage: "the old revision: Journal version `V` (COORDINATE mode)"},
			&ucli.StringFlag{Name: "to", Usage: "the new revision: Journal version `V` (COORDINATE mode; default the head)"},
			&ucli.BoolFlag{Name: "all", Usage: "compare every consecutive pair of the chain, oldest first (of every chain without COORDINATE)"},
			&ucli.BoolFlag{Name: "staged", Usage: "compare only the revisions the staged content (the git index) adds to HEAD, each with its predecessor"},
			&ucli.StringFlag{Name: "against", Usage: "compare only the revisions added since the merge base of git revision `REV` and HEAD, each with its predecessor"},
			&ucli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: text, json, markdown or github"},
			&ucli.BoolFlag{Name: "step-summary", Usage: "with --format markdown: append to the file $GITHUB_STEP_SUMMARY names instead of stdout, within what is left of GitHub's 1 MiB limit on a step's summary"},
			&ucli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 when a change at or above `LEVEL` exists: error, warning, info or none"},
			&ucli.StringFlag{Name: "color", Value: "auto", Usage: "colour text output: `auto`, always or never (auto respects NO_COLOR)"},
			&ucli.BoolFlag{Name: "schema", Usage: "print the JSON Schema of --format json and exit"},
			cacheFlag(),
		),
		Action: runDiff,
	}
}

func runDiff(c *ucli.Context) error {
	if c.Bool("schema") {
		if c.NArg() > 0 {
			return usageErrorf("--schema takes no arguments")
		}
		if _, err := c.App.Writer.Write(diffrender.Schema()); err != nil {
			return internalErrorf("writing output: %v", err)
		}
		return nil
	}
	format, err := render.ParseFormat(c.String("format"), render.DiffFormats())
	if err != nil {
		return usageErrorf("%v", err)
	}
	summary := ""
	if c.Bool("step-summary") {
		if format != render.Markdown {
			return usageErrorf("--step-summary writes the markdown format: add --format markdown")
		}
		if summary = os.Getenv("GITHUB_STEP_SUMMARY"); summary == "" {
			return usageErrorf("--step-summary needs GITHUB_STEP_SUMMARY, the file of the step's summary")
		}
	}
	failOn, failOnAny, err := parseFailOn(c.String("fail-on"))
	if err != nil {
		return err
	}
	color, err := colorChoice(c.String("color"), c.App.Writer)
	if err != nil {
		return err
	}
	var (
		results []*diff.Result
		// after is the error to return once the results are written (diffAll).
		after  error
		prefix string
		cfg    *config.Config
	)
	switch c.NArg() {
	case 2:
		if c.Bool("all") || c.IsSet("from") || c.IsSet("to") || c.IsSet("root") || c.Bool("staged") || c.IsSet("against") {
			return usageErrorf("--all, --from, --to, --root, --staged and --against apply to a tree, not to two files")
		}
		s, err := loadSettings(c, "")
		if err != nil {
			return err
		}
		cfg = s.cfg
		r, err := diffFiles(c, c.Args().Get(0), c.Args().Get(1))
		if err != nil {
			return err
		}
		results = []*diff.Result{r}
	case 0, 1:
		if added := c.Bool("staged") || c.String("against") != ""; added {
			if c.Bool("all") || c.IsSet("from") || c.IsSet("to") {
				return usageErrorf("--staged and --against compare each added revision with its predecessor; leave out --all, --from and --to")
			}
		} else if c.NArg() == 0 && !c.Bool("all") {
			return usageErrorf("diff needs OLD NEW (two files), one COORDINATE, or --all for every chain")
		}
		if c.NArg() == 1 {
			if _, err := coordinateArg(c, c.Args().First(), diffArgs); err != nil {
				return err
			}
		}
		s, err := loadSettings(c, c.String("root"))
		if err != nil {
			return err
		}
		if err := s.requireRoot(); err != nil {
			return err
		}
		cfg = s.cfg
		if results, err = diffChain(c, s); err != nil {
			var de *deferredError
			if !errors.As(err, &de) {
				return err
			}
			after = de.err
		}
		prefix = outpath.Prefix(c.Context, s.root)
	default:
		return usageErrorf("diff needs OLD NEW (two files) or one COORDINATE, got %d arguments", c.NArg())
	}
	applyLevels(cfg, results)
	opts := diffrender.WriteOptions{Color: color, PathPrefix: prefix}
	switch {
	case len(results) == 0 && format == render.Text:
		// Nothing was compared, and standard error says why (or the error
		// after it does): a summary of no changes would only repeat it,
		// on every commit of the pre-commit hook.
	case summary != "":
		err = appendStepSummary(c.App.ErrWriter, summary, func(f io.Writer, room int) error {
			return diffrender.WriteStepSummary(f, results, opts, room)
		})
	default:
		err = diffrender.Write(c.App.Writer, format, results, opts)
	}
	if err != nil {
		return internalErrorf("writing output: %v", err)
	}
	if after != nil {
		return after
	}
	if failOnAny {
		for _, r := range results {
			for _, ch := range r.Changes {
				if ch.Level.AtLeast(failOn) {
					return findings()
				}
			}
		}
	}
	return nil
}

// parseFailOn returns the level of --fail-on, and false for none.
func parseFailOn(s string) (diag.Severity, bool, error) {
	if s == "none" {
		return diag.SeverityInvalid, false, nil
	}
	sev, err := rules.ParseSeverity(s)
	if err != nil {
		return sev, false, usageErrorf("--fail-on must be error, warning, info or none, not %q", s)
	}
	return sev, true, nil
}

// applyLevels applies the rules: overrides of history/<kind> to every
// change and drops the changes of rules set to off.
func applyLevels(cfg *config.Config, results []*diff.Result) {
	for _, r := range results {
		kept := r.Changes[:0]
		for _, ch := range r.Changes {
			sev, on := cfg.Severity(ch.Kind.Code(), ch.Level)
			if !on {
				continue
			}
			ch.Level = sev
			kept = append(kept, ch)
		}
		r.Changes = kept
	}
}

// cannotCompare prints the diagnostics of an invalid input and returns the
// usage error (exit 2) that says the input could not be compared.
func cannotCompare(c *ucli.Context, err error) error {
	var ie *diff.InvalidError
	if errors.As(err, &ie) {
		for _, d := range ie.Diagnostics {
			fmt.Fprintln(c.App.ErrWriter, safetext.Text(d.String()))
		}
		return usageErrorf("cannot compare: %s is not a valid journal (%s)", ie.Path, plural(len(ie.Diagnostics), "diagnostic"))
	}
	return usageErrorf("cannot compare: %v", err)
}

// diffFiles compares two files given on the command line.
func diffFiles(c *ucli.Context, oldPath, newPath string) (*diff.Result, error) {
	var docs [2]*syntax.Document
	for i, p := range []string{oldPath, newPath} {
		src, err := readfile.Read(p, readfile.Options{Max: syntax.MaxSize})
		if err != nil {
			hint := ""
			if _, cerr := vt.ParseCoordinate(p); cerr == nil && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, readfile.ErrNotRegular)) {
				hint = " (diff takes two files, or one COORDINATE with --from and --to for two of its revisions)"
			}
			return nil, usageErrorf("cannot compare: %s: %v%s", p, err, hint)
		}
		if docs[i], err = diff.Parse(outpath.Of(c.Context, p), src); err != nil {
			return nil, cannotCompare(c, err)
		}
	}
	r, err := diff.Compare(docs[0], docs[1], diff.Options{})
	if err != nil {
		return nil, cannotCompare(c, err)
	}
	return r, nil
}

// diffArgs ends the usage error of a COORDINATE argument of diff that is
// none.
const diffArgs = " (diff takes two files or one COORDINATE)"

// diffChain compares revisions of the chain of the COORDINATE argument, or
// of every chain of the tree for --all without a COORDINATE.
func diffChain(c *ucli.Context, s *settings) ([]*diff.Result, error) {
	if c.Bool("all") && (c.IsSet("from") || c.IsSet("to")) {
		return nil, usageErrorf("--all compares the whole chain and excludes --from and --to")
	}
	if c.NArg() == 0 && (c.IsSet("from") || c.IsSet("to")) {
		return nil, usageErrorf("--from and --to need a COORDINATE")
	}
	var only *vt.Coordinate
	if c.NArg() == 1 {
		co, err := coordinateArg(c, c.Args().First(), diffArgs)
		if err != nil {
			return nil, err
		}
		only = &co
	}
	if c.Bool("staged") || c.String("against") != "" {
		return diffAdded(c, s, only)
	}
	lr, err := load.Load(c.Context, s.root, load.Options{Examples: s.examples, ShownRoot: shownRoot(c.Context, s.root)})
	if err != nil {
		return nil, err
	}
	ch := chainsOf(lr.State)
	if only == nil {
		return diffAll(c, s, lr, ch, chainPick{})
	}
	rs, err := diffOne(c, s, lr, ch, *only, selection(c))
	if err == nil && len(rs) == 0 {
		// --all of a chain that is its genesis alone.
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: nothing to compare: %s has one accepted revision, its genesis\n", only)
	}
	return rs, err
}

// chains are the accepted revisions' files of the chains a diff may
// compare, genesis first, by coordinate.
type chains struct {
	coords  []vt.Coordinate // sorted
	sources map[vt.Coordinate][]string
}

// chainsOf returns every chain of st.
func chainsOf(st *chain.State) *chains {
	ch := &chains{coords: st.Coordinates(), sources: map[vt.Coordinate][]string{}}
	for _, co := range ch.coords {
		for _, e := range st.Entries(co) {
			ch.sources[co] = append(ch.sources[co], e.Source)
		}
	}
	return ch
}

// keep records the chain of the visited artifact a when keep says so
// (load.Options.Visit: safe for concurrent visits with mu).
func (ch *chains) keep(mu *sync.Mutex, a *load.Artifact, keep func(sources []string) bool) {
	if len(a.Chain) == 0 {
		return
	}
	sources := make([]string, len(a.Chain))
	for i, e := range a.Chain {
		sources[i] = e.Source
	}
	if !keep(sources) {
		return
	}
	co := a.Chain[0].Revision.Coordinate()
	mu.Lock()
	defer mu.Unlock()
	ch.sources[co] = sources
	ch.coords = append(ch.coords, co)
}

// chainPick narrows what diffAll compares: every pair of every chain by
// default.
type chainPick struct {
	// only is the one chain to compare; nil for every chain.
	only *vt.Coordinate
	// added keeps the pairs whose newer revision it names as new (the
	// other pairs are still compared, for the history of
	// release-resurrected), and the chains that have one; nil keeps all.
	added *check.Added
}

// diffAdded compares each revision that the staged content, or the branch
// since the merge base of --against and HEAD, adds with its predecessor
// (diff --staged, diff --against REV), in the chain only or in every
// chain. The tree is loaded as `check --staged` / `--against` loads it, and
// validity problems refuse the comparison as for --all.
func diffAdded(c *ucli.Context, s *settings, only *vt.Coordinate) ([]*diff.Result, error) {
	// The other artifacts are only checked for validity: those a check
	// took into the cache are not read again (check.Records), and with a
	// summary of HEAD's tree only the directories the index changes are
	// listed at all.
	store, err := openCache(c)
	if err != nil {
		return nil, err
	}
	for whole := false; ; whole = true {
		rs, again, err := diffAddedOnce(c, s, only, store, whole)
		if !again {
			return rs, err
		}
	}
}

// diffAddedOnce is diffAdded with the cache store, reading the whole
// index when whole is set; again says that the load must be made again
// with the whole index (check.Added.NeedsWholeTree).
func diffAddedOnce(c *ucli.Context, s *settings, only *vt.Coordinate, store *memo.Store, whole bool) (rs []*diff.Result, again bool, err error) {
	added, err := check.OpenAdded(c.Context, check.AddedOptions{Root: s.root, Against: c.String("against"), Staged: c.Bool("staged"), Examples: s.examples,
		Cache: store, Config: s.cfg, WholeTree: whole})
	if err != nil {
		if c.Context.Err() != nil {
			return nil, false, c.Context.Err()
		}
		return nil, false, usageErrorf("%v", err)
	}
	defer added.Close()
	// The tree streams: only the chains that gained a revision are kept,
	// and read again to be compared (diffOne).
	ch := &chains{sources: map[vt.Coordinate][]string{}}
	var mu sync.Mutex
	visit := func(a *load.Artifact) {
		ch.keep(&mu, a, func(sources []string) bool { return slices.ContainsFunc(sources, added.IsNew) })
	}
	recs, err := check.OpenRecords(c.Context, check.RecordsOptions{Root: s.root, Examples: s.examples, Config: s.cfg, Cache: store, Added: added,
		Fresh: func(_ string, paths []string) bool { return slices.ContainsFunc(paths, added.IsNew) }})
	if err != nil {
		return nil, false, usageErrorf("%v", err)
	}
	defer recs.Close()
	lr, err := load.Load(c.Context, s.root, recs.Options(load.Options{Examples: s.examples, Source: added.Source(), DropDocs: true, Visit: visit}))
	if err != nil {
		return nil, false, err
	}
	if added.NeedsWholeTree(lr.Diagnostics) {
		return nil, true, nil
	}
	slices.SortFunc(ch.coords, vt.Coordinate.Compare)
	rs, err = diffAll(c, s, lr, ch, chainPick{only: only, added: added})
	return rs, false, err
}

// diffAll compares every consecutive pair of every healthy chain of lr
// (--all without a COORDINATE), or what pick narrows it to. Chains whose
// revisions have validity errors cannot be compared: their diagnostics go
// to stderr and, after the other chains' diffs are written, diff exits 2
// (the pre-commit hook must not pass a broken chain). A stray file outside
// every artifact only warns. When nothing was compared, stderr says why.
func diffAll(c *ucli.Context, s *settings, lr *load.Result, ch *chains, pick chainPick) ([]*diff.Result, error) {
	invalid := map[string]diag.List{}
	var stray diag.List
	for _, d := range lr.Diagnostics {
		if d.Severity != diag.Error || !rules.IsValidity(d.Code) {
			continue
		}
		if d.Path == "" {
			return nil, usageErrorf("cannot compare: %s%s", d.Message, rootHint(c.Context, s))
		}
		if co, _, ok := strings.Cut(d.Path, "/"); ok {
			if pick.only == nil || co == pick.only.String() {
				invalid[co] = append(invalid[co], d)
			}
		} else {
			stray = append(stray, d)
		}
	}
	out := []*diff.Result{}
	for _, co := range ch.coords {
		if invalid[co.String()] != nil || (pick.only != nil && co != *pick.only) {
			continue
		}
		if pick.added != nil && !slices.ContainsFunc(ch.sources[co], pick.added.IsNew) {
			continue
		}
		rs, err := diffOne(c, s, lr, ch, co, diff.Selection{All: true})
		if err != nil {
			return nil, err
		}
		if pick.added != nil {
			rs = slices.DeleteFunc(rs, func(r *diff.Result) bool { return !pick.added.IsNew(r.New.Path) })
		}
		out = append(out, rs...)
	}
	if len(stray) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: warning: the tree under %s is invalid (%s outside every artifact, first %s); run %s\n",
			shownRoot(c.Context, s.root), plural(len(stray), "error"), safetext.Text(shownPath(c.Context, s.root, stray[0].Path)), safetext.Text(rerun(c, "check")))
	}
	if len(invalid) > 0 {
		n := 0
		names := slices.Sorted(maps.Keys(invalid)) // the chains in order, whatever the map's
		for _, co := range names {
			printDiagnostics(c.Context, c.App.ErrWriter, s.root, invalid[co])
			n += len(invalid[co])
		}
		return out, &deferredError{usageErrorf("cannot compare %s: %s (%s); run %s for details",
			plural(len(names), "chain"), safetext.Text(strings.Join(names, ", ")), plural(n, "error"), rerun(c, "check"))}
	}
	if len(out) == 0 && pick.added != nil {
		if pick.only != nil && len(ch.sources[*pick.only]) == 0 && !pick.added.HasArtifact(c.Context, pick.only.String()) {
			// A mistyped coordinate must not pass a hook for ever.
			return nil, noArtifact(s, *pick.only, false)
		}
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: nothing to compare: %s\n", noAddedWhy(s, ch, pick))
	} else if len(out) == 0 && pick.only == nil {
		why := fmt.Sprintf("no artifact under %s has two accepted revisions", shownRoot(c.Context, s.root))
		if n := lr.SkippedExamples; n > 0 && !s.examples {
			why += fmt.Sprintf("; %s skipped (add --examples to compare them)", plural(n, "*.journal.example file"))
		}
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: nothing to compare: %s\n", why)
	}
	return out, nil
}

// noAddedWhy says why diff --staged or --against compared nothing: no new
// revision, or only new genesis revisions, which have no predecessor.
func noAddedWhy(s *settings, ch *chains, pick chainPick) string {
	var geneses []string
	for _, co := range ch.coords {
		if pick.only != nil && co != *pick.only {
			continue
		}
		if es := ch.sources[co]; len(es) > 0 && pick.added.IsNew(es[0]) {
			geneses = append(geneses, co.String())
		}
	}
	where := "under " + shownRoot(context.Background(), s.root)
	if pick.only != nil {
		where = "of " + pick.only.String()
	}
	since := "was staged"
	if at := pick.added.At(); at != "" {
		since = "was added since " + at
	}
	if len(geneses) > 0 {
		return safetext.Text(fmt.Sprintf("the revisions added %s are geneses, which have no predecessor (%s)", where, strings.Join(geneses, ", ")))
	}
	return safetext.Text(fmt.Sprintf("no revision %s %s", where, since))
}

// deferredError is an error that runDiff returns after it has written the
// results that could be computed.
type deferredError struct{ err error }

func (e *deferredError) Error() string { return e.err.Error() }
func (e *deferredError) Unwrap() error { return e.err }

// diffOne compares revisions of the chain of co in the loaded tree lr.
func diffOne(c *ucli.Context, s *settings, lr *load.Result, ch *chains, co vt.Coordinate, sel diff.Selection) ([]*diff.Result, error) {
	// The root itself must be there; problems of other artifacts, and the
	// chain problems of this one, are check's business.
	for _, d := range lr.Diagnostics {
		if d.Path == "" && d.Severity == diag.Error {
			return nil, usageErrorf("cannot compare: %s", d.Message)
		}
	}
	// A chain with a validity error is refused as diffAll refuses it: the
	// revisions it accepted may skip one it rejected, and a pair of them
	// would pass for consecutive.
	var invalid diag.List
	prefix := co.String() + "/"
	for _, d := range lr.Diagnostics {
		if d.Severity == diag.Error && rules.IsValidity(d.Code) && strings.HasPrefix(d.Path, prefix) {
			invalid = append(invalid, d)
		}
	}
	if len(invalid) > 0 {
		printDiagnostics(c.Context, c.App.ErrWriter, s.root, invalid)
		return nil, usageErrorf("cannot compare: the revisions of %s are invalid (%s); run %s for details", co, plural(len(invalid), "error"), rerun(c, "check"))
	}
	sources := ch.sources[co]
	if len(sources) == 0 {
		return nil, noArtifact(s, co, false)
	}
	docs := make([]*syntax.Document, len(sources))
	for i, src := range sources {
		f := lr.File(src)
		if f == nil {
			return nil, internalErrorf("revision %s of %s has no parsed document", src, co)
		}
		if docs[i] = f.Doc; docs[i] == nil { // a load that dropped it reads it again
			if docs[i] = lr.Doc(src); docs[i] == nil {
				return nil, usageErrorf("cannot compare: %s changed while the tree was loaded", src)
			}
		}
	}
	rs, err := diff.CompareSelected(docs, sel)
	var se *diff.SelectionError
	if errors.As(err, &se) {
		return nil, usageErrorf("--%s: %v", se.Field, se.Err)
	}
	if err != nil {
		return nil, cannotCompare(c, err)
	}
	if backwards(sel) {
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: note: --from %s is later than --to %s: the diff goes back in time, so what was added after %s shows as removed; swap them to see the changes in order\n",
			*sel.From, *sel.To, *sel.To)
	}
	return rs, nil
}

// backwards reports whether sel names an old revision (--from) later
// than its new one (--to), both valid Journal versions.
func backwards(sel diff.Selection) bool {
	if sel.From == nil || sel.To == nil {
		return false
	}
	from, err1 := vt.ParseJournalVersion(*sel.From)
	to, err2 := vt.ParseJournalVersion(*sel.To)
	return err1 == nil && err2 == nil && from.Compare(to) > 0
}

// selection returns the revisions that --from, --to and --all pick.
func selection(c *ucli.Context) diff.Selection {
	sel := diff.Selection{All: c.Bool("all")}
	if c.IsSet("from") {
		v := c.String("from")
		sel.From = &v
	}
	if c.IsSet("to") {
		v := c.String("to")
		sel.To = &v
	}
	return sel
}
