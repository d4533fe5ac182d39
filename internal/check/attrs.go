package check

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/internal/source"
)

// askEOL asks git, with one git check-attr, for the attributes that
// decide its conversions (gitfacts.AttrNames) of the root-relative paths, and
// returns them in the order of paths; equal sets share one gitfacts.Attrs.
func (g *gate) askEOL(ctx context.Context, paths []string) ([]*gitfacts.Attrs, error) {
	var got [][]string
	var err error
	if g.attrsAt != "" && len(paths) <= gitrepo.FewAttributePaths {
		// The index's .gitattributes are the commit's: git need not read
		// the index, which takes it 0.4 s at a million files.
		got, err = g.Repo.AttributesAt(ctx, g.attrsAt, g.RootRel, paths, gitfacts.AttrNames()...)
	} else {
		got, err = g.Repo.Attributes(ctx, g.staged, g.RootRel, paths, gitfacts.AttrNames()...)
	}
	if err != nil {
		return nil, fmt.Errorf("git check-attr: %w", err)
	}
	return gitfacts.SharedAttrs(got), nil
}

// knownAttributes fills g.eolAttrs with the attributes of the Journal
// files paths (root-relative, grouped by artifact directory as sorted
// paths are) from the attribute records of the cache, kept under the
// SHA-256 of what decides git's attributes there
// (gitrepo.Repo.AttributeSources), and asks git once about the files it
// has no record of, keeping records of its answers. A record holds the
// files of the artifact directories of one shard of the cache's table
// (memo.ShardOf): a few hundred files, asked about again when any of them
// is added or removed. An artifact directory that holds a .gitattributes
// of its own is always asked about (git reads it; the sources do not name
// it): one the index lists, or for the work tree (not --staged) one the
// work tree holds even untracked or ignored, which git reads as well.
func (g *gate) knownAttributes(ctx context.Context, m *checkMemo, paths []string) (sources []byte, err error) {
	sources, err = g.Repo.AttributeSources(ctx, []string{g.RootRel}, g.staged)
	if err != nil {
		return nil, fmt.Errorf("git attributes: %w", err)
	}
	if g.eolAttrs == nil {
		g.eolAttrs = gitfacts.NewAttrTable(g.Index(), g.RootRel)
	}
	// The groups: one per shard, and one of the directories with their own
	// .gitattributes, which no record holds.
	byShard := map[int][]string{}
	var own []string
	for lo := 0; lo < len(paths); {
		dir := load.ArtifactDir(paths[lo])
		hi := lo + 1
		for hi < len(paths) && load.ArtifactDir(paths[hi]) == dir {
			hi++
		}
		if ps := paths[lo:hi]; slices.Contains(ps, dir+"/.gitattributes") || !g.staged && g.workTreeAttributes(dir) {
			own = append(own, ps...)
			if g.ownAttributes == nil {
				g.ownAttributes = map[string]bool{}
			}
			g.ownAttributes[dir] = true
		} else {
			n := memo.ShardOf(dir)
			byShard[n] = append(byShard[n], ps...)
		}
		lo = hi
	}
	type group struct {
		paths []string
		key   memo.Key // zero for no record
	}
	ask := []group{{paths: own}}
	for _, ps := range byShard {
		size := len(sources) + 32
		for _, p := range ps {
			size += len(p) + 2
		}
		w := codec.NewWriter(make([]byte, 0, size))
		w.String("attributes")
		w.Raw(sources)
		for _, p := range ps {
			w.String(p)
		}
		k := memo.Key(sha256.Sum256(w.Bytes()))
		if data, ok := m.table.Get(load.ArtifactDir(ps[0]), k); ok && !m.verify {
			if vs, ok := readAttrs(data, len(ps)); ok {
				for i, p := range ps {
					g.eolAttrs.Set(p, vs[i])
				}
				continue
			}
		}
		ask = append(ask, group{ps, k})
	}
	var asked []string
	for _, gr := range ask {
		asked = append(asked, gr.paths...)
	}
	got, err := g.askEOL(ctx, asked)
	if err != nil {
		return nil, err
	}
	for _, gr := range ask {
		as := got[:len(gr.paths)]
		got = got[len(gr.paths):]
		for i, p := range gr.paths {
			g.eolAttrs.Set(p, as[i])
		}
		if gr.key != (memo.Key{}) {
			m.table.Put(load.ArtifactDir(gr.paths[0]), gr.key, appendAttrs(as))
		}
	}
	return sources, nil
}

