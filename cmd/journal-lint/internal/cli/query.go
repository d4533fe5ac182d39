package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
	"github.com/r35157/journal-lint/suggest"

	"github.com/r35157/journal-lint/internal/safetext"
)

// rootFlags are the flags of the commands that read a tree.
func rootFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "root", Usage: "Journal root `DIR` (default: " + rootDefaultText + ")"},
		&ucli.BoolFlag{Name: "examples", Usage: "load *.journal.example files as Journals too"},
		&ucli.StringFlag{Name: "config", Usage: "configuration `FILE` (default: .journal-lint.yaml in the working directory or a parent)"},
	}
}

// queryExitCodes ends the help of log (graph: the note on --graph, and
// no release to be unknown) and show.
func queryExitCodes(graph bool) string {
	if graph {
		return "Exit codes: 0 shown, 1 the artifact's revisions are invalid (--graph draws them and exits 0),\n" +
			"2 usage error (bad flag, unknown artifact), 3 journal-lint failed."
	}
	return "Exit codes: 0 shown, 1 the artifact's revisions are invalid,\n" +
		"2 usage error (bad flag, unknown artifact, revision or release), 3 journal-lint failed."
}

// treeView is what log and show read: the accepted revisions of a loaded
// tree (the state the Journal service publishes when the tree is valid).
type treeView struct {
	s  *settings
	lr *load.Result
}

// openTree loads the tree the flags and configuration name and checks that
// co can be answered for. Like diff, it answers for a healthy chain of a
// tree that is invalid elsewhere (an unrelated stray file), with a warning
// on stderr that the Journal service would refuse the tree. The
// diagnostics of co's own files, and of the root, are printed and refuse
// the query (exit 1), unless tolerateChain is set (log --graph, which draws
// a broken chain).
func openTree(c *ucli.Context, co vt.Coordinate, tolerateChain bool) (*treeView, error) {
	s, err := loadSettings(c, c.String("root"))
	if err != nil {
		return nil, err
	}
	if err := s.requireRoot(); err != nil {
		return nil, err
	}
	// The tree streams: what is kept is the accepted state of co, compacted
	// so that it holds no text, and --graph reads co's files again. The
	// other artifacts are only checked for validity: those a check took
	// into the cache are not read (check.Records), and the state holds
	// only the artifacts that were read.
	store, err := openCache(c)
	if err != nil {
		return nil, err
	}
	recs, err := check.OpenRecords(c.Context, check.RecordsOptions{Root: s.root, Examples: s.examples, Config: s.cfg, Cache: store,
		Fresh: func(dir string, _ []string) bool { return dir == co.String() }})
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	defer recs.Close()
	lr, err := load.Load(c.Context, s.root, recs.Options(load.Options{Examples: s.examples, ShownRoot: shownRoot(c.Context, s.root), DropDocs: true, KeepState: true, Compact: true}))
	if err != nil {
		return nil, err
	}
	recs.Loaded()
	t := &treeView{s: s, lr: lr}
	if lr.Valid() {
		return t, t.known(co)
	}
	var own, other diag.List
	for _, d := range lr.Diagnostics {
		if d.Severity != diag.Error || !rules.IsValidity(d.Code) {
			continue
		}
		switch {
		case d.Path == "":
			return nil, usageErrorf("%s%s", d.Message, rootHint(c.Context, s))
		case strings.HasPrefix(d.Path, co.String()+"/"):
			own = append(own, d)
		default:
			other = append(other, d)
		}
	}
	if len(own) > 0 && !tolerateChain {
		printDiagnostics(c.Context, c.App.ErrWriter, s.root, own)
		return nil, &exitError{code: ExitFindings, err: fmt.Errorf("the revisions of %s are invalid (%s); run %s for details", co, plural(len(own), "error"), rerun(c, "check"))}
	}
	if len(other) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: warning: the tree under %s is invalid (%s in other artifacts or stray files, first %s); the Journal service would refuse it, run %s\n",
			shownRoot(c.Context, s.root), plural(len(other), "error"), safetext.Text(shownPath(c.Context, s.root, other[0].Path)), safetext.Text(rerun(c, "check")))
	}
	return t, t.known(co)
}

