package check

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/fingerprint"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/source"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// gitattributesLines are the lines that keep git from converting Journals.
const gitattributesLines = "*.journal -text\n*.journal.example -text"

// gate is the git side of one check run: the work tree that holds the root
// (nil outside one), the revision compared against, and where the tree is
// loaded from (the index for --staged, else the disk).
type gate struct {
	repo     *gitrepo.Repo
	rootRel  string // root relative to the top level, "" for the top level
	against  string // the revision as given; "" when there is no gate
	commit   string // the commit compared with: the merge base of rev and HEAD
	rev      string // the commit the revision names
	staged   bool
	examples bool
	// src is where the tree is loaded from: the disk under the root, or
	// for --staged the index (a *source.Git, which close closes).
	src source.Source
	// baseChanged holds what differs between the compared commit and the
	// index, by root-relative path, and baseFull, when the index cannot
	// tell, the commit's Journal files (see atBase).
	baseChanged map[string]gitrepo.RawChange
	baseFull    map[string]gitrepo.Entry
	// changedDirs are the first path elements (the artifact directories)
	// of baseChanged.
	changedDirs map[string]bool
	// files, index and committed cache what git holds under the root (see
	// listed, indexed and committedFiles).
	files     *gitFiles
	index     *gitrepo.IndexList
	committed map[string]*committedFile
	// eolAttrs caches the attributes of the loaded files that decide git's
	// conversions, by root-relative path (eolConversion, attrs.go);
	// asked, when set, says that git is being asked about the source's
	// files meanwhile (askAttributes), and is closed once eolAttrs has
	// them.
	eolAttrs *eolTable
	asked    chan struct{}
	// attrsAt, when set, is a commit whose .gitattributes files are the
	// index's (a staged check that reads only what changed since HEAD,
	// summary.go), to ask a few files' attributes of instead of the index.
	attrsAt string
	// ahead, when set, is closed once the questions askAhead asked are
	// answered.
	ahead chan struct{}
	// stamp is the repository's stamp (gitrepo.Repo.Stamp) taken before
	// git was asked about the files, for a later Rescan; 0 for none.
	stamp uint64
	// stamped says that g took the facts above over from a prior run
	// because the stamp did not change.
	stamped bool
	// skipped is why a check of a work tree that git refuses asked git
	// nothing (Result.GitSkipped); nil otherwise.
	skipped error
	// rootLink is the symbolic link on the root's path inside the work
	// tree, under a gate (rootlink.go); nil for none.
	rootLink *rootLink
}

