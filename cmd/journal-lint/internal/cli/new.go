package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/draft"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/internal/safetext"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

func newCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "new",
		Usage: "write the draft of the next revision of an artifact (or its genesis)",
		UsageText: "journal-lint new [--root DIR] [--version V] COORDINATE\n" +
			"journal-lint new [--root DIR] [--version V] --genesis --description TEXT COORDINATE\n\n" +
			"Writes <root>/<COORDINATE>/<V>.journal and prints its path. The successor draft is the\n" +
			"head's text with PREDECESSOR set to the head's digest and JOURNAL_VERSION set to V\n" +
			"(default: now, in UTC); edit it before committing. --genesis starts a new artifact.\n" +
			"It never overwrites a file and refuses to draft from an invalid tree.\n" +
			"Exit codes: 0 written, 1 the tree is invalid, 2 usage error, 3 journal-lint failed.\n\n" +
			"Examples:\n" +
			"   journal-lint new --root journals com.example.widget\n" +
			"   journal-lint new --root journals --genesis --description \"A tiny UI toolkit\" com.example.gadget",
		Flags: append(rootFlags(),
			&ucli.StringFlag{Name: "version", Usage: "the new revision's JOURNAL_VERSION `V` (YYYYMMDDTHHMMSSZ; default: now in UTC)"},
			&ucli.BoolFlag{Name: "genesis", Usage: "start a new artifact: write its first revision"},
			&ucli.StringFlag{Name: "description", Usage: "the artifact's DESCRIPTION `TEXT` (with --genesis)"},
			cacheFlag(),
		),
		Action: runNew,
	}
}

func runNew(c *ucli.Context) error {
	co, err := parseCoordinateArg(c)
	if err != nil {
		return err
	}
	genesis := c.Bool("genesis")
	switch {
	case genesis && !c.IsSet("description"):
		return usageErrorf("--genesis needs --description TEXT")
	case !genesis && c.IsSet("description"):
		return usageErrorf("--description is only for --genesis (a successor keeps its predecessor's DESCRIPTION)")
	}
	if err := checkDescription(c.String("description")); err != nil {
		return err
	}
	version, err := newVersion(c)
	if err != nil {
		return err
	}
	s, err := loadSettings(c, c.String("root"))
	if err != nil {
		return err
	}
	if err := s.requireRoot(); err != nil {
		return err
	}
	if err := notInFuture(s, version); err != nil {
		return err
	}
	if _, err := os.Stat(s.root); os.IsNotExist(err) {
		mkdir := s.root // the command to run, so relative to where it runs
		if wd, err := os.Getwd(); err == nil {
			mkdir = outpath.Rel(wd, s.root)
		}
		return usageErrorf("the Journal root %s does not exist; create it first (mkdir -p %s)", shownRoot(c.Context, s.root), mkdir)
	}
	// The tree streams: what is kept of it is its diagnostics and the
	// chain of co, whose head's text is read again to draft from.
	var chain []string // the files of co's accepted revisions, genesis first
	visit := func(a *load.Artifact) {
		if a.Dir == co.String() {
			for _, e := range a.Chain {
				chain = append(chain, e.Source)
			}
		}
	}
	// An artifact that a check took into the cache is not read again
	// (check.Records); the one drafted from always is.
	store, err := openCache(c)
	if err != nil {
		return err
	}
	recs, err := check.OpenRecords(c.Context, check.RecordsOptions{Root: s.root, Examples: s.examples, Config: s.cfg, Cache: store,
		Fresh: func(dir string, _ []string) bool { return dir == co.String() }})
	if err != nil {
		return usageErrorf("%v", err)
	}
	defer recs.Close()
	lr, err := load.Load(c.Context, s.root, recs.Options(load.Options{Examples: s.examples, ShownRoot: shownRoot(c.Context, s.root), DropDocs: true, Visit: visit}))
	if err != nil {
		return err
	}
	recs.Loaded()
	if !lr.Valid() {
		var invalid []diag.Diagnostic
		for _, d := range lr.Diagnostics {
			if d.Severity == diag.Error && rules.IsValidity(d.Code) {
				invalid = append(invalid, d)
			}
		}
		printDiagnostics(c.Context, c.App.ErrWriter, s.root, invalid)
		return &exitError{code: ExitFindings, err: fmt.Errorf("refusing to write a draft: the tree under %s is invalid (%s); run %s for details", shownRoot(c.Context, s.root), plural(len(invalid), "error"), rerun(c, "check"))}
	}

	var text []byte
	example := false
	note := "" // said after the draft is written
	if genesis {
		if len(chain) > 0 {
			return usageErrorf("%s already has %s; leave out --genesis to draft its next revision", co, plural(len(chain), "revision"))
		}
		if n := onlyExamples(s, co.String()); n > 0 {
			// Examples are no runtime Journals, so the genesis is valid;
			// where they are read too, it is a second one.
			note = fmt.Sprintf("journal-lint: note: %s also has %s under %s: where examples are read (--examples), this genesis is a second one (chain/duplicate-genesis); "+
				"to draft the examples' next revision instead, delete it and run %s\n",
				co, plural(n, "*.journal.example file"), shownRoot(c.Context, s.root), safetext.Text(rerun(c, "new", "--examples", co.String())))
		}
		if text, err = draft.Genesis(co, version, c.String("description")); err != nil {
			return usageErrorf("--description: %v", err)
		}
	} else {
		if len(chain) == 0 {
			return noArtifact(s, co, true)
		}
		head := chain[len(chain)-1]
		doc := lr.Doc(head) // nil when the file no longer holds the accepted bytes
		if doc == nil {
			return usageErrorf("the head of %s (%s) changed while the tree was loaded; run journal-lint new again", co, head)
		}
		if text, err = draft.Successor(doc, version); err != nil {
			return usageErrorf("%v", err)
		}
		example = strings.HasSuffix(head, load.ExampleSuffix)
	}
	name := draft.Name(version, example)
	rel := co.String() + "/" + name
	if err := draft.Check(rel, text); err != nil {
		return usageErrorf("%v", err)
	}
	if _, err := draft.Write(s.root, co, name, text); err != nil {
		var ee *draft.ExistsError
		if errors.As(err, &ee) {
			return usageErrorf("%v", err)
		}
		return internalErrorf("%v", err)
	}
	fmt.Fprintln(c.App.Writer, outpath.Join(outpath.Prefix(c.Context, s.root), rel))
	fmt.Fprint(c.App.ErrWriter, note)
	return nil
}

