package check

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitcheck"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/source"
	"github.com/r35157/journal-lint/rules"
)

// A check of the staged tree (--staged, the pre-commit hook) keeps in the
// persistent cache a summary of the tree it checked, named by the tree's
// git object name under the root. The commit that the hook let through
// makes that tree HEAD's, so the next commit's hook finds the summary of
// HEAD's tree and reads only the artifact directories that the index
// changes since HEAD or since the commit it compares with (HEAD, or its
// merge base with origin/HEAD, which a revision committed but not pushed
// is new to); the rest of the tree comes from the summary. When HEAD's
// tree has none (after a pull, or a commit that no hook saw), the summary
// of a tree that a recent staged check kept serves, and the directories
// in which that tree and HEAD's differ are read too (nearest). Of another
// directory, what --new-only reports needs only:
//
//   - how many Journal files, accepted revisions and chains it holds (the
//     report's counts);
//   - the heads its revisions give the tree (lint.Tree), which the
//     head-only rules of a changed head look up;
//   - how many of its files git may convert, and the first one
//     (repo/eol-conversion speaks of the whole tree).
//
// Its lint findings are on revisions the compared commit holds, which
// --new-only drops;
// so a summary is kept only of a tree where the load, the visit and the
// head-only rules found nothing that --new-only keeps (validity,
// repository and configuration codes: see isLintCode) and no example was
// skipped, and it is used only by a check with --new-only, without ignore
// entries (config/unused-ignore looks at every finding), rule packs or a
// transparency log, whose change touches no entry directly under the root
// and no .gitattributes under the root or above it, and reads at most
// maxSummaryDirs directories, under a root whose path holds no symbolic
// link (rootlink.go). A changed directory whose chain names a revision of
// another artifact (chain/cross-artifact, chain/missing-predecessor) needs
// the whole tree: the check starts again without the summary. `diff
// --staged` (Added) takes the tree the same way: the summary vouches that
// the other directories are valid.
//
// The summary's name holds the records' namespace (the tool's build and
// the rules), the root, the tree and the attribute sources
// (gitrepo.Repo.AttributeSources) of the root: a .gitattributes inside an
// artifact directory is part of that directory's tree. --cache=verify
// computes the summary of the tree it checked and fails when the cache
// holds a different one under the same name.

// summaryFormat is the version of the encoding of a tree summary.
const summaryFormat = 1

// maxSummaryDirs is the most artifact directories a check reads beside a
// summary; a change of more reads the whole tree.
const maxSummaryDirs = 512

// summaryDir is what a tree summary holds of one artifact directory.
type summaryDir struct {
	name            string
	files, accepted int
	trees           []treeHead
	// eolCount counts its files whose attributes let git convert their
	// line endings; eolFirst describes the first (gitcheck.EOLFirst).
	eolCount int
	eolFirst string
	// raw is the directory's encoding in the summary it was read from,
	// which the next summary copies; nil for one computed now.
	raw []byte
}

// summaryUse is a staged check's use of tree summaries: the name of the
// summary of the tree it checks, and the summary of HEAD's tree (or of a
// recent tree, nearest) when the check reads only what changed since
// (hit).
type summaryUse struct {
	store *memo.Store
	ns    []byte
	// mayUse says that the check's options and configuration allow taking
	// the tree from a summary (see above); a check that may not still
	// keeps the summary of the tree it checked.
	mayUse bool

	// Known once the gate opened (probe, open): HEAD's tree under the
	// root, the attribute sources, the .gitattributes that differ between
	// HEAD and the index (under the root or above it), and whether git
	// answered all of it.
	probed   chan struct{}
	headTree string
	treeErr  error
	// read is the summary of HEAD's tree that probe read, named with
	// HEAD's attribute sources headAttrs; nil for none. When it is the
	// summary of another tree (nearest), since names the artifact
	// directories in which that tree and HEAD's differ.
	read      []summaryDir
	since     []string
	headAttrs []byte
	attrs     []byte
	attrFiles []string
	opened    bool // git answered all of it
	// checked is the name of the tree under the root that the check
	// reads (gitrepo.Repo.PatchTree), once patched is closed; "" when
	// git could not tell.
	patched chan struct{}
	checked string

	// hit says that the load reads only the directories changed; old
	// holds the summary's other directories, by name.
	hit bool
	old []summaryDir
}

