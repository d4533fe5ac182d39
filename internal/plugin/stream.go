package plugin

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Stream runs the packs of a [Set] over the documents of a load while the
// load visits them (load.Options.Visit), so that a check reads and parses
// each file once: the documents an artifact's visit holds go into the
// current batch, a full batch goes to every pack at once, and it is let
// go when every pack has answered. Sending waits while every worker of a
// pack is busy, so memory holds the batches in flight, not the tree. The
// packs receive the same documents, in other batches, as from the
// [NewInput] of the finished load, and [Stream.Finish] returns the same
// diagnostics as [Set.Check] over it.
type Stream struct {
	set    *Set
	in     *Input
	ctx    context.Context
	cancel context.CancelFunc
	chain  bool // a pack reads the chain context
	feeds  []chan *batch
	res    []packResult
	done   chan struct{} // closed when every pack's run returned

	// lr is the finished load, set by Finish before the documents it
	// reads again are sent.
	lr *load.Result

	mu     sync.Mutex
	cur    *batch
	chains map[string][]byte // encoded accepted revisions by coordinate, when chain is set
	later  []laterDoc
	ended  bool // the feeds are closed
}

// laterDoc is a document whose batch waits for the end of the load: its
// document was not read by this load (an artifact taken over from an
// earlier one), or its chain is another artifact's, which may not be
// visited yet.
type laterDoc struct {
	path string
	size int
	doc  *syntax.Document // nil: read again
	cc   *protocol.Chain
}

// Stream starts the packs' workers for documents that [Stream.Visit] will
// give. The caller must call [Stream.Finish] or [Stream.Close].
func (s *Set) Stream(ctx context.Context) *Stream {
	st := newStream(ctx, s)
	var wg sync.WaitGroup
	for i, p := range s.Packs {
		if p.needs&protocol.NeedChain != 0 {
			st.chain = true
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.res[i] = p.run(st.ctx, st.in, st.feeds[i])
		}()
	}
	go func() {
		wg.Wait()
		close(st.done)
	}()
	return st
}

// newStream returns a Stream with a feed for each pack of s and no
// workers yet.
func newStream(ctx context.Context, s *Set) *Stream {
	ctx, cancel := context.WithCancel(ctx)
	st := &Stream{set: s, ctx: ctx, cancel: cancel, res: make([]packResult, len(s.Packs)), done: make(chan struct{}), chains: map[string][]byte{}}
	st.in = &Input{reread: func(path string) *syntax.Document { return st.lr.Doc(path) }}
	for range s.Packs {
		st.feeds = append(st.feeds, make(chan *batch, 1))
	}
	return st
}

// Recyclable reports whether the load may hand each document back to the
// parser (syntax.Recycle, load.Options.Recycle) once it is visited: every
// pack parses the texts itself ([protocol.ParseText]), so what the stream
// reads of a document later (its path, text, digest, line index and
// validity) is what Recycle leaves.
func (st *Stream) Recyclable() bool {
	for _, p := range st.set.Packs {
		if p.needs&protocol.ParseText == 0 {
			return false
		}
	}
	return true
}

// Visit adds the documents of one visited artifact. It is safe for
// concurrent use, as load.Options.Visit requires, and must only be called
// before Finish.
func (st *Stream) Visit(a *load.Artifact) {
	if len(st.feeds) == 0 {
		return
	}
	var entries []byte
	own := ""
	if c, err := vt.ParseCoordinate(a.Dir); err == nil && c.String() == a.Dir {
		own = a.Dir
		if st.chain {
			entries = chainEntries(a.Chain)
			st.mu.Lock()
			st.chains[own] = entries
			st.mu.Unlock()
		}
	}
	for _, f := range a.Files {
		if !f.Summary.Read {
			continue
		}
		cc := &protocol.Chain{Accepted: f.Outcome != chain.Rejected}
		wait := f.Doc == nil
		if f.Summary.CoordinateOK {
			cc.Coordinate = f.Summary.Coordinate.String()
			if cc.Coordinate == own {
				cc.Revisions = entries
			} else if st.chain {
				wait = true
			}
		}
		if wait {
			st.mu.Lock()
			st.later = append(st.later, laterDoc{f.Path, f.Summary.Size, f.Doc, cc})
			st.mu.Unlock()
			continue
		}
		st.add(f.Path, f.Summary.Size, f.Doc, cc)
	}
}

