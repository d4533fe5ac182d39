package check

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/internal/source"
)

// eolAttr holds the attributes of one Journal file that decide whether
// git converts its bytes, as git check-attr reports them ("set", "unset",
// "unspecified" or a value), in the order of [attrNames].
type eolAttr struct{ text, eol, filter, ident, encoding string }

// attrNames are the attributes of [eolAttr], as git names them.
var attrNames = []string{"text", "eol", "filter", "ident", "working-tree-encoding"}

// eolAttrOf makes an eolAttr of git's values in the order of attrNames.
func eolAttrOf(v []string) eolAttr {
	return eolAttr{text: v[0], eol: v[1], filter: v[2], ident: v[3], encoding: v[4]}
}

// askEOL asks git, with one git check-attr, for the attributes that
// decide its conversions (attrNames) of the root-relative paths, and
// returns them in the order of paths; equal sets share one eolAttr.
func (g *gate) askEOL(ctx context.Context, paths []string) ([]*eolAttr, error) {
	var got [][]string
	var err error
	if g.attrsAt != "" && len(paths) <= gitrepo.FewAttributePaths {
		// The index's .gitattributes are the commit's: git need not read
		// the index, which takes it 0.4 s at a million files.
		got, err = g.Repo.AttributesAt(ctx, g.attrsAt, g.RootRel, paths, attrNames...)
	} else {
		got, err = g.Repo.Attributes(ctx, g.staged, g.RootRel, paths, attrNames...)
	}
	if err != nil {
		return nil, fmt.Errorf("git check-attr: %w", err)
	}
	return sharedEOL(got), nil
}

// sharedEOL returns the eolAttr of each of the attribute values vs (in
// the order of attrNames), equal sets shared.
func sharedEOL(vs [][]string) []*eolAttr {
	shared := map[eolAttr]*eolAttr{}
	out := make([]*eolAttr, len(vs))
	for i, v := range vs {
		a := eolAttrOf(v)
		p, ok := shared[a]
		if !ok {
			p = new(eolAttr)
			*p = a
			shared[a] = p
		}
		out[i] = p
	}
	return out
}

// eolTable holds the attributes (eolAttr) of root-relative Journal
// paths: of a path the gate's index listing holds, one byte at its
// entry's position, naming one of the few distinct sets; of any other
// path, a map entry. A map of every path would take about 33 bytes a
// file (3.3 MB at 100,000). The zero eolTable holds nothing and asks no
// index; methods are not safe for concurrent use.
type eolTable struct {
	index   *gitrepo.IndexList
	rootRel string
	sets    []*eolAttr // byEntry[i] is 1 + the position of entry i's set
	byEntry []uint8
	other   map[string]*eolAttr
}

// newEOLTable returns an empty eolTable for the paths under the root at
// rootRel, keeping those that index holds (nil for none) by position.
func newEOLTable(index *gitrepo.IndexList, rootRel string) *eolTable {
	t := &eolTable{index: index, rootRel: rootRel, other: map[string]*eolAttr{}}
	if index != nil {
		t.byEntry = make([]uint8, index.Len())
	}
	return t
}

// position returns the position of p's entry in t.index.
func (t *eolTable) position(p string) (int, bool) {
	if t.index == nil {
		return 0, false
	}
	return t.index.Position(t.rootRel, p)
}

// get returns the attributes of the root-relative path p; nil when t
// (which may be nil) has none.
func (t *eolTable) get(p string) *eolAttr {
	if t == nil {
		return nil
	}
	if i, ok := t.position(p); ok && t.byEntry[i] != 0 {
		return t.sets[t.byEntry[i]-1]
	}
	return t.other[p]
}

// set records a as the attributes of the root-relative path p.
func (t *eolTable) set(p string, a *eolAttr) {
	if i, ok := t.position(p); ok {
		n := slices.IndexFunc(t.sets, func(s *eolAttr) bool { return *s == *a })
		if n < 0 && len(t.sets) < math.MaxUint8 {
			n = len(t.sets)
			t.sets = append(t.sets, a)
		}
		if n >= 0 {
			t.byEntry[i] = uint8(n + 1)
			delete(t.other, p)
			return
		}
		t.byEntry[i] = 0 // too many sets: kept in other
	}
	t.other[p] = a
}

// clone returns a copy of t that shares nothing t writes; nil for nil.
func (t *eolTable) clone() *eolTable {
	if t == nil {
		return nil
	}
	c := *t
	c.sets, c.byEntry, c.other = slices.Clone(t.sets), slices.Clone(t.byEntry), maps.Clone(t.other)
	return &c
}

