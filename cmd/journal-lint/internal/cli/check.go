package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/internal/progress"
	"github.com/r35157/journal-lint/internal/render"
	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/rules"
)

// informationURI is the tool's home page in SARIF output and rule help links.
const informationURI = "https://github.com/r35157/journal-lint"

// docsURI is the repository's docs/ directory, against which the links of a
// rule's documentation resolve outside docs/ ([rules.Rule.LinkedDoc]).
const docsURI = informationURI + "/blob/main/docs/"

func checkCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "check",
		Usage: "check a Journal tree and report every violation",
		UsageText: "journal-lint check [flags] [ROOT]\n" +
			"journal-lint check [flags] --file FILE [--file FILE]...\n\n" +
			"Loads ROOT (default: " + rootDefaultText + ")\n" +
			"through the same pipeline as the Journal service, keeps going after every problem, and\n" +
			"reports every diagnostic. ROOT holds one directory per artifact: pass the parent of an\n" +
			"artifact's directory, never a Journal file. --file checks drafts outside a tree on their\n" +
			"own: the validity of each text and the lint rules of one document (placement, chain,\n" +
			"deps/ and history rules need the tree and are skipped).\n" +
			"Exit codes: 0 no error, 1 errors (or more warnings than --max-warnings), 2 usage or\n" +
			"configuration error, 3 journal-lint failed.\n\n" +
			"Examples:\n" +
			"   journal-lint check data/nenjim/journals --examples\n" +
			"   journal-lint check --format sarif > journal-lint.sarif\n" +
			"   journal-lint check --format json --max-warnings 0 journals\n" +
			"   journal-lint check --file draft.journal\n" +
			"   journal-lint check --against origin/main --format github   (pull-request gate)\n" +
			"   journal-lint check --staged                                 (pre-commit hook)",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "format", Aliases: []string{"f"}, Usage: "output `FORMAT`: text, json, sarif or github (default: the config's format, else text)"},
			&ucli.StringFlag{Name: "config", Usage: "configuration `FILE` (default: .journal-lint.yaml in the working directory or a parent)"},
			&ucli.StringFlag{Name: "root", Usage: "Journal root `DIR`, as the other commands take it (the same as ROOT)"},
			&ucli.BoolFlag{Name: "examples", Usage: "load *.journal.example files as Journals too"},
			&ucli.IntFlag{Name: "max-warnings", Value: -1, Usage: "fail when there are more than `N` warnings (-1: no limit)"},
			&ucli.StringFlag{Name: "color", Value: "auto", Usage: "colour text output: `auto`, always or never (auto respects NO_COLOR)"},
			&ucli.BoolFlag{Name: "print-config", Usage: "print the effective configuration as YAML and exit"},
			&ucli.StringFlag{Name: "against", Usage: "append-only gate: Journal files that exist at git revision `REV` and were modified, deleted or renamed since are errors"},
			&ucli.BoolFlag{Name: "staged", Usage: "check the staged content (the git index) instead of the work tree; compares against origin/HEAD (through its merge base with HEAD) when the clone has it, else HEAD, unless --against is given"},
			&ucli.StringSliceFlag{Name: "file", Usage: "check the Journal text in `FILE` on its own, outside a tree (repeatable; - reads standard input)"},
			&ucli.BoolFlag{Name: "no-progress", Usage: "never show the progress line (shown on a terminal, with the text format, when a run takes more than a second)"},
			&ucli.BoolFlag{Name: "new-only", Usage: "with --against or --staged: report lint findings only on revisions added since the revision, less the deps/ findings carried over from the revision's accepted predecessor (validity errors are always reported)"},
			cacheFlag(),
		},
		Action: runCheck,
	}
}

