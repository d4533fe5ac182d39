package tlog_test

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	sumdb "golang.org/x/mod/sumdb/tlog"

	"github.com/r35157/journal-lint/internal/tlog"
)

// benchLeaves is the size of the log the benchmarks grow: the issue's
// targets are stated for 1,000,000 revisions.
const benchLeaves = 1_000_000

// bigLog is one log of benchLeaves synthetic revisions, made once for all
// benchmarks of a run.
var bigLog struct {
	once            sync.Once
	dir, skey, vkey string
	all             []tlog.Revision
	files, bytes    int64
}

// setupBig returns the log directory of bigLog, and every revision the
// benchmarks may append after the logged ones.
func setupBig(b *testing.B) (dir, skey, vkey string, rest []tlog.Revision) {
	bigLog.once.Do(func() {
		bigLog.all = revs(b, 0, benchLeaves+100_000)
		bigLog.dir, bigLog.skey, bigLog.vkey = newLogIn(b, os.TempDir())
		appendAll(b, bigLog.dir, bigLog.skey, bigLog.vkey, bigLog.all[:benchLeaves])
		filepath.Walk(filepath.Join(bigLog.dir, "tile"), func(_ string, fi os.FileInfo, err error) error {
			if err == nil && fi.Mode().IsRegular() {
				bigLog.files++
				bigLog.bytes += fi.Size()
			}
			return err
		})
	})
	return bigLog.dir, bigLog.skey, bigLog.vkey, bigLog.all[benchLeaves:]
}

// TestMain removes the benchmarks' log, which outlives each benchmark.
func TestMain(m *testing.M) {
	code := m.Run()
	if bigLog.dir != "" {
		os.RemoveAll(filepath.Dir(bigLog.dir))
	}
	os.Exit(code)
}

// newLogIn is newLog in a directory that outlives one benchmark.
func newLogIn(b *testing.B, parent string) (dir, skey, vkey string) {
	tmp, err := os.MkdirTemp(parent, "tlog-bench-")
	if err != nil {
		b.Fatal(err)
	}
	skey, vkey, err = tlog.GenerateKey(origin)
	if err != nil {
		b.Fatal(err)
	}
	dir = filepath.Join(tmp, tlog.DirName)
	if _, err := tlog.Init(dir, skey); err != nil {
		b.Fatal(err)
	}
	return dir, skey, vkey
}

// BenchmarkAppend100 appends 100 revisions to the 1,000,000-leaf log, as
// `tlog append --sign` does after its load: read and authenticate the
// logged leaves, compute the new tree, write the tiles and the signed
// checkpoint. It also reports the committed tiles of the log.
func BenchmarkAppend100(b *testing.B) {
	dir, skey, vkey, rest := setupBig(b)
	i := 0
	for b.Loop() {
		if (i+1)*100 > len(rest) {
			b.Fatal("out of revisions")
		}
		appendAll(b, dir, skey, vkey, rest[i*100:(i+1)*100])
		i++
	}
	b.ReportMetric(float64(bigLog.files), "tile-files")
	b.ReportMetric(float64(bigLog.bytes), "tile-bytes")
}

// BenchmarkConsistency builds and checks the proof that the current
// checkpoint extends one 100 leaves older, from the tiles on disk, as
// `tlog verify --against` does.
func BenchmarkConsistency(b *testing.B) {
	dir, _, vkey, _ := setupBig(b)
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		b.Fatal(err)
	}
	hr := tlog.Hashes(tlog.DirFS(dir), cp.Tree)
	oldHash, err := sumdb.TreeHash(cp.N-100, hr)
	if err != nil {
		b.Fatal(err)
	}
	old := tlog.Signed{Checkpoint: tlog.Checkpoint{Origin: origin, Tree: sumdb.Tree{N: cp.N - 100, Hash: oldHash}}}
	hashes := func(tr sumdb.Tree) sumdb.HashReader { return tlog.Hashes(tlog.DirFS(dir), tr) }
	for b.Loop() {
		if err := tlog.Consistent(old, cp, hashes); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyEntry is the client's check of one proof of the
// 1,000,000-leaf log (the library part of `tlog verify-proof`).
func BenchmarkVerifyEntry(b *testing.B) {
	dir, _, vkey, _ := setupBig(b)
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		b.Fatal(err)
	}
	e := bigLog.all[123_456].Entry
	p, err := tlog.Prove(tlog.DirFS(dir), cp, e)
	if err != nil {
		b.Fatal(err)
	}
	text := p.Text()
	for b.Loop() {
		if _, err := tlog.VerifyEntry(e, text, tlog.Policy{VKey: vkey}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLeaves reads and authenticates every leaf hash of the
// 1,000,000-leaf log from its tiles: what an append and a verify read to
// know which revisions are logged.
func BenchmarkLeaves(b *testing.B) {
	dir, _, vkey, _ := setupBig(b)
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := tlog.Leaves(tlog.DirFS(dir), cp.Tree); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyTree is what `tlog verify` does beyond its load on the
// 1,000,000-leaf log: read and authenticate every logged leaf and audit
// the tree of 1,000,000 revisions against them.
func BenchmarkVerifyTree(b *testing.B) {
	dir, _, vkey, _ := setupBig(b)
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		b.Fatal(err)
	}
	tree := bigLog.all[:cp.N]
	for b.Loop() {
		leaves, err := tlog.Leaves(tlog.DirFS(dir), cp.Tree)
		if err != nil {
			b.Fatal(err)
		}
		if ds := tlog.Audit(0, leaves, tree, "checkpoint"); len(ds) != 0 {
			b.Fatal(ds)
		}
	}
}

// BenchmarkVerifySince is what `tlog verify --against` does beyond its
// load and git's answer on the 1,000,000-leaf log when the base is 100
// leaves older and 100 revisions were added since its log commit: read and
// authenticate the leaves past the base, and audit them against those
// revisions.
func BenchmarkVerifySince(b *testing.B) {
	dir, _, vkey, _ := setupBig(b)
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		b.Fatal(err)
	}
	from := cp.N - 100
	last, err := tlog.LeavesFrom(tlog.DirFS(dir), cp.Tree, from)
	if err != nil {
		b.Fatal(err)
	}
	var since []tlog.Revision // the revisions of the last 100 leaves
	for _, r := range bigLog.all[:cp.N] {
		if slices.Contains(last, r.Entry.Hash()) {
			since = append(since, r)
		}
	}
	for b.Loop() {
		leaves, err := tlog.LeavesFrom(tlog.DirFS(dir), cp.Tree, from)
		if err != nil {
			b.Fatal(err)
		}
		if ds := tlog.Audit(from, leaves, since, "checkpoint"); len(ds) != 0 {
			b.Fatal(ds)
		}
	}
}
