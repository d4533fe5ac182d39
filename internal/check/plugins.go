package check

import (
	"context"
	"errors"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/plugin"
)

// errPacksNotStarted is Run's error for a configuration with rule packs
// and no Options.Packs.
var errPacksNotStarted = errors.New("the configuration has rule packs but none were started: pass the result of plugin.Launch in Options.Packs")

// packStream starts running the rule packs of the run (Options.Packs)
// over the documents the load visits; nil when the configuration has none,
// and the packs' start-up error when they could not start (rulePacks
// then reports it).
func packStream(ctx context.Context, r *run) (*plugin.Stream, error) {
	if len(r.cfg.Plugins) == 0 {
		return nil, nil
	}
	return r.opts.Packs.Stream(ctx)
}

// rulePacks returns what the rule packs of the run found over every
// parsed document, streamed to them during the load (packStream). A pack
// that fails yields one plugin/failed diagnostic.
func rulePacks(ctx context.Context, r *run) (diag.List, []diag.Note, error) {
	st, err := r.packs()
	if st == nil || err != nil {
		return nil, nil, err
	}
	ds, err := st.Finish(ctx, r.load)
	if err != nil {
		return nil, nil, err
	}
	// With the cache, the packs saw only the artifacts that were read; the
	// records hold what they found on the others.
	return r.memo.finishPacks(ds), nil, nil
}