func runCheck(c *ucli.Context) (err error) {
	setCheckGC()
	if c.NArg() > 1 {
		return usageErrorf("check takes at most one ROOT, got %d arguments%s", c.NArg(), extraRootHint(c))
	}
	root := c.Args().First()
	if c.IsSet("root") {
		if c.NArg() > 0 {
			return usageErrorf("check takes the root once: ROOT %q or --root %q", root, c.String("root"))
		}
		root = c.String("root")
	}
	files := c.StringSlice("file")
	if len(files) > 0 {
		switch {
		case root != "":
			return usageErrorf("--file checks files on their own; leave out ROOT %q (or check the tree without --file)", root)
		case c.IsSet("against") || c.Bool("staged") || c.Bool("new-only"):
			return usageErrorf("--file checks drafts outside git; --against, --staged and --new-only need a tree")
		}
		for _, f := range files {
			if fi, err := os.Stat(f); err == nil && fi.IsDir() {
				return usageErrorf("--file %q is a directory: --file takes Journal files (to check the tree: journal-lint check %s)", f, safetext.ShellWord(f))
			}
		}
	}
	// The rule packs start while the check runs; any error before theirs
	// is known gives way to it (packsFirst), and nothing is written until
	// it is.
	s, err := loadSettingsLaunching(c, root)
	if err != nil {
		return err
	}
	defer s.close()
	defer func() {
		if err != nil {
			err = packsFirst(s.ready, err)
		}
	}()
	formatName := s.cfg.Format
	if c.IsSet("format") || formatName == "" {
		formatName = c.String("format")
	}
	if formatName == "" && !c.IsSet("format") { // --format= is an unknown format
		formatName = "text"
	}
	format, err := render.ParseFormat(formatName, render.ReportFormats())
	if err != nil {
		return usageErrorf("%v", err)
	}
	color, err := colorChoice(c.String("color"), c.App.Writer)
	if err != nil {
		return err
	}
	maxWarnings := s.cfg.MaxWarnings
	if c.IsSet("max-warnings") {
		if maxWarnings = c.Int("max-warnings"); maxWarnings < -1 {
			return usageErrorf("--max-warnings must be -1 (unlimited) or a count of 0 or more, not %d", maxWarnings)
		}
	}
	if c.Bool("print-config") {
		if err := s.ready(); err != nil {
			return err
		}
		out, err := effectiveConfig(s, formatName, maxWarnings).Marshal()
		if err != nil {
			return internalErrorf("printing the configuration: %v", err)
		}
		_, err = c.App.Writer.Write(out)
		return err
	}

	if c.Bool("new-only") && c.String("against") == "" && !c.Bool("staged") {
		return usageErrorf("--new-only needs --against REV (or --staged)")
	}
	if len(files) == 0 {
		if err := s.requireRoot(); err != nil {
			return err
		}
	}
	// A pack that fails to start, or a configuration that names codes no
	// pack has, stops the check.
	ctx, cancel := context.WithCancel(c.Context)
	defer cancel()
	go func() {
		if s.ready() != nil {
			cancel()
		}
	}()
	var res *check.Result
	prefix := "" // the output path of the root, found once: it may ask git
	if len(files) > 0 {
		opts := check.FilesOptions{Paths: files, Config: s.cfg, Now: time.Now()}
		opts.Locate, opts.Base = draftLocations(c.Context)
		if opts.Overlay, err = stdinDraft(c, files); err != nil {
			return err
		}
		res, err = check.RunFiles(ctx, opts)
	} else {
		prefix = outpath.Prefix(c.Context, s.root)
		store, cerr := openCache(c)
		if cerr != nil {
			return cerr
		}
		defer trimCache(c, store)
		against := c.String("against")
		if against == "" && c.Bool("staged") {
			against = publishedBase(c.Context, s.root)
		}
		opts := check.Options{Root: s.root, ShownRoot: outpath.Join(prefix, ""), Examples: s.examples, Config: s.cfg, Now: time.Now(),
			Against: against, Staged: c.Bool("staged"), NewOnly: c.Bool("new-only"), Packs: s.packs, Cache: store, Loaded: checkLoaded}
		var line *progress.Line
		if progress.Wanted(c.App.ErrWriter, format == render.Text, c.Bool("no-progress")) {
			line = progress.Start(c.App.ErrWriter, progress.Options{})
			defer line.Stop()
			opts.Progress = line
		}
		res, err = check.Run(ctx, opts)
		if line != nil {
			line.Stop() // cleared before anything else is written
		}
	}
	if err := s.ready(); err != nil {
		return err
	}
	var verify *check.ErrCacheVerify
	switch {
	case err == nil:
	case c.Context.Err() != nil:
		return err
	case errors.As(err, &verify):
		return internalErrorf("%v", err)
	default:
		return usageErrorf("%v", err)
	}
	report := render.Report{
		Root:        s.root,
		Diagnostics: res.Diagnostics,
		Summary:     render.Summary{Files: res.Files, Artifacts: res.Artifacts, Revisions: res.Revisions},
		Source:      res.Source,
		Rule:        ruleInfo,
		Tool:        render.ToolInfo{Name: "journal-lint", Version: SemVer(), InformationURI: informationURI},
	}
	report.Fingerprints = res.Fingerprints
	if res.GitSkipped != nil {
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: note: skipped the checks that ask git (repo/eol-conversion, and the explanation of chain errors by committed revisions): %s\n",
			safetext.Lines(res.GitSkipped.Error()))
	}
	if b := res.Baseline; b != nil {
		report.Baseline = &render.Baseline{Rev: b.Rev, Commit: b.Commit, MergeBase: b.MergeBase, Merge: b.Merge, Head: b.Head, RepositoryURI: b.RepositoryURI}
	}
	opts := render.Options{Color: color, PathPrefix: prefix, StepSummary: format == render.GitHub && os.Getenv("GITHUB_STEP_SUMMARY") != ""}
	if len(files) > 0 {
		report.Root, report.Summary.Alone = "", true
	}
	if err := render.Write(c.App.Writer, format, report, opts); err != nil {
		return internalErrorf("writing output: %v", err)
	}
	if len(files) > 0 {
		// (Files that could not be read are errors above, not checked.)
		if res.Files > 0 {
			own := "its"
			if res.Files > 1 {
				own = "their"
			}
			fmt.Fprintf(c.App.ErrWriter, "journal-lint: checked %s on %s own: placement, chain, deps/ and history rules need a tree and were skipped\n",
				plural(res.Files, "file"), own)
		}
	} else if !c.Bool("staged") { // (a staged check reads the index, not the root's path)
		if hint := rootHint(c.Context, s); hint != "" {
			fmt.Fprintf(c.App.ErrWriter, "journal-lint: hint: %s\n", strings.TrimPrefix(hint, "; "))
		}
	}
	if format == render.GitHub {
		if err := writeStepSummary(c.App.ErrWriter, report, opts); err != nil {
			return internalErrorf("writing the step summary: %v", err)
		}
	}
	if err := showLogPreview(c, res.Log, format == render.GitHub); err != nil {
		return internalErrorf("writing the step summary: %v", err)
	}
	if n := skippedExamples(res); n > 0 && res.Files == 0 {
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: no .journal files under %s; %s skipped (add --examples to check them)\n",
			shownRoot(c.Context, s.root), plural(n, "*.journal.example file"))
	} else if len(files) == 0 && res.Files == 0 && len(res.Diagnostics) == 0 {
		// An empty root is fine (a repository that starts out), but a
		// mistyped one should not pass unnoticed.
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: no Journal files under %s\n", shownRoot(c.Context, s.root))
	}
	warnings := 0
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Error {
			return findings()
		}
		if d.Severity == diag.Warning {
			warnings++
		}
	}
	if maxWarnings >= 0 && warnings > maxWarnings {
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: %s, more than --max-warnings %d\n", plural(warnings, "warning"), maxWarnings)
		return findings()
	}
	return nil
}

