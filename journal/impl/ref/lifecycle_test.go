package ref

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/journal"
	"github.com/r35157/journal-lint/journal/journalerr"
)

// holdLoads makes every later load of m with a base (a Refresh) or, when
// starts is set, without one (a Start) signal on entered and then wait in
// wait(ctx) before it reads the tree. It returns the channel that tells the
// test a load is being held.
func holdLoads(m journal.ServiceManager, starts bool, wait func(context.Context) error) <-chan struct{} {
	entered := make(chan struct{})
	mgr := m.(*manager)
	mgr.load = func(ctx context.Context, root string, opts load.Options) (*load.Result, error) {
		if opts.Base != nil || starts {
			entered <- struct{}{}
			if err := wait(ctx); err != nil {
				return nil, err
			}
		}
		return load.Load(ctx, root, opts)
	}
	return entered
}

func headDigest(t *testing.T, svc journal.Service) string {
	t.Helper()
	h, ok := svc.Latest(coord(widget))
	if !ok {
		t.Fatal("no head")
	}
	return h.Digest().String()
}

// Service and the queries never wait for a running Refresh (issue "hostile
// input" §8): while a Refresh is held inside its load, Service returns the
// service and the queries answer from the snapshot before the refresh; the
// new head appears once the refresh is let go. A Service that waited would
// hang here, since the refresh is held until the test goes on.
func TestServiceDoesNotWaitForRefresh(t *testing.T) {
	t.Parallel()
	g, s1, _ := chainTexts()
	root := chainTree(t, 1)
	m, svc := started(t, root)
	release := make(chan struct{})
	entered := holdLoads(m, false, func(context.Context) error { <-release; return nil })
	write(t, root, widget+"/20260201T080000Z.journal", s1)
	errc := make(chan error, 1)
	go func() { errc <- m.Refresh(context.Background()) }()
	<-entered

	during, err := m.Service()
	if err != nil {
		t.Fatalf("Service() during a refresh = %v", err)
	}
	for _, s := range []journal.Service{svc, during} {
		if got := headDigest(t, s); got != digest(g) {
			t.Errorf("during the refresh the head is %s, want the old head %s", got, digest(g))
		}
		if n := len(s.Revisions(coord(widget))); n != 1 {
			t.Errorf("during the refresh %d revisions, want 1", n)
		}
	}

	close(release)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	for _, s := range []journal.Service{svc, during} {
		if got := headDigest(t, s); got != digest(s1) {
			t.Errorf("after the refresh the head is %s, want %s", got, digest(s1))
		}
	}
}

// Stop during a Refresh cancels it: Stop returns once the refresh has
// ended, the refresh fails as unavailable and publishes nothing, and a
// handle taken before Stop keeps answering from the last snapshot, also
// after a new Start (which hands out a new handle).
func TestStopEndsRefreshAndKeepsHandles(t *testing.T) {
	t.Parallel()
	_, s1, s2 := chainTexts()
	root := chainTree(t, 2)
	m, svc := started(t, root)
	ctx := context.Background()
	entered := holdLoads(m, false, func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
	write(t, root, widget+"/20260301T080000Z.journal", s2)
	errc := make(chan error, 1)
	go func() { errc <- m.Refresh(ctx) }()
	<-entered
	if err := m.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, journalerr.ErrUnavailable) {
		t.Errorf("Refresh ended by Stop = %v, want ErrUnavailable", err)
	}
	if _, err := m.Service(); !errors.Is(err, journalerr.ErrUnavailable) {
		t.Errorf("Service() after Stop = %v, want ErrUnavailable", err)
	}
	if err := m.Refresh(ctx); !errors.Is(err, journalerr.ErrUnavailable) {
		t.Errorf("Refresh() after Stop = %v, want ErrUnavailable", err)
	}
	if got := headDigest(t, svc); got != digest(s1) {
		t.Errorf("after Stop the old handle's head is %s, want the last published %s", got, digest(s1))
	}
	if n := len(svc.Revisions(coord(widget))); n != 2 {
		t.Errorf("after Stop the old handle has %d revisions, want 2", n)
	}
	if r, ok := svc.Release(coord(widget), jv("20260201T080000Z"), version("1.1.0")); !ok || r.Version().String() != "1.1.0" {
		t.Errorf("after Stop Release = %v, %v", r, ok)
	}

	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	fresh, err := m.Service()
	if err != nil {
		t.Fatal(err)
	}
	if got := headDigest(t, fresh); got != digest(s2) {
		t.Errorf("after a new Start the head is %s, want %s", got, digest(s2))
	}
	if got := headDigest(t, svc); got != digest(s1) {
		t.Errorf("a new Start changed the old handle: head %s", got)
	}
}

// Stop during Start cancels it: the manager is not started when Stop has
// returned, and Start fails.
func TestStopEndsStart(t *testing.T) {
	t.Parallel()
	root := chainTree(t, 1)
	m, err := NewServiceManager(root)
	if err != nil {
		t.Fatal(err)
	}
	entered := holdLoads(m, true, func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
	errc := make(chan error, 1)
	go func() { errc <- m.Start(context.Background()) }()
	<-entered
	if err := m.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Start ended by Stop = %v, want context.Canceled", err)
	}
	if _, err := m.Service(); !errors.Is(err, journalerr.ErrUnavailable) {
		t.Errorf("Service() after a stopped Start = %v, want ErrUnavailable", err)
	}
}

// Lifecycle operations, refreshes, Service calls and queries all at once
// (run with -race): no data race, every handle answers with a complete
// chain.
func TestLifecycleRace(t *testing.T) {
	t.Parallel()
	root := chainTree(t, 2)
	m, _ := started(t, root)
	ctx := context.Background()
	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 3 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				svc, err := m.Service()
				if err != nil {
					continue
				}
				if n := len(svc.Revisions(coord(widget))); n != 2 {
					t.Errorf("a handle saw %d revisions, want 2", n)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := m.Refresh(ctx); err != nil && !errors.Is(err, journalerr.ErrUnavailable) {
				t.Errorf("Refresh = %v", err)
				return
			}
		}
	})
	for range 20 {
		if err := m.Stop(ctx); err != nil {
			t.Fatal(err)
		}
		if err := m.Start(ctx); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
}
