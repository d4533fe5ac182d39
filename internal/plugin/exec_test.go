package plugin_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/plugin/packtest"
)

// TestOnlyPinnedBytesRun swaps the configured executable between the
// pinned build and another one (the same program with bytes appended, so
// it runs but has another digest) as fast as it can while packs start, and
// requires that every pack that started runs exactly the pinned bytes (the
// selfhash pack reports the digest of what it runs from as its version)
// and every other start was refused as a checksum mismatch.
func TestOnlyPinnedBytesRun(t *testing.T) {
	dir := t.TempDir()
	pinned := spec(t, "selfhash")
	b, err := os.ReadFile(pinned.Path)
	if err != nil {
		t.Fatal(err)
	}
	good, bad := filepath.Join(dir, "good"), filepath.Join(dir, "bad")
	if err := os.WriteFile(good, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, append(b, "not the pinned build"...), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "selfhash") // the mode is the executable's name
	if err := os.Link(good, path); err != nil {
		t.Fatal(err)
	}
	s := pinned
	s.Path = path

	copiesBefore, _ := filepath.Glob(filepath.Join(os.TempDir(), "journal-lint-pack-*"))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the attacker: rename one build or the other over path
		defer wg.Done()
		tmp := path + ".next"
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			from := good
			if i%2 == 1 {
				from = bad
			}
			os.Remove(tmp)
			if err := os.Link(from, tmp); err == nil {
				os.Rename(tmp, path)
			}
			time.Sleep(200 * time.Microsecond) // many swaps per start, and CPU left for the starts
		}
	}()
	// Each start copies and hashes the (large) test binary. Small runs
	// (longtest) make fewer starts, but never stop before both outcomes
	// were seen, nor after as many starts as a whole run makes.
	ran, refused := 0, 0
	least := longtest.Size(30, 8)
	for i := 0; i < 30 && (i < least || ran == 0 || refused == 0); i++ {
		ps, err := plugin.Start(context.Background(), configOf(s), "")
		var ve *plugin.VerifyError
		switch {
		case errors.As(err, &ve) && ve.Err == nil && ve.Got != "":
			refused++
		case err != nil:
			t.Errorf("start: %v", err)
		default:
			ran++
			if got := ps.Infos()[0].Version; got != "sha256-"+s.SHA256 {
				t.Errorf("a pack ran from bytes with digest %s, not the pinned %s", got, s.SHA256)
			}
			ps.Close()
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d starts ran the pinned bytes, %d were refused", ran, refused)
	if ran == 0 || refused == 0 {
		t.Errorf("the swap did not interleave with the starts (%d ran, %d refused)", ran, refused)
	}
	if n := packtest.Running(t, path); n != 0 {
		t.Errorf("%d pack processes left", n)
	}
	// Nothing of the private copies is left behind.
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "journal-lint-pack-*")); len(left) > len(copiesBefore) {
		t.Errorf("private copies left: %v", left)
	}
}

// TestEarlyPanic: a pack that writes to stderr and panics before the
// handshake is reported as exiting with its status and its panic, not as
// writing something other than the handshake.
func TestEarlyPanic(t *testing.T) {
	t.Parallel()
	d := failure(t, "earlypanic", 0)
	for _, want := range []string{"the pack exited before the handshake (process exit status 2)", `stderr: "panic: no rules file"`} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("message lacks %q: %s", want, d.Message)
		}
	}
	if !strings.Contains(d.Help, "loading the house rules") || !strings.Contains(d.Help, "goroutine 1") {
		t.Errorf("help lacks the stderr tail:\n%s", d.Help)
	}
	if strings.Contains(d.Message, "something other than") {
		t.Errorf("reported as a bad handshake: %s", d.Message)
	}
}

// TestGrandchildren: a pack that hangs after starting a grandchild, which
// keeps the pack's stdout and stderr open (holdpipes), has neither
// (orphan) or leaves the pack's process group with setsid (setsid), is
// given up after its timeout without waiting for the grandchild, and the
// grandchild dies with the pack's process group, or for setsid with its
// cgroup: where the machine offers none, that is the documented limit
// and the case is skipped.
func TestGrandchildren(t *testing.T) {
	t.Parallel() // each case waits out its timeout
	for _, mode := range []string{"holdpipes", "orphan", "setsid"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			if mode == "setsid" && !plugin.CgroupOffered() {
				t.Skip("no cgroup v2 of its own for a pack here: a process that calls setsid outlives the pack (docs/plugins.md)")
			}
			// The timeout covers the copy of the (large, race-built) test
			// binary too, which a loaded machine makes slow; the
			// grandchild sleeps an hour, so a give-up within a minute
			// did not wait for it.
			start := time.Now()
			d := failure(t, mode, 2*time.Second)
			if !strings.Contains(d.Message, "check timed out after 2s") || !strings.Contains(d.Help, "started grandchild") {
				t.Errorf("%s\n%s", d.Message, d.Help)
			}
			if el := time.Since(start); el > time.Minute {
				t.Errorf("the pack took %v to be given up with a 2s timeout", el)
			}
		})
	}
}

// TestCancelledStartEndsAtOnce: a start that is cancelled (the user's
// Ctrl-C) while a pack has not completed its handshake kills the pack's
// process and returns, instead of waiting out the pack's start timeout.
func TestCancelledStartEndsAtOnce(t *testing.T) {
	t.Parallel()
	s := spec(t, "sleeper") // never completes the handshake
	s.Timeout = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	ps := plugin.Launch(ctx, configOf(s), "")
	defer ps.Close()
	for len(packtest.PIDs(s.Path)) == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	waited := make(chan error, 1)
	go func() { waited <- ps.Wait() }()
	select {
	case err := <-waited:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Wait after a cancelled start: %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute): // far below the start timeout of an hour
		t.Fatal("a cancelled start waited for the pack's handshake")
	}
	if n := packtest.Running(t, s.Path); n != 0 {
		t.Errorf("%d pack processes left after a cancelled start", n)
	}
}

// TestCopyUnderTimeout: the copy of a pack's executable runs under the
// pack's timeout and under the start's context; either ending it refuses
// the pack (a VerifyError for the timeout, the context's error for a
// cancel) and leaves no private copy behind.
func TestCopyUnderTimeout(t *testing.T) {
	copiesBefore, _ := filepath.Glob(filepath.Join(os.TempDir(), "journal-lint-pack-*"))
	s := spec(t, "selfhash")
	s.Timeout = time.Nanosecond
	_, err := plugin.Start(context.Background(), configOf(s), "")
	var ve *plugin.VerifyError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "copying it took longer than the pack's timeout of 1ns") {
		t.Errorf("start under a 1ns timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.Timeout = 10 * time.Second
	if _, err := plugin.Start(ctx, configOf(s), ""); !errors.Is(err, context.Canceled) {
		t.Errorf("start with a cancelled context: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "journal-lint-pack-*")); len(left) > len(copiesBefore) {
		t.Errorf("private copies left: %v", left)
	}
}