// openGate prepares the git side of a run. Without Against and Staged it
// only looks for a work tree (for repo/eol-conversion) and never fails;
// with either, a missing git, a root outside a work tree or a bad revision
// is an error. With Staged, the tree is loaded from the index entries under
// the root (source.Index); close ends the git that reads them.
// A work-tree check that takes over from prior (the run of Options.Prior, or
// nil) takes over what prior learned from git instead ([gate.takeOver]):
// without Rescan always, with Rescan when the repository's stamp
// (gitrepo.Repo.Stamp: its index, HEAD and refs, configuration and
// attribute files) is the one prior took before asking git. A staged
// check with sum (summary.go) lists only the directories that changed
// since HEAD when the cache holds a summary of HEAD's tree.
func openGate(ctx context.Context, opts Options, prior *run, sum *summaryUse) (*gate, error) {
	g := &gate{src: &source.Disk{Root: opts.Root}, staged: opts.Staged, examples: opts.Examples}
	wantGit := opts.Against != "" || opts.Staged
	if opts.NewOnly && !wantGit {
		return nil, errors.New("--new-only needs --against REV (or --staged, which compares against HEAD)")
	}
	if prior != nil && !wantGit {
		p := prior.gate
		if !opts.Rescan {
			g.takeOver(p)
			return g, nil
		}
		if p != nil && p.repo != nil && p.stamp != 0 && p.repo.Stamp(opts.Root) == p.stamp {
			g.takeOver(p)
			g.stamped = true
			return g, nil
		}
	}
	openAt := opts.Root
	top, storedRel, stored := gitrepo.StoredTop(opts.Root)
	if stored && wantGit {
		openAt = top
	}
	repo, err := gitrepo.Open(ctx, openAt)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !wantGit {
			var unsafe *gitrepo.UnsafeRepositoryError
			if errors.As(err, &unsafe) {
				g.skipped = err
			}
			return g, nil
		}
		flag := "--against"
		if opts.Against == "" {
			flag = "--staged"
		}
		if errors.Is(err, gitrepo.ErrNotRepository) {
			return nil, fmt.Errorf("%s: the root %s is not inside a git work tree", flag, opts.Root)
		}
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	rel, err := repo.Rel(opts.Root)
	if stored && wantGit && (err != nil || storedRel != rel) {
		// The root's path holds a link (to elsewhere in the work tree,
		// or out of it): judged as git stores it, under the path as
		// written.
		if l, ok := firstLink(top, storedRel); ok && gitrepo.ResolveExisting(top) == repo.Top() {
			rel, err, g.rootLink = storedRel, nil, &l
			if opts.Staged && !stagedLink(ctx, repo, l.path) {
				g.rootLink = nil // the index holds the directory: only the work tree links it
			}
		}
	}
	if err != nil {
		if !wantGit {
			return g, nil
		}
		return nil, err
	}
	g.repo, g.rootRel = repo, rel
	if d, ok := g.src.(*source.Disk); ok {
		d.Format = repo.ObjectFormat() // the work tree's files share addresses with git's blobs
	}
	if !wantGit {
		g.stamp = repo.Stamp(opts.Root)
		return g, nil
	}
	g.against = opts.Against
	if g.against == "" {
		// --staged alone compares against HEAD, when there is one (an
		// initial commit has nothing to compare against).
		if _, err := repo.ResolveCommit(ctx, "HEAD"); err == nil {
			g.against = "HEAD"
		}
	}
	if g.against != "" {
		if g.commit, err = baseCommit(ctx, repo, g.against); err != nil {
			return nil, fmt.Errorf("--against: %w", err)
		}
		if g.rev, err = repo.ResolveCommit(ctx, g.against); err != nil {
			return nil, fmt.Errorf("--against: %w", err)
		}
	} else if opts.NewOnly && !opts.Staged {
		// (--staged before the first commit: every revision is new.)
		return nil, errors.New("--new-only: there is no HEAD commit to compare against; name one with --against")
	}
	// What git says differs between the commit and the index is asked
	// while git lists the index.
	var base baseDiff
	if opts.Staged && g.commit != "" {
		sum.probe(ctx, g)
	} else {
		sum = nil
	}
	if g.commit != "" {
		base.done = make(chan struct{})
		go func() {
			defer close(base.done)
			base.changes, base.err = repo.IndexDiff(ctx, g.commit, rel)
		}()
	}
	if sum != nil {
		// With a summary of HEAD's tree, only what changed is listed.
		<-base.done
		if base.err == nil {
			src, err := sum.open(ctx, g, base.changes)
			if err != nil {
				return nil, err
			}
			if src != nil {
				g.src = src
			}
		}
	}
	if _, listed := g.src.(*source.Git); opts.Staged && !listed {
		index, err := source.Index(ctx, repo, rel)
		if err != nil {
			if base.done != nil {
				<-base.done
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("--staged: %w", err)
		}
		g.src = index
	}
	if !opts.Staged && g.commit != "" {
		// The work tree's gate lists the index while git answers what
		// differs from the commit: loadBase needs both, and reports an
		// error of either (asking again for a list that failed).
		_ = g.indexed(ctx)
	}
	if g.commit != "" {
		<-base.done
		if err := g.loadBase(ctx, base.changes, base.err); err != nil {
			return nil, fmt.Errorf("--against: %w", err)
		}
	}
	if !opts.Staged {
		if err := g.refuseSparse(ctx); err != nil {
			return nil, fmt.Errorf("--against: %w", err)
		}
	}
	return g, nil
}

// loadBase learns which Journal files the compared commit holds (at)
// (atBase) from the index, which the check lists anyway, and what git says
// differs between the commit and the index (changes and err, what
// gitrepo.Repo.IndexDiff returned), instead of listing the commit's whole
// tree. While an unmerged entry makes the index an unreliable witness, it
// lists the commit's tree.
func (g *gate) loadBase(ctx context.Context, changes []gitrepo.RawChange, err error) error {
	if err != nil {
		return err
	}
	g.baseChanged = make(map[string]gitrepo.RawChange, len(changes))
	g.changedDirs = map[string]bool{}
	for _, c := range changes {
		if c.Status == 'U' {
			return g.listBase(ctx)
		}
		if p, ok := g.underRoot(c.Path); ok {
			g.baseChanged[p] = c
			dir, _, _ := strings.Cut(p, "/")
			g.changedDirs[dir] = true
		}
	}
	if _, staged := g.src.(*source.Git); !staged {
		err = g.indexed(ctx)
	}
	return err
}

// baseDiff is what git said differs between the compared commit and the
// index (loadBase), once done is closed.
type baseDiff struct {
	done    chan struct{}
	changes []gitrepo.RawChange
	err     error
}

// listBase lists the Journal files of the compared commit's tree, for
// atBase.
func (g *gate) listBase(ctx context.Context) error {
	entries, err := g.repo.Tree(ctx, g.commit, g.rootRel)
	if err != nil {
		return err
	}
	// Only regular files can be accepted revisions: a symbolic link
	// (or a submodule) at the commit never was one.
	g.baseFull = map[string]gitrepo.Entry{}
	for _, e := range entries {
		if p, ok := g.journalPath(e.Path); ok && e.IsRegular() {
			g.baseFull[p] = e
		}
	}
	return nil
}

// atBase reports whether the compared commit holds a Journal file (a regular
// file at a Journal's place, as journalPath says) at the root-relative
// path p, and its entry there; false without a compared commit. A path
// git does not report changed between the commit and the index holds the
// index's entry.
func (g *gate) atBase(p string) (gitrepo.Entry, bool) {
	switch {
	case g.commit == "":
		return gitrepo.Entry{}, false
	case g.baseFull != nil:
		e, ok := g.baseFull[p]
		return e, ok
	}
	if !g.isJournal(p) {
		return gitrepo.Entry{}, false
	}
	var e gitrepo.Entry
	var ok bool
	if c, changed := g.baseChanged[p]; changed {
		e, ok = gitrepo.Entry{Mode: c.OldMode, Object: c.OldObject, Path: c.Path}, c.Status != 'A'
	} else if index, staged := g.src.(*source.Git); staged {
		e, ok = index.Entry(p)
	} else {
		e, ok = g.indexEntry(p)
	}
	if !ok || !e.IsRegular() {
		return gitrepo.Entry{}, false
	}
	return e, true
}

// baseCommit returns the commit that a check against rev compares with:
// the merge base of rev and HEAD ("git merge-base REV HEAD"), what
// "REV...HEAD" means to git and what a pull request's diff shows, so that
// what the base branch gained after the branch forked is never reported as
// deleted. Without a HEAD (an initial commit) it is rev itself. A shallow
// clone without the merge base is an error that says to fetch more
// history. The rule packs of such a check come from the configuration at
// the same commit (BaseConfig), so both must ask here.
func baseCommit(ctx context.Context, repo *gitrepo.Repo, rev string) (string, error) {
	commit, err := repo.ResolveCommit(ctx, rev)
	if err != nil {
		return "", err
	}
	head, err := repo.ResolveCommit(ctx, "HEAD")
	if err != nil {
		return commit, nil
	}
	base, err := repo.MergeBase(ctx, commit, head)
	if errors.Is(err, gitrepo.ErrNoMergeBase) {
		if shallow, _ := repo.IsShallow(ctx); shallow {
			return "", fmt.Errorf("this clone is shallow and lacks the merge base of %s and HEAD: fetch more history (actions/checkout: fetch-depth: 0; or git fetch --unshallow)", rev)
		}
		return "", fmt.Errorf("%s and HEAD have no common history (no merge base)", rev)
	}
	return base, err
}

// Baseline is the commit a check with a gate compared with.
type Baseline struct {
	// Rev is the revision as given ("origin/main"; "HEAD" for --staged).
	Rev string
	// Commit is the full object name of the merge base of Rev and HEAD,
	// the commit compared with.
	Commit string
	// MergeBase reports whether Commit differs from the commit Rev names
	// (the branch forked before Rev's newest commits).
	MergeBase bool
	// Head is the full object name of HEAD, or "" before the first commit.
	Head string
	// RepositoryURI is the remote origin's URL without user information,
	// for SARIF versionControlProvenance; "" when there is none or it is a
	// local path.
	RepositoryURI string
}

// baseline describes the compared commit, or nil without a gate.
func (g *gate) baseline(ctx context.Context) *Baseline {
	if g == nil || g.commit == "" {
		return nil
	}
	b := &Baseline{Rev: g.against, Commit: g.commit, MergeBase: g.rev != g.commit}
	b.Head, _ = g.repo.ResolveCommit(ctx, "HEAD")
	b.RepositoryURI = g.repo.RemoteURI(ctx, "origin")
	return b
}

// at names the compared commit in messages: the revision as given when it
// is the merge base itself, else the merge base's short name and how it was
// found.
func (g *gate) at() string {
	if g.rev == g.commit {
		return g.against
	}
	return shortCommit(g.commit) + " (the merge base of " + g.against + " and HEAD)"
}

// checkoutRev is the revision to restore files from in help texts: the
// revision as given when it is the merge base, else the merge base.
func (g *gate) checkoutRev() string {
	if g.rev == g.commit {
		return g.against
	}
	return shortCommit(g.commit)
}

// close ends the git that reads the index's blobs, if any.
func (g *gate) close() {
	if g == nil {
		return
	}
	if g.asked != nil {
		<-g.asked // no question to git outlives the check
	}
	if g.ahead != nil {
		<-g.ahead
	}
	if index, ok := g.src.(*source.Git); ok {
		index.Close()
	}
}

// journalPath turns a top-relative git path into a root-relative one when
// it names a Journal file at its place (<coordinate dir>/<name>.journal, or
// .journal.example when examples are loaded).
func (g *gate) journalPath(top string) (string, bool) {
	p, ok := g.underRoot(top)
	if !ok || !g.isJournal(p) {
		return "", false
	}
	return p, true
}

// isJournal reports whether the root-relative path p names a Journal file
// at its place: <coordinate dir>/<name>.journal, or .journal.example when
// examples are loaded.
func (g *gate) isJournal(p string) bool {
	return strings.Count(p, "/") == 1 && (strings.HasSuffix(p, load.Suffix) || (g.examples && strings.HasSuffix(p, load.ExampleSuffix)))
}

// underRoot turns a top-relative git path into a root-relative one, and
// reports whether it lies under the root.
func (g *gate) underRoot(top string) (string, bool) {
	if g.rootRel == "" {
		return top, true
	}
	return strings.CutPrefix(top, g.rootRel+"/")
}

// topPath turns a root-relative path into a top-relative git path.
func (g *gate) topPath(p string) string {
	if g.rootRel == "" {
		return p
	}
	return g.rootRel + "/" + p
}

// gitGate is the analyzer of the repository workflows: repo/eol-conversion
// inside any work tree; the history/ codes against --against; and the
// notes that explain diagnostics of the load result by what git knows:
// chain/missing-predecessor whose PREDECESSOR is the committed digest of a
// file edited, deleted or converted since (explainChanged, and for a check
// of the work tree explainCommitted), and chain/fork whose advice cannot be
// followed (adviseFork).
func gitGate(ctx context.Context, r *run) (diag.List, []note, error) {
	g := r.gate
	if g == nil || g.repo == nil {
		return nil, nil, nil
	}
	g.forgetStampedAttributes(r)
	var out diag.List
	if g.rootLink == nil {
		l, err := g.stagedRootLink(ctx, r)
		if err != nil {
			return nil, nil, err
		}
		g.rootLink = l
	}
	if g.rootLink != nil {
		out = append(out, g.rootLink.diagnostic(g.rootRel))
	}
	eol, err := g.eolConversion(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	enabled, err := g.conversionEnabled(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	if len(enabled) > 0 {
		eol = enabled // the change under check turned conversion on: an error
	}
	out = append(out, eol...)
	staged, err := g.stagedConversion(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	out = append(out, staged...)
	var notes []note
	if g.commit != "" {
		hist, ns, err := g.history(ctx, r)
		if err != nil {
			return nil, nil, err
		}
		out, notes = append(out, hist...), append(notes, ns...)
	}
	if !g.staged {
		ns, err := g.explainCommitted(ctx, r)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, ns...)
	}
	ns, err := g.adviseFork(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	return out, append(notes, ns...), nil
}

// takeOver makes g, a gate of a work-tree check that takes over from the
// check of p (Options.Prior), use what p learned from git instead of
// asking again: the work tree, the files of HEAD and the index, the
// committed bytes read and the attributes. They depend only on the
// repository, not on the work tree's Journals: without Rescan the caller
// answers for it as it does for the files on disk, with Rescan its stamp
// did not change. The maps are copied, so that the two runs share nothing
// they write.
func (g *gate) takeOver(p *gate) {
	if p == nil {
		return
	}
	g.repo, g.rootRel, g.files, g.index, g.stamp = p.repo, p.rootRel, p.files, p.index, p.stamp
	g.committed = maps.Clone(p.committed)
	g.eolAttrs = p.eolAttrs.clone()
}

// forgetStampedAttributes drops the attributes (and with them the
// committed files, which hold one) that g took over because the
// repository's stamp did not change, when the load found a .gitattributes
// in an artifact directory: the stamp does not look at those, and git
// applies them to the Journals beside them.
func (g *gate) forgetStampedAttributes(r *run) {
	if !g.stamped {
		return
	}
	for _, d := range r.load.Diagnostics {
		if dir, name, ok := strings.Cut(d.Path, "/"); ok && dir != "" && name == ".gitattributes" {
			g.eolAttrs, g.committed = nil, nil
			return
		}
	}
}

// eolConversion reports, once, that git may convert the line endings of
// the loaded Journal files. It asks git only about the files whose
// attributes g does not know yet.
func (g *gate) eolConversion(ctx context.Context, r *run) (diag.List, error) {
	if g.asked != nil {
		<-g.asked
	}
	if len(r.load.Files) == 0 && len(r.sum.eolGroups()) == 0 {
		return nil, nil
	}
	if g.eolAttrs == nil {
		g.eolAttrs = newEOLTable(g.index, g.rootRel)
	}
	var ask []string // root-relative paths
	for _, f := range r.load.Files {
		if g.eolAttrs.get(f.Path) == nil {
			ask = append(ask, f.Path)
		}
	}
	if len(ask) > 0 {
		got, err := g.askEOL(ctx, ask)
		if err != nil {
			return nil, err
		}
		for i, p := range ask {
			g.eolAttrs.set(p, got[i])
		}
	}
	// The files in directory order, those of the directories a summary
	// speaks for (summary.go) among them.
	groups := r.sum.eolGroups()
	for _, f := range r.load.Files {
		a := g.eolAttrs.get(f.Path)
		if a.text == "unset" {
			continue
		}
		dir := coordinateOf(f.Path)
		if n := len(groups); n > 0 && groups[n-1].dir == dir {
			groups[n-1].count++
			continue
		}
		groups = append(groups, eolGroup{dir: dir, count: 1, first: g.eolFirst(f.Path, a)})
	}
	converted, first := 0, ""
	if len(groups) > 0 {
		first = slices.MinFunc(groups, func(a, b eolGroup) int { return strings.Compare(a.dir, b.dir) }).first
	}
	for _, gr := range groups {
		converted += gr.count
	}
	if converted == 0 {
		return nil, nil
	}
	n, which := "1 Journal file", "its digest"
	if converted > 1 {
		n, which = fmt.Sprintf("%d Journal files", converted), "their digests"
	}
	return diag.List{{
		Code:     rules.RepoEOLConversion,
		Severity: diag.Warning,
		Message:  fmt.Sprintf("git may convert the line endings of %s, which changes %s (first: %s)", n, which, first),
		Help: "add these lines to the .gitattributes at the top of the repository and commit it:\n" +
			gitattributesLines + "\n" +
			"Not eol=lf: that also makes git rewrite CRLF-authored Journals, changing their digests. " +
			"A checkout that already converted a file: delete it and check it out again (git checkout -- PATH).",
	}}, nil
}

// askAttributes asks git, while the tree loads, for the attributes that
// eolConversion needs of the root-relative paths that paths returns (on
// the same goroutine, so that listing them may ask git too; nil asks
// nothing): git reads the whole index for them, which would otherwise
// wait for the load and take the tail of the run. An answer git fails to
// give is asked again by eolConversion.
func (g *gate) askAttributes(ctx context.Context, paths func() []string) {
	g.asked = make(chan struct{})
	go func() {
		defer close(g.asked)
		ps := paths()
		if ps == nil {
			return
		}
		got, err := g.askEOL(ctx, ps)
		if err != nil {
			return
		}
		t := newEOLTable(g.index, g.rootRel)
		for i, p := range ps {
			t.set(p, got[i])
		}
		g.eolAttrs = t
	}()
}

// askLoadAttributes asks git, while the tree loads, for the attributes of
// the files it will load (askAttributes), when nothing gave them yet (a
// check without the cache): the staged paths, or for the work tree the
// Journal files that the index lists under the root (listed on the same
// goroutine when the check has not listed them yet), most of those the
// load reads. eolConversion then asks only about the others.
func (g *gate) askLoadAttributes(ctx context.Context) {
	// asked first: once it is set, askAttributes's goroutine may be
	// writing eolAttrs (and index). A gate that took a prior run's facts
	// over (stamped) may drop its attributes after the load, before
	// anything waits for such an answer (forgetStampedAttributes), so it
	// asks nothing ahead.
	if g == nil || g.repo == nil || g.asked != nil || g.stamped || g.eolAttrs != nil {
		return
	}
	if src, ok := g.src.(*source.Git); ok {
		g.askAttributes(ctx, src.Paths)
		return
	}
	if g.staged {
		return
	}
	g.askAttributes(ctx, func() []string {
		if g.indexed(ctx) != nil {
			return nil // asked again, and its error reported, after the load
		}
		var ps []string
		for p := range g.indexEntries() {
			ps = append(ps, p)
		}
		return ps
	})
}

// askAhead asks git, once the work tree is loaded, the questions about
// the compared commit that the git gate asks after the head-only rules:
// what changed since the commit (history) and which .gitattributes did
// (conversionEnabled). Under a context that remembers git's answers
// (gitrepo.WithMemo, the command line), the gate's own questions then
// wait for these answers, which git gave while the head-only rules left
// a CPU idle; without one they would only be asked twice, so nothing is
// asked. Errors are left to the gate's own questions.
func (g *gate) askAhead(ctx context.Context) {
	if g == nil || g.repo == nil || g.staged || g.commit == "" || !gitrepo.Remembers(ctx) {
		return
	}
	g.ahead = make(chan struct{})
	go func() {
		defer close(g.ahead)
		_, _ = g.repo.ChangedAttributeFiles(ctx, g.commit, false)
		_, _ = g.repo.Diff(ctx, g.commit, false, g.rootRel)
	}()
}

// eolGroup is what eolConversion counts of one artifact directory: its
// files that git may convert, and the first one (eolFirst).
type eolGroup struct {
	dir   string
	count int
	first string
}

// eolFirst describes the root-relative path p, whose attributes are a,
// as the first file of repo/eol-conversion.
func (g *gate) eolFirst(p string, a *eolAttr) string {
	if a.text == "unspecified" && a.eol == "unspecified" {
		return g.topPath(p) + " (no text attribute, so core.autocrlf and core.eol decide)"
	}
	return fmt.Sprintf("%s (text: %s, eol: %s)", g.topPath(p), a.text, a.eol)
}

// history reports every Journal file of the commit that was modified,
// deleted or renamed since, and the notes that explain the chain
// diagnostics those changes caused (explainChanged).
func (g *gate) history(ctx context.Context, r *run) (diag.List, []note, error) {
	changes, err := g.repo.Diff(ctx, g.commit, g.staged, g.rootRel)
	if err != nil {
		return nil, nil, fmt.Errorf("--against: %w", err)
	}
	type finding struct {
		status        byte
		path, oldPath string // root-relative; oldPath for renames
		entry         gitrepo.Entry
	}
	var found []finding
	seen := map[string]bool{}
	for _, c := range changes {
		switch c.Status {
		case 'M', 'T', 'D':
			p, ok := g.journalPath(c.Path)
			if !ok || seen[p] {
				continue
			}
			if e, ok := g.atBase(p); ok {
				seen[p] = true
				found = append(found, finding{status: c.Status, path: p, entry: e})
			}
		case 'R':
			old, ok := g.journalPath(c.OldPath)
			if !ok || seen[old] {
				continue
			}
			if e, ok := g.atBase(old); ok {
				seen[old] = true
				if np, ok := g.underRoot(c.Path); ok {
					found = append(found, finding{status: 'R', path: np, oldPath: old, entry: e})
				} else { // moved out of the root: gone from the tree
					found = append(found, finding{status: 'D', path: old, entry: e})
				}
			}
		}
	}
	if len(found) == 0 {
		return nil, nil, nil
	}
	var objects []string
	for _, f := range found {
		if f.entry.IsRegular() {
			objects = append(objects, f.entry.Object)
		}
	}
	blobs, _, err := g.repo.ReadBlobs(ctx, objects, syntax.MaxSize)
	if err != nil {
		return nil, nil, fmt.Errorf("--against: %w", err)
	}
	// byDigest finds new files that hold the exact bytes of a deleted one:
	// a rename git could not see (the new file is untracked).
	byDigest := map[vt.Digest]string{}
	for _, f := range r.load.Files {
		if _, old := g.atBase(f.Path); f.Summary.Read && !old {
			byDigest[f.Summary.Digest] = f.Path
		}
	}
	var out diag.List
	// changedFrom maps the digest at the commit of each modified, deleted
	// or renamed revision to its path, to explain chain diagnostics.
	changedFrom := map[vt.Digest]string{}
	for _, f := range found {
		before, haveBefore := blobs[f.entry.Object]
		if haveBefore {
			if src := r.load.Source(f.path); src == nil || !bytes.Equal(src, before) {
				changedFrom[vt.DigestOf(before)] = f.path
			}
		}
		var beforeDigest string
		if haveBefore {
			beforeDigest = vt.DigestOf(before).String()
		} else {
			beforeDigest = "(not a regular file at " + g.at() + ")"
		}
		switch f.status {
		case 'M', 'T', 'D':
			if doc := r.load.Doc(f.path); doc != nil {
				now, nowDigest, notes := doc.Src, doc.Digest.String(), []string(nil)
				if haveBefore && bytes.Equal(doc.Src, before) {
					stored, differs, err := g.storedBlob(ctx, f.path, f.entry)
					if err != nil {
						return nil, nil, err
					}
					if !differs {
						continue // a mode change: the revision is the same
					}
					now, nowDigest = stored, vt.DigestOf(stored).String()
					if stored == nil {
						nowDigest = fmt.Sprintf("a blob larger than %d bytes", syntax.MaxSize)
					}
					notes = append(notes, "git stores other bytes than the work tree holds: the .gitattributes convert them on checkout")
				}
				if haveBefore && bytes.Equal(normalizeEOL(now), normalizeEOL(before)) {
					notes = append(notes, "the files differ only in line endings")
				}
				msg := fmt.Sprintf("accepted revision %s was modified: its digest at %s is %s, now %s", g.topPath(f.path), g.at(), beforeDigest, nowDigest)
				if len(notes) > 0 {
					msg += " (" + strings.Join(notes, "; ") + ")"
				}
				out = append(out, diag.Diagnostic{Code: rules.HistoryRevisionModified, Severity: diag.Error, Path: f.path,
					Message: msg,
					Help: fmt.Sprintf("an accepted revision is immutable: restore it (git checkout %s -- %s) and put the change in a new successor revision (journal-lint new %s)",
						g.checkoutRev(), shellQuote(g.topPath(f.path)), coordinateOf(f.path))})
				continue
			}
			if f.status != 'D' {
				if _, err := g.src.Stat(f.path); err == nil {
					out = append(out, diag.Diagnostic{Code: rules.HistoryRevisionModified, Severity: diag.Error, Path: f.path,
						Message: fmt.Sprintf("accepted revision %s was modified: it is no longer a regular Journal file (its digest at %s is %s)", g.topPath(f.path), g.at(), beforeDigest),
						Help:    fmt.Sprintf("restore it: git checkout %s -- %s", g.checkoutRev(), shellQuote(g.topPath(f.path)))})
					continue
				}
			}
			if haveBefore {
				if np, ok := byDigest[vt.DigestOf(before)]; ok {
					out = append(out, renamed(f.path, np, g, beforeDigest, true))
					continue
				}
			}
			out = append(out, diag.Diagnostic{Code: rules.HistoryRevisionDeleted, Severity: diag.Error, Path: f.path,
				Message: fmt.Sprintf("accepted revision %s was deleted (its digest at %s is %s)", g.topPath(f.path), g.at(), beforeDigest),
				Help: fmt.Sprintf("accepted revisions stay forever: restore it (git checkout %s -- %s); to retract releases, write a successor revision that changes their POLICY",
					g.checkoutRev(), shellQuote(g.topPath(f.path)))})
		case 'R':
			// The new path may not be loaded (an invalid name): its bytes
			// are read from the tree that was checked.
			work, exists := g.workBytes(r, f.path)
			same := exists && haveBefore && bytes.Equal(work, before)
			out = append(out, renamed(f.oldPath, f.path, g, beforeDigest, same))
		}
	}
	return out, g.explainChanged(r, changedFrom), nil
}

// storedBlob returns the bytes git stores for the root-relative Journal
// path p, whose checked bytes equal those of base (its entry at the
// compared commit) although git reports it changed, and whether they
// differ from base's blob. For a check of the work tree that is the index
// entry (in CI, the pull request's commit): a .gitattributes that converts
// the file on checkout can turn a different blob back into the accepted
// bytes, and the blob is what a merge keeps. An index entry with base's
// blob, or none, is the same revision (a change of mode). The bytes are
// nil for a blob larger than any Journal (syntax.MaxSize). For --staged
// the checked bytes are the blob's already.
func (g *gate) storedBlob(ctx context.Context, p string, base gitrepo.Entry) ([]byte, bool, error) {
	if g.staged {
		return nil, false, nil
	}
	if err := g.indexed(ctx); err != nil {
		return nil, false, err
	}
	e, ok := g.indexEntry(p)
	if !ok || !e.IsRegular() || e.Object == base.Object {
		return nil, false, nil
	}
	blobs, _, err := g.repo.ReadBlobs(ctx, []string{e.Object}, syntax.MaxSize)
	if err != nil {
		return nil, false, fmt.Errorf("--against: %w", err)
	}
	return blobs[e.Object], true, nil // nil: larger than any Journal
}

// explainChanged returns a note for each chain/missing-predecessor
// diagnostic of the load result whose PREDECESSOR is the digest, at the
// commit, of a revision that was changed since (changedFrom maps such
// digests to the revisions' root-relative paths): the chain broke because
// of that change.
func (g *gate) explainChanged(r *run, changedFrom map[vt.Digest]string) []note {
	if len(changedFrom) == 0 {
		return nil
	}
	var notes []note
	for i, d := range r.load.Diagnostics {
		if d.Code != rules.ChainMissingPredecessor {
			continue
		}
		if doc := r.load.Doc(d.Path); doc != nil && doc.PredecessorOK {
			if p, ok := changedFrom[doc.Predecessor]; ok {
				notes = append(notes, note{at: i,
					message: fmt.Sprintf(": it is the digest of %s at %s, which has changed since (see its history/revision-* diagnostic)", g.topPath(p), g.at()),
					help:    "restore " + g.topPath(p) + " to its bytes at " + g.at() + "; accepted revisions are immutable",
					related: []diag.Related{{Path: p, Message: "had this digest at " + g.at()}}})
			}
		}
	}
	return notes
}

// renamed is the history/revision-renamed diagnostic for a file moved from
// old to now (root-relative).
func renamed(old, now string, g *gate, digest string, same bool) diag.Diagnostic {
	msg := fmt.Sprintf("accepted revision %s was renamed to %s", g.topPath(old), g.topPath(now))
	if !same {
		msg += " and its bytes changed"
	}
	msg += fmt.Sprintf(" (its digest at %s is %s)", g.at(), digest)
	return diag.Diagnostic{Code: rules.HistoryRevisionRenamed, Severity: diag.Error, Path: now,
		Message: msg,
		Related: []diag.Related{{Path: old, Message: "its path at " + g.at()}},
		Help: fmt.Sprintf("a revision's path is fixed by its ARTIFACT and JOURNAL_VERSION: move it back (git mv %s %s) and restore its bytes if they changed",
			shellQuote(g.topPath(now)), shellQuote(g.topPath(old)))}
}

// coordinateOf is the directory part of a root-relative Journal path.
func coordinateOf(p string) string {
	dir, _, _ := strings.Cut(p, "/")
	return dir
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(c rune) bool {
		return !(c == '/' || c == '.' || c == '-' || c == '_' || c == ':' || c == '+' ||
			(c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// normalizeEOL returns b with every CRLF turned into LF.
func normalizeEOL(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// committedFile is what git holds of one Journal path: the blob at HEAD
// and the blob in the index (either may be missing) and whether the
// .gitattributes keep git from converting the file (text unset).
type committedFile struct {
	head, index []byte
	noConvert   bool
}

// gitFiles is what git lists of the Journal paths under the root (read once
// per run by [gate.listed]); paths are root-relative.
type gitFiles struct {
	head map[string]string // regular file → blob object at HEAD
	// byDir lists, per artifact directory (with its final slash), the
	// regular files at HEAD or in the index, sorted.
	byDir map[string][]string
}

// listed returns the Journal paths of HEAD (none before the first commit)
// and of the index: two git commands for the whole root, once per run.
func (g *gate) listed(ctx context.Context) (*gitFiles, error) {
	if g.files != nil {
		return g.files, nil
	}
	f := &gitFiles{head: map[string]string{}, byDir: map[string][]string{}}
	regular := map[string]bool{}
	if _, err := g.repo.ResolveCommit(ctx, "HEAD"); err == nil {
		entries, err := g.repo.Tree(ctx, "HEAD", g.rootRel)
		if err != nil {
			return nil, fmt.Errorf("git ls-tree: %w", err)
		}
		for _, e := range entries {
			if p, ok := g.journalPath(e.Path); ok && e.IsRegular() {
				f.head[p] = e.Object
				regular[p] = true
			}
		}
	}
	if err := g.indexed(ctx); err != nil {
		return nil, err
	}
	for p, e := range g.indexEntries() {
		if e.IsRegular() {
			regular[p] = true
		}
	}
	for p := range regular {
		dir := coordinateOf(p) + "/"
		f.byDir[dir] = append(f.byDir[dir], p)
	}
	for _, ps := range f.byDir {
		sort.Strings(ps)
	}
	g.files = f
	return f, nil
}

// indexed lists the index's entries under the root for indexEntry and
// indexEntries: those vouchWorkTree listed, else with one git command,
// once per run.
func (g *gate) indexed(ctx context.Context) error {
	if g.index == nil {
		index, err := g.repo.Index(ctx, g.rootRel)
		if err != nil {
			return fmt.Errorf("git ls-files: %w", err)
		}
		g.index = index
	}
	return nil
}

// indexEntry returns the merged index entry of the root-relative path p
// of a Journal file, from what indexed listed; false for any other path,
// or an unmerged one.
func (g *gate) indexEntry(p string) (gitrepo.Entry, bool) {
	if g.index == nil || !g.isJournal(p) {
		return gitrepo.Entry{}, false
	}
	e, ok := g.index.Find(g.rootRel, p)
	return e, ok && e.Stage == 0
}

// indexEntries yields, in path order, the merged index entries of Journal
// files that indexed listed, with their root-relative paths.
func (g *gate) indexEntries() iter.Seq2[string, gitrepo.Entry] {
	return func(yield func(string, gitrepo.Entry) bool) {
		if g.index == nil {
			return
		}
		for _, e := range g.index.All() {
			if p, ok := g.journalPath(e.Path); ok && e.Stage == 0 && !yield(p, e) {
				return
			}
		}
	}
}

// committedFiles returns what git holds of each of the root-relative
// paths (see [committedFile]); a path git does not hold as a regular file
// is missing from the map. The blobs are read with one git cat-file and
// the attributes with one git check-attr for all paths; results are cached
// for the run.
func (g *gate) committedFiles(ctx context.Context, paths []string) (map[string]*committedFile, error) {
	f, err := g.listed(ctx)
	if err != nil {
		return nil, err
	}
	if g.committed == nil {
		g.committed = map[string]*committedFile{}
	}
	var want, objects []string
	for _, p := range paths {
		if _, done := g.committed[p]; done {
			continue
		}
		g.committed[p] = nil
		h, inHead := f.head[p]
		e, inIndex := g.indexEntry(p)
		inIndex = inIndex && e.IsRegular()
		if !inHead && !inIndex {
			continue
		}
		want = append(want, p)
		if inHead {
			objects = append(objects, h)
		}
		if inIndex && e.Object != h {
			objects = append(objects, e.Object)
		}
	}
	if len(want) > 0 {
		blobs, _, err := g.repo.ReadBlobs(ctx, objects, syntax.MaxSize)
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		attrs, err := g.repo.Attributes(ctx, false, g.rootRel, want, "text")
		if err != nil {
			return nil, fmt.Errorf("git check-attr: %w", err)
		}
		for i, p := range want {
			c := &committedFile{noConvert: attrs[i][0] == "unset"}
			if h, ok := f.head[p]; ok {
				c.head = blobs[h]
			}
			if e, ok := g.indexEntry(p); ok && e.IsRegular() {
				c.index = blobs[e.Object]
			}
			g.committed[p] = c
		}
	}
	out := make(map[string]*committedFile, len(paths))
	for _, p := range paths {
		if c := g.committed[p]; c != nil {
			out[p] = c
		}
	}
	return out, nil
}

// workBytes returns the bytes of the root-relative Journal path p in the
// checked tree (the loaded text when the load holds it), and whether p is
// a regular file there.
func (g *gate) workBytes(r *run, p string) ([]byte, bool) {
	if src := r.load.Source(p); src != nil {
		return src, true
	}
	if mode, err := g.src.Stat(p); err != nil || !mode.IsRegular() {
		return nil, false
	}
	f, err := g.src.ReadFile(p)
	return f.Data, err == nil
}

// explainCommitted returns a note for each chain/missing-predecessor
// diagnostic of the load result (of a check of the work tree, not of the index) whose
// PREDECESSOR is the digest of the committed bytes (at HEAD, else in the
// index) of another file of the same artifact whose work-tree copy is
// different or gone. The real cause is that copy, not the link: the
// diagnostic says the accepted revision was modified (or deleted, or had
// its line endings converted), says how to restore it, and no longer
// suggests naming another digest. With a gate (--against), the history
// diagnostics already explain edits, so only line endings are explained.
func (g *gate) explainCommitted(ctx context.Context, r *run) ([]note, error) {
	var chainDiags []int
	for i, d := range r.load.Diagnostics {
		if rules.Category(d.Code) == "chain" && d.Path != "" {
			chainDiags = append(chainDiags, i)
		}
	}
	if len(chainDiags) == 0 {
		return nil, nil
	}
	files, err := g.listed(ctx)
	if err != nil {
		return nil, err
	}
	var paths []string // every path the diagnostics may need, read at once
	for _, i := range chainDiags {
		paths = append(paths, files.byDir[coordinateOf(r.load.Diagnostics[i].Path)+"/"]...)
	}
	committed, err := g.committedFiles(ctx, paths)
	if err != nil {
		return nil, err
	}
	var notes []note
	for _, i := range chainDiags {
		d := r.load.Diagnostics[i]
		doc := r.load.Doc(d.Path) // read and parsed again when the load dropped it
		if doc == nil {
			continue
		}
		dir := coordinateOf(d.Path) + "/"
		// The revision itself was committed and edited since: the edit is
		// the cause, whatever link it broke.
		if c := committed[d.Path]; c != nil && c.head != nil && !bytes.Equal(c.head, doc.Src) {
			tp := g.topPath(d.Path)
			notes = append(notes, note{at: i, dropFixes: true,
				message: fmt.Sprintf(" (this revision differs from its committed bytes at HEAD, digest %s)", vt.DigestOf(c.head)),
				help: fmt.Sprintf("a committed revision is accepted and immutable: restore it (git checkout HEAD -- %s) and put the change in a new successor revision (journal-lint new %s)",
					shellQuote(tp), coordinateOf(d.Path))})
			continue
		}
		if d.Code != rules.ChainMissingPredecessor || !doc.PredecessorOK {
			continue
		}
		for _, p := range files.byDir[dir] {
			c := committed[p]
			if p == d.Path || c == nil {
				continue
			}
			blob, where := c.head, "HEAD"
			if blob == nil || vt.DigestOf(blob) != doc.Predecessor {
				blob, where = c.index, "the index"
			}
			if blob == nil || vt.DigestOf(blob) != doc.Predecessor {
				continue
			}
			work, exists := g.workBytes(r, p)
			if exists && bytes.Equal(work, blob) {
				continue
			}
			eolOnly := exists && bytes.Equal(normalizeEOL(work), normalizeEOL(blob))
			if g.commit != "" && !eolOnly {
				continue // the history diagnostics explain it
			}
			notes = append(notes, g.explainOne(i, doc, p, work, exists, eolOnly, where, c.noConvert))
			break
		}
	}
	return notes, nil
}

// explainOne returns the note on the chain/missing-predecessor diagnostic
// at index at of the load result (of doc), whose PREDECESSOR is the digest of the bytes of p at where ("HEAD" or
// "the index"): p's work-tree copy is work (exists false: none), which
// differs from them (eolOnly: only in line endings; noConvert: the
// attributes keep git from converting p).
func (g *gate) explainOne(at int, doc *syntax.Document, p string, work []byte, exists, eolOnly bool, where string, noConvert bool) note {
	tp := g.topPath(p)
	restore := "git checkout -- " + shellQuote(tp)
	if where == "HEAD" {
		restore = "git checkout HEAD -- " + shellQuote(tp)
	}
	n := note{at: at, dropFixes: true}
	switch {
	case eolOnly && !noConvert:
		n.message = fmt.Sprintf(": it is the digest of the committed bytes of %s, whose working-tree copy differs from them only in line endings (git converted them on checkout)", tp)
		n.help = "keep git from converting Journals: add these lines to .gitattributes and commit it:\n" + gitattributesLines +
			"\nthen delete " + tp + " and check it out again (git checkout -- " + shellQuote(tp) + ") to get its committed bytes back"
		n.related = []diag.Related{{Path: p,
			Message: "committed with digest " + doc.Predecessor.String() + "; the working-tree copy has other line endings"}}
	case eolOnly:
		n.message = fmt.Sprintf(": it is the digest of the committed bytes of %s, whose working-tree copy differs from them only in line endings (.gitattributes keeps git from converting Journals, so an editor or another tool changed them)", tp)
		n.help = "an accepted revision is immutable: restore its committed bytes (" + restore + ")"
		n.related = []diag.Related{{Path: p,
			Message: "committed with digest " + doc.Predecessor.String() + "; the working-tree copy has other line endings"}}
	case !exists:
		n.message = fmt.Sprintf(": it is the digest of accepted revision %s at %s, which is missing from the work tree", tp, where)
		n.help = "accepted revisions stay forever: restore it (" + restore + ")"
		n.related = []diag.Related{{Path: p, Message: "had this digest at " + where}}
	default:
		n.message = fmt.Sprintf(": it is the digest of accepted revision %s at %s, which was modified in the work tree (now %s)", tp, where, vt.DigestOf(work))
		n.help = fmt.Sprintf("an accepted revision is immutable: restore it (%s) and put the change in a new successor revision (journal-lint new %s)",
			restore, coordinateOf(p))
		n.related = []diag.Related{{Path: p, Message: "had this digest at " + where}}
	}
	return n
}

// reviseWorkTree corrects the diagnostics l of a check of the work tree
// (not --staged) where git, not the text, is the cause:
//
//   - a Journal path that git records as a symbolic link but that is a
//     plain file in the work tree (core.symlinks=false checks a link out as
//     a text file holding its target) gets one fs/unexpected-entry for the
//     link instead of the parse and lint findings of the target's name;
//   - style/crlf on a file whose committed bytes differ from its work-tree
//     copy only in line endings tells to restore the committed bytes, as
//     the chain diagnostics do, instead of fixing it in the next revision.
//
// It returns the corrected list; l's diagnostics are not modified.
func (g *gate) reviseWorkTree(ctx context.Context, r *run, l diag.List) (diag.List, error) {
	if g == nil || g.repo == nil || g.staged {
		return l, nil
	}
	if err := g.indexed(ctx); err != nil {
		return nil, err
	}
	links := map[string]bool{}
	if g.index.Symlinks() > 0 { // else the entries need not be visited
		for p, e := range g.indexEntries() {
			if e.IsSymlink() {
				if mode, err := g.src.Stat(p); err == nil && mode.IsRegular() {
					links[p] = true
				}
			}
		}
	}
	var crlf []string
	for _, d := range l {
		if d.Code == rules.StyleCRLF && d.Path != "" {
			crlf = append(crlf, d.Path)
		}
	}
	crlf, err := g.mayDifferFromHEAD(ctx, crlf)
	if err != nil {
		return nil, err
	}
	var committed map[string]*committedFile
	if len(crlf) > 0 {
		committed, err = g.committedFiles(ctx, crlf)
	}
	if err != nil {
		return nil, err
	}
	out := make(diag.List, 0, len(l)+len(links))
	// One diagnostic for each link, in place of the findings on its text
	// (which may have none: the text may be a valid Journal).
	var paths []string
	for p := range links {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		target, _ := g.workBytes(r, p)
		d := load.UnexpectedEntry(p, fs.ModeSymlink, "")
		d.Message += fmt.Sprintf(" (to %q: git records it as a link, and core.symlinks=false checked it out as a text file holding the target)", string(target))
		out = append(out, d)
	}
	for _, d := range l {
		if links[d.Path] {
			continue
		}
		if d.Code == rules.StyleCRLF {
			if c := committed[d.Path]; c != nil && c.head != nil {
				if work, ok := g.workBytes(r, d.Path); ok && !bytes.Equal(work, c.head) && bytes.Equal(normalizeEOL(work), normalizeEOL(c.head)) && !bytes.Contains(c.head, []byte("\r\n")) {
					tp := g.topPath(d.Path)
					d.Help = "the committed bytes of this revision use LF line endings, and only this copy was converted: restore them (git checkout HEAD -- " + shellQuote(tp) + ") instead of changing the revision"
					if !c.noConvert {
						d.Help += ", and keep git from converting Journals (see repo/eol-conversion)"
					}
				}
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// mayDifferFromHEAD returns the root-relative paths of the work tree's
// Journal files whose bytes may differ from their blob at HEAD: all but
// those that git reports unchanged since HEAD and whose attributes convert
// nothing under the configured core.autocrlf (eolAttr.convertsNothing), which
// hold the blob's exact bytes.
// Before the first commit there is no blob to differ from.
func (g *gate) mayDifferFromHEAD(ctx context.Context, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	if _, err := g.repo.ResolveCommit(ctx, "HEAD"); err != nil {
		return nil, nil
	}
	changes, err := g.repo.Diff(ctx, "HEAD", false, g.rootRel)
	if err != nil {
		return nil, fmt.Errorf("git diff: %w", err)
	}
	autocrlf, err := g.repo.Config(ctx, "core.autocrlf")
	if err != nil {
		return nil, fmt.Errorf("git config: %w", err)
	}
	changed := map[string]bool{}
	for _, c := range changes {
		for _, top := range []string{c.Path, c.OldPath} {
			if p, ok := g.underRoot(top); ok && top != "" {
				changed[p] = true
			}
		}
	}
	var out []string
	for _, p := range paths {
		if a := g.eolAttrs.get(p); changed[p] || a == nil || !a.convertsNothing(autocrlf) {
			out = append(out, p)
		}
	}
	return out, nil
}

// isLintCode reports whether code is a finding about a revision that
// --new-only may drop: any kind but a validity code, a code of the
// append-only gate itself or a configuration warning (a rule pack's code is
// a lint finding too).
func isLintCode(code string) bool {
	switch rules.KindOf(code) {
	case rules.Validity, rules.Repository, rules.Config:
		return false
	}
	return true
}

// finish applies --new-only to the sorted diagnostics l (lint findings on
// revisions that exist at the commit are dropped) and, when there is a
// gate, computes the revision fingerprint of every diagnostic on a
// revision whose identity is known (fingerprint.Revision). The map is
// indexed like the returned list.
func (g *gate) finish(r *run, l diag.List, newOnly bool, heads headJudge) (diag.List, map[int]string) {
	if g == nil || g.commit == "" {
		return l, nil
	}
	if newOnly {
		kept := l[:0:0]
		for _, d := range l {
			if _, old := g.atBase(d.Path); old && d.Path != "" && isLintCode(d.Code) {
				continue
			}
			kept = append(kept, d)
		}
		l = g.dropCarriedOver(r, kept, heads)
	}
	fps := map[int]string{}
	for i := range l {
		d := &l[i]
		f := r.load.File(d.Path)
		if f == nil || !f.Summary.Read || !f.Summary.CoordinateOK || !f.Summary.JournalVersionOK {
			continue
		}
		vp, ok := r.paths.get(d)
		if !ok && d.Range.IsValid() && !d.Range.IsFileStart() {
			// Read again when the load dropped it; none when the file no
			// longer holds the bytes that were checked.
			doc := r.load.Doc(d.Path)
			if doc == nil {
				continue
			}
			vp = doc.ValuePath(d.Range)
		}
		fps[i] = fingerprint.Revision(d.Code, f.Summary.Coordinate.String(), f.Summary.JournalVersion.String(), f.Summary.Digest.String(), vp)
	}
	return l, fps
}
