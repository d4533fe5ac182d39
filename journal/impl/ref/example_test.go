package ref_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/r35157/journal-lint/journal/impl/ref"
	"github.com/r35157/journal-lint/journal/journalerr"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Example starts a manager on the repository's example tree, asks the
// read-only service for an artifact's history, and reads one release as an
// earlier revision knew it.
func Example() {
	ctx := context.Background()
	m, err := ref.NewServiceManager("../../../data/nenjim/journals", ref.WithExamples())
	if err != nil {
		panic(err)
	}
	if err := m.Start(ctx); err != nil {
		var invalid *journalerr.InvalidError
		if errors.As(err, &invalid) {
			for _, d := range invalid.Diagnostics {
				fmt.Println(d)
			}
		}
		return
	}
	defer m.Stop(ctx)

	svc, _ := m.Service()
	quill, _ := vt.ParseCoordinate("net.example.quill")
	for _, r := range svc.Revisions(quill) {
		fmt.Println(r.JournalVersion(), len(r.Releases()), "releases")
	}

	asOf, _ := vt.ParseJournalVersion("20260215T000000Z")
	rev, _ := svc.AsOf(quill, asOf)
	v120, _ := vt.ParseVersion("1.2.0")
	rel, ok := svc.Release(quill, rev.JournalVersion(), v120)
	fmt.Println(ok, rel.Version(), rel.EffectivePolicy().Verdict())

	head, _ := svc.Latest(quill)
	rel, _ = head.Release(v120)
	fmt.Println(rel.Version(), rel.EffectivePolicy().Verdict())
	// Output:
	// 20260112T090000Z 2 releases
	// 20260203T141500Z 3 releases
	// 20260227T081000Z 4 releases
	// true 1.2.0 allow
	// 1.2.0 deny
}