// workTreeAttributes reports whether the work tree holds an entry named
// .gitattributes in the artifact directory dir (root-relative), tracked
// or not: git check-attr reads the work tree's .gitattributes files
// (gitattributes(5)), and an untracked one is in no index listing.
func (g *gate) workTreeAttributes(dir string) bool {
	_, err := os.Lstat(filepath.Join(g.Repo.Top(), filepath.FromSlash(g.TopPath(dir)), ".gitattributes"))
	return err == nil
}

// appendAttrs encodes the attributes of the files of an attribute record:
// each distinct set once, then the number of each file's set.
func appendAttrs(as []*gitfacts.Attrs) []byte {
	w := codec.NewWriter(nil)
	index := map[*gitfacts.Attrs]int{}
	var sets []*gitfacts.Attrs
	for _, a := range as {
		if _, ok := index[a]; !ok {
			index[a] = len(sets)
			sets = append(sets, a)
		}
	}
	w.Uint(uint64(len(sets)))
	for _, a := range sets {
		for _, v := range []string{a.Text, a.EOL, a.Filter, a.Ident, a.Encoding} {
			w.String(v)
		}
	}
	for _, a := range as {
		w.Uint(uint64(index[a]))
	}
	return w.Bytes()
}

// readAttrs decodes an attribute record (appendAttrs) of n files.
func readAttrs(data []byte, n int) ([]*gitfacts.Attrs, bool) {
	r := codec.NewReader(data)
	sets := make([]gitfacts.Attrs, r.Len())
	for i := range sets {
		sets[i] = gitfacts.Attrs{Text: r.Interned(), EOL: r.Interned(), Filter: r.Interned(), Ident: r.Interned(), Encoding: r.Interned()}
	}
	out := make([]*gitfacts.Attrs, n)
	for i := range out {
		k := r.SmallInt()
		if k >= len(sets) {
			return nil, false
		}
		out[i] = &sets[k]
	}
	return out, r.Done() == nil
}

// cleanDisk is the work tree on disk, whose files git reports holding
// exactly their index blob's bytes have that blob's address without being
// read (source.Voucher).
type cleanDisk struct {
	*source.Disk
	addrs map[string]string // root-relative path → address
}

// Vouch returns the address of a file that git vouches for.
func (d *cleanDisk) Vouch(rel string) (string, bool) {
	a, ok := d.addrs[rel]
	return a, ok
}

// fromCache prepares what the git side of a run with the cache m takes
// from it: the attributes of the files git holds (knownAttributes) and,
// for a check of the work tree, the addresses of the files git vouches for
// (vouchWorkTree). Without a cache or a repository it does nothing.
func (g *gate) fromCache(ctx context.Context, m *checkMemo) error {
	if m == nil || g.Repo == nil {
		return nil
	}
	if index, ok := g.src.(*source.Git); ok {
		sources, err := g.knownAttributes(ctx, m, index.Paths())
		if _, known := m.table.Get("", vouchedKey); err == nil && !known {
			// The first run of this cache: the attributes' sources as the
			// index has them are where later changes are seen from.
			m.table.Put("", vouchedKey, sources)
		}
		return err
	}
	return g.vouchWorkTree(ctx, m)
}

