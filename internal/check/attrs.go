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
func (g *gate) knownAttributes(ctx context.Context, m *checkMemo, paths []string) error {
	sources, err := g.Repo.AttributeSources(ctx, []string{g.RootRel}, g.staged)
	if err != nil {
		return fmt.Errorf("git attributes: %w", err)
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
		return err
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
	return nil
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
		return g.knownAttributes(ctx, m, index.Paths())
	}
	return g.vouchWorkTree(ctx, m)
}

// vouchWorkTree makes g's source of the work tree a cleanDisk: a file
// whose index entry git watches (not assume-unchanged or skip-worktree),
// that git does not report changed (gitrepo.Repo.DirtyFiles: git's own
// stat comparison and racy-git rule), whose attributes convert nothing
// and whose artifact directory has no .gitattributes of its own gets its
// index blob's address. Everything else is read, and so is every file
// while a .gitattributes above the files differs from the index's
// (attributesUnstaged). Nothing is
// vouched for when the configuration weakens the stat comparison
// (core.trustctime false, core.checkStat minimal): a same-size edit that
// puts the modification time back then looks clean. It also fills
// g.eolAttrs (knownAttributes).
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
	if err := g.knownAttributes(ctx, m, paths); err != nil {
		return err
	}
	d, ok := g.src.(*source.Disk)
	if !ok || weak {
		return nil
	}
	if changed, err := g.attributesUnstaged(ctx); err != nil || changed {
		return err
	}
	cd := &cleanDisk{Disk: d, addrs: make(map[string]string, len(paths))}
	for i, p := range paths {
		e := g.Index().Entry(at[i])
		if a := g.eolAttrs.Get(p); e.IsRegular() && e.Watched() && !dirty[e.Path] && a != nil && a.ConvertsNothing(conv.AutoCRLF) && !g.ownAttributes[load.ArtifactDir(p)] {
			cd.addrs[p] = source.ObjectAddress(e.Object)
		}
	}
	g.src = cd
	return nil
}

// attributesUnstaged reports whether the .gitattributes that decide the
// attributes of the root's files differ between the work tree and the
// index (gitrepo.Repo.AttributeSources of both): changed, deleted, or
// not added yet. Git's comparison of a file with its index entry looks at
// the file's stat data only, so after such a change it goes on calling
// unchanged the bytes that the old attributes' conversion (a filter,
// text, eol) wrote; vouchWorkTree then vouches for nothing. A change
// already staged or committed without renormalizing the files is not
// seen (--cache=verify finds it, checkMemo.Misvouched).
func (g *gate) attributesUnstaged(ctx context.Context) (bool, error) {
	work, err := g.Repo.AttributeSources(ctx, []string{g.RootRel}, false)
	if err != nil {
		return false, fmt.Errorf("git attributes: %w", err)
	}
	index, err := g.Repo.AttributeSources(ctx, []string{g.RootRel}, true)
	if err != nil {
		return false, fmt.Errorf("git attributes: %w", err)
	}
	return !bytes.Equal(work, index), nil
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
