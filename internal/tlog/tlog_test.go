package tlog_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/note"
	sumdb "golang.org/x/mod/sumdb/tlog"

	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/tlog"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

const origin = "journals.example.org/registry"

// revs returns n synthetic revisions of artifacts com.example.a<i%k>, each
// chained to the previous one of its artifact.
func revs(t testing.TB, from, n int) []tlog.Revision {
	t.Helper()
	var out []tlog.Revision
	prev := map[string]vt.Digest{}
	for i := 0; i < from+n; i++ {
		co := fmt.Sprintf("com.example.a%d", i%7)
		ver := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute).Format("20060102T150405Z")
		d := vt.DigestFromSum(sha256.Sum256([]byte(co + ver)))
		c, err := vt.ParseCoordinate(co)
		if err != nil {
			t.Fatal(err)
		}
		v, err := vt.ParseJournalVersion(ver)
		if err != nil {
			t.Fatal(err)
		}
		r := tlog.Revision{Path: co + "/" + ver + ".journal", Entry: tlog.Entry{Coordinate: c, JournalVersion: v, Digest: d, Predecessor: prev[co]}}
		prev[co] = d
		if i >= from {
			out = append(out, r)
		}
	}
	return out
}

// newLog makes a log in a temporary directory and returns its directory
// and keys.
func newLog(t testing.TB) (dir, skey, vkey string) {
	t.Helper()
	skey, vkey, err := tlog.GenerateKey(origin)
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(t.TempDir(), tlog.DirName)
	if _, err := tlog.Init(dir, skey); err != nil {
		t.Fatal(err)
	}
	return dir, skey, vkey
}

// appendAll appends batch to the log in dir.
func appendAll(t testing.TB, dir, skey, vkey string, batch []tlog.Revision) *tlog.Plan {
	t.Helper()
	old, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		t.Fatal(err)
	}
	p, err := tlog.Prepare(tlog.DirFS(dir), old, batch)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write(dir, skey); err != nil {
		t.Fatal(err)
	}
	return p
}

