package plugin

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// Batch limits: a Check call carries at most batchDocs documents and, unless
// it holds a single document, at most batchBytes bytes of Journal text.
// A batch in flight holds its parsed documents and their encodings (about
// ten times its text), and a few are in flight per pack: at 512 documents
// a check with one pack held 40 MB more live heap than without, which
// cost page faults and garbage collection throughout the load; a call
// costs the pack and the host well under a millisecond.
const (
	batchDocs  = 128
	batchBytes = 1 << 20
)

// Stream runs the packs over the documents of a load while the load visits
// them (load.Options.Visit), so that a check reads and parses each file
// once: each document an artifact's visit holds is encoded there, once
// for each set of parts the packs need, into the current batch, and the
// load may then hand it back to the parser (load.Options.Recycle); a full
// batch goes to every pack at once, and it is let go when every pack has
// answered. Sending waits while every worker of a pack is busy, so memory
// holds the batches in flight, not the tree. It is the one way the host
// runs packs.
type Stream struct {
	packs  *Packs
	ctx    context.Context
	cancel context.CancelFunc
	chain  bool         // a pack reads the chain context
	needs  []wire.Needs // the distinct sets of parts the packs need
	of     []int        // the index in needs of each pack's
	feeds  []chan *batch
	res    []packResult
	done   chan struct{} // closed when every pack's run returned

	// lr is the finished load, set by Finish before the documents it
	// reads again are sent.
	lr *load.Result

	mu     sync.Mutex
	cur    *batch
	chains map[string]wire.Revisions // accepted revisions by coordinate, when chain is set
	// known are the files of the artifacts taken as known (Known), by
	// coordinate, whose revisions go to chains when a document names it.
	known map[string][]*load.File
	later []laterDoc
	ended bool     // the feeds are closed
	free  [][]byte // encoding buffers of batches every pack has sent, for reuse
}

// laterDoc is a document whose batch waits for the end of the load, which
// reads it again: its document was not read by this load (an artifact
// taken over from an earlier one), or its chain is another artifact's,
// which was not visited yet.
type laterDoc struct {
	path string
	size int
	cc   *wire.ChainContext
}

// batch is one Check call's documents.
type batch struct {
	paths []string
	size  int // bytes of text
	// docs are the batch's documents, for the findings on them: only
	// what syntax.Recycle leaves of them is read (path, text, line
	// index); nil once every pack has the batch.
	docs []*syntax.Document
	// enc holds the documents as CheckRequest fields, for each set of
	// parts of Stream.needs; nil once every pack has the batch.
	enc [][]byte

	mu      sync.Mutex
	at      map[string]int // index of each path, made when a pack's answer is decoded
	pending atomic.Int32   // packs still to send it
}

// full reports whether b can take no document of n bytes: it holds
// batchDocs documents, or batchBytes bytes of text with another document.
func (b *batch) full(n int) bool {
	return len(b.paths) >= batchDocs || (len(b.paths) > 0 && b.size+n > batchBytes)
}

// encoded is one document encoded for each set of parts of Stream.needs.
type encoded struct {
	path string
	size int
	doc  *syntax.Document
	enc  [][]byte
}

// Stream starts the packs' workers for documents that [Stream.Visit] will
// give; the caller must call [Stream.Finish] or [Stream.Close]. It waits
// for the packs to start, and returns [Packs.Wait]'s error when they could
// not be. It returns nil, nil on nil.
func (ps *Packs) Stream(ctx context.Context) (*Stream, error) {
	if err := ps.Wait(); err != nil || ps == nil {
		return nil, err
	}
	st := newStream(ctx, ps)
	var wg sync.WaitGroup
	for i, p := range ps.packs {
		wg.Go(func() { st.res[i] = p.run(st.ctx, st, st.of[i], st.feeds[i]) })
	}
	go func() {
		wg.Wait()
		close(st.done)
	}()
	return st, nil
}

