package check

import (
	"context"
	"time"

	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/source"
)

// RecordsOptions say which records [OpenRecords] reads.
type RecordsOptions struct {
	// Root is the absolute, clean Journal root.
	Root string
	// Examples loads *.journal.example files as Journals too.
	Examples bool
	// Config is the effective configuration, which names the records (as
	// for Options.Config); nil means config.Default().
	Config *config.Config
	// Cache is the persistent cache; nil reads none.
	Cache *memo.Store
	// Added, for a load of what `diff --staged` or `diff --against`
	// compares, is the git view that names the tree (its Source) and the
	// revisions it adds; nil loads the work tree.
	Added *Added
	// Fresh reports whether the artifact directory dir, whose Journal
	// files are paths (root-relative, chronological), must be read even
	// when the cache has a record of it: the command needs its documents
	// or its chain (load.Artifact.Chain). Nil reads none.
	Fresh func(dir string, paths []string) bool
}

// Records is a read-only view of the cache's records of the checks of a
// tree, for a command that loads the tree only to know whether it is valid
// and to look at a few chains (`new`, `diff --staged`): what a load finds
// of an artifact is part of a check's record of it (memo.go), so an
// artifact that a check took into the cache is not read again. Records
// write no record to the cache: a command that reads only some of a
// check's records must not keep only those. They keep only the attribute
// sources under which the work tree's files were found to be their index
// blobs (vouchWorkTree, Loaded).
type Records struct {
	m *checkMemo
	g *gate
	// own says that g is the Records' own, to close.
	own bool
}

// OpenRecords opens the records of the checks of opts.Root with the
// configuration opts.Config. Without a cache it returns nil, which
// [Records.Options] and [Records.Close] accept. For the work tree in a git
// repository it lists what git vouches for (the work-tree check's clean
// files, vouchWorkTree); git failing is an error.
func OpenRecords(ctx context.Context, opts RecordsOptions) (*Records, error) {
	if opts.Cache == nil {
		return nil, nil
	}
	cfg := opts.Config
	if cfg == nil {
		cfg = config.Default()
	}
	g, own := (*gate)(nil), false
	if opts.Added != nil {
		g = opts.Added.g
	} else {
		var err error
		if g, err = openGate(ctx, Options{Root: opts.Root, Examples: opts.Examples}, nil, nil); err != nil {
			return nil, err
		}
		own = true
	}
	r := &run{opts: Options{Root: opts.Root, Examples: opts.Examples, Cache: opts.Cache, Now: time.Now()}, cfg: cfg, gate: g}
	// The records of a check with rule packs are under the packs' names
	// too; what the load found does not depend on them, so whether they
	// are pure does not matter here.
	packs, cacheable := packsKey(r)
	if !cacheable {
		return nil, nil
	}
	ns, err := namespace(r, packs)
	if err != nil {
		return nil, err
	}
	m := &checkMemo{r: r, loadOnly: true, fresh: opts.Fresh}
	m.table = opts.Cache.Table(ns, opts.Root)
	if _, disk := g.src.(*source.Disk); disk && g.Repo != nil {
		if err := g.vouchWorkTree(ctx, m); err != nil {
			return nil, err
		}
	}
	return &Records{m: m, g: g, own: own}, nil
}

// Options returns lo with the records as its memo (load.Options.Memo) and
// the source of the tree (Added's, or the work tree's), which knows the
// addresses of the files git vouches for.
func (rs *Records) Options(lo load.Options) load.Options {
	if rs == nil {
		return lo
	}
	lo.Memo, lo.Source = rs.m, rs.g.src
	return lo
}

// Loaded is called after a load with [Records.Options] that returned no
// error: when the records did not vouch for the work tree's files but had
// the load read them all to find whether git's word holds (a probe,
// vouchWorkTree), it keeps what the load found, so that the next command
// vouches. It is safe on nil.
func (rs *Records) Loaded() {
	if rs == nil {
		return
	}
	if sources, ok := rs.g.probed(); ok {
		rs.m.table.Keep("", vouchedKey, sources) // Records commit no record
	}
}

// Close ends what the records opened. It is safe on nil.
func (rs *Records) Close() {
	if rs != nil && rs.own {
		rs.g.close()
	}
}

// lookupLoad is Lookup for a load that needs only what the load finds: the
// load's part of the record data, which depends on neither the time nor
// the rules.
func (m *checkMemo) lookupLoad(dir string, data []byte) (*load.Record, bool) {
	r := codec.NewReader(data)
	if r.Uint() != checkRecordFormat {
		return nil, false
	}
	r.Int()
	rec, err := load.ReadRecord(r, dir)
	if err != nil {
		return nil, false
	}
	return rec, true
}