// independent is a verifier written only on x/mod and the C2SP texts, not
// on package tlog: it opens the checkpoint, authenticates the tiles it reads
// by their C2SP paths, and returns the checkpoint's tree and a hash reader.
func independent(t *testing.T, dir, vkey string) (sumdb.Tree, sumdb.HashReader) {
	t.Helper()
	v, err := note.NewVerifier(vkey)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := os.ReadFile(filepath.Join(dir, "checkpoint"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		t.Fatalf("x/mod rejects the checkpoint: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) != 4 || lines[0] != origin {
		t.Fatalf("checkpoint body %q", n.Text)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	root, err := sumdb.ParseHash(lines[2])
	if err != nil {
		t.Fatal(err)
	}
	tree := sumdb.Tree{N: size, Hash: root}
	return tree, sumdb.TileHashReader(tree, c2spTiles(dir))
}

// c2spTiles reads tiles at C2SP paths: tile/<L>/<N>[.p/<W>].
type c2spTiles string

func (c2spTiles) Height() int { return 8 }
func (d c2spTiles) ReadTiles(ts []sumdb.Tile) ([][]byte, error) {
	var out [][]byte
	for _, t := range ts {
		p := strings.Replace(t.Path(), "tile/8/", "tile/", 1)
		b, err := os.ReadFile(filepath.Join(string(d), filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
func (c2spTiles) SaveTiles([]sumdb.Tile, [][]byte) {}

func TestEntryText(t *testing.T) {
	// The example of docs/tlog.md ("What exactly a leaf is").
	text := "journal-leaf/v1 com.acme.archive 20210627T051952Z sha256:4989b4ee309cd2a609946ec23d0648b44f79c76485be0570aa9076ba7e7dc4e3 sha256:c503619fc695f9588aaf6b8cc1a3e76b71110627ce4a0226392b4547a9656efb\n"
	e, err := tlog.ParseEntry([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(e.Text()); got != text {
		t.Errorf("Text() = %q", got)
	}
	if got := e.Hash().String(); got != "TECKjIinlP1h+gecC0RUw3xcOwhzBH1PpjfBRFP7Nog=" {
		t.Errorf("leaf hash %s", got)
	}
	g := e
	g.Predecessor = vt.Digest{}
	if !strings.HasSuffix(string(g.Text()), " genesis\n") {
		t.Errorf("genesis entry %q", g.Text())
	}
	for _, bad := range []string{"", text[:len(text)-1], strings.Replace(text, " ", "  ", 1), strings.Replace(text, "v1", "v2", 1),
		strings.Replace(text, "sha256:4989", "sha256:ABCD", 1), text + text} {
		if _, err := tlog.ParseEntry([]byte(bad)); err == nil {
			t.Errorf("ParseEntry(%q) accepted", bad)
		}
	}
}

func TestSortBatch(t *testing.T) {
	b := []tlog.Revision{{Path: "com.a/20260101T000000Z.journal"}, {Path: "com.a-b/20260101T000000Z.journal"}, {Path: "com.a/20250101T000000Z.journal"}}
	tlog.SortBatch(b)
	want := []string{"com.a-b/20260101T000000Z.journal", "com.a/20250101T000000Z.journal", "com.a/20260101T000000Z.journal"}
	for i, r := range b {
		if r.Path != want[i] {
			t.Errorf("%d: %s, want %s", i, r.Path, want[i])
		}
	}
}

// TestIndependentVerifier grows a log in batches and checks every state
// with a verifier on x/mod alone: the checkpoint, the tiles, every
// inclusion proof, the consistency with every earlier checkpoint.
func TestIndependentVerifier(t *testing.T) {
	dir, skey, vkey := newLog(t)
	all := revs(t, 0, 700)
	var trees []sumdb.Tree
	for _, upto := range []int{1, 2, 255, 256, 257, 300, 513, 700} {
		p := appendAll(t, dir, skey, vkey, all[:upto]) // idempotent: earlier ones are skipped
		if p.Skipped != len(trees) && len(trees) > 0 && p.Skipped != int(trees[len(trees)-1].N) {
			t.Errorf("size %d: skipped %d", upto, p.Skipped)
		}
		tree, hr := independent(t, dir, vkey)
		if tree.N != int64(upto) {
			t.Fatalf("size %d, want %d", tree.N, upto)
		}
		cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
		if err != nil {
			t.Fatal(err)
		}
		// Every new leaf has a proof that x/mod accepts.
		for _, r := range p.Added {
			pr, err := tlog.Prove(tlog.DirFS(dir), cp, r.Entry)
			if err != nil {
				t.Fatal(err)
			}
			if err := sumdb.CheckRecord(pr.Inclusion, tree.N, tree.Hash, pr.Index, sumdb.RecordHash(r.Entry.Text())); err != nil {
				t.Fatalf("x/mod rejects the proof of %s: %v", r.Path, err)
			}
			pp, err := tlog.ParseProof(pr.Text())
			if err != nil || pp.Index != pr.Index || len(pp.Inclusion) != len(pr.Inclusion) || pp.Extra != nil {
				t.Fatalf("proof round trip: %v", err)
			}
			// Another application's proof may carry extra data (C2SP
			// tlog-proof: the optional "extra" line).
			pr.Extra = []byte("application data")
			text := pr.Text()
			if !bytes.Contains(text, []byte("\nextra YXBwbGljYXRpb24gZGF0YQ==\nindex ")) {
				t.Fatalf("extra line missing: %q", text)
			}
			if pp, err = tlog.ParseProof(text); err != nil || string(pp.Extra) != "application data" || pp.Index != pr.Index {
				t.Fatalf("proof with extra data: %v", err)
			}
		}
		for _, old := range trees {
			proof, err := sumdb.ProveTree(tree.N, old.N, hr)
			if err != nil {
				t.Fatal(err)
			}
			if err := sumdb.CheckTree(proof, tree.N, tree.Hash, old.N, old.Hash); err != nil {
				t.Fatalf("%d → %d: %v", old.N, tree.N, err)
			}
		}
		trees = append(trees, tree)
	}
	// Only the partial tiles of the current size are kept.
	var partial []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && strings.Contains(p, ".p"+string(filepath.Separator)) {
			rel, _ := filepath.Rel(dir, p)
			partial = append(partial, filepath.ToSlash(rel))
		}
		return err
	})
	if want := []string{"tile/0/002.p/188", "tile/1/000.p/2"}; fmt.Sprint(partial) != fmt.Sprint(want) {
		t.Errorf("partial tiles %v, want %v", partial, want)
	}
}

// TestBatchOrder: the leaves are the batch in path order, whatever order
// the caller gave, and an append of nothing new changes nothing.
func TestBatchOrder(t *testing.T) {
	dir, skey, vkey := newLog(t)
	all := revs(t, 0, 40)
	rev := append([]tlog.Revision(nil), all...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	appendAll(t, dir, skey, vkey, rev)
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		t.Fatal(err)
	}
	leaves, err := tlog.Leaves(tlog.DirFS(dir), cp.Tree)
	if err != nil {
		t.Fatal(err)
	}
	tlog.SortBatch(all)
	for i, r := range all {
		if leaves[i] != r.Entry.Hash() {
			t.Fatalf("leaf %d is not %s", i, r.Path)
		}
	}
	before, _ := os.ReadFile(filepath.Join(dir, "checkpoint"))
	p := appendAll(t, dir, skey, vkey, all)
	after, _ := os.ReadFile(filepath.Join(dir, "checkpoint"))
	if len(p.Added) != 0 || p.Skipped != 40 || string(before) != string(after) {
		t.Errorf("second append added %d, skipped %d, changed the checkpoint: %v", len(p.Added), p.Skipped, string(before) != string(after))
	}
	if diags := tlog.Audit(0, leaves, all, "../journal-log/checkpoint"); len(diags) != 0 {
		t.Errorf("audit of a complete log: %v", diags)
	}
}

// TestLeavesFrom reads the leaves of a log of more than one group of
// level-0 tiles from several places: each read is the tail of the whole,
// a changed tile fails the read of its leaves and of none before it. A
// long test (longtest.Whole): its 70,000 appends run on one goroutine,
// where the race detector finds nothing and costs five times the CPU.
func TestLeavesFrom(t *testing.T) {
	longtest.Whole(t)
	const n = 70_000 // more than 256 level-0 tiles: two groups
	dir, skey, vkey := newLog(t)
	appendAll(t, dir, skey, vkey, revs(t, 0, n))
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		t.Fatal(err)
	}
	all, err := tlog.Leaves(tlog.DirFS(dir), cp.Tree)
	if err != nil || len(all) != n {
		t.Fatalf("Leaves: %d leaves, %v", len(all), err)
	}
	for _, from := range []int64{0, 1, 255, 256, 65_535, 65_536, 65_537, n - 1, n} {
		got, err := tlog.LeavesFrom(tlog.DirFS(dir), cp.Tree, from)
		if err != nil || !slices.Equal(got, all[from:]) {
			t.Errorf("LeavesFrom(%d): %d leaves, %v; want the last %d", from, len(got), err, n-from)
		}
	}
	for _, from := range []int64{-1, n + 1} {
		if _, err := tlog.LeavesFrom(tlog.DirFS(dir), cp.Tree, from); err == nil {
			t.Errorf("LeavesFrom(%d) of a tree of size %d did not fail", from, n)
		}
	}
	tile := filepath.Join(dir, "tile", "0", "257")
	b, err := os.ReadFile(tile)
	if err != nil {
		t.Fatal(err)
	}
	b[40] ^= 1
	if err := os.WriteFile(tile, b, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := tlog.Leaves(tlog.DirFS(dir), cp.Tree); err == nil {
		t.Error("Leaves read a changed tile")
	}
	if _, err := tlog.LeavesFrom(tlog.DirFS(dir), cp.Tree, 257*256); err == nil {
		t.Error("LeavesFrom read a changed tile")
	}
	if got, err := tlog.LeavesFrom(tlog.DirFS(dir), cp.Tree, 258*256); err != nil || !slices.Equal(got, all[258*256:]) {
		t.Errorf("LeavesFrom past the changed tile: %v", err)
	}
}

func TestTamper(t *testing.T) {
	all := revs(t, 0, 300)
	t.Run("leaf in a tile", func(t *testing.T) {
		dir, skey, vkey := newLog(t)
		appendAll(t, dir, skey, vkey, all)
		tile := filepath.Join(dir, "tile", "0", "000")
		b, _ := os.ReadFile(tile)
		b[100] ^= 1
		os.WriteFile(tile, b, 0o666)
		cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tlog.Leaves(tlog.DirFS(dir), cp.Tree); err == nil {
			t.Error("a changed tile was read")
		}
		if _, err := tlog.Prepare(tlog.DirFS(dir), cp, all); err == nil {
			t.Error("an append onto a changed tile was prepared")
		}
	})
	t.Run("wrongly signed checkpoint", func(t *testing.T) {
		dir, skey, vkey := newLog(t)
		appendAll(t, dir, skey, vkey, all)
		other, _, _ := tlog.GenerateKey(origin)
		cp, _ := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
		forged, err := cp.Checkpoint.Sign(other)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tlog.Open(forged, vkey, origin); !errors.Is(err, tlog.ErrSignature) {
			t.Errorf("a checkpoint signed by another key: %v", err)
		}
		body := strings.Replace(string(cp.Note), "\n300\n", "\n299\n", 1)
		if _, err := tlog.Open([]byte(body), vkey, origin); !errors.Is(err, tlog.ErrSignature) {
			t.Errorf("an edited checkpoint: %v", err)
		}
		_, otherV, _ := tlog.GenerateKey("other.example/log")
		if _, err := tlog.Open(cp.Note, otherV, ""); err == nil {
			t.Error("a checkpoint of another log was accepted")
		}
	})
	t.Run("rewritten history", func(t *testing.T) {
		// Two logs with the same first 100 revisions, then different ones:
		// neither checkpoint is consistent with the other's earlier one.
		dirA, skey, vkey := newLog(t)
		appendAll(t, dirA, skey, vkey, all[:100])
		early, _ := tlog.ReadCheckpoint(tlog.DirFS(dirA), vkey)
		appendAll(t, dirA, skey, vkey, all[100:200])
		dirB := filepath.Join(t.TempDir(), tlog.DirName)
		if _, err := tlog.Init(dirB, skey); err != nil {
			t.Fatal(err)
		}
		rewritten := append(append([]tlog.Revision(nil), all[:99]...), all[200:300]...)
		appendAll(t, dirB, skey, vkey, rewritten)
		b, _ := tlog.ReadCheckpoint(tlog.DirFS(dirB), vkey)
		hashes := func(tr sumdb.Tree) sumdb.HashReader { return tlog.Hashes(tlog.DirFS(dirB), tr) }
		if err := tlog.Consistent(early, b, hashes); !errors.Is(err, tlog.ErrInconsistent) {
			t.Errorf("rewritten history: %v", err)
		}
		a, _ := tlog.ReadCheckpoint(tlog.DirFS(dirA), vkey)
		if err := tlog.Consistent(early, a, func(tr sumdb.Tree) sumdb.HashReader { return tlog.Hashes(tlog.DirFS(dirA), tr) }); err != nil {
			t.Errorf("grown log: %v", err)
		}
	})
}

// TestClientState: a client that remembers the checkpoints it saw accepts
// growth, keeps the newest, and rejects a split view.
func TestClientState(t *testing.T) {
	all := revs(t, 0, 50)
	dir, skey, vkey := newLog(t)
	appendAll(t, dir, skey, vkey, all[:20])
	c20, _ := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	appendAll(t, dir, skey, vkey, all[20:40])
	c40, _ := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	hashes := func(tr sumdb.Tree) sumdb.HashReader { return tlog.Hashes(tlog.DirFS(dir), tr) }
	state := t.TempDir()
	for _, step := range []struct {
		cp   tlog.Signed
		want int64
	}{{c20, 20}, {c40, 40}, {c20, 40}} {
		got, err := tlog.Remember(state, step.cp, vkey, hashes)
		if err != nil || got.N != step.want {
			t.Fatalf("Remember(size %d) = size %d, %v; want %d", step.cp.N, got.N, err, step.want)
		}
	}
	// While another client holds the turn to write (its lock file), a
	// checkpoint no larger than the one kept is checked without one.
	if err := os.WriteFile(tlog.StateFile(state, origin)+".lock", nil, 0o666); err != nil {
		t.Fatal(err)
	}
	for _, cp := range []tlog.Signed{c40, c20} {
		if got, err := tlog.Remember(state, cp, vkey, hashes); err != nil || got.N != 40 {
			t.Fatalf("Remember(size %d) beside a lock = size %d, %v; want 40", cp.N, got.N, err)
		}
	}
	os.Remove(tlog.StateFile(state, origin) + ".lock")
	// The host shows this client another log of size 40 (a split view).
	fork := filepath.Join(t.TempDir(), tlog.DirName)
	tlog.Init(fork, skey)
	appendAll(t, fork, skey, vkey, append(append([]tlog.Revision(nil), all[:39]...), all[45]))
	split, _ := tlog.ReadCheckpoint(tlog.DirFS(fork), vkey)
	_, err := tlog.Remember(state, split, vkey, func(tr sumdb.Tree) sumdb.HashReader { return tlog.Hashes(tlog.DirFS(fork), tr) })
	if !errors.Is(err, tlog.ErrInconsistent) || !strings.Contains(err.Error(), string(c40.Note)) {
		t.Errorf("split view: %v", err)
	}
}

// TestConcurrentAppends: two appends from one checkpoint; exactly one
// writes, the other fails with ErrBusy, and the log stays readable.
func TestConcurrentAppends(t *testing.T) {
	all := revs(t, 0, 600)
	for range 5 {
		dir, skey, vkey := newLog(t)
		old, _ := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, err := tlog.Prepare(tlog.DirFS(dir), old, all[i*300:(i+1)*300])
				if err == nil {
					_, err = p.Write(dir, skey)
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, tlog.ErrBusy):
				t.Fatal(err)
			}
		}
		if ok != 1 {
			t.Fatalf("%d appends succeeded: %v", ok, errs)
		}
		tree, hr := independent(t, dir, vkey)
		if _, err := sumdb.TreeHash(tree.N, hr); err != nil || tree.N != 300 {
			t.Fatalf("log after the race: size %d, %v", tree.N, err)
		}
	}
}

func TestVerifierKey(t *testing.T) {
	skey, vkey, err := tlog.GenerateKey(origin)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := tlog.VerifierKey(skey); err != nil || got != vkey {
		t.Errorf("VerifierKey = %q, %v; want %q", got, err, vkey)
	}
	if _, err := tlog.VerifierKey(vkey); err == nil {
		t.Error("a public key was taken for a private one")
	}
}

// TestAudit: the findings of a log against its tree, whole and from a
// later leaf on.
func TestAudit(t *testing.T) {
	all := revs(t, 0, 30) // chains of 7 artifacts, each revision after its predecessor
	tlog.SortBatch(all)
	dir, skey, vkey := newLog(t)
	// A writer that ignores the batch order: a successor before its
	// predecessor.
	var succ, pred tlog.Revision
	for _, r := range all {
		if !r.Entry.Predecessor.IsZero() {
			succ = r
			break
		}
	}
	for _, r := range all {
		if r.Entry.Digest == succ.Entry.Predecessor {
			pred = r
		}
	}
	appendAll(t, dir, skey, vkey, []tlog.Revision{succ})
	appendAll(t, dir, skey, vkey, all)
	cp, _ := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	leaves, err := tlog.Leaves(tlog.DirFS(dir), cp.Tree)
	if err != nil {
		t.Fatal(err)
	}
	codes := func(ds []string) string { return strings.Join(ds, " ") }
	var got []string
	for _, d := range tlog.Audit(0, leaves, all, "../journal-log/checkpoint") {
		got = append(got, d.Code+" "+d.Path)
	}
	if want := "tlog/order " + succ.Path; codes(got) != want {
		t.Errorf("out of order: %q, want %q (predecessor %s)", codes(got), want, pred.Path)
	}
	// From leaf 1 on, the predecessor's place is unknown: no order finding.
	if ds := tlog.Audit(1, leaves[1:], all, "../journal-log/checkpoint"); len(ds) != 1 || ds[0].Code != "tlog/unlogged" || ds[0].Path != succ.Path {
		t.Errorf("partial audit: %v", ds)
	}
	// A lost file and an unlogged one.
	got = nil
	for _, d := range tlog.Audit(0, leaves, append(all[1:len(all):len(all)], revs(t, 30, 1)...), "../journal-log/checkpoint") {
		got = append(got, d.Code)
	}
	// The lost file is a predecessor: its successor is in order (the
	// missing file says what happened), not logged "not at all".
	if want := "tlog/missing-file tlog/unlogged"; codes(got) != want {
		t.Errorf("lost and new: %q, want %q", codes(got), want)
	}
	// A successor whose predecessor is in the tree but was never logged
	// is out of order, lost files or not.
	got = nil
	for _, d := range tlog.Audit(0, leaves[1:], all, "../journal-log/checkpoint") {
		got = append(got, d.Code)
	}
	if !strings.Contains(codes(got), "tlog/order") {
		t.Errorf("predecessor in the tree, never logged: %q, want a tlog/order finding", codes(got))
	}
}

// TestClientStateConcurrent: clients that share a state directory and see
// checkpoints of several sizes leave the largest in it.
func TestClientStateConcurrent(t *testing.T) {
	all := revs(t, 0, 40)
	dir, skey, vkey := newLog(t)
	var cps []tlog.Signed
	for _, n := range []int{10, 20, 30, 40} {
		appendAll(t, dir, skey, vkey, all[:n])
		cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
		if err != nil {
			t.Fatal(err)
		}
		cps = append(cps, cp)
	}
	hashes := func(tr sumdb.Tree) sumdb.HashReader { return tlog.Hashes(tlog.DirFS(dir), tr) }
	state := t.TempDir()
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := tlog.Remember(state, cps[i%len(cps)], vkey, hashes); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := tlog.Remember(state, cps[0], vkey, hashes)
	if err != nil || got.N != 40 {
		t.Errorf("state after the clients: size %d, %v", got.N, err)
	}
}

// TestCheckSigner: a signing key of the log's origin that is not the
// log's key is refused before anything is signed (a checkpoint it signed
// would stop the log verifying); the log's own key passes.
func TestCheckSigner(t *testing.T) {
	t.Parallel()
	skey, vkey, err := note.GenerateKey(rand.Reader, "journals.example.org/registry")
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := note.GenerateKey(rand.Reader, "journals.example.org/registry")
	if err != nil {
		t.Fatal(err)
	}
	elsewhere, _, err := note.GenerateKey(rand.Reader, "other.example/log")
	if err != nil {
		t.Fatal(err)
	}
	if err := tlog.CheckSigner(skey, vkey); err != nil {
		t.Errorf("the log's own key: %v", err)
	}
	if err := tlog.CheckSigner(other, vkey); err == nil || !strings.Contains(err.Error(), "is not the log's key") || strings.Contains(err.Error(), other) {
		t.Errorf("another key of the same name: %v", err)
	}
	if err := tlog.CheckSigner(elsewhere, vkey); err == nil || !strings.Contains(err.Error(), "not for the log's origin") {
		t.Errorf("a key of another origin: %v", err)
	}
}

// TestIsAppend: only all of what an append writes counts as one (or, at
// one size, a new checkpoint alone: cosignatures); a file of any other
// name, a tile left out or kept, a changed full tile is not.
func TestIsAppend(t *testing.T) {
	t.Parallel()
	ch := func(status byte, p string) gitrepo.Change { return gitrepo.Change{Status: status, Path: p} }
	growth := []gitrepo.Change{ch('M', "journal-log/checkpoint"), ch('A', "journal-log/tile/0/000.p/3"), ch('D', "journal-log/tile/0/000.p/2")}
	for _, tt := range []struct {
		name       string
		changes    []gitrepo.Change
		oldN, newN int64
		want       bool
	}{
		{"an append", growth, 2, 3, true},
		{"the old partial tile kept", growth[:2], 2, 3, false},
		{"the new tile missing (not staged)", []gitrepo.Change{growth[0], growth[2]}, 2, 3, false},
		{"another file", append(slices.Clone(growth), ch('A', "journal-log/extra")), 2, 3, false},
		{"a tile of another size", []gitrepo.Change{ch('M', "journal-log/checkpoint"), ch('A', "journal-log/tile/0/000.p/4")}, 2, 3, false},
		{"no checkpoint", growth[1:], 2, 3, false},
		{"cosignatures added at one size", growth[:1], 3, 3, true},
		{"tiles changed at one size", growth, 3, 3, false},
		{"a smaller log", growth[:1], 3, 2, false},
		{"a full tile changed", []gitrepo.Change{ch('M', "journal-log/checkpoint"), ch('M', "journal-log/tile/0/000")}, 256, 257, false},
	} {
		if got := tlog.IsAppend(tt.changes, "journal-log", tt.oldN, tt.newN); got != tt.want {
			t.Errorf("%s: IsAppend = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestParseProofErrors: the messages name the line at fault, an "extra"
// line counted.
func TestParseProofErrors(t *testing.T) {
	t.Parallel()
	const cp = "\n\nlog\n1\nAAAA\n"
	for text, want := range map[string]string{
		"c2sp.org/tlog-proof@v1\nindex 1\nnot a hash" + cp:             "tlog-proof line 3:",
		"c2sp.org/tlog-proof@v1\nextra aGk=\nindex 1\nnot a hash" + cp: "tlog-proof line 4:",
		"c2sp.org/tlog-proof@v1\nextra aGk=\nnot an index" + cp:        "index on line 3",
		"c2sp.org/tlog-proof@v1\nextra\nindex 1" + cp:                  `"extra" line holds data`,
		"c2sp.org/tlog-proof@v1\nextra !!\nindex 1" + cp:               `"extra" line holds data`,
	} {
		if _, err := tlog.ParseProof([]byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseProof(%q) = %v, want an error with %q", text, err, want)
		}
	}
}

// TestStrays: a file the log of its size does not hold is a stray, an
// old partial tile among them; the checkpoint and the tiles are not.
func TestStrays(t *testing.T) {
	t.Parallel()
	dir, skey, vkey := newLog(t)
	appendAll(t, dir, skey, vkey, revs(t, 0, 5))
	if got, err := tlog.Strays(os.DirFS(dir), 5); err != nil || len(got) != 0 {
		t.Fatalf("a clean log: %v, %v", got, err)
	}
	for _, name := range []string{tlog.LockFile, "notes.txt", "tile/0/000.p/3"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	got, err := tlog.Strays(os.DirFS(dir), 5)
	if want := []string{".lock", "notes.txt", "tile/0/000.p/3"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Strays = %v, %v; want %v", got, err, want)
	}
}