// skippedExamples is the number of *.journal.example files a tree check
// skipped (0 for --file).
func skippedExamples(res *check.Result) int {
	if res.Load == nil {
		return 0
	}
	return res.Load.SkippedExamples
}

// extraRootHint explains a second argument when the first is a Journal
// file: the shell expanded a glob such as journals/x/*.journal.
func extraRootHint(c *ucli.Context) string {
	if fi, err := os.Stat(c.Args().First()); err == nil && fi.Mode().IsRegular() {
		return " (to check Journal files on their own, use --file FILE for each)"
	}
	return ""
}

// writeStepSummary appends the Markdown summary to $GITHUB_STEP_SUMMARY when
// it is set (GitHub shows only a few annotations per step), within what is
// left of GitHub's limit on a step's summary after what the file holds. A
// summary without room is left out with a note on w.
func writeStepSummary(w io.Writer, r render.Report, opts render.Options) error {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	return appendStepSummary(w, path, func(f io.Writer, room int) error {
		return render.WriteStepSummary(f, r, opts, room)
	})
}

// appendStepSummary appends to the step summary at path what write writes
// within room bytes, room being what is left of GitHub's limit on a step's
// summary ([render.StepSummaryLimit]) after what the file holds: the one
// budget of every summary a step's commands write. When write returns
// [render.ErrStepSummaryFull] (having written nothing), a note says so on
// w and the error is nil.
func appendStepSummary(w io.Writer, path string, write func(f io.Writer, room int) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	err = write(f, render.StepSummaryLimit-int(min(fi.Size(), render.StepSummaryLimit)))
	if errors.Is(err, render.ErrStepSummaryFull) {
		fmt.Fprintf(w, "journal-lint: no step summary written: %v\n", err)
		err = nil
	}
	if err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// colorChoice decides whether text output is coloured.
func colorChoice(mode string, w any) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		f, _ := outputFile(w).(*os.File)
		return render.ColorWanted(f, nil), nil
	}
	return false, usageErrorf("--color must be auto, always or never, not %q", mode)
}

