package check

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitcheck"
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/source"
)

// gate is the git side of one check run: the work tree that holds the root
// (nil outside one), the revision compared against, and where the tree is
// loaded from (the index for --staged, else the disk). This file opens it
// and runs its analyzer (gitGate); its parts live beside it:
//
//   - package gitfacts (the embedded Facts): what git lists under the
//     root (the compared commit's Journal files, the index, HEAD's files
//     and their committed bytes), each asked once per run;
//   - attrs.go: asking git's attributes of the files (gitfacts.Attrs),
//     ahead while the tree loads, with the cache's records of them;
//   - package gitcheck (gitGate's [gate.tree]): repo/eol-*,
//     history/revision-* against the compared commit, the notes that
//     explain or amend the load's chain findings by what git knows, the
//     revisions of work-tree findings, and the refusal of sparse
//     checkouts;
//   - newonly.go, carried.go: --new-only and the revision fingerprints;
//   - rootlink.go, trust.go, tlog.go, summary.go: a link on the root's
//     path, the base's settings, the transparency log, and the tree
//     summaries of --staged.
type gate struct {
	// Facts is what git says of the tree: the repository (nil outside a
	// work tree), the root in it, the compared commit and its files, the
	// index, HEAD's files.
	gitfacts.Facts
	// staged is Options.Staged: the tree checked is the index's.
	staged bool
	// src is where the tree is loaded from: the disk under the root, or
	// for --staged the index (a *source.Git, which close closes, and
	// then Facts.StagedIndex too).
	src source.Source
	// eolAttrs caches the attributes of the loaded files that decide git's
	// conversions, by root-relative path (loadedAttributes, attrs.go);
	// asked, when set, says that git is being asked about the source's
	// files meanwhile (askAttributes), and is closed once eolAttrs has
	// them.
	eolAttrs *gitfacts.AttrTable
	// ownAttributes holds the artifact directories (root-relative) with a
	// .gitattributes of their own, in the index or the work tree, as
	// knownAttributes found them; vouchWorkTree vouches for none of their
	// files.
	ownAttributes map[string]bool
	// probe, when set, is the run's probe of the files the work tree's
	// source would vouch for (probeVouch).
	probe *vouchProbe
	asked chan struct{}
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
	// dirAttributes says that this run's load found a .gitattributes in
	// an artifact directory, priorDirAttributes that the load of the run
	// g took its facts over from did (forgetStampedAttributes).
	dirAttributes, priorDirAttributes bool
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
	g := &gate{src: &source.Disk{Root: opts.Root}, staged: opts.Staged}
	g.Examples = opts.Examples
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
		if p != nil && p.Repo != nil && p.stamp != 0 && p.Repo.Stamp(opts.Root) == p.stamp {
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
	g.Repo, g.RootRel = repo, rel
	if d, ok := g.src.(*source.Disk); ok {
		d.Format = repo.ObjectFormat() // the work tree's files share addresses with git's blobs
	}
	if !wantGit {
		g.stamp = repo.Stamp(opts.Root)
		return g, nil
	}
	g.Against = opts.Against
	if g.Against == "" && opts.Staged {
		g.MergeSource = gitfacts.PublishedRef
	}
	if opts.Staged {
		g.Merged = repo.MergeHeads(ctx)
	}
	if g.Against == "" {
		// --staged alone compares against HEAD, when there is one (an
		// initial commit has nothing to compare against).
		if _, err := repo.ResolveCommit(ctx, "HEAD"); err == nil {
			g.Against = "HEAD"
		}
	}
	if g.Against != "" {
		if g.Commit, err = gitfacts.BaseCommit(ctx, repo, g.Against, g.Merged...); err != nil {
			return nil, fmt.Errorf("--against: %w", err)
		}
		if g.Rev, err = repo.ResolveCommit(ctx, g.Against); err != nil {
			return nil, fmt.Errorf("--against: %w", err)
		}
	} else if opts.NewOnly && !opts.Staged {
		// (--staged before the first commit: every revision is new.)
		return nil, errors.New("--new-only: there is no HEAD commit to compare against; name one with --against")
	}
	// What git says differs between the commit and the index is asked
	// while git lists the index.
	var base baseDiff
	if opts.Staged && g.Commit != "" {
		sum.probe(ctx, g)
	} else {
		sum = nil
	}
	if g.Commit != "" {
		base.done = make(chan struct{})
		go func() {
			defer close(base.done)
			base.changes, base.err = repo.IndexDiff(ctx, g.Commit, rel)
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
				g.StagedIndex, _ = src.(*source.Git)
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
		g.src, g.StagedIndex = index, index
	}
	if !opts.Staged && g.Commit != "" {
		// The work tree's gate lists the index while git answers what
		// differs from the commit: LoadBase needs both, and reports an
		// error of either (asking again for a list that failed).
		if g.Indexed(ctx) == nil {
			g.readOnceWhereIndexed()
		}
	}
	if g.Commit != "" {
		<-base.done
		if err := g.LoadBase(ctx, base.changes, base.err); err != nil {
			return nil, fmt.Errorf("--against: %w", err)
		}
	}
	if !opts.Staged {
		if err := gitcheck.RefuseSparse(ctx, &g.Facts); err != nil {
			return nil, fmt.Errorf("--against: %w", err)
		}
	}
	return g, nil
}

// readOnceWhereIndexed makes the load read a work-tree file once when its
// bytes are the blob the index lists for it (source.Disk.Blob): g's
// source is the disk and the index is listed (Indexed).
func (g *gate) readOnceWhereIndexed() {
	d, ok := g.src.(*source.Disk)
	if !ok || g.Index() == nil {
		return
	}
	d.Blob = func(rel string) (string, bool) {
		e, ok := g.IndexEntry(rel)
		return e.Object, ok && e.IsRegular()
	}
}

// Baseline is the commit a check with a gate compared with.
type Baseline struct {
	// Rev is the revision as given ("origin/main"; "HEAD" for --staged).
	Rev string
	// Commit is the full object name of the merge base of Rev and HEAD
	// (or the merge being committed, Merge), the commit compared with.
	Commit string
	// MergeBase reports whether Commit differs from the commit Rev names
	// (the branch forked before Rev's newest commits).
	MergeBase bool
	// Merge reports a staged merge: Commit is the merge base of Rev and
	// the merge being committed (gitfacts.Facts.Merged).
	Merge bool
	// Head is the full object name of HEAD, or "" before the first commit.
	Head string
	// RepositoryURI is the remote origin's URL without user information,
	// for SARIF versionControlProvenance; "" when there is none or it is a
	// local path.
	RepositoryURI string
}

// baseline describes the compared commit, or nil without a gate.
func (g *gate) baseline(ctx context.Context) *Baseline {
	if g == nil || g.Commit == "" {
		return nil
	}
	b := &Baseline{Rev: g.Against, Commit: g.Commit, MergeBase: g.Rev != g.Commit, Merge: len(g.Merged) > 0}
	b.Head, _ = g.Repo.ResolveCommit(ctx, "HEAD")
	b.RepositoryURI = g.Repo.RemoteURI(ctx, "origin")
	return b
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

// gitGate is the analyzer of the repository workflows: repo/eol-* inside
// any work tree (gitcheck.Tree.EOLConversion, ConversionEnabled,
// StagedConversion, once the loaded files' attributes are known); with a
// compared commit, history/revision-* and the notes that explain the
// chain findings those changes caused (Revisions); for a check of the work tree, the notes on
// chain findings of committed revisions edited or converted since
// (ExplainCommitted); and the advice of chain/fork where it cannot be
// followed (AdviseFork).
func gitGate(ctx context.Context, r *run) (diag.List, []diag.Note, error) {
	g := r.gate
	if g == nil || g.Repo == nil {
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
		out = append(out, g.rootLink.diagnostic(g.RootRel))
	}
	if err := g.loadedAttributes(ctx, r); err != nil {
		return nil, nil, err
	}
	t := g.tree(r)
	eol := t.EOLConversion(r.sum.eolGroups())
	enabled, err := t.ConversionEnabled(ctx)
	if err != nil {
		return nil, nil, err
	}
	if len(enabled) > 0 {
		eol = enabled // the change under check turned conversion on: an error
	}
	out = append(out, eol...)
	staged, err := t.StagedConversion(ctx)
	if err != nil {
		return nil, nil, err
	}
	out = append(out, staged...)
	var notes []diag.Note
	if g.Commit != "" {
		hist, ns, err := t.Revisions(ctx)
		if err != nil {
			return nil, nil, err
		}
		out, notes = append(out, hist...), append(notes, ns...)
	}
	if !g.staged {
		ns, err := t.ExplainCommitted(ctx)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, ns...)
	}
	ns, err := t.AdviseFork(ctx)
	if err != nil {
		return nil, nil, err
	}
	return out, append(notes, ns...), nil
}

// tree is what the analyzers of package gitcheck look at in the run r;
// g must have a repository.
func (g *gate) tree(r *run) *gitcheck.Tree {
	return &gitcheck.Tree{Facts: &g.Facts, Staged: g.staged, Source: r.read, Load: r.load, Attrs: g.eolAttrs, ChangedOnly: r.sum.readsChanged()}
}

// reviseWorkTree corrects the diagnostics l of a check of the work tree
// where git, not the text, is the cause (gitcheck.Tree.ReviseWorkTree).
func (g *gate) reviseWorkTree(ctx context.Context, r *run, l diag.List) (diag.List, error) {
	if g.Repo == nil || g.staged {
		return l, nil
	}
	return g.tree(r).ReviseWorkTree(ctx, l)
}

// baseDiff is what git said differs between the compared commit and the
// index (gitfacts.Facts.LoadBase), once done is closed.
type baseDiff struct {
	done    chan struct{}
	changes []gitrepo.RawChange
	err     error
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
	g.TakeOver(&p.Facts)
	g.stamp = p.stamp
	g.eolAttrs = p.eolAttrs.Clone()
	g.priorDirAttributes = p.dirAttributes
}

// forgetStampedAttributes drops the attributes (and with them the
// committed files, which hold one) that g took over because the
// repository's stamp did not change, when the load found a .gitattributes
// in an artifact directory, or the load of the run they come from did
// (the file may be gone since): the stamp does not look at those, and git
// applies them to the Journals beside them.
func (g *gate) forgetStampedAttributes(r *run) {
	for _, d := range r.load.Diagnostics {
		if dir, name, ok := strings.Cut(d.Path, "/"); ok && dir != "" && name == ".gitattributes" {
			g.dirAttributes = true
			break
		}
	}
	if g.stamped && (g.dirAttributes || g.priorDirAttributes) {
		g.eolAttrs = nil
		g.ForgetCommitted()
	}
}