// known returns nil when co has accepted revisions, else the usage error
// that says so, with the hint to add --examples when co has only
// *.journal.example files.
func (t *treeView) known(co vt.Coordinate) error {
	if len(t.lr.State.Entries(co)) > 0 {
		return nil
	}
	return noArtifact(t.s, co, false)
}

// noArtifact is the usage error for a coordinate without accepted
// revisions under the root of s: the hint to add --examples when its
// directory holds only *.journal.example files, else "no artifact CO
// under ROOT" with the nearest artifact's name (nearArtifact) and, when
// start is set (new), how to start one.
func noArtifact(s *settings, co vt.Coordinate, start bool) error {
	root := shownRoot(context.Background(), s.root)
	if n := onlyExamples(s, co.String()); n > 0 {
		return usageErrorf("%s has only %s under %s; add --examples to read them", co, plural(n, "*.journal.example file"), root)
	}
	near := nearArtifact(s, co)
	switch {
	case start && near != "":
		return usageErrorf("no artifact %s under %s%s (to start one: --genesis --description TEXT)", co, root, near)
	case start:
		return usageErrorf("no artifact %s under %s; start one with --genesis --description TEXT", co, root)
	}
	return usageErrorf("no artifact %s under %s%s", co, root, near)
}

// onlyExamples returns the number of *.journal.example files in the
// artifact directory dir under the root of s when they are all it holds
// of Journals and s does not read them (no --examples), else 0.
func onlyExamples(s *settings, dir string) int {
	if s.examples {
		return 0
	}
	es, err := os.ReadDir(filepath.Join(s.root, dir))
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range es {
		switch {
		case strings.HasSuffix(e.Name(), load.ExampleSuffix):
			n++
		case strings.HasSuffix(e.Name(), load.Suffix):
			return 0
		}
	}
	return n
}

// nearArtifact returns "; did you mean …?" with the artifact directory
// under the root of s, other than co's own, whose name is nearest to co
// (a mistyped coordinate), or "". When that directory holds only
// *.journal.example files and s does not read them, it says to add
// --examples.
func nearArtifact(s *settings, co vt.Coordinate) string {
	es, err := os.ReadDir(s.root)
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range es {
		if _, err := vt.ParseCoordinate(e.Name()); err == nil && e.IsDir() && e.Name() != co.String() {
			names = append(names, e.Name())
		}
	}
	near := suggest.Closest(co.String(), names)
	switch {
	case near == "":
		return ""
	case onlyExamples(s, near) > 0:
		return fmt.Sprintf("; did you mean %q (with --examples: it holds only *.journal.example files)?", near)
	}
	return fmt.Sprintf("; did you mean %q?", near)
}

// shownRoot is root as output shows paths (package outpath).
func shownRoot(ctx context.Context, root string) string {
	return outpath.Join(outpath.Prefix(ctx, root), "")
}

// parseCoordinateArg returns the one COORDINATE argument of c's command.
func parseCoordinateArg(c *ucli.Context) (vt.Coordinate, error) {
	if c.NArg() != 1 {
		return vt.Coordinate{}, usageErrorf("%s needs exactly one COORDINATE", c.Command.Name)
	}
	return coordinateArg(c, c.Args().First(), "")
}

