package tlog_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/tlog"
	"github.com/r35157/journal-lint/internal/tlog/tlogtest"
)

// cosign asks w to cosign the log in dir and writes the cosigned
// checkpoint back.
func cosign(t *testing.T, dir, vkey string, w *tlogtest.Witness) ([]byte, error) {
	t.Helper()
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := tlog.AddCheckpoint(context.Background(), http.DefaultClient, tlog.Witness{VKey: w.VKey, URL: w.URL}, cp, tlog.Hashes(tlog.DirFS(dir), cp.Tree))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "checkpoint"), msg, 0o666); err != nil {
		t.Fatal(err)
	}
	return msg, nil
}

func TestWitness(t *testing.T) {
	all := revs(t, 0, 60)
	dir, skey, vkey := newLog(t)
	appendAll(t, dir, skey, vkey, all[:20])
	w := tlogtest.Start("witness.example.org/w1", vkey)
	defer w.Close()
	other := tlogtest.Start("witness.example.org/w2", vkey)
	defer other.Close()

	if _, err := cosign(t, dir, vkey, w); err != nil {
		t.Fatal(err)
	}
	// The log grows; the witness holds size 20 and gets a consistency proof.
	appendAll(t, dir, skey, vkey, all[:40])
	msg, err := cosign(t, dir, vkey, w)
	if err != nil {
		t.Fatal(err)
	}
	if w.Size() != 40 || strings.Count(string(msg), "— witness.example.org/w1 ") != 1 {
		t.Errorf("witness at size %d; checkpoint:\n%s", w.Size(), msg)
	}
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		t.Fatalf("a cosigned checkpoint no longer opens: %v", err)
	}
	proof, err := tlog.Prove(tlog.DirFS(dir), cp, all[3].Entry)
	if err != nil {
		t.Fatal(err)
	}
	text := proof.Text()
	now := time.Now()
	ok := tlog.Policy{VKey: vkey, Witnesses: []string{w.VKey, other.VKey}, Quorum: 1, MaxAge: time.Hour, Now: now}
	if _, err := tlog.VerifyEntry(all[3].Entry, text, ok); err != nil {
		t.Errorf("quorum 1 of 2: %v", err)
	}
	two := ok
	two.Quorum = 2
	if _, err := tlog.VerifyEntry(all[3].Entry, text, two); !errors.Is(err, tlog.ErrQuorum) {
		t.Errorf("quorum 2 with one cosignature: %v", err)
	}
	later := ok
	later.Now = now.Add(2 * time.Hour)
	if _, err := tlog.VerifyEntry(all[3].Entry, text, later); !errors.Is(err, tlog.ErrStale) {
		t.Errorf("a frozen log: %v", err)
	}
	// A checkpoint of another log history (the same key: a stolen key, or a
	// host showing a split view) is refused by the witness.
	fork := filepath.Join(t.TempDir(), tlog.DirName)
	if _, err := tlog.Init(fork, skey); err != nil {
		t.Fatal(err)
	}
	appendAll(t, fork, skey, vkey, append(append([]tlog.Revision(nil), all[:39]...), all[50:60]...))
	if _, err := cosign(t, fork, vkey, w); err == nil || !strings.Contains(err.Error(), "422") {
		t.Errorf("a split view was cosigned: %v", err)
	}
	// One smaller than what the witness holds is refused before it is sent.
	small := filepath.Join(t.TempDir(), tlog.DirName)
	tlog.Init(small, skey)
	appendAll(t, small, skey, vkey, all[:30])
	if _, err := cosign(t, small, vkey, w); !errors.Is(err, tlog.ErrInconsistent) {
		t.Errorf("a rolled-back log: %v", err)
	}
	// A witness that does not know the log's key refuses too.
	stranger := tlogtest.Start("witness.example.org/w3", other.VKey)
	defer stranger.Close()
	if _, err := cosign(t, dir, vkey, stranger); err == nil {
		t.Error("a witness cosigned a log it does not know")
	}
}

func TestCosignatureKeys(t *testing.T) {
	for _, bad := range []string{"", "w1", "w1+zz+AAAA", "journals.example.org/registry+1788ca79+ASgmMCEOey/NdNKmURfuxNIb0CSxkgZrQ1yiirYb71mW"} {
		if _, err := tlog.NewCosignatureVerifier(bad); err == nil {
			t.Errorf("NewCosignatureVerifier(%q) accepted", bad)
		}
	}
}