// newSummaryUse returns the summary use of r, or nil when its check
// neither keeps nor uses summaries: not --staged, no cache, rule
// packs, a transparency log, or a language server's check (KeepState,
// Overlay, Prior).
func newSummaryUse(r *run, prior *run) (*summaryUse, error) {
	o := r.opts
	if !o.Staged || o.Cache == nil || o.Cache.Mode() == memo.Off || o.KeepState || len(o.Overlay) > 0 || prior != nil ||
		len(r.cfg.Plugins) > 0 || r.cfg.TLog.VKey != "" {
		return nil, nil
	}
	ns, err := namespace(r, nil)
	if err != nil {
		return nil, err
	}
	return &summaryUse{store: o.Cache, ns: ns,
		mayUse: o.NewOnly && !o.wholeTree && len(r.cfg.Ignore) == 0 && o.Cache.Mode() != memo.Verify}, nil
}

// probe asks git, in the background, for HEAD's tree under the root while
// the gate asks what the index changes, and when the check may take the
// tree from a summary, reads the summary of HEAD's tree as HEAD's
// attribute sources name it, or else of a recent tree (nearest): the one
// open takes, unless the index changes a .gitattributes (then it takes
// none). open waits for it.
func (s *summaryUse) probe(ctx context.Context, g *gate) {
	if s == nil {
		return
	}
	s.probed = make(chan struct{})
	go func() {
		defer close(s.probed)
		if s.headTree, s.treeErr = g.Repo.TreeAt(ctx, "HEAD", g.RootRel); s.treeErr != nil || s.headTree == "" || !s.mayUse {
			return
		}
		attrs, err := g.Repo.AttributeSourcesAt(ctx, "HEAD", g.RootRel)
		if err != nil {
			return
		}
		tree, since := s.headTree, []string(nil)
		data, ok := s.store.Object(s.key(g.RootRel, tree, attrs)...)
		if !ok {
			tree, data, since, ok = s.nearest(ctx, g, attrs)
		}
		if !ok {
			return
		}
		dirs, err := decodeSummary(data)
		if err != nil {
			s.store.Warnf("the cached summary of the tree %s does not decode (%v); the tree was read", tree, err)
			return
		}
		s.headAttrs, s.read, s.since = attrs, dirs, since
	}()
}

// maxRecentSummaries is how many of the trees whose summaries staged
// checks kept last the cache names for each root (recentKey).
const maxRecentSummaries = 8

// nearest finds, when the cache holds no summary of HEAD's tree (after a
// pull, or a commit that no hook saw), the summary of a tree that a
// recent staged check kept under the same attribute sources attrs, and
// returns that tree, its summary and the artifact directories in which it
// and HEAD's tree differ (gitrepo.Repo.TreeDiff), which the check then
// reads beside those the index changes: a directory that neither changes
// is the same in all three trees. A tree is passed over when any entry
// directly under the root that is not a directory differs, or more than
// maxSummaryDirs do, or git does not know it (the list is kept per root
// and namespace, not per repository). False when none serves.
func (s *summaryUse) nearest(ctx context.Context, g *gate, attrs []byte) (string, []byte, []string, bool) {
	list, ok := s.store.Object(s.recentKey(g.RootRel)...)
	if !ok {
		return "", nil, nil, false
	}
	for _, tree := range strings.Fields(string(list)) {
		if tree == s.headTree {
			continue
		}
		data, ok := s.store.Object(s.key(g.RootRel, tree, attrs)...)
		if !ok {
			continue
		}
		changes, err := g.Repo.TreeDiff(ctx, tree, s.headTree)
		if err != nil || len(changes) > maxSummaryDirs {
			continue
		}
		if !slices.ContainsFunc(changes, func(c gitrepo.RawChange) bool { return !c.BetweenDirs() }) {
			dirs := make([]string, len(changes))
			for i, c := range changes {
				dirs[i] = c.Path
			}
			return tree, data, dirs, true
		}
	}
	return "", nil, nil, false
}

// recentKey returns the parts of the name of the list of the trees under
// the root at rootRel whose summaries staged checks kept last, newest
// first (nearest).
func (s *summaryUse) recentKey(rootRel string) [][]byte {
	return [][]byte{[]byte("journal-lint/check/summary-recent"), s.ns, []byte(rootRel)}
}