// vouchWorkTree makes g's source of the work tree a cleanDisk: a file
// whose index entry git watches (not assume-unchanged or skip-worktree),
// that git does not report changed (gitrepo.Repo.DirtyFiles: git's own
// stat comparison and racy-git rule), whose attributes convert nothing
// and whose artifact directory has no .gitattributes of its own gets its
// index blob's address. Everything else is read. Nothing is vouched for
// when the configuration weakens the stat comparison (core.trustctime
// false, core.checkStat minimal): a same-size edit that puts the
// modification time back then looks clean. It also fills g.eolAttrs
// (knownAttributes).
//
// Git's stat comparison does not see a change of what converts a file:
// after attributes or a filter change (a .gitattributes, info/attributes,
// the user's attributes file, core.autocrlf), git calls the bytes that
// the old conversion wrote unchanged, until the file is renormalized. So
// the cache keeps the attributes' sources (gitrepo.Repo.AttributeSources)
// that its runs saw (vouchedKey), and under other sources nothing is
// vouched for until a run has read every file that it would vouch for and
// found each to be its index blob: such a run (a probe, probeVouch) keeps
// the sources as they are now when it ends, and later runs under the same
// ones vouch. The cache's first run takes git's word, as git does, when
// the work tree's sources are the index's, and keeps them; a check of the
// index keeps its sources as the first run.
func (g *gate) vouchWorkTree(ctx context.Context, m *checkMemo) error {
	if err := g.Indexed(ctx); err != nil {
		return err
	}
	g.readOnceWhereIndexed()
	dirty, err := g.Repo.DirtyFiles(ctx, g.RootRel)
	if err != nil {
		return fmt.Errorf("git diff-files: %w", err)
	}
	conv, err := gitfacts.ReadConversion(ctx, g.Repo)
	if err != nil {
		return fmt.Errorf("git config: %w", err)
	}
	trustCtime, err := g.Repo.ConfigBool(ctx, "core.trustctime", true)
	if err != nil {
		return fmt.Errorf("git config: %w", err)
	}
	checkStat, err := g.Repo.Config(ctx, "core.checkStat")
	if err != nil {
		return fmt.Errorf("git config: %w", err)
	}
	weak := !trustCtime || strings.EqualFold(checkStat, "minimal")
	// The files directly in artifact directories, in the index's order,
	// which is the order of their root-relative paths too.
	var paths []string
	var at []int // their entries in g.Index()
	for i, e := range g.Index().All() {
		if p, ok := g.UnderRoot(e.Path); ok && strings.Count(p, "/") == 1 && e.Stage == 0 {
			paths, at = append(paths, p), append(at, i)
		}
	}
	sources, err := g.knownAttributes(ctx, m, paths)
	if err != nil {
		return err
	}
	d, ok := g.src.(*source.Disk)
	if !ok || weak {
		return nil
	}
	if len(g.ownAttributes) > 0 {
		// Their files are not vouched for, but the sources name their
		// .gitattributes, so that deleting one is a change too.
		dirs := []string{g.RootRel}
		for dir := range g.ownAttributes {
			dirs = append(dirs, g.TopPath(dir))
		}
		slices.Sort(dirs[1:])
		if sources, err = g.Repo.AttributeSources(ctx, dirs, false); err != nil {
			return fmt.Errorf("git attributes: %w", err)
		}
	}
	addrs := make(map[string]string, len(paths))
	for i, p := range paths {
		e := g.Index().Entry(at[i])
		if a := g.eolAttrs.Get(p); e.IsRegular() && e.Watched() && !dirty[e.Path] && a != nil && a.ConvertsNothing(conv.AutoCRLF) && !g.ownAttributes[load.ArtifactDir(p)] {
			addrs[p] = source.ObjectAddress(e.Object)
		}
	}
	last, known := m.table.Get("", vouchedKey)
	if !known {
		index, err := g.Repo.AttributeSources(ctx, []string{g.RootRel}, true)
		if err != nil {
			return fmt.Errorf("git attributes: %w", err)
		}
		if known = bytes.Equal(index, sources); known {
			last = sources
			m.table.Put("", vouchedKey, sources)
		}
	}
	if !known || !bytes.Equal(last, sources) {
		g.probeVouch(d, addrs, sources)
		return nil
	}
	g.src = &cleanDisk{Disk: d, addrs: addrs}
	return nil
}

