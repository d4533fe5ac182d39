package check

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// A check with a cache (Options.Cache) keeps, for every artifact, what it
// found there in a record of the persistent cache (package internal/memo),
// and a later check takes an artifact whose inputs are the same from its
// record instead of reading, parsing, ingesting, linting and diffing it
// again. The inputs of an artifact's record are its key and the table's
// namespace:
//
//   - the namespace: the tool's build, the formats of the records, whether
//     examples load, and of the configuration what changes what the rules
//     compute: which rules are off, which codes it names (history rules at
//     info level report only then), and the rules' options. Severities,
//     ignore entries and --new-only apply after the cache, so changing them
//     changes no record;
//   - the key: the load's key of the artifact (load.Key: its directory, its
//     files' names and content addresses) and, for --staged, which of its
//     files the commit adds (the history rules warn about such a revision
//     that changes nothing);
//   - the clock: a record holds the time it was made at, and stands only
//     while time/future-version would report the same on its files
//     (lint.RunConfig.SameAt).
//
// The head-only rules look at other artifacts: the findings on a chain
// head are kept in a record of their own, keyed by the head's path and
// digest, with what the rules looked up in the tree (each coordinate's
// view, or all coordinates); it stands only while the tree shows the
// same. A run keeps only head records that stand in its tree, and keeps
// that tree's views beside them (a tree record, treeKey): the next run
// compares its tree with that one once, and a head record then stands
// unless it looked at a coordinate whose view changed since (or at all
// coordinates, and the set changed), which only those are looked up for.
// Rule packs and a language server's check (KeepState, Overlay) use no
// cache.

// checkRecordFormat is the version of the encoding of a check's records.
const checkRecordFormat = 1

// ErrCacheVerify is the error of a check with --cache=verify whose
// computed findings differ from the cached ones for the same key: a bug
// in journal-lint (a key that misses an input), never in the Journals.
type ErrCacheVerify struct {
	// What names the record that differs, or the file whose content
	// address was wrong.
	What string
	// Cause, when set, says why What differs and what to do, in place of
	// the report of a bug.
	Cause string
}

// Error says which record differs and what to do.
func (e *ErrCacheVerify) Error() string {
	if e.Cause != "" {
		return "cache verification failed: " + e.What + ": " + e.Cause
	}
	return "cache verification failed: the cached record of " + e.What + " differs from what was computed now; run with --cache=off and report this as a bug"
}

// checkMemo is a check's use of the cache: the table of its namespace and
// the records of the artifacts this run computed.
type checkMemo struct {
	r      *run
	table  *memo.Table
	verify bool
	perDoc lint.RunConfig
	// loadOnly, for Records, gives only the load's part of a record.
	loadOnly bool
	// fresh, when set, names the artifact directories (with their
	// Journal files) that must be read whatever the cache holds.
	fresh func(dir string, paths []string) bool

	mu sync.Mutex
	// stashed holds, in verify mode, the cached record of each key that
	// would have been used, to compare with the one computed.
	stashed map[memo.Key][]byte
	// failed is the first difference found in verify mode.
	failed error
	// reused and computed count the artifacts taken from records and
	// those visited after reading.
	reused, computed atomic.Int64
	// packs says that the run's rule packs are all pure (packsKey): their
	// findings on an artifact are part of its record. The records of the
	// artifacts read wait in pending for the packs' findings (finishPacks);
	// packFound gathers the findings the records hold.
	packs     bool
	pending   map[string]pendingRecord // by artifact directory
	packFound diag.List
	// view is the tree the head records are judged against (sinceTree).
	view *treeView
}

// treeView is the tree of a run's head-only rules as its head records are
// judged against it: the tree, the digest of its coordinates, and what
// changed since the tree of the run that left the table (nil when that is
// not known).
type treeView struct {
	tree   *lint.StaticTree
	coords []byte
	since  *treeChange
}

// treeChange is how a tree differs from an earlier one: the coordinates
// (by their text) whose views differ, one of the trees not holding them
// included, and whether both hold the same coordinates.
type treeChange struct {
	changed    map[string]bool
	sameCoords bool
}