// remember puts tree first in the list of recent summaries of the root
// at rootRel. Two checks that write it at once keep one's list: a tree
// left out costs a later check work, never a wrong answer.
func (s *summaryUse) remember(rootRel, tree string) {
	list := []string{tree}
	if old, ok := s.store.Object(s.recentKey(rootRel)...); ok {
		for _, t := range strings.Fields(string(old)) {
			if t != tree && len(list) < maxRecentSummaries {
				list = append(list, t)
			}
		}
	}
	s.store.PutObject([]byte(strings.Join(list, "\n")+"\n"), s.recentKey(rootRel)...)
}

// attributes learns, once the gate knows what the index changes, the
// attribute sources of the root and the .gitattributes under the root or
// above it that differ between HEAD and the index, from HEAD's trees and
// that answer (gitrepo.Repo.StagedAttributeSources): none of it reads
// the index again.
func (s *summaryUse) attributes(ctx context.Context, g *gate) error {
	var wg sync.WaitGroup
	var attrsErr, attrFilesErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.attrs, attrsErr = g.Repo.StagedAttributeSources(ctx, "HEAD", g.RootRel)
	}()
	go func() {
		defer wg.Done()
		s.attrFiles, attrFilesErr = g.Repo.StagedAttributeChanges(ctx, "HEAD", g.RootRel)
	}()
	wg.Wait()
	return errors.Join(s.treeErr, attrsErr, attrFilesErr)
}

// wait waits for what probe and open asked git, when they asked.
func (s *summaryUse) wait() {
	if s != nil && s.probed != nil {
		<-s.probed
	}
	if s != nil && s.patched != nil {
		<-s.patched
	}
}

// open takes the changes of the index since HEAD under the root
// (gitrepo.Repo.IndexDiff) and, when the check may, takes the summary
// probe read and returns the source of only the directories the changes
// touch and those in which the summary's tree and HEAD's differ (since);
// nil when the whole index is to be read. Git failing to answer
// what probe asked leaves the check without summaries.
func (s *summaryUse) open(ctx context.Context, g *gate, changes []gitrepo.RawChange) (source.Source, error) {
	if s == nil {
		return nil, nil
	}
	s.wait()
	// What the index changes since HEAD names the tree the check reads
	// and lists it beside HEAD's; what it changes since the compared
	// commit (changes: HEAD itself, or its merge base with origin/HEAD)
	// holds the revisions --new-only reports on. Both are asked once.
	head, err := g.Repo.ResolveCommit(ctx, "HEAD")
	headChanges := changes
	if err == nil && head != g.Commit {
		headChanges, err = g.Repo.IndexDiff(ctx, head, g.RootRel)
	}
	if err == nil {
		err = s.attributes(ctx, g)
	}
	var baseAttrs []string
	if err == nil {
		baseAttrs, err = g.Repo.StagedAttributeChanges(ctx, g.Commit, g.RootRel)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, nil
	}
	s.opened = true
	s.patched = make(chan struct{})
	go func() {
		// The name of the tree this check reads, for its own summary,
		// while the tree is read.
		defer close(s.patched)
		if len(headChanges) == 0 {
			s.checked = s.headTree
		} else if id, err := g.Repo.PatchTree(ctx, s.headTree, g.RootRel, headChanges); err == nil {
			s.checked = id
		}
	}()
	if !s.mayUse || s.headTree == "" || len(s.attrFiles) > 0 || len(baseAttrs) > 0 || g.rootLink != nil {
		return nil, nil
	}
	// The directories to read: those either changes touches. The others
	// are HEAD's, as the summary holds them, and the compared commit's,
	// so --new-only keeps nothing of them but their validity.
	changed := map[string]bool{}
	for _, c := range slices.Concat(changes, headChanges) {
		p, ok := g.UnderRoot(c.Path)
		dir, _, nested := strings.Cut(p, "/")
		if c.Status == 'U' || !ok || !nested {
			return nil, nil // an unmerged entry, or one directly under the root
		}
		changed[dir] = true
	}
	for _, dir := range s.since {
		changed[dir] = true
	}
	if len(changed) > maxSummaryDirs {
		return nil, nil
	}
	if s.read == nil || !bytes.Equal(s.headAttrs, s.attrs) {
		return nil, nil // no summary that serves, or one named otherwise
	}
	dirs := s.read
	src, err := source.StagedDirs(ctx, g.Repo, g.RootRel, slices.Sorted(maps.Keys(changed)), head, headChanges)
	if err != nil {
		return nil, fmt.Errorf("--staged: %w", err)
	}
	s.hit = true
	s.old = slices.DeleteFunc(dirs, func(d summaryDir) bool { return changed[d.name] })
	g.attrsAt = head // no .gitattributes changed since (attrFiles)
	return src, nil
}