// vouchedKey is the key of the attributes' sources that the cache's runs
// saw last, under which the work tree's files git reports clean are
// their index blobs (vouchWorkTree).
var vouchedKey = memo.Key(sha256.Sum256([]byte("vouched")))

// vouchProbe is a run that reads the files vouchWorkTree would vouch for,
// to find whether each is its index blob.
type vouchProbe struct {
	sources []byte
	unlike  atomic.Bool // a file it would vouch for is not its blob
}

// probeVouch makes g's run a probe of the files addrs names, on the disk
// d, under the attributes' sources: the load reads them all (d stays the
// source) and d tells which are not their index blob (source.Disk.Unlike,
// with the blob ids of readOnceWhereIndexed).
func (g *gate) probeVouch(d *source.Disk, addrs map[string]string, sources []byte) {
	p := &vouchProbe{sources: sources}
	d.Unlike = func(rel string) {
		if _, ok := addrs[rel]; ok {
			p.unlike.Store(true)
		}
	}
	g.probe = p
}

// probed returns, at the end of a load that probed (probeVouch) and found
// every file it would vouch for to be its index blob, the attributes'
// sources to keep under vouchedKey, so that the next run under them
// vouches; ok is false otherwise.
func (g *gate) probed() (sources []byte, ok bool) {
	if p := g.probe; p != nil && !p.unlike.Load() {
		return p.sources, true
	}
	return nil, false
}

// trustBase limits what a check against a revision (--against, a
// pull-request gate) takes from the cache m to what the change under check
// did not touch, as the base revision's configuration judged it: an
// artifact with a file that is new or changed since the merge base (or
// deleted there) is read and checked afresh, and no record is taken at all
// when the configuration file differs from the base revision's. A cache
// restored in CI from runs of the default branch then never speaks for
// content or rules that the pull request brings.
func (g *gate) trustBase(ctx context.Context, m *checkMemo, cfg *config.Config) error {
	if m == nil || g.Commit == "" || g.staged {
		return nil
	}
	changes, err := g.Repo.Diff(ctx, g.Commit, false, g.RootRel)
	if err != nil {
		return fmt.Errorf("--against: %w", err)
	}
	touched := map[string]bool{}
	for _, c := range changes {
		for _, top := range []string{c.Path, c.OldPath} {
			if p, ok := g.UnderRoot(top); ok && top != "" {
				touched[load.ArtifactDir(p)] = true
			}
		}
	}
	same, err := g.sameConfigAtBase(ctx, cfg)
	if err != nil {
		return err
	}
	m.fresh = func(dir string, paths []string) bool {
		if !same || touched[dir] {
			return true
		}
		return slices.ContainsFunc(paths, func(p string) bool { _, old := g.AtBase(p); return !old })
	}
	return nil
}

// sameConfigAtBase reports whether the configuration file of cfg holds
// the same bytes at the compared commit as now: the same path (or, for no
// file, no .journal-lint.yaml at the top of the repository there).
func (g *gate) sameConfigAtBase(ctx context.Context, cfg *config.Config) (bool, error) {
	rel, now := ".journal-lint.yaml", []byte(nil)
	if cfg != nil && cfg.File != "" {
		r, err := g.Repo.Rel(cfg.File)
		if err != nil {
			return true, nil // outside the repository: not part of the change
		}
		rel = r
		if now, err = readfile.Read(cfg.File, readfile.Options{Max: readfile.MaxConfig}); err != nil {
			return false, nil
		}
	}
	entries, err := g.Repo.Tree(ctx, g.Commit, rel)
	if err != nil {
		return false, fmt.Errorf("--against: %w", err)
	}
	for _, e := range entries {
		if e.Path == rel && e.IsRegular() {
			blobs, _, err := g.Repo.ReadBlobs(ctx, []string{e.Object}, readfile.MaxConfig)
			if err != nil {
				return false, fmt.Errorf("--against: %w", err)
			}
			base, ok := blobs[e.Object]
			return ok && now != nil && bytes.Equal(base, now), nil
		}
	}
	return now == nil, nil
}