// add puts one document into the current batch, sending the batch first
// when it is full.
func (st *Stream) add(path string, size int, doc *syntax.Document, cc *protocol.Chain) {
	st.mu.Lock()
	var full *batch
	if st.cur != nil && st.cur.full(size) {
		full, st.cur = st.cur, nil
	}
	if st.cur == nil {
		st.cur = &batch{}
	}
	st.cur.add(path, size, doc, cc)
	st.mu.Unlock()
	st.send(full)
}

// send hands b to every pack, waiting while they are busy; nil is nothing.
func (st *Stream) send(b *batch) {
	if b == nil {
		return
	}
	b.pending.Store(int32(len(st.feeds)))
	for _, feed := range st.feeds {
		select {
		case feed <- b:
		case <-st.ctx.Done():
			return
		}
	}
}

// Finish sends what is left once the load lr is done (the last batch and
// the documents that waited for the end of the load), waits for every
// pack, and returns what [Set.Check] returns: every pack's diagnostics and
// one plugin/failed diagnostic per pack that failed, or the error of a
// cancelled ctx (or of the one Stream was started with).
func (st *Stream) Finish(ctx context.Context, lr *load.Result) (diag.List, error) {
	defer context.AfterFunc(ctx, st.cancel)()
	st.lr = lr
	st.mu.Lock()
	last, later := st.cur, st.later
	st.cur, st.later = nil, nil
	st.mu.Unlock()
	st.send(last)
	for _, d := range later {
		if st.chain && d.cc.Coordinate != "" {
			st.mu.Lock()
			d.cc.Revisions = st.chains[d.cc.Coordinate]
			st.mu.Unlock()
		}
		st.add(d.path, d.size, d.doc, d.cc)
	}
	st.mu.Lock()
	last = st.cur
	st.cur = nil
	st.mu.Unlock()
	st.send(last)
	st.end()
	<-st.done
	if err := st.ctx.Err(); err != nil {
		return nil, err
	}
	for i := range st.res {
		st.res[i] = st.resolve(st.set.Packs[i], st.res[i])
	}
	return st.set.merge(st.res), nil
}

// resolve gives the related locations that waited for the end of the load
// their ranges, and sorts the diagnostics.
func (st *Stream) resolve(p *Pack, r packResult) packResult {
	if r.err != nil || len(r.later) == 0 {
		return r
	}
	for _, l := range r.later {
		d := &r.ds[l.i]
		path := d.Related[l.j].Path
		f := st.lr.File(path)
		known := f != nil && f.Summary.Read
		var doc *syntax.Document
		if known {
			doc = st.lr.Doc(path)
		}
		rg, err := p.relatedRange(doc, known, path, l.r)
		if err != nil {
			p.kill()
			return packResult{err: p.malformed(fmt.Errorf("rule %s: %v", strings.TrimPrefix(d.Code, p.info.Name+"/"), err))}
		}
		d.Related[l.j].Range = rg
	}
	r.later = nil
	r.ds.Sort()
	return r
}

// end closes the feeds, once.
func (st *Stream) end() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.ended {
		st.ended = true
		for _, feed := range st.feeds {
			close(feed)
		}
	}
}

// Close stops the stream without results, when the load that feeds it
// failed; it waits for the packs' workers. It is harmless after Finish.
func (st *Stream) Close() {
	st.cancel()
	st.end()
	<-st.done
}