// coordinateArg parses arg as the COORDINATE argument of c's command. Its
// usage error adds what the argument was likely meant as: a revision or
// release written COORDINATE@VERSION, or the path of a revision's file
// (atHint), or the coordinate in a path, a name with a final slash (as
// shells complete a directory) or capitals; else also.
func coordinateArg(c *ucli.Context, arg, also string) (vt.Coordinate, error) {
	co, err := vt.ParseCoordinate(arg)
	if err == nil {
		return co, nil
	}
	hint := ""
	p := strings.TrimRight(filepath.ToSlash(arg), `/\`)
	if name, version, ok := strings.Cut(p, "@"); ok {
		hint = atHint(c, path.Base(name), version, nil, false)
	} else if version, ok := journalVersionOf(path.Base(p)); ok {
		// The path of a revision's file: the root is the directory above
		// its artifact's, and an example needs --examples.
		var flags []string
		if root := path.Dir(path.Dir(p)); root != "." && !c.IsSet("root") {
			flags = append(flags, "--root", root)
		}
		if strings.HasSuffix(p, load.ExampleSuffix) && !c.Bool("examples") {
			flags = append(flags, "--examples")
		}
		hint = atHint(c, path.Base(path.Dir(p)), version, flags, true)
	} else if base := strings.ToLower(path.Base(p)); base != arg && !strings.HasSuffix(base, load.Suffix) && !strings.HasSuffix(base, load.ExampleSuffix) {
		if _, err := vt.ParseCoordinate(base); err == nil {
			hint = fmt.Sprintf("; did you mean %q?", base)
		}
	}
	if hint == "" {
		hint = also
	}
	return vt.Coordinate{}, usageErrorf("%v%s", err, hint)
}

// journalVersionOf returns the Journal version that the file name of a
// revision, <version>.journal or <version>.journal.example, names.
func journalVersionOf(name string) (string, bool) {
	stem, ok := strings.CutSuffix(name, load.ExampleSuffix)
	if !ok {
		if stem, ok = strings.CutSuffix(name, load.Suffix); !ok {
			return "", false
		}
	}
	_, err := vt.ParseJournalVersion(stem)
	return stem, err == nil
}

// atHint says how c's command takes the VERSION of the revision or
// release of artifact name that an argument named: the command line, with
// flags before the rest, that shows it (--revision, or for show --release
// with a release version), compares it with its predecessor (diff --to),
// lists the chain (log) or drafts a revision (new: --version for
// COORDINATE@VERSION, the next one for file, the path of an existing
// revision); "" when name is no coordinate or the command has no such
// form.
func atHint(c *ucli.Context, name, version string, flags []string, file bool) string {
	if _, err := vt.ParseCoordinate(name); err != nil {
		return ""
	}
	_, tsErr := vt.ParseJournalVersion(version)
	var what string
	var args []string
	switch cmd := c.Command.Name; {
	case cmd == "show" && tsErr == nil:
		what, args = "to show a revision", []string{"--revision", version}
	case cmd == "show":
		if _, err := vt.ParseVersion(version); err != nil {
			return ""
		}
		what, args = "to show a release", []string{"--release", version}
	case cmd == "log":
		return "; log lists every revision: " + rerun(c, "log", append(flags, name)...)
	case cmd == "new" && file:
		what = "to draft the next revision"
	case tsErr != nil:
		return ""
	case cmd == "diff":
		what, args = "to compare a revision with its predecessor", []string{"--to", version}
	case cmd == "new":
		what, args = "to draft the revision of a Journal version", []string{"--version", version}
	default:
		return ""
	}
	return fmt.Sprintf(" (%s: %s)", what, rerun(c, c.Command.Name, slices.Concat(flags, args, []string{name})...))
}

// rerun returns the command line, as shell words, that runs journal-lint
// NAME with args on the tree that c's command read: the --config, --root
// and --examples it was given come first (and for check, its --staged and
// --against), so that a hint works as printed.
func rerun(c *ucli.Context, name string, args ...string) string {
	words := []string{"journal-lint", name}
	for _, f := range []string{"config", "root"} {
		if c.IsSet(f) {
			words = append(words, "--"+f, c.String(f))
		}
	}
	if name == "check" { // the tree diff --staged or --against read
		if c.Bool("staged") {
			words = append(words, "--staged")
		}
		if c.IsSet("against") {
			words = append(words, "--against", c.String("against"))
		}
	}
	if c.Bool("examples") {
		words = append(words, "--examples")
	}
	words = append(words, args...)
	for i, w := range words {
		words[i] = safetext.ShellWord(w)
	}
	return strings.Join(words, " ")
}

func logCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "log",
		Usage: "show an artifact's chain, newest first",
		UsageText: "journal-lint log [--root DIR] [--format text|oneline|json] [--graph] COORDINATE\n\n" +
			"One line per accepted revision: Journal version, digest, predecessor digest, release\n" +
			"count. --format oneline shortens digests to 12 hex digits; json prints an array.\n" +
			"--graph draws every revision file of the artifact, rejected ones included, as a tree\n" +
			"(a fork or a bridged link shows as a branch), in colour on a terminal.\n" +
			queryExitCodes(true) + "\n\n" +
			"Examples:\n" +
			"   journal-lint log --root data/nenjim/journals --examples net.example.quill\n" +
			"   journal-lint log --format json com.example.widget\n" +
			"   journal-lint log --graph com.example.widget",
		Flags: append(rootFlags(),
			&ucli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: text, oneline or json"},
			&ucli.BoolFlag{Name: "graph", Usage: "draw every revision file of the artifact as a tree, rejected ones included"},
			&ucli.StringFlag{Name: "color", Value: "auto", Usage: "colour the graph: `auto`, always or never (auto respects NO_COLOR)"},
			cacheFlag(),
		),
		Action: runLog,
	}
}

func runLog(c *ucli.Context) error {
	co, err := parseCoordinateArg(c)
	if err != nil {
		return err
	}
	format := c.String("format")
	switch format {
	case "text", "oneline", "json":
	default:
		return usageErrorf("--format must be text, oneline or json, not %q%s", format, didYouMean(format, []string{"text", "oneline", "json"}))
	}
	graph := c.Bool("graph")
	if graph && format == "json" {
		return usageErrorf("--graph draws text; leave out --format json")
	}
	color, err := colorChoice(c.String("color"), c.App.Writer)
	if err != nil {
		return err
	}
	t, err := openTree(c, co, graph)
	if err != nil && !(graph && hasFiles(t, co)) {
		return err
	}
	if graph {
		return writeGraph(c.App.Writer, t.lr, co, color)
	}
	entries := t.lr.State.Entries(co)
	w := c.App.Writer
	if format == "json" {
		docs := make([]logDoc, 0, len(entries))
		prefix := outpath.Prefix(c.Context, t.s.root) // once: it may ask git
		for i := len(entries) - 1; i >= 0; i-- {
			docs = append(docs, logJSON(entries[i], prefix, i == len(entries)-1))
		}
		return writeJSON(w, docs)
	}
	for i := len(entries) - 1; i >= 0; i-- {
		r := entries[i].Revision
		digest, pred := r.Digest().String(), "genesis"
		if p, ok := r.Predecessor(); ok {
			pred = p.String()
		}
		if format == "oneline" {
			digest, pred = shortDigest(r.Digest()), shortDigestOf(r)
		}
		head := ""
		if i == len(entries)-1 {
			head = "  (head)"
		}
		fmt.Fprintf(w, "%s  %s  predecessor %s  %s%s\n", r.JournalVersion(), digest, pred, plural(len(r.Releases()), "release"), head)
	}
	return nil
}

// hasFiles reports whether t loaded any file of co (for --graph, which
// draws rejected revisions too).
func hasFiles(t *treeView, co vt.Coordinate) bool {
	if t == nil {
		return false
	}
	for _, f := range t.lr.Files {
		if strings.HasPrefix(f.Path, co.String()+"/") {
			return true
		}
	}
	return false
}

// shortDigest is "sha256:" and the first 12 hex digits of d.
func shortDigest(d vt.Digest) string { return d.String()[:len("sha256:")+12] }

// shortDigestOf is the short predecessor digest of r, or "genesis".
func shortDigestOf(r model.Revision) string {
	if p, ok := r.Predecessor(); ok {
		return shortDigest(p)
	}
	return "genesis"
}

// logDoc is one revision in log --format json.
type logDoc struct {
	JournalVersion string `json:"journalVersion"`
	Digest         string `json:"digest"`
	Predecessor    string `json:"predecessor,omitempty"`
	Releases       int    `json:"releases"`
	Head           bool   `json:"head"`
	File           string `json:"file"`
}

func logJSON(e chain.Entry, prefix string, head bool) logDoc {
	r := e.Revision
	d := logDoc{JournalVersion: r.JournalVersion().String(), Digest: r.Digest().String(), Releases: len(r.Releases()), Head: head,
		File: outpath.Join(prefix, e.Source)}
	if p, ok := r.Predecessor(); ok {
		d.Predecessor = p.String()
	}
	return d
}

// printDiagnostics writes ds, diagnostics of the tree under root, to w in
// their text form, one a line, with their paths as output shows them.
func printDiagnostics(ctx context.Context, w io.Writer, root string, ds []diag.Diagnostic) {
	prefix := outpath.Prefix(ctx, root) // once: it may ask git
	for _, d := range ds {
		d.Path = outpath.Join(prefix, d.Path)
		fmt.Fprintln(w, safetext.Text(d.String()))
	}
}

// shownPath is the root-relative path rel as output shows it.
func shownPath(ctx context.Context, root, rel string) string {
	return outpath.Join(outpath.Prefix(ctx, root), rel)
}

func showCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "show",
		Usage: "show an artifact's worldview at a revision, or one release",
		UsageText: "journal-lint show [--root DIR] [--revision V | --as-of V] [--release VERSION] [--format text|json] COORDINATE\n\n" +
			"Without --revision or --as-of it shows the head. --as-of picks the newest revision at or\n" +
			"before V. --release shows one release as that revision knows it.\n" +
			queryExitCodes(false) + "\n\n" +
			"Examples:\n   journal-lint show --root data/nenjim/journals --examples net.example.quill\n" +
			"   journal-lint show --root data/nenjim/journals --examples net.example.quill --as-of 20260210T000000Z --release 1.0.0 --format json",
		Flags: append(rootFlags(),
			&ucli.StringFlag{Name: "revision", Usage: "the revision with exactly Journal version `V`"},
			&ucli.StringFlag{Name: "as-of", Usage: "the newest revision at or before Journal version `V`"},
			&ucli.StringFlag{Name: "release", Usage: "show only release `VERSION`"},
			&ucli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: text or json"},
			cacheFlag(),
		),
		Action: runShow,
	}
}

func runShow(c *ucli.Context) error {
	co, err := parseCoordinateArg(c)
	if err != nil {
		return err
	}
	format := c.String("format")
	if format != "text" && format != "json" {
		return usageErrorf("--format must be text or json, not %q%s", format, didYouMean(format, []string{"text", "json"}))
	}
	if c.IsSet("revision") && c.IsSet("as-of") {
		return usageErrorf("--revision and --as-of exclude each other")
	}
	var at vt.JournalVersion
	for _, flag := range []string{"revision", "as-of"} {
		if c.IsSet(flag) {
			if at, err = vt.ParseJournalVersion(c.String(flag)); err != nil {
				return usageErrorf("--%s: %v", flag, err)
			}
		}
	}
	var ver vt.Version
	if v := c.String("release"); v != "" {
		if ver, err = vt.ParseVersion(v); err != nil {
			return usageErrorf("--release: %v", err)
		}
	}
	t, err := openTree(c, co, false)
	if err != nil {
		return err
	}
	rev, err := t.selectRevision(c, co, at)
	if err != nil {
		return err
	}
	if !ver.IsZero() {
		rel, ok := rev.Release(ver)
		if !ok {
			return usageErrorf("revision %s of %s does not know release %s%s", rev.JournalVersion(), co, ver, knownReleases(rev))
		}
		if format == "json" {
			return writeJSON(c.App.Writer, releaseJSON(rel))
		}
		fmt.Fprintf(c.App.Writer, "%s @ %s (%s)\n", co, rev.JournalVersion(), rev.Digest())
		writeRelease(c.App.Writer, rel)
		return nil
	}
	if format == "json" {
		return writeJSON(c.App.Writer, revisionJSON(rev))
	}
	writeRevision(c.App.Writer, rev)
	return nil
}

// knownReleases lists the releases rev knows, for a message.
func knownReleases(rev model.Revision) string {
	rels := rev.ReleasesByVersion()
	if len(rels) == 0 {
		return " (it has no release)"
	}
	vs := make([]string, len(rels))
	for i, r := range rels {
		vs[i] = r.Version().String()
	}
	return " (it knows " + strings.Join(vs, ", ") + ")"
}

// selectRevision picks the revision of co that --revision or --as-of (at)
// names, else the head. A Journal version before the genesis, or one that
// names no revision, is a usage error that names the revisions there are.
func (t *treeView) selectRevision(c *ucli.Context, co vt.Coordinate, at vt.JournalVersion) (model.Revision, error) {
	st := t.lr.State
	entries := st.Entries(co)
	oldest := entries[0].Revision.JournalVersion()
	switch {
	case c.IsSet("revision"):
		if e, ok := st.Exact(co, at); ok {
			return e.Revision, nil
		}
		return model.Revision{}, usageErrorf("--revision: %s has no revision %s; %s lists its %s, or use --as-of for the newest at or before a time",
			co, at, rerun(c, "log", co.String()), plural(len(entries), "revision"))
	case c.IsSet("as-of"):
		if e, ok := st.AsOf(co, at); ok {
			return e.Revision, nil
		}
		return model.Revision{}, usageErrorf("--as-of %s is before the genesis of %s: its oldest revision is %s", at, co, oldest)
	}
	e, _ := st.Head(co)
	return e.Revision, nil
}

func writeJSON(w io.Writer, v any) error {
	if err := safetext.WriteJSON(w, v); err != nil {
		return internalErrorf("writing output: %v", err)
	}
	return nil
}

// fieldWidth aligns the values of show's text output: the longest label
// ("description") and a blank.
const fieldWidth = len("description") + 1

// field writes one "label value" line of show at indent.
func field(w io.Writer, indent, label, value string) {
	fmt.Fprintf(w, "%s%-*s%s\n", indent, fieldWidth, label, value)
}

func writeRevision(w io.Writer, r model.Revision) {
	fmt.Fprintf(w, "%s @ %s\n", shown(r.Coordinate()), r.JournalVersion())
	field(w, "  ", "digest", r.Digest().String())
	if p, ok := r.Predecessor(); ok {
		field(w, "  ", "predecessor", p.String())
	} else {
		field(w, "  ", "predecessor", "none (genesis)")
	}
	field(w, "  ", "description", quoted(r.Description()))
	if u, ok := r.Info(); ok {
		field(w, "  ", "info", shown(u))
	}
	if p, ok := r.Policy(); ok {
		field(w, "  ", "policy", policyText(p))
	}
	field(w, "  ", "releases", fmt.Sprint(len(r.Releases())))
	for _, rel := range r.ReleasesByVersion() {
		fmt.Fprintln(w)
		writeRelease(w, rel)
	}
}

func policyText(p model.Policy) string {
	if reason, ok := p.Reason(); ok {
		return fmt.Sprintf("%s %s", p.Verdict(), quoted(reason))
	}
	return p.Verdict().String()
}

func describe(s string, ok bool) string {
	if !ok {
		return ""
	}
	return "  " + quoted(s)
}

// quoted returns s as a Go string literal, made safe to print.
func quoted(s string) string { return safetext.Text(strconv.Quote(s)) }

// shown returns the text of v (a name, URI or coordinate from a Journal) as
// safetext shows untrusted text.
func shown(v fmt.Stringer) string { return safetext.Text(v.String()) }

func writeRelease(w io.Writer, r model.Release) {
	own := ""
	if _, ok := r.Policy(); !ok {
		own = " (inherited)"
	}
	const in = "    "
	fmt.Fprintf(w, "  release %s\n", r.Version())
	field(w, in, "license", r.License().String())
	field(w, in, "policy", policyText(r.EffectivePolicy())+own)
	if d, ok := r.Description(); ok {
		field(w, in, "description", quoted(d))
	}
	if p, ok := r.Published(); ok {
		field(w, in, "published", p.String())
	}
	for _, c := range r.Contents() {
		field(w, in, "content", shown(c.Name())+" "+c.Digest().String())
	}
	for _, d := range r.Dependencies() {
		field(w, in, "depends", shown(d.Coordinate())+" "+shown(d.Constraint())+describe(d.Description()))
	}
	for _, e := range r.Exclusions() {
		field(w, in, "excludes", shown(e.Coordinate())+describe(e.Description()))
	}
	for _, p := range r.Preferences() {
		field(w, in, "prefers", shown(p.Coordinate())+" "+p.Version().String()+describe(p.Description()))
	}
}

type policyDoc struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
}

type refDoc struct {
	Coordinate  string `json:"coordinate"`
	Constraint  string `json:"constraint,omitempty"`
	Version     string `json:"version,omitempty"`
	Description string `json:"description,omitempty"`
}

type releaseDoc struct {
	Version         string            `json:"version"`
	License         string            `json:"license"`
	Contents        map[string]string `json:"contents"`
	Description     string            `json:"description,omitempty"`
	Published       string            `json:"published,omitempty"`
	Policy          *policyDoc        `json:"policy,omitempty"`
	EffectivePolicy policyDoc         `json:"effectivePolicy"`
	Depends         []refDoc          `json:"depends"`
	Excludes        []refDoc          `json:"excludes"`
	Prefers         []refDoc          `json:"prefers"`
}

type revisionDoc struct {
	Coordinate     string       `json:"coordinate"`
	JournalVersion string       `json:"journalVersion"`
	Digest         string       `json:"digest"`
	Predecessor    string       `json:"predecessor,omitempty"`
	Description    string       `json:"description"`
	Info           string       `json:"info,omitempty"`
	Policy         *policyDoc   `json:"policy,omitempty"`
	Releases       []releaseDoc `json:"releases"`
}

func policyJSON(p model.Policy) policyDoc {
	r, _ := p.Reason()
	return policyDoc{Verdict: p.Verdict().String(), Reason: r}
}

func releaseJSON(r model.Release) releaseDoc {
	d := releaseDoc{Version: r.Version().String(), License: r.License().String(), Contents: map[string]string{},
		EffectivePolicy: policyJSON(r.EffectivePolicy()), Depends: []refDoc{}, Excludes: []refDoc{}, Prefers: []refDoc{}}
	for _, c := range r.Contents() {
		d.Contents[c.Name().String()] = c.Digest().String()
	}
	d.Description, _ = r.Description()
	if p, ok := r.Published(); ok {
		d.Published = p.String()
	}
	if p, ok := r.Policy(); ok {
		pd := policyJSON(p)
		d.Policy = &pd
	}
	for _, x := range r.Dependencies() {
		desc, _ := x.Description()
		d.Depends = append(d.Depends, refDoc{Coordinate: x.Coordinate().String(), Constraint: x.Constraint().String(), Description: desc})
	}
	for _, x := range r.Exclusions() {
		desc, _ := x.Description()
		d.Excludes = append(d.Excludes, refDoc{Coordinate: x.Coordinate().String(), Description: desc})
	}
	for _, x := range r.Preferences() {
		desc, _ := x.Description()
		d.Prefers = append(d.Prefers, refDoc{Coordinate: x.Coordinate().String(), Version: x.Version().String(), Description: desc})
	}
	return d
}

func revisionJSON(r model.Revision) revisionDoc {
	d := revisionDoc{Coordinate: r.Coordinate().String(), JournalVersion: r.JournalVersion().String(),
		Digest: r.Digest().String(), Description: r.Description(), Releases: []releaseDoc{}}
	if p, ok := r.Predecessor(); ok {
		d.Predecessor = p.String()
	}
	if u, ok := r.Info(); ok {
		d.Info = u.String()
	}
	if p, ok := r.Policy(); ok {
		pd := policyJSON(p)
		d.Policy = &pd
	}
	for _, rel := range r.ReleasesByVersion() {
		d.Releases = append(d.Releases, releaseJSON(rel))
	}
	return d
}