// loadedAttributes completes g.eolAttrs with the attributes of every
// loaded file, asking git only about those it does not know yet (a check
// that has no files to judge, loaded or summarised, asks nothing): the
// facts that gitcheck's repo/eol-* judgements read (gitcheck.Tree.Attrs).
func (g *gate) loadedAttributes(ctx context.Context, r *run) error {
	if g.asked != nil {
		<-g.asked
	}
	if len(r.load.Files) == 0 && len(r.sum.eolGroups()) == 0 {
		return nil
	}
	if g.eolAttrs == nil {
		g.eolAttrs = gitfacts.NewAttrTable(g.Index(), g.RootRel)
	}
	var ask []string // root-relative paths
	for _, f := range r.load.Files {
		if g.eolAttrs.Get(f.Path) == nil {
			ask = append(ask, f.Path)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	got, err := g.askEOL(ctx, ask)
	if err != nil {
		return err
	}
	for i, p := range ask {
		g.eolAttrs.Set(p, got[i])
	}
	return nil
}

// askAttributes asks git, while the tree loads, for the attributes that
// loadedAttributes needs of the root-relative paths that paths returns (on
// the same goroutine, so that listing them may ask git too; nil asks
// nothing): git reads the whole index for them, which would otherwise
// wait for the load and take the tail of the run. An answer git fails to
// give is asked again by loadedAttributes.
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
		t := gitfacts.NewAttrTable(g.Index(), g.RootRel)
		for i, p := range ps {
			t.Set(p, got[i])
		}
		g.eolAttrs = t
	}()
}

// askLoadAttributes asks git, while the tree loads, for the attributes of
// the files it will load (askAttributes), when nothing gave them yet (a
// check without the cache): the staged paths, or for the work tree the
// Journal files that the index lists under the root (listed on the same
// goroutine when the check has not listed them yet), most of those the
// load reads. loadedAttributes then asks only about the others.
func (g *gate) askLoadAttributes(ctx context.Context) {
	// asked first: once it is set, askAttributes's goroutine may be
	// writing eolAttrs (and index). A gate that took a prior run's facts
	// over (stamped) may drop its attributes after the load, before
	// anything waits for such an answer (forgetStampedAttributes), so it
	// asks nothing ahead.
	if g == nil || g.Repo == nil || g.asked != nil || g.stamped || g.eolAttrs != nil {
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
		if g.Indexed(ctx) != nil {
			return nil // asked again, and its error reported, after the load
		}
		var ps []string
		for p := range g.IndexEntries() {
			ps = append(ps, p)
		}
		return ps
	})
}

// askAhead asks git, once the work tree is loaded, the questions about
// the compared commit that the git gate asks after the head-only rules:
// what changed since the commit (history) and which .gitattributes did
// (gitcheck.Tree.ConversionEnabled). Under a context that remembers git's answers
// (gitrepo.WithMemo, the command line), the gate's own questions then
// wait for these answers, which git gave while the head-only rules left
// a CPU idle; without one they would only be asked twice, so nothing is
// asked. Errors are left to the gate's own questions.
func (g *gate) askAhead(ctx context.Context) {
	if g == nil || g.Repo == nil || g.staged || g.Commit == "" || !gitrepo.Remembers(ctx) {
		return
	}
	g.ahead = make(chan struct{})
	go func() {
		defer close(g.ahead)
		_, _ = g.Repo.ChangedAttributeFiles(ctx, g.Commit, false)
		_, _ = g.Repo.Diff(ctx, g.Commit, false, g.RootRel)
	}()
}