// convertsNothing reports whether git stores and checks out a file with
// the attributes a byte for byte, under core.autocrlf set to autocrlf
// ("" when unset): no text conversion (text unset, or unspecified without
// eol and without core.autocrlf), no filter, no $Id$ expansion, no
// working-tree encoding.
func (a eolAttr) convertsNothing(autocrlf string) bool {
	unsetOr := func(v string) bool { return v == "unspecified" || v == "unset" }
	if !unsetOr(a.filter) || !unsetOr(a.ident) || !unsetOr(a.encoding) {
		return false
	}
	switch a.text {
	case "unset":
		return true
	case "unspecified":
		return a.eol == "unspecified" && (autocrlf == "" || strings.EqualFold(autocrlf, "false"))
	}
	return false
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
// it).
func (g *gate) knownAttributes(ctx context.Context, m *checkMemo, paths []string) error {
	sources, err := g.Repo.AttributeSources(ctx, []string{g.RootRel}, g.staged)
	if err != nil {
		return fmt.Errorf("git attributes: %w", err)
	}
	if g.eolAttrs == nil {
		g.eolAttrs = newEOLTable(g.Index(), g.RootRel)
	}
	// The groups: one per shard, and one of the directories with their own
	// .gitattributes, which no record holds.
	byShard := map[int][]string{}
	var own []string
	for lo := 0; lo < len(paths); {
		dir := coordinateOf(paths[lo])
		hi := lo + 1
		for hi < len(paths) && coordinateOf(paths[hi]) == dir {
			hi++
		}
		if ps := paths[lo:hi]; slices.Contains(ps, dir+"/.gitattributes") {
			own = append(own, ps...)
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
		if data, ok := m.table.Get(coordinateOf(ps[0]), k); ok && !m.verify {
			if vs, ok := readAttrs(data, len(ps)); ok {
				for i, p := range ps {
					g.eolAttrs.set(p, vs[i])
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
			g.eolAttrs.set(p, as[i])
		}
		if gr.key != (memo.Key{}) {
			m.table.Put(coordinateOf(gr.paths[0]), gr.key, appendAttrs(as))
		}
	}
	return nil
}

// appendAttrs encodes the attributes of the files of an attribute record:
// each distinct set once, then the number of each file's set.
func appendAttrs(as []*eolAttr) []byte {
	w := codec.NewWriter(nil)
	index := map[*eolAttr]int{}
	var sets []*eolAttr
	for _, a := range as {
		if _, ok := index[a]; !ok {
			index[a] = len(sets)
			sets = append(sets, a)
		}
	}
	w.Uint(uint64(len(sets)))
	for _, a := range sets {
		for _, v := range []string{a.text, a.eol, a.filter, a.ident, a.encoding} {
			w.String(v)
		}
	}
	for _, a := range as {
		w.Uint(uint64(index[a]))
	}
	return w.Bytes()
}

// readAttrs decodes an attribute record (appendAttrs) of n files.
func readAttrs(data []byte, n int) ([]*eolAttr, bool) {
	r := codec.NewReader(data)
	sets := make([]eolAttr, r.Len())
	for i := range sets {
		sets[i] = eolAttr{text: r.Interned(), eol: r.Interned(), filter: r.Interned(), ident: r.Interned(), encoding: r.Interned()}
	}
	out := make([]*eolAttr, n)
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
// stat comparison and racy-git rule) and whose attributes convert nothing
// gets its index blob's address. Everything else is read. Nothing is
// vouched for when the configuration weakens the stat comparison
// (core.trustctime false, core.checkStat minimal): a same-size edit that
// puts the modification time back then looks clean. It also fills
// g.eolAttrs (knownAttributes).
func (g *gate) vouchWorkTree(ctx context.Context, m *checkMemo) error {
	if err := g.Indexed(ctx); err != nil {
		return err
	}
	dirty, err := g.Repo.DirtyFiles(ctx, g.RootRel)
	if err != nil {
		return fmt.Errorf("git diff-files: %w", err)
	}
	autocrlf, err := g.Repo.Config(ctx, "core.autocrlf")
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
	cd := &cleanDisk{Disk: d, addrs: make(map[string]string, len(paths))}
	for i, p := range paths {
		e := g.Index().Entry(at[i])
		if a := g.eolAttrs.get(p); e.IsRegular() && e.Watched() && !dirty[e.Path] && a != nil && a.convertsNothing(autocrlf) {
			cd.addrs[p] = source.ObjectAddress(e.Object)
		}
	}
	g.src = cd
	return nil
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
				touched[coordinateOf(p)] = true
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
