package gitrepo

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestMemo: under WithMemo a question is asked once and its answer (or
// error) handed out again, as a copy; under WithoutMemo, or without
// either, every time; an answer cut short by a cancelled context, or
// longer than memoMax, is not remembered.
func TestMemo(t *testing.T) {
	t.Parallel()
	asked := 0
	ask := func() ([]byte, error) { asked++; return []byte("answer"), nil }
	ctx := WithMemo(context.Background())
	for range 3 {
		out, err := remembered(ctx, []string{"git", "dir", "rev-parse"}, ask)
		if err != nil || string(out) != "answer" {
			t.Fatalf("remembered = %q, %v", out, err)
		}
		out[0] = 'X' // the caller owns its copy
	}
	if asked != 1 {
		t.Errorf("asked %d times under WithMemo, want 1", asked)
	}
	if _, err := remembered(ctx, []string{"git", "other dir", "rev-parse"}, ask); err != nil || asked != 2 {
		t.Errorf("another question: asked %d times, %v", asked, err)
	}
	failing := errors.New("not a git repository")
	fails := 0
	for range 2 {
		if _, err := remembered(ctx, []string{"git", "x"}, func() ([]byte, error) { fails++; return nil, failing }); err != failing {
			t.Errorf("error = %v, want %v", err, failing)
		}
	}
	if fails != 1 {
		t.Errorf("a failing question was asked %d times, want 1", fails)
	}
	for _, c := range []context.Context{context.Background(), WithoutMemo(ctx)} {
		asked = 0
		remembered(c, []string{"git", "dir", "rev-parse"}, ask)
		remembered(c, []string{"git", "dir", "rev-parse"}, ask)
		if asked != 2 {
			t.Errorf("asked %d times without a memo, want 2", asked)
		}
	}
	long := make([]byte, memoMax+1)
	asked = 0
	for range 2 {
		remembered(ctx, []string{"git", "ls-files"}, func() ([]byte, error) { asked++; return long, nil })
	}
	if asked != 2 {
		t.Errorf("a long answer was asked for %d times, want 2 (not remembered)", asked)
	}
	cctx, cancel := context.WithCancel(WithMemo(context.Background()))
	cancel()
	asked = 0
	remembered(cctx, []string{"q"}, ask)
	remembered(cctx, []string{"q"}, ask)
	if asked != 2 {
		t.Errorf("asked %d times under a cancelled context, want 2", asked)
	}
}

// TestResolvedCommitAsksNoMore: under WithMemo, once ResolveCommit named a
// commit, resolving that name and the commit's merge base with itself ask
// git nothing more (git here logs each run); a merge base of two commits,
// and a name never resolved, still ask. Without a memo every call asks.
func TestResolvedCommitAsksNoMore(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "second")
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(t.TempDir(), "runs")
	logging := filepath.Join(t.TempDir(), "git")
	script := "#!/bin/sh\necho \"$*\" >>'" + runs + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(logging, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	asked := func() int {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), "\n")
	}
	for _, memo := range []bool{true, false} {
		ctx := context.Background()
		if memo {
			ctx = WithMemo(ctx)
		}
		r, err := Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		r.git = logging
		os.Remove(runs)
		head, err := r.ResolveCommit(ctx, "HEAD")
		if err != nil {
			t.Fatal(err)
		}
		again, err := r.ResolveCommit(ctx, head)
		if err != nil || again != head {
			t.Fatalf("ResolveCommit(%s) = %q, %v", head, again, err)
		}
		if base, err := r.MergeBase(ctx, head, head); err != nil || base != head {
			t.Fatalf("MergeBase(HEAD, HEAD) = %q, %v", base, err)
		}
		if n := asked(); memo && n != 1 || !memo && n != 3 {
			t.Errorf("memo %v: git ran %d times, want %d", memo, n, map[bool]int{true: 1, false: 3}[memo])
		}
		parent := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD~1"))
		if base, err := r.MergeBase(ctx, head, parent); err != nil || base != parent {
			t.Errorf("MergeBase(HEAD, HEAD~1) = %q, %v, want %s", base, err, parent)
		}
		if _, err := r.MergeBase(ctx, parent, parent); err != nil {
			t.Error(err)
		}
		if n := asked(); memo && n != 3 || !memo && n != 5 {
			t.Errorf("memo %v: after two more merge bases git ran %d times", memo, n)
		}
	}
}

// TestMemoWaitsForTheQuestionAsked: a question asked while another
// goroutine asks it waits for that answer instead of running git again;
// a waiter whose answer is not remembered (too long) asks itself; a
// waiter whose context ends stops waiting.
func TestMemoWaitsForTheQuestionAsked(t *testing.T) {
	t.Parallel()
	ctx := WithMemo(context.Background())
	if !Remembers(ctx) || Remembers(context.Background()) || Remembers(WithoutMemo(ctx)) {
		t.Error("Remembers does not tell a memo's context")
	}
	for _, size := range []int{6, memoMax + 1} {
		release := make(chan struct{})
		var asked atomic.Int32
		ask := func() ([]byte, error) {
			if asked.Add(1) == 1 {
				<-release
			}
			return make([]byte, size), nil
		}
		key := []string{"git", "dir", "diff", strconv.Itoa(size)}
		first := make(chan error)
		go func() { _, err := remembered(ctx, key, ask); first <- err }()
		for asked.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		second := make(chan []byte)
		go func() { out, _ := remembered(ctx, key, ask); second <- out }()
		time.Sleep(20 * time.Millisecond) // the second waits, or asks once the first is done
		if n := asked.Load(); n != 1 {
			t.Errorf("size %d: asked %d times while the first was being answered", size, n)
		}
		close(release)
		if err := <-first; err != nil {
			t.Fatal(err)
		}
		if out := <-second; len(out) != size {
			t.Errorf("size %d: the waiter got %d bytes", size, len(out))
		}
		want := int32(1)
		if size > memoMax {
			want = 2
		}
		if n := asked.Load(); n != want {
			t.Errorf("size %d: asked %d times, want %d", size, n, want)
		}
	}
	block := make(chan struct{})
	defer close(block)
	go remembered(ctx, []string{"slow"}, func() ([]byte, error) { <-block; return nil, nil })
	m := memoOf(ctx)
	for {
		m.mu.Lock()
		_, asking := m.answers["slow"]
		m.mu.Unlock()
		if asking {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := remembered(cctx, []string{"slow"}, func() ([]byte, error) { return nil, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("a waiter whose context ended got %v", err)
	}
}