// pendingRecord is an artifact's record without the rule packs' findings.
type pendingRecord struct {
	key  memo.Key
	data []byte
	body int // where the part after the header starts (sameAfter)
}

// openMemo returns the memo of r, or nil when r uses no cache; the caller
// sets its perDoc. It needs r's options and configuration, not its gate.
func openMemo(r *run) (*checkMemo, error) {
	o := r.opts
	if o.Cache == nil || o.KeepState || len(o.Overlay) > 0 || o.Prior != nil {
		return nil, nil
	}
	packs, cacheable := packsKey(r)
	if !cacheable || (packs != nil && !packsPure(r)) {
		return nil, nil
	}
	ns, err := namespace(r, packs)
	if err != nil {
		return nil, err
	}
	m := &checkMemo{r: r, verify: o.Cache.Mode() == memo.Verify, stashed: map[memo.Key][]byte{},
		packs: packs != nil, pending: map[string]pendingRecord{}}
	m.table = o.Cache.Table(ns, o.Root)
	return m, nil
}

// packsKey returns what names the rule packs' part of the records of r:
// each configured pack's name, pinned digest (the bytes that run, which
// the host verifies before it starts them) and configuration, in
// configuration order; nil without packs. cacheable is false when an
// entry says cache: false.
func packsKey(r *run) (key []byte, cacheable bool) {
	if len(r.cfg.Plugins) == 0 {
		return nil, true
	}
	w := codec.NewWriter(nil)
	w.String("packs")
	for _, p := range r.cfg.Plugins {
		cfg, err := json.Marshal(p.Config) // maps marshal with sorted keys
		if p.NoCache || err != nil {
			return nil, false
		}
		w.String(p.Name)
		w.String(p.Path)
		w.String(p.SHA256)
		w.Raw(cfg)
	}
	return w.Bytes(), true
}

// packsPure reports whether every rule pack of r started and declares its
// rules pure (sdk.Pack.Pure), so that its findings on an artifact may be
// kept in the artifact's record. It waits for the packs to start.
func packsPure(r *run) bool {
	ps := r.opts.Packs
	if ps.Wait() != nil || len(ps.Failures()) > 0 {
		return false
	}
	infos := ps.Infos()
	return len(infos) == len(r.cfg.Plugins) && !slices.ContainsFunc(infos, func(i plugin.Info) bool { return !i.Pure })
}

// namespace returns the namespace of r's records (see above), with the
// rule packs' part packs (packsKey).
func namespace(r *run, packs []byte) ([]byte, error) {
	tool, err := memo.ToolID()
	if err != nil {
		return nil, fmt.Errorf("cache: naming the tool's build: %w", err)
	}
	w := codec.NewWriter(nil)
	w.String("journal-lint/check/records")
	w.Raw(tool)
	w.Uint(load.RecordFormat)
	w.Uint(checkRecordFormat)
	w.Bool(r.opts.Examples)
	w.Raw(packs)
	codes := slices.Sorted(maps.Keys(r.cfg.Rules))
	w.Uint(uint64(len(codes)))
	for _, code := range codes {
		_, on := r.cfg.Rules[code].Level.Severity()
		w.String(code)
		w.Bool(on)
	}
	opts := ruleOptions(r.cfg)
	w.Uint(uint64(len(opts)))
	for _, code := range slices.Sorted(maps.Keys(opts)) {
		w.String(code)
		w.Uint(uint64(len(opts[code])))
		for _, name := range slices.Sorted(maps.Keys(opts[code])) {
			w.String(name)
			w.String(opts[code][name])
		}
	}
	sum := sha256.Sum256(w.Bytes())
	return sum[:], nil
}

// artifactKey is the key of the record of the artifact with the load's
// key k and the files paths: k and which of them the commit adds
// (added, run.addedByCommit or what stands for it).
func artifactKey(k load.Key, paths []string, added func(string) bool) memo.Key {
	w := codec.NewWriter(make([]byte, 0, 48+len(paths)))
	w.String("artifact")
	w.Fixed(k[:])
	for _, p := range paths {
		w.Bool(added(p))
	}
	return memo.Key(sha256.Sum256(w.Bytes()))
}

// never is false for every path: the commit adds none (run.noneAdded).
func never(string) bool { return false }