// newStream returns a Stream with a feed for each pack of ps and no
// workers yet.
func newStream(ctx context.Context, ps *Packs) *Stream {
	ctx, cancel := context.WithCancel(ctx)
	st := &Stream{packs: ps, ctx: ctx, cancel: cancel, res: make([]packResult, len(ps.packs)), done: make(chan struct{}),
		chains: map[string]wire.Revisions{}, known: map[string][]*load.File{}}
	for _, p := range ps.packs {
		if p.needs&wire.NeedChain != 0 {
			st.chain = true
		}
		i := slices.Index(st.needs, p.needs)
		if i < 0 {
			i = len(st.needs)
			st.needs = append(st.needs, p.needs)
		}
		st.of = append(st.of, i)
		st.feeds = append(st.feeds, make(chan *batch, 1))
	}
	return st
}

// Recyclable reports whether the load may hand each document back to the
// parser (syntax.Recycle, load.Options.Recycle) once it is visited: it
// always may, since the stream encodes each document during its visit
// and later reads of it only what Recycle leaves (its path, text, digest,
// line index and validity).
func (st *Stream) Recyclable() bool { return true }

// Visit adds the documents of one visited artifact. It is safe for
// concurrent use, as load.Options.Visit requires, and must only be called
// before Finish.
func (st *Stream) Visit(a *load.Artifact) {
	if len(st.feeds) == 0 {
		return
	}
	var revs wire.Revisions
	own := ""
	if c, err := vt.ParseCoordinate(a.Dir); err == nil && c.String() == a.Dir {
		own = a.Dir
		if st.chain {
			revs = protocol.Revisions(a.Chain)
			st.mu.Lock()
			st.chains[own] = revs
			st.mu.Unlock()
		}
	}
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	sc.buf, sc.ready = sc.buf[:0], sc.ready[:0]
	sc.enc.Reset() // the releases of one artifact
	for _, f := range a.Files {
		if !f.Summary.Read {
			continue
		}
		cc := protocol.ChainContext(f)
		known := true
		if cc.Coordinate == own {
			cc.Revisions = revs
		} else if cc.Coordinate != "" && st.chain {
			st.mu.Lock()
			cc.Revisions, known = st.chainLocked(cc.Coordinate)
			st.mu.Unlock()
		}
		if f.Doc == nil || !known {
			// Read again at the end of the load: the load may recycle
			// f.Doc once visited.
			st.mu.Lock()
			st.later = append(st.later, laterDoc{f.Path, f.Summary.Size, cc})
			st.mu.Unlock()
			continue
		}
		var e encoded
		e, sc.buf = st.encode(&sc.c, &sc.enc, sc.buf, f.Path, f.Summary.Size, f.Doc, cc)
		sc.ready = append(sc.ready, e)
	}
	st.add(sc.ready...)
	clear(sc.ready)
}

// Known takes the visited artifact a, whose findings the caller already
// has (a check takes them from its cache's record of a, load.Artifact.Record),
// without sending its documents: only its files are kept, whose accepted
// revisions make the chain context of another artifact's document that
// names a's coordinate, if one does (most artifacts of a warm check are
// named by none that is sent). It is safe for concurrent use and must only
// be called before Finish.
func (st *Stream) Known(a *load.Artifact) {
	if len(st.feeds) == 0 || !st.chain {
		return
	}
	if c, err := vt.ParseCoordinate(a.Dir); err == nil && c.String() == a.Dir {
		st.mu.Lock()
		st.known[a.Dir] = a.Files
		st.mu.Unlock()
	}
}

// chainLocked returns the accepted revisions of the artifact at
// coordinate, and whether it was visited (or taken as known) yet; st.mu is
// held.
func (st *Stream) chainLocked(coordinate string) (wire.Revisions, bool) {
	if revs, ok := st.chains[coordinate]; ok {
		return revs, true
	}
	files, ok := st.known[coordinate]
	if !ok {
		return wire.Revisions{}, false
	}
	revs := protocol.FileRevisions(files)
	st.chains[coordinate] = revs
	delete(st.known, coordinate)
	return revs, true
}