// key returns the parts of the name of the summary of tree, the git
// object name of the tree under the root at rootRel, with the attribute
// sources attrs.
func (s *summaryUse) key(rootRel, tree string, attrs []byte) [][]byte {
	return [][]byte{[]byte("journal-lint/check/summary"), s.ns, []byte(rootRel), []byte(tree), attrs}
}

// needsWholeTree reports whether a check that read only the changed
// directories must read the whole tree after all: a chain of theirs names
// a revision that is not its own (see above).
func (s *summaryUse) needsWholeTree(ds diag.List) bool {
	return s != nil && s.hit && slices.ContainsFunc(ds, func(d diag.Diagnostic) bool {
		return d.Code == rules.ChainCrossArtifact || d.Code == rules.ChainMissingPredecessor
	})
}

// treeHeads returns the tree heads of every artifact of the checked tree,
// in directory order: the visitor's, with those of the summary's other
// directories merged in.
func (s *summaryUse) treeHeads(v *visitor) [][]treeHead {
	if s == nil || !s.hit {
		return v.trees
	}
	type dirHeads struct {
		name  string
		heads []treeHead
	}
	all := make([]dirHeads, 0, len(s.old)+len(v.trees))
	for _, d := range s.old {
		all = append(all, dirHeads{d.name, d.trees})
	}
	for i, hs := range v.trees {
		all = append(all, dirHeads{v.dirs[i], hs})
	}
	slices.SortFunc(all, func(a, b dirHeads) int { return strings.Compare(a.name, b.name) })
	out := make([][]treeHead, len(all))
	for i, d := range all {
		out[i] = d.heads
	}
	return out
}

// readsChanged reports whether the check reads only the directories the
// index changes (and those since the summary's tree), beside a summary.
func (s *summaryUse) readsChanged() bool { return s != nil && s.hit }

// counts returns the files, chains and accepted revisions of the
// summary's other directories (none without a hit).
func (s *summaryUse) counts() (files, chains, revisions int) {
	if s == nil || !s.hit {
		return 0, 0, 0
	}
	return countDirs(s.old)
}

// countDirs returns the files, chains and accepted revisions of dirs.
func countDirs(dirs []summaryDir) (files, chains, revisions int) {
	for _, d := range dirs {
		files += d.files
		revisions += d.accepted
		if d.accepted > 0 {
			chains++
		}
	}
	return files, chains, revisions
}

// eolGroups returns, per directory of the summary's other directories,
// how many files git may convert and the first one
// (gitcheck.Tree.EOLConversion).
func (s *summaryUse) eolGroups() []gitcheck.EOLGroup {
	if s == nil || !s.hit {
		return nil
	}
	var out []gitcheck.EOLGroup
	for _, d := range s.old {
		if d.eolCount > 0 {
			out = append(out, gitcheck.EOLGroup{Dir: d.name, Count: d.eolCount, First: d.eolFirst})
		}
	}
	return out
}

// keep stores the summary of the tree r checked, when it is one a later
// check may take (see above: clean says that the load, the visit and the
// head-only rules found nothing --new-only keeps), and in verify mode
// compares it with the one the cache holds under its name. trees are the
// tree heads of the directories r loaded (visitor.treesByDir).
func (s *summaryUse) keep(r *run, trees map[string][]treeHead, clean bool) error {
	s.wait()
	if s == nil || !s.opened || !clean || r.load.SkippedExamples > 0 || s.store.Mode() == memo.ReadOnly {
		return nil
	}
	tree := s.checked
	if tree == "" {
		return nil
	}
	dirs := r.summaryDirs(trees)
	if !sameCounts(dirs, r.load) {
		return nil // a directory the summary would not speak for as the load did
	}
	var old []summaryDir
	if s.hit {
		old = s.old
	}
	data := encodeSummary(dirs, old)
	key := s.key(r.gate.RootRel, tree, s.attrs)
	if s.store.Mode() == memo.Verify {
		if cached, ok := s.store.Object(key...); ok && !bytes.Equal(cached, data) {
			return &ErrCacheVerify{What: "the summary of the tree " + tree}
		}
	}
	s.store.PutObject(data, key...)
	s.remember(r.gate.RootRel, tree)
	return nil
}