// Lookup implements load.Memo: the record of the artifact, decoded, when
// it stands at this run's time; in verify mode it is kept aside to compare
// with what the visit computes, and never given.
func (m *checkMemo) Lookup(dir string, paths []string, k load.Key) (*load.Record, bool) {
	if m.fresh != nil && m.fresh(dir, paths) {
		return nil, false
	}
	// The load asks only about artifacts whose every file has a content
	// address, which the index gives its regular files only.
	added := m.r.addedByCommit
	if m.r.noneAdded(dir) {
		added = never
	}
	key := artifactKey(k, paths, added)
	data, ok := m.table.Get(dir, key)
	if !ok {
		return nil, false
	}
	if m.loadOnly {
		return m.lookupLoad(dir, data)
	}
	rec, vr, err := m.decode(dir, data)
	if err != nil {
		m.r.opts.Cache.Warnf("the cached record of %s does not decode (%v); it was recomputed", dir, err)
		return nil, false
	}
	if !m.timely(rec, vr.now) {
		return nil, false
	}
	if m.verify {
		m.mu.Lock()
		m.stashed[key] = data
		m.mu.Unlock()
		return nil, false
	}
	rec.Extra = vr
	return rec, true
}

// timely reports whether the findings on the files of rec, made at then,
// stand at this run's time.
func (m *checkMemo) timely(rec *load.Record, then time.Time) bool {
	for i := range rec.Len() {
		if s := rec.Summary(i); s.JournalVersionOK && !m.perDoc.SameAt(s.JournalVersion, then, m.r.opts.Now) {
			return false
		}
	}
	return true
}

// visitRecord is what a visit found of one artifact, as its record holds
// it (the load's part aside).
type visitRecord struct {
	now   time.Time
	diags diag.List
	trees []treeHead
	head  string // the chain head's path, "" for none
	// refs is the encoding of the head's references (lint.AppendHeadRefs),
	// read into the visitor's arena when the record is used.
	refs []byte
	// paths are the value paths of the files' diagnostics, in order, then
	// of diags.
	paths []string
	// packs are the rule packs' findings on the artifact's files.
	packs diag.List
}

// decode reads an artifact record of dir.
func (m *checkMemo) decode(dir string, data []byte) (*load.Record, *visitRecord, error) {
	r := codec.NewReader(data)
	if r.Uint() != checkRecordFormat {
		return nil, nil, codec.ErrCorrupt
	}
	vr := &visitRecord{now: time.Unix(r.Int(), 0)}
	rec, err := load.ReadRecord(r, dir)
	if err != nil {
		return nil, nil, err
	}
	vr.diags = diag.ReadList(r)
	vr.trees = readTreeHeads(r)
	vr.head = r.Interned()
	vr.refs = r.Slice() // shares the shard's bytes, which the table holds anyway
	vr.paths = make([]string, r.Len())
	for i := range vr.paths {
		vr.paths[i] = r.Interned()
	}
	vr.packs = diag.ReadList(r)
	return rec, vr, r.Done()
}

// record keeps what the visit of a found (ds, th, the head's references
// refs encoded), computed now, for the artifact's record, and in verify
// mode compares it with the cached one.
func (m *checkMemo) record(a *load.Artifact, ds diag.List, paths []string, th []treeHead, head string, refs []byte) {
	w := codec.NewWriter(nil)
	w.Uint(checkRecordFormat)
	w.Int(m.r.opts.Now.Unix())
	body := len(w.Bytes())
	a.AppendRecord(w)
	diag.AppendList(w, ds)
	appendTreeHeads(w, th)
	w.String(head)
	w.Raw(refs)
	w.Uint(uint64(len(paths)))
	for _, p := range paths {
		w.String(p)
	}
	pr := pendingRecord{key: artifactKey(a.Key, pathsOf(a.Files), m.r.addedByCommit), data: w.Bytes(), body: body}
	if m.packs {
		// The packs' findings come when the load is done (finishPacks).
		m.mu.Lock()
		m.pending[a.Dir] = pr
		m.mu.Unlock()
		return
	}
	m.putArtifact(a.Dir, pr, nil)
}