// TestFreshCosignature: a cosignature whose time is already older than
// the policy's max-age is told apart from a fresh one, before the
// operator keeps it.
func TestFreshCosignature(t *testing.T) {
	dir, skey, vkey := newLog(t)
	appendAll(t, dir, skey, vkey, revs(t, 0, 5))
	fresh := tlogtest.Start("witness.example.org/fresh", vkey)
	defer fresh.Close()
	stale := tlogtest.Start("witness.example.org/stale", vkey)
	defer stale.Close()
	stale.Now = func() time.Time { return time.Now().Add(-40 * 24 * time.Hour) }
	msg, err := cosign(t, dir, vkey, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if err := tlog.FreshCosignature(msg, fresh.VKey, time.Hour, time.Now()); err != nil {
		t.Errorf("a fresh cosignature: %v", err)
	}
	if msg, err = cosign(t, dir, vkey, stale); err != nil {
		t.Fatal(err)
	}
	if err := tlog.FreshCosignature(msg, stale.VKey, 720*time.Hour, time.Now()); err == nil || !strings.Contains(err.Error(), "older than the tlog: block's max-age 720h0m0s") {
		t.Errorf("a cosignature 40 days old under max-age 720h: %v", err)
	}
	// Cosigned again with a right clock, the new line replaces the old.
	stale.Now = nil
	if msg, err = cosign(t, dir, vkey, stale); err != nil {
		t.Fatal(err)
	}
	if err := tlog.FreshCosignature(msg, stale.VKey, time.Hour, time.Now()); err != nil || strings.Count(string(msg), "— witness.example.org/stale ") != 1 {
		t.Errorf("cosigned again: %v\n%s", err, msg)
	}
	ahead := tlogtest.Start("witness.example.org/ahead", vkey)
	defer ahead.Close()
	ahead.Now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	if msg, err = cosign(t, dir, vkey, ahead); err != nil {
		t.Fatal(err)
	}
	if err := tlog.FreshCosignature(msg, ahead.VKey, 720*time.Hour, time.Now()); err == nil || !strings.Contains(err.Error(), "ahead of this machine's clock") {
		t.Errorf("a cosignature two hours ahead: %v", err)
	}
	if err := tlog.FreshCosignature([]byte("not a note"), stale.VKey, time.Hour, time.Now()); err == nil {
		t.Error("no cosignature: no error")
	}
}

// TestOperatorNote: a checkpoint the operator's job wrote holds the log's
// line and one verified line per listed witness; a line of another key,
// a second line of a key, or one that does not verify is refused. Two
// keys of one name are two witnesses: cosigning with one keeps the
// other's line.
func TestOperatorNote(t *testing.T) {
	dir, skey, vkey := newLog(t)
	appendAll(t, dir, skey, vkey, revs(t, 0, 3))
	w := tlogtest.Start("witness.example.org/w1", vkey)
	defer w.Close()
	rotated := tlogtest.Start("witness.example.org/w1", vkey) // the same name, another key
	defer rotated.Close()
	if _, err := cosign(t, dir, vkey, w); err != nil {
		t.Fatal(err)
	}
	msg, err := cosign(t, dir, vkey, rotated)
	if err != nil {
		t.Fatal(err)
	}
	both := []string{w.VKey, rotated.VKey}
	times, err := tlog.OperatorNote(msg, vkey, both)
	if err != nil || strings.Count(string(msg), "— witness.example.org/w1 ") != 2 {
		t.Fatalf("two keys of one name: %v\n%s", err, msg)
	}
	if len(times) != 2 { // by key
		t.Errorf("times %v", times)
	}
	// Two keys of one witness are one vote of a client's quorum.
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), vkey)
	if err != nil {
		t.Fatal(err)
	}
	entry := revs(t, 0, 3)[1].Entry
	proof, err := tlog.Prove(tlog.DirFS(dir), cp, entry)
	if err != nil {
		t.Fatal(err)
	}
	two := tlog.Policy{VKey: vkey, Witnesses: both, Quorum: 2, Now: time.Now()}
	if _, err := tlog.VerifyEntry(entry, proof.Text(), two); !errors.Is(err, tlog.ErrQuorum) {
		t.Errorf("quorum 2 met by one witness's two keys: %v", err)
	}
	// A witness dropped from the tlog: block leaves no line behind once
	// tlog witness writes the checkpoint again.
	kept := tlog.OnlySignatures(msg, vkey, both[:1])
	if _, err := tlog.OperatorNote(kept, vkey, both[:1]); err != nil || strings.Count(string(kept), "— witness.example.org/w1 ") != 1 {
		t.Errorf("OnlySignatures: %v\n%s", err, kept)
	}
	lines := strings.SplitAfter(string(msg), "\n")
	last := lines[len(lines)-2]
	for name, bad := range map[string]string{
		"a key not listed": strings.Join(lines, ""),
		"a line twice":     strings.Join(lines, "") + last,
		"a forged line":    strings.Join(lines[:len(lines)-2], "") + last[:len(last)-10] + "AAAAAAAAA\n",
	} {
		keys := both
		if name == "a key not listed" {
			keys = both[:1]
		}
		if _, err := tlog.OperatorNote([]byte(bad), vkey, keys); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