// summaryDirs returns what a tree summary holds of each artifact
// directory r loaded, in directory order, with their tree heads trees.
func (r *run) summaryDirs(trees map[string][]treeHead) []summaryDir {
	var out []summaryDir
	for _, f := range r.load.Files {
		dir := load.ArtifactDir(f.Path)
		if n := len(out); n == 0 || out[n-1].name != dir {
			out = append(out, summaryDir{name: dir, trees: trees[dir]})
		}
		d := &out[len(out)-1]
		d.files++
		if f.Outcome == chain.Appended {
			d.accepted++
		}
		if a := r.gate.eolAttrs.Get(f.Path); a != nil && a.Text != "unset" {
			if d.eolCount == 0 {
				d.eolFirst = gitcheck.EOLFirst(&r.gate.Facts, f.Path, a)
			}
			d.eolCount++
		}
	}
	return out
}

// sameCounts reports whether dirs, what a summary would hold of the
// directories of the load lr, count its files, chains and accepted
// revisions as lr does.
func sameCounts(dirs []summaryDir, lr *load.Result) bool {
	files, chains, revisions := countDirs(dirs)
	return files == len(lr.Files) && chains == lr.Chains && revisions == lr.Revisions
}

// cleanForSummary reports whether none of the lists holds a finding that
// --new-only keeps on a revision HEAD holds.
func cleanForSummary(lists ...diag.List) bool {
	for _, l := range lists {
		if slices.ContainsFunc(l, func(d diag.Diagnostic) bool { return !isLintCode(d.Code) }) {
			return false
		}
	}
	return true
}

// encodeSummary encodes the directories of a tree summary: those of two
// lists, each in directory order, with no directory in both, in one
// order (a summary of a million revisions merges the few directories a
// commit changes into a few hundred thousand, which are not copied).
func encodeSummary(dirs, more []summaryDir) []byte {
	size := 16
	for _, l := range [][]summaryDir{dirs, more} {
		for i := range l {
			size += max(len(l[i].raw), 128)
		}
	}
	w := codec.NewWriter(make([]byte, 0, size))
	w.Uint(summaryFormat)
	w.Uint(uint64(len(dirs) + len(more)))
	for len(dirs) > 0 || len(more) > 0 {
		var d *summaryDir
		if len(more) == 0 || len(dirs) > 0 && dirs[0].name < more[0].name {
			d, dirs = &dirs[0], dirs[1:]
		} else {
			d, more = &more[0], more[1:]
		}
		if d.raw != nil {
			w.Fixed(d.raw) // as it was read: the encoding of a directory is its own
			continue
		}
		w.String(d.name)
		w.Uint(uint64(d.files))
		w.Uint(uint64(d.accepted))
		appendTreeHeads(w, d.trees)
		w.Uint(uint64(d.eolCount))
		w.String(d.eolFirst)
	}
	return w.Bytes()
}

// decodeSummary decodes a tree summary (encodeSummary).
func decodeSummary(data []byte) ([]summaryDir, error) {
	r := codec.NewSharingReader(data) // raw keeps data anyway
	if r.Uint() != summaryFormat {
		return nil, codec.ErrCorrupt
	}
	dirs := make([]summaryDir, r.Len())
	for i := range dirs {
		d := &dirs[i]
		start := len(data) - r.Left()
		d.name = r.String()
		d.files = int(r.Uint())
		d.accepted = int(r.Uint())
		d.trees = readTreeHeads(r)
		d.eolCount = int(r.Uint())
		d.eolFirst = r.String()
		d.raw = data[start : len(data)-r.Left() : len(data)-r.Left()]
	}
	if err := r.Done(); err != nil {
		return nil, err
	}
	return dirs, nil
}