// ruleInfo describes a rule for the renderers.
func ruleInfo(code string) (render.RuleInfo, bool) {
	r, ok := rules.Lookup(code)
	if !ok {
		return render.RuleInfo{}, false
	}
	return render.RuleInfo{Code: r.Code, DefaultSeverity: r.DefaultSeverity, Summary: r.Summary, Doc: r.LinkedDoc(docsURI),
		HelpURI: docsURI + "rules.md#" + rules.Anchor(r.Code)}, true
}

// plural returns "1 warning" or "n warnings" for noun "warning".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// stdinDraft reads standard input for `--file -`, as the text of the draft
// named "-" (check.FilesOptions.Overlay), at most once and at most one
// byte over a Journal's limit (RunFiles reports the size); nil when no
// --file is "-".
func stdinDraft(c *ucli.Context, files []string) (map[string][]byte, error) {
	if n := slices.Index(files, "-"); n < 0 {
		return nil, nil
	} else if slices.Contains(files[n+1:], "-") {
		return nil, usageErrorf("standard input (--file -) can be read only once")
	}
	data, err := io.ReadAll(io.LimitReader(c.App.Reader, syntax.MaxSize+1))
	if err != nil {
		return nil, usageErrorf("reading standard input: %v", err)
	}
	return map[string][]byte{"-": data}, nil
}

// draftLocations returns how a check of drafts locates the files given on
// the command line, and the base it names them from (the rule of package
// outpath): the top of the work tree that holds the working directory,
// else the working directory. A path counts from the working directory as
// the system resolves it: every link on the way to the file's directory
// is followed before a ".." after it, and the file's own name is kept (a
// link is named as such). "-" (standard input) and a path through a
// directory that does not exist are not located: named as given. Nil when
// there is no working directory: the files are then named as given.
func draftLocations(ctx context.Context) (func(string) (string, bool), string) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, ""
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real
	}
	base, _ := outpath.Base(ctx, wd)
	if base == "" {
		return nil, ""
	}
	base = gitrepo.ResolveExisting(base)
	return func(p string) (string, bool) {
		if p == "-" || p == "" {
			return "", false
		}
		raw := p
		if !filepath.IsAbs(raw) {
			raw = wd + string(filepath.Separator) + raw
		}
		// The directory part as written: filepath.Dir would clean a "..".
		i := strings.LastIndexByte(raw, filepath.Separator)
		dir, name := raw[:i+1], raw[i+1:]
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return raw, false // no such directory: named as written
		}
		return filepath.Join(real, name), true
	}, base
}

// effectiveConfig returns the configuration check runs with: s.cfg with
// what the command line sets instead (the format, examples, the most
// warnings, and a ROOT given or found by default, then relative to the
// configuration file's directory as root: is, or else to the current
// directory), for --print-config.
func effectiveConfig(s *settings, format string, maxWarnings int) *config.Config {
	eff := *s.cfg // shallow: Marshal only reads
	eff.Format, eff.Examples, eff.MaxWarnings = format, s.examples, maxWarnings
	if s.root != "" && !s.rootFromConfig {
		base, err := os.Getwd()
		if eff.File != "" {
			base, err = filepath.Dir(eff.File), nil
		}
		rel := s.root
		if err == nil {
			if r, err := filepath.Rel(base, s.root); err == nil {
				rel = r
			}
		}
		eff.Root = filepath.ToSlash(rel)
	}
	return &eff
}