// appendTreeHeads encodes the tree heads of an artifact, for its record
// and for a tree summary.
func appendTreeHeads(w *codec.Writer, th []treeHead) {
	w.Uint(uint64(len(th)))
	for _, t := range th {
		w.String(t.coordinate.String())
		w.Timestamp(t.version)
		w.String(t.releases)
	}
}

// readTreeHeads decodes what appendTreeHeads wrote.
func readTreeHeads(r *codec.Reader) []treeHead {
	n := r.Len()
	if n == 0 {
		return nil
	}
	out := make([]treeHead, n)
	for i := range out {
		t := &out[i]
		t.coordinate, _ = vt.ParseCoordinate(r.Interned())
		t.version = r.Timestamp()
		t.releases = r.String()
	}
	return out
}

// putArtifact keeps the artifact record pr of the directory dir with the
// rule packs' findings on it, and in verify mode compares it with the
// cached one.
func (m *checkMemo) putArtifact(dir string, pr pendingRecord, packs diag.List) {
	w := codec.NewWriter(pr.data)
	diag.AppendList(w, packs)
	data := w.Bytes()
	if m.verify {
		m.mu.Lock()
		cached, ok := m.stashed[pr.key]
		m.mu.Unlock()
		if ok && !sameAfter(cached, data, pr.body) {
			m.fail("artifact " + dir)
		}
	}
	m.table.Put(dir, pr.key, data)
}

// finishPacks takes the rule packs' findings ds on the artifacts this run
// read (plugin.Stream.Finish) into their records, which waited for them,
// and returns them with the findings the records of the other artifacts
// hold, sorted: what the packs would have found on the whole tree. When a
// pack failed, the waiting records are dropped: its findings are not
// whole.
func (m *checkMemo) finishPacks(ds diag.List) diag.List {
	if m == nil || !m.packs {
		return ds
	}
	failed := slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Code == rules.PluginFailed })
	if !failed {
		byDir := map[string]diag.List{}
		for _, d := range ds {
			dir := load.ArtifactDir(d.Path)
			byDir[dir] = append(byDir[dir], d)
		}
		for dir, pr := range m.pending {
			m.putArtifact(dir, pr, byDir[dir])
		}
	}
	m.pending = nil
	if len(m.packFound) == 0 {
		return ds
	}
	out := slices.Concat(ds, m.packFound)
	out.Sort()
	return out
}

// sameAfter reports whether two encodings of a record are equal past
// their header (the format and the time they were made at, which a
// record that stands may differ in).
func sameAfter(cached, computed []byte, body int) bool {
	r := codec.NewReader(cached)
	r.Uint()
	r.Int()
	if r.Err() != nil {
		return false
	}
	return bytes.Equal(cached[len(cached)-r.Left():], computed[body:])
}

// fail records the first difference of verify mode.
func (m *checkMemo) fail(what string) { m.failWith(&ErrCacheVerify{What: what}) }

// failWith records err as the first difference of verify mode, unless one
// was recorded before.
func (m *checkMemo) failWith(err *ErrCacheVerify) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failed == nil {
		m.failed = err
	}
}

// Misvouched implements load.Misvoucher: in verify mode, a work-tree file
// that git reports unchanged since it was staged (the address the run
// took without reading it, vouchWorkTree) whose bytes are not the staged
// blob is the first difference: it was written while the run read the
// tree, or a conversion changed that neither git's stat comparison nor
// the attributes' sources show. In the other modes the load has read the
// file and keeps what it found under no key.
func (m *checkMemo) Misvouched(path string) {
	if m.verify {
		if g := m.r.gate; g != nil && g.Repo != nil {
			path = g.TopPath(path) // repository-relative, as every output
		}
		m.failWith(&ErrCacheVerify{What: "the work tree's " + path,
			Cause: "git reports it unchanged since it was staged, but its bytes are not the staged blob's: it was written while the check ran, or what converts it changed in a way git does not notice (run git add --renormalize .); check with --cache=off meanwhile"})
	}
}