// scratch is what a visit encodes its documents with, kept from visit to
// visit: the converter's arrays and the buffer of the encodings, which
// add copies into the batches.
type scratch struct {
	c     protocol.Converter
	enc   wire.Encoder
	buf   []byte
	ready []encoded
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// encode returns doc, with chain context cc, encoded with enc (nil for
// none) for each set of parts of st.needs, appended to buf (which it
// returns, extended). It reads of
// doc what a pack needs, so it must run before the load recycles doc.
func (st *Stream) encode(c *protocol.Converter, enc *wire.Encoder, buf []byte, path string, size int, doc *syntax.Document, cc *wire.ChainContext) (encoded, []byte) {
	e := encoded{path: path, size: size, doc: doc, enc: make([][]byte, len(st.needs))}
	if doc == nil { // the file changed since the load: nothing to send
		return e, buf
	}
	for i, needs := range st.needs {
		start := len(buf)
		buf = enc.AppendDocument(buf, c.Document(doc, cc, needs), needs)
		e.enc[i] = buf[start:len(buf):len(buf)]
	}
	return e, buf
}

// add puts documents into the current batch, sending the batch first
// whenever it is full.
func (st *Stream) add(docs ...encoded) {
	for _, e := range docs {
		st.mu.Lock()
		var full *batch
		if st.cur != nil && st.cur.full(e.size) {
			full, st.cur = st.cur, nil
		}
		if st.cur == nil {
			st.cur = &batch{enc: make([][]byte, len(st.needs))}
			for i := range st.cur.enc {
				st.cur.enc[i] = st.buffer()
			}
		}
		b := st.cur
		b.paths = append(b.paths, e.path)
		b.docs = append(b.docs, e.doc)
		b.size += e.size
		for i, enc := range e.enc {
			b.enc[i] = append(b.enc[i], enc...)
		}
		st.mu.Unlock()
		st.send(full)
	}
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
// pack, and returns every pack's diagnostics, coded "<pack>/<rule>", with
// one plugin/failed diagnostic per pack that failed (and the packs that
// did not start), sorted; or the error of a cancelled ctx (or of the one
// the Stream was started with).
func (st *Stream) Finish(ctx context.Context, lr *load.Result) (diag.List, error) {
	defer context.AfterFunc(ctx, st.cancel)()
	st.lr = lr
	st.mu.Lock()
	last, later := st.cur, st.later
	st.cur, st.later = nil, nil
	st.mu.Unlock()
	st.send(last)
	var c protocol.Converter
	for _, d := range later {
		if st.chain && d.cc.Coordinate != "" {
			st.mu.Lock()
			d.cc.Revisions, _ = st.chainLocked(d.cc.Coordinate)
			st.mu.Unlock()
		}
		e, _ := st.encode(&c, nil, nil, d.path, d.size, lr.Doc(d.path), d.cc)
		st.add(e)
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
	for i, p := range st.packs.packs {
		st.res[i] = st.resolve(p, st.res[i])
	}
	return st.merge(), nil
}

// resolve gives the related locations that waited for the end of the load
// their ranges, and sorts the diagnostics.
func (st *Stream) resolve(p *pack, r packResult) packResult {
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
		rg, err := relatedRange(doc, known, path, l.r)
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

// merge returns the diagnostics of every pack's result, with one
// plugin/failed diagnostic (and a closed pack) for each that failed, after
// those of the packs that did not start, sorted.
func (st *Stream) merge() diag.List {
	ps := st.packs
	if len(st.res) == 1 && len(ps.failures) == 0 && st.res[0].err == nil {
		return st.res[0].ds // sorted already, and nothing to merge
	}
	n := len(ps.failures) + len(st.res)
	for _, r := range st.res {
		n += len(r.ds)
	}
	out := append(make(diag.List, 0, n), ps.failures...)
	for i, r := range st.res {
		if r.err != nil {
			p := ps.packs[i]
			var pe *Error
			if !errors.As(r.err, &pe) {
				pe = &Error{Pack: p.info.Name, Err: r.err, Stderr: p.stderr()}
			}
			out = append(out, Failure(pe))
			p.close()
			continue
		}
		out = append(out, r.ds...)
	}
	out.Sort()
	return out
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

// index returns the position of path in b; b.mu must be held.
func (b *batch) index(path string) (int, bool) {
	if b.at == nil {
		b.at = make(map[string]int, len(b.paths))
		for i, p := range b.paths {
			b.at[p] = i
		}
	}
	i, ok := b.at[path]
	return i, ok
}

// doc returns the document of b at path and whether path is one of b's;
// the document is nil when its file changed since the load.
func (st *Stream) doc(b *batch, path string) (*syntax.Document, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, ok := b.index(path)
	if !ok {
		return nil, false
	}
	return b.docs[i], true
}

// sent records that one pack is done with batch b; after the last one its
// documents are let go and its buffers reused for a later batch: a fresh
// buffer per batch would mean tens of megabytes of new pages for a large
// tree.
func (st *Stream) sent(b *batch) {
	if b.pending.Add(-1) != 0 {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, enc := range b.enc {
		st.free = append(st.free, enc[:0])
	}
	b.enc, b.docs = nil, nil
}

// buffer returns an empty buffer, reused if one is free; st.mu must be
// held.
func (st *Stream) buffer() []byte {
	if n := len(st.free); n > 0 {
		buf := st.free[n-1]
		st.free = st.free[:n-1]
		return buf
	}
	return make([]byte, 0, 2*batchBytes)
}

// packResult is what one pack found over the batches of a run.
type packResult struct {
	ds  diag.List
	err error
	// later are the related locations of ds whose documents were not in
	// their batch, for [Stream.Finish] to resolve once the load is done.
	later []laterRelated
}

// laterRelated is related location j of diagnostic i of a packResult.
type laterRelated struct {
	i, j int
	r    *wire.Range
}

// run sends the pack every batch of feed, a few at a time, in its encoding
// need (an index of st.needs), until feed is closed, and returns its
// sorted diagnostics. After a failure it only drains feed. Every batch
// received is marked [Stream.sent].
func (p *pack) run(ctx context.Context, st *Stream, need int, feed <-chan *batch) packResult {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		out   packResult
		lists []diag.List // of the batches, in the order answered
		n     int         // their total length
		wg    sync.WaitGroup
	)
	for range min(runtime.GOMAXPROCS(0), 4) {
		wg.Go(func() {
			caller := p.client.Caller()
			for b := range feed {
				mu.Lock()
				failed := out.err != nil
				mu.Unlock()
				if failed || ctx.Err() != nil {
					st.sent(b)
					continue
				}
				ds, later, err := p.checkBatch(ctx, st, b, b.enc[need], caller)
				st.sent(b)
				mu.Lock()
				if err != nil {
					if out.err == nil {
						out.err = err
						cancel()
					}
				} else if out.err == nil {
					for _, l := range later {
						l.i += n
						out.later = append(out.later, l)
					}
					lists = append(lists, ds)
					n += len(ds)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := parent.Err(); err != nil {
		p.kill()
		return packResult{err: err}
	}
	if out.err != nil {
		return packResult{err: out.err}
	}
	// One copy into a list of the total length, not one growing list.
	out.ds = slices.Concat(lists...)
	if len(out.later) == 0 {
		// With related locations to resolve the indexes must hold; Finish
		// sorts after resolving them.
		out.ds.Sort()
	}
	return out
}

// checkBatch sends batch b, encoded as docs, with caller and decodes its
// answer.
func (p *pack) checkBatch(ctx context.Context, st *Stream, b *batch, docs []byte, caller *wire.Caller) (diag.List, []laterRelated, error) {
	cctx, cancel := context.WithTimeout(ctx, p.spec.timeout())
	defer cancel()
	found, err := caller.Check(cctx, p.config, docs)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err() // the run was cancelled, not the pack's fault
		}
		return nil, nil, p.failure(p.info.Name, p.callError(cctx, "check", err))
	}
	// Each document is in one batch only, so one limiter per batch keeps
	// the first diag.MaxPerFileCode findings of each file and code, as
	// for the built-in rules; the host holds no more than that of a pack
	// that reports millions.
	var limit diag.Limiter
	out := make(diag.List, 0, min(len(found), diag.MaxPerFileCode))
	var later []laterRelated
	for _, f := range found {
		d, lr, kept, err := p.decodeFinding(st, b, f, &limit)
		if err != nil {
			p.kill()
			return nil, nil, p.malformed(err)
		}
		if !kept {
			continue
		}
		for _, j := range lr {
			later = append(later, laterRelated{i: len(out), j: j, r: f.Related[j].Range})
		}
		out = append(out, d)
	}
	return append(out, limit.Overflow()...), later, nil
}

// malformed is the failure of a pack that returned a malformed diagnostic.
func (p *pack) malformed(err error) *Error {
	return p.failure(p.info.Name, fmt.Errorf("malformed diagnostic: %v", err))
}

// decodeFinding checks one finding of the pack on batch b and converts it.
// Ranges are taken by their byte offsets, which must lie in the document;
// lines and columns are recomputed from them. later lists the related
// locations whose documents are not in the batch: the load may not have
// read them yet, and [Stream.Finish] resolves them; their ranges stay
// unset. kept is limit's verdict ([diag.Limiter.Keep]); a finding past the
// limit is checked but its related locations are not.
func (p *pack) decodeFinding(st *Stream, b *batch, f wire.Finding, limit *diag.Limiter) (d diag.Diagnostic, later []int, kept bool, err error) {
	if err := f.Validate(p.desc); err != nil {
		return d, nil, false, err
	}
	rule, _ := p.desc.Rule(f.Rule)
	d = diag.Diagnostic{Code: p.info.Name + "/" + rule.Name, Severity: severity(rule.Severity), Message: f.Message, Path: f.Path, Help: f.Help}
	if f.Severity != wire.SeverityDefault {
		d.Severity = severity(f.Severity)
	}
	doc, ok := st.doc(b, d.Path)
	if !ok {
		return d, nil, false, fmt.Errorf("rule %s: path %q is not a document of the batch", rule.Name, clip(d.Path, 200))
	}
	if doc == nil {
		return d, nil, false, fmt.Errorf("rule %s: %s changed during the run", rule.Name, d.Path)
	}
	d.Path = doc.Path // the same, held once for all its findings
	if d.Range, err = docRange(doc, f.Range); err != nil {
		return d, nil, false, fmt.Errorf("rule %s: %v", rule.Name, err)
	}
	if !limit.Keep(d) {
		return d, nil, false, nil // only counted: no subject, no related locations
	}
	// The text is at hand now; a fingerprint would read the file again.
	d.TakeSubject(doc.Src)
	for j, r := range f.Related {
		d.Related = append(d.Related, diag.Related{Path: r.Path, Message: r.Message})
		rdoc, known := st.doc(b, r.Path)
		if !known {
			later = append(later, j)
		} else if d.Related[j].Range, err = relatedRange(rdoc, true, r.Path, r.Range); err != nil {
			return d, nil, false, fmt.Errorf("rule %s: %v", rule.Name, err)
		}
	}
	return d, later, true, nil
}

// relatedRange checks and converts the range of a related location at
// path, whose document is doc (nil when its file changed during the run);
// known says whether path is a document of the tree.
func relatedRange(doc *syntax.Document, known bool, path string, r *wire.Range) (diag.Range, error) {
	switch {
	case !known:
		return diag.Range{}, fmt.Errorf("related path %q is not a document of the tree", clip(path, 200))
	case doc == nil:
		return diag.Range{}, fmt.Errorf("related %s changed during the run", path)
	}
	rg, err := docRange(doc, r)
	if err != nil {
		return rg, fmt.Errorf("related: %v", err)
	}
	return rg, nil
}

// docRange checks a wire range against doc and recomputes its lines and
// columns from its offsets. A nil range means the whole file.
func docRange(doc *syntax.Document, r *wire.Range) (diag.Range, error) {
	if r == nil {
		return diag.Range{}, nil
	}
	if err := r.Within(doc.Path, len(doc.Src)); err != nil {
		return diag.Range{}, err
	}
	lines := doc.Lines
	if lines == nil {
		lines = diag.NewLineIndex(doc.Src)
	}
	return lines.Range(r.Start.Offset, r.End.Offset), nil
}
