package ref

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestQueriesRaceRefresh runs queries while refreshes add revisions (run it
// with -race): every query sees a complete state, never half a refresh.
func TestQueriesRaceRefresh(t *testing.T) {
	t.Parallel()
	// Two artifacts grow in lockstep: each refresh adds one revision to
	// each, so a consistent snapshot always has equal chain lengths.
	a, b := "com.example.a", "com.example.b"
	const steps = 20
	texts := map[string][][]byte{}
	for _, c := range []string{a, b} {
		var prev []byte
		for i := range steps {
			v := fmt.Sprintf("202601%02dT080000Z", i+1)
			cur := text(c, v, prev, "1.0.0")
			texts[c] = append(texts[c], cur)
			prev = cur
		}
	}
	root := tree(t, map[string][]byte{
		a + "/20260101T080000Z.journal": texts[a][0],
		b + "/20260101T080000Z.journal": texts[b][0],
	})
	m, svc := started(t, root)
	ctx := context.Background()
	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				// One call sees one snapshot; two calls may straddle a
				// refresh, but never see a shrinking chain.
				na := len(svc.Revisions(coord(a)))
				nb := len(svc.Revisions(coord(b)))
				if na == 0 || nb == 0 {
					t.Error("a query saw an empty chain during a refresh")
					return
				}
				if h, ok := svc.Latest(coord(a)); !ok || len(h.Releases()) != 1 {
					t.Error("a query saw a partial revision")
					return
				}
			}
		}()
	}
	for i := 1; i < steps; i++ {
		v := fmt.Sprintf("202601%02dT080000Z", i+1)
		// Write b first, then a; whichever refresh sees them publishes both
		// or neither artifact's new head.
		write(t, root, b+"/"+v+".journal", texts[b][i])
		write(t, root, a+"/"+v+".journal", texts[a][i])
		if err := m.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if na, nb := len(svc.Revisions(coord(a))), len(svc.Revisions(coord(b))); na != i+1 || nb != i+1 {
			t.Fatalf("after refresh %d: chains of %d and %d revisions", i, na, nb)
		}
	}
	close(done)
	wg.Wait()
}