// pathsOf returns the paths of files.
func pathsOf(files []*load.File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

// headKey is the key of the record of the head-only rules' findings on
// the head at path with digest.
func headKey(path string, digest vt.Digest) memo.Key {
	w := codec.NewWriter(nil)
	w.String("head")
	w.String(path)
	w.Digest(digest)
	return memo.Key(sha256.Sum256(w.Bytes()))
}

// headFound returns the cached findings on the head at path with digest
// when what the rules looked at in tree is as it was; in verify mode it
// keeps them aside and reports none.
func (m *checkMemo) headFound(path string, digest vt.Digest, tree *lint.StaticTree) (diag.List, bool) {
	if m == nil {
		return nil, false
	}
	key := headKey(path, digest)
	data, ok := m.table.Get(load.ArtifactDir(path), key)
	if !ok {
		return nil, false
	}
	found, paths, ok, err := readHeadRecord(data, m.viewOf(tree))
	switch {
	case err != nil:
		m.r.opts.Cache.Warnf("the cached record of the head %s does not decode (%v); it was recomputed", path, err)
		return nil, false
	case !ok:
		return nil, false
	case m.verify:
		m.mu.Lock()
		m.stashed[key] = data
		m.mu.Unlock()
		return nil, false
	}
	m.r.paths.keep(nil, found, paths)
	return found, true
}

// readHeadRecord decodes a head record (putHead) of the table when what
// it says the rules looked at is as the tree of tv shows it: the findings
// and their value paths, and ok; ok is false when the tree shows
// otherwise. Every head record the table holds stood in the tree of the
// run that left it (see above), so with tv.since only the coordinates
// whose views changed since are looked up.
func readHeadRecord(data []byte, tv *treeView) (found diag.List, paths []string, ok bool, err error) {
	r := codec.NewReader(data)
	if r.Uint() != checkRecordFormat {
		return nil, nil, false, codec.ErrCorrupt
	}
	since := tv.since
	if r.Bool() {
		if coords := r.Slice(); since == nil || !since.sameCoords {
			if !bytes.Equal(coords, tv.coords) {
				return nil, nil, false, r.Err()
			}
		}
	}
	n := r.Len()
	for range n {
		c, view := r.Slice(), r.Slice()
		if since != nil && !since.changed[string(c)] {
			continue
		}
		if r.Err() == nil && !tv.tree.HasView(c, view) {
			return nil, nil, false, nil
		}
	}
	found = diag.ReadList(r)
	paths = make([]string, r.Len())
	for i := range paths {
		paths[i] = r.Interned()
	}
	if err := r.Done(); err != nil {
		return nil, nil, false, err
	}
	if len(paths) != len(found) {
		return nil, nil, false, codec.ErrCorrupt
	}
	return found, paths, true, nil
}

// coordsDigest is the digest of the tree's coordinates.
func coordsDigest(tree *lint.StaticTree) []byte {
	sum := tree.CoordinatesDigest()
	return sum[:]
}

// treeKey is the key of the tree record: the views of the tree that the
// head records of the table stood in.
var treeKey = memo.Key(sha256.Sum256([]byte("tree")))

// sinceTree makes tree the one m's head records are judged against, and
// compares it with the tree record the table holds (what changed since,
// treeView.since); it keeps tree's views as the tree record for the next
// run. It must be called before the head records are looked up, and only
// by a run that then looks up (or replaces, or forgets) every head record
// it keeps: the tree record vouches for them.
func (m *checkMemo) sinceTree(tree *lint.StaticTree) {
	if m == nil {
		return
	}
	m.view = &treeView{tree: tree, coords: coordsDigest(tree)}
	now := treeRecord(tree)
	if old, ok := m.table.Get("", treeKey); ok && !m.verify {
		m.view.since = treeChanges(old, now)
	}
	m.table.Put("", treeKey, now)
}

// treeRecord encodes the tree record of tree: each coordinate and its
// view, in the tree's order.
func treeRecord(tree *lint.StaticTree) []byte {
	coords := tree.Coordinates()
	w := codec.NewWriter(make([]byte, 0, 64*len(coords))) // a coordinate and a few releases each
	w.Uint(checkRecordFormat)
	w.Uint(uint64(len(coords)))
	for _, c := range coords {
		w.String(c.String())
		w.String(tree.View(c))
	}
	return w.Bytes()
}

// treeChanges compares two tree records (sinceTree): what changed from old
// to now, or nil when old does not decode.
func treeChanges(old, now []byte) *treeChange {
	if bytes.Equal(old, now) {
		return &treeChange{sameCoords: true}
	}
	views := func(data []byte, each func(c, view []byte)) error {
		r := codec.NewReader(data)
		if r.Uint() != checkRecordFormat {
			return codec.ErrCorrupt
		}
		for n := r.Len(); n > 0 && r.Err() == nil; n-- {
			c, view := r.Slice(), r.Slice()
			each(c, view)
		}
		return r.Done()
	}
	before := map[string][]byte{}
	if views(old, func(c, view []byte) { before[string(c)] = view }) != nil {
		return nil
	}
	ch := &treeChange{changed: map[string]bool{}, sameCoords: true}
	views(now, func(c, view []byte) {
		v, ok := before[string(c)]
		if !ok || !bytes.Equal(v, view) {
			ch.changed[string(c)] = true
		}
		ch.sameCoords = ch.sameCoords && ok
		delete(before, string(c))
	})
	for c := range before {
		ch.changed[c] = true
		ch.sameCoords = false
	}
	return ch
}

// viewOf returns the treeView of tree: m's, or one that knows nothing of
// an earlier tree.
func (m *checkMemo) viewOf(tree *lint.StaticTree) *treeView {
	if m.view != nil && m.view.tree == tree {
		return m.view
	}
	return &treeView{tree: tree, coords: coordsDigest(tree)}
}

// forgetHead forgets the head record of the head at path with digest,
// which headFound may have got and which no longer stands, when no new
// one replaces it (sinceTree: the table keeps only head records that
// stand).
func (m *checkMemo) forgetHead(path string, digest vt.Digest) {
	if m != nil {
		m.table.Forget(load.ArtifactDir(path), headKey(path, digest))
	}
}

// recordVerdict keeps that the head-only rules report nothing on the head
// at path with digest, as judged from its references (lint.JudgeHeads),
// which look up the coordinates looked: a head record without findings,
// which stands while the tree shows those coordinates as it does now.
func (m *checkMemo) recordVerdict(path string, digest vt.Digest, looked []vt.Coordinate, tree *lint.StaticTree) {
	if m == nil {
		return
	}
	m.putHead(path, digest, nil, nil, &recordingTree{looked: looked}, tree)
}

// recordHead keeps the findings of the head-only rules on doc, the head at
// its path, their value paths and what they looked at (rt), for its
// record.
func (m *checkMemo) recordHead(doc *syntax.Document, found diag.List, paths []string, rt *recordingTree, tree *lint.StaticTree) {
	if m == nil {
		return
	}
	m.putHead(doc.Path, doc.Digest, found, paths, rt, tree)
}

// putHead keeps a head record: the findings on the head at path with
// digest, their value paths, and what the rules looked at (rt) as tree
// shows it; in verify mode it compares it with the cached one.
func (m *checkMemo) putHead(path string, digest vt.Digest, found diag.List, paths []string, rt *recordingTree, tree *lint.StaticTree) {
	// What the rules looked at comes first, so that a record that no
	// longer stands is known before its findings are read.
	w := codec.NewWriter(nil)
	w.Uint(checkRecordFormat)
	w.Bool(rt.all)
	if rt.all {
		w.Raw(m.viewOf(tree).coords)
	}
	w.Uint(uint64(len(rt.looked)))
	for _, c := range rt.looked {
		w.String(c.String())
		w.String(tree.View(c))
	}
	diag.AppendList(w, found)
	w.Uint(uint64(len(paths)))
	for _, p := range paths {
		w.String(p)
	}
	key := headKey(path, digest)
	data := w.Bytes()
	if m.verify {
		m.mu.Lock()
		cached, ok := m.stashed[key]
		m.mu.Unlock()
		if ok && !bytes.Equal(cached, data) {
			m.fail("the head " + path)
		}
	}
	m.table.Put(load.ArtifactDir(path), key, data)
}

// commit keeps this run's records for the next run, and returns the
// first difference verify mode found.
func (m *checkMemo) commit() error {
	if m == nil {
		return nil
	}
	if m.failed != nil {
		return m.failed
	}
	m.table.Commit()
	return nil
}