// notInFuture refuses a Journal version that time/future-version would
// reject: later than now plus the rule's skew (default 24h). Such a revision
// would block every honest successor, which must be later still.
func notInFuture(s *settings, v vt.JournalVersion) error {
	skew, written := 24*time.Hour, "24h"
	if o, ok := s.cfg.Option(rules.TimeFutureVersion, "skew"); ok {
		if d, err := o.Duration(); err == nil {
			skew, written = d, fmt.Sprint(o.Value)
		}
	}
	if limit := time.Now().Add(skew); v.Time().After(limit) {
		return usageErrorf("--version %s is more than %s in the future; every successor would have to be later still (time/future-version)", v, written)
	}
	return nil
}

// newVersion is --version, or the current second in UTC.
func newVersion(c *ucli.Context) (vt.JournalVersion, error) {
	s := c.String("version")
	if s == "" {
		s = time.Now().UTC().Format("20060102T150405Z")
	}
	v, err := vt.ParseJournalVersion(s)
	if err != nil {
		return vt.JournalVersion{}, usageErrorf("--version: %v", err)
	}
	return v, nil
}

// checkDescription refuses a DESCRIPTION that is not valid UTF-8 (a Journal is
// UTF-8 text, "Lines and encoding" in docs/journal-format.md) or that holds a
// control character, a line break or an invisible format character such as a
// bidirectional override: they would be written into the Journal and later
// shown in terminals and CI logs, where they hide or forge text.
func checkDescription(s string) error {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return usageErrorf("--description is not valid UTF-8: byte %d is %s; a Journal is UTF-8 text", i+1, safetext.EscapeByte(s[i]))
		case safetext.Unsafe(r):
			return usageErrorf("--description holds %s at byte %d: control, line-break and invisible formatting characters (such as bidirectional overrides) are refused, since they hide or forge text where the DESCRIPTION is shown", safetext.Escape(r), i+1)
		}
	}
	return nil
}
