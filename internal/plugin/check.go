package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"google.golang.org/grpc"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	"github.com/r35157/journal-lint/internal/syntax"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

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

// maxMessage is the longest diagnostic message a pack may return.
const maxMessage = 4096

// Input is the tree a run hands to the packs: every parsed document, in path
// order, split into Check batches. A batch is encoded for the wire when the
// first pack sends it (so encoding overlaps the packs' work instead of
// preceding it) and shared by every pack. When the load dropped its
// documents (load.Options.DropDocs), a batch reads and parses its own
// documents again when it is first encoded and lets them go once every
// pack is done with it, so memory holds the batches in flight, not the
// tree. A check streams its documents to the packs instead ([Stream]).
type Input struct {
	batches []*batch
	byPath  map[string]*batch // the batch of each document; nil for a Stream's
	// reread returns the document of a file the load dropped, or nil when
	// the file no longer holds the bytes the load read.
	reread func(path string) *syntax.Document

	mu   sync.Mutex
	free [][]byte // encoding buffers of batches every pack has sent, for reuse
}

// batch is one Check call's documents.
type batch struct {
	paths  []string
	chains []*protocol.Chain
	size   int // bytes of text

	mu      sync.Mutex
	docs    []*syntax.Document          // nil entries are read again (Input.reread) when first needed
	read    bool                        // docs has no nil entry left but those of changed files
	at      map[string]int              // index of each path, made when a pack's answer is decoded
	enc     [protocol.NeedsLimit][]byte // the documents as CheckRequest fields, by the packs' needs; nil until encoded, and again once every pack has it
	pending atomic.Int32                // packs still to send it
}

// full reports whether b can take no document of n bytes: it holds
// batchDocs documents, or batchBytes bytes of text with another document.
func (b *batch) full(n int) bool {
	return len(b.paths) >= batchDocs || (len(b.paths) > 0 && b.size+n > batchBytes)
}

// add appends one document to b.
func (b *batch) add(path string, size int, doc *syntax.Document, cc *protocol.Chain) {
	b.paths = append(b.paths, path)
	b.docs = append(b.docs, doc)
	b.chains = append(b.chains, cc)
	b.size += size
}

// NewInput takes the documents of lr, read or (when lr dropped them)
// to be read again, with their chain context, which lr.State gives.
func NewInput(lr *load.Result) *Input {
	in := &Input{byPath: make(map[string]*batch, len(lr.Files)), reread: lr.Doc}
	chains := map[string][]byte{} // encoded chain entries by coordinate
	for _, f := range lr.Files {
		if !f.Summary.Read {
			continue
		}
		cc := &protocol.Chain{Accepted: f.Outcome != chain.Rejected}
		if f.Summary.CoordinateOK {
			c := f.Summary.Coordinate
			cc.Coordinate = c.String()
			entries, ok := chains[cc.Coordinate]
			if !ok {
				entries = chainEntries(lr.State.Entries(c))
				chains[cc.Coordinate] = entries
			}
			cc.Revisions = entries
		}
		in.add(f.Path, f.Summary.Size, f.Doc, cc)
	}
	return in
}

// chainEntries encodes the accepted revisions of an artifact for
// ChainContext.revisions.
func chainEntries(entries []chain.Entry) []byte {
	list := make([]*pb.ChainEntry, len(entries))
	for i, e := range entries {
		list[i] = &pb.ChainEntry{Path: e.Source, JournalVersion: e.Revision.JournalVersion().String(), Digest: e.Revision.Digest().String()}
	}
	return protocol.AppendChainEntries(nil, list)
}

// add appends a document to the last batch, or to a new one when that is
// full.
func (in *Input) add(path string, size int, doc *syntax.Document, cc *protocol.Chain) {
	if n := len(in.batches); n == 0 || in.batches[n-1].full(size) {
		in.batches = append(in.batches, &batch{})
	}
	b := in.batches[len(in.batches)-1]
	b.add(path, size, doc, cc)
	in.byPath[path] = b
}

// docs returns the documents of b, reading the dropped ones again the
// first time; b.mu must be held. An entry stays nil when its file changed
// since the load.
func (in *Input) docs(b *batch) []*syntax.Document {
	if !b.read {
		for i, d := range b.docs {
			if d == nil && in.reread != nil {
				b.docs[i] = in.reread(b.paths[i])
			}
		}
		b.read = true
	}
	return b.docs
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
func (in *Input) doc(b *batch, path string) (*syntax.Document, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, ok := b.index(path)
	if !ok {
		return nil, false
	}
	return in.docs(b)[i], true
}

// related returns the document at path for a related location of a
// diagnostic on b: from b, else from the rest of the Input (read again
// if the load dropped it). later is set when the Input does not know the
// tree yet (a [Stream] while the load runs): the [Stream] resolves it when
// the load is done.
func (in *Input) related(b *batch, path string) (doc *syntax.Document, ok, later bool) {
	if doc, ok := in.doc(b, path); ok {
		return doc, true, false
	}
	if in.byPath == nil {
		return nil, false, true
	}
	o := in.byPath[path]
	if o == nil {
		return nil, false, false
	}
	o.mu.Lock()
	i, _ := o.index(path)
	doc = o.docs[i]
	o.mu.Unlock()
	if doc == nil && in.reread != nil {
		doc = in.reread(path)
	}
	return doc, true, false
}

// documents returns the wire form of batch b's documents with the parts
// in needs, the encoding of CheckRequest's documents field, encoding it if
// needed. Packs with the same needs share it.
func (in *Input) documents(b *batch, needs protocol.Needs) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.enc[needs] == nil {
		size := b.size
		if needs&protocol.ParseText == 0 {
			size *= 3 // the text, then directives and model about as long again
		}
		for i := range b.paths {
			size += len(b.chains[i].Revisions) + 256
		}
		enc := in.buffer(size)
		for i, doc := range in.docs(b) {
			if doc != nil { // nil: the file changed since the load
				enc = protocol.AppendCheckDocumentFor(enc, doc, b.chains[i], needs)
			}
		}
		b.enc[needs] = enc
	}
	return b.enc[needs]
}

// request returns the CheckRequest for batch b. Its documents travel as
// the message's unknown fields: they are already encoded, and proto.Marshal
// copies unknown fields as they are, so the pack reads them as documents.
func (in *Input) request(config []byte, needs protocol.Needs, b *batch) *pb.CheckRequest {
	req := &pb.CheckRequest{ConfigJson: config, ParseText: needs&protocol.ParseText != 0}
	req.ProtoReflect().SetUnknown(in.documents(b, needs))
	return req
}

// sent records that one pack is done with batch b; after the last one its
// wire form is dropped (it is encoded again if needed) and its buffer
// reused for a later batch: a fresh buffer per batch would mean tens of
// megabytes of new pages for a large tree. Documents read again are let
// go too.
func (in *Input) sent(b *batch) {
	if b.pending.Add(-1) != 0 {
		return
	}
	b.mu.Lock()
	encs := b.enc
	b.enc = [protocol.NeedsLimit][]byte{}
	if in.byPath != nil && in.reread != nil {
		clear(b.docs)
		b.read = false
	}
	b.mu.Unlock()
	for _, enc := range encs {
		if enc != nil {
			in.mu.Lock()
			in.free = append(in.free, enc[:0])
			in.mu.Unlock()
		}
	}
}

// buffer returns an empty buffer for about size bytes, reused if one is
// free.
func (in *Input) buffer(size int) []byte {
	in.mu.Lock()
	defer in.mu.Unlock()
	if n := len(in.free); n > 0 {
		buf := in.free[n-1]
		in.free = in.free[:n-1]
		return slices.Grow(buf, size)
	}
	return make([]byte, 0, size)
}

// Check runs the pack over every document of in and returns its
// diagnostics, coded "<pack>/<rule>" with the rule's default severity where
// the pack gave none, sorted. Batches go out a few at a time; each call is
// bounded by the pack's timeout. The error is a [*Error] when the pack
// failed (a timed-out or crashed process is killed), or ctx's error.
func (p *Pack) Check(ctx context.Context, in *Input) (diag.List, error) {
	for _, b := range in.batches {
		b.pending.Add(1)
	}
	res := p.run(ctx, in, in.feed(ctx))
	return res.ds, res.err
}

// feed returns a channel that yields the batches of in and is closed after
// the last one, or when ctx is done.
func (in *Input) feed(ctx context.Context) <-chan *batch {
	feed := make(chan *batch)
	go func() {
		defer close(feed)
		for _, b := range in.batches {
			select {
			case feed <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	return feed
}

// packResult is what one pack found over the batches of a run.
type packResult struct {
	ds  diag.List
	err error
	// later are the related locations of ds whose documents were not in
	// their batch, for a [Stream] to resolve once the load is done.
	later []laterRelated
}

// laterRelated is related location j of diagnostic i of a packResult.
type laterRelated struct {
	i, j int
	r    *pb.Range
}

// run sends the pack every batch of feed, a few at a time, until feed is
// closed, and returns its sorted diagnostics. After a failure it only
// drains feed. Every batch received is marked [Input.sent].
func (p *Pack) run(ctx context.Context, in *Input, feed <-chan *batch) packResult {
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			codec := &requestCodec{}
			for b := range feed {
				mu.Lock()
				failed := out.err != nil
				mu.Unlock()
				if failed || ctx.Err() != nil {
					in.sent(b)
					continue
				}
				ds, later, err := p.checkBatch(ctx, in, b, codec)
				in.sent(b)
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
		}()
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
		// With related locations to resolve the indexes must hold; the
		// caller sorts after resolving them.
		out.ds.Sort()
	}
	return out
}

// checkBatch sends one batch with codec and decodes its answer.
func (p *Pack) checkBatch(ctx context.Context, in *Input, b *batch, codec *requestCodec) (diag.List, []laterRelated, error) {
	req := in.request(p.config, p.needs, b)
	cctx, cancel := context.WithTimeout(ctx, p.spec.timeout())
	defer cancel()
	resp, err := p.rpc.Check(cctx, req, grpc.ForceCodec(codec))
	if err != nil {
		// The transport may still hold the request's bytes.
		codec.buf = nil
		if ctx.Err() != nil {
			return nil, nil, ctx.Err() // the run was cancelled, not the pack's fault
		}
		return nil, nil, p.failure(p.info.Name, p.callError(cctx, "check", err))
	}
	out := make(diag.List, 0, len(resp.GetDiagnostics()))
	var later []laterRelated
	for _, m := range resp.GetDiagnostics() {
		d, lr, err := p.decodeDiagnostic(in, b, m)
		if err != nil {
			p.kill()
			return nil, nil, p.malformed(err)
		}
		for _, j := range lr {
			later = append(later, laterRelated{i: len(out), j: j, r: m.GetRelated()[j].GetRange()})
		}
		out = append(out, d)
	}
	return out, later, nil
}

// malformed is the failure of a pack that returned a malformed diagnostic.
func (p *Pack) malformed(err error) *Error {
	return p.failure(p.info.Name, fmt.Errorf("malformed diagnostic: %v", err))
}

// decodeDiagnostic checks one diagnostic of a pack on batch b and
// converts it. Ranges are taken by their byte offsets, which must lie in
// the document; lines and columns are recomputed from them. later lists
// the related locations whose documents in.related cannot give yet; their
// ranges stay unset.
func (p *Pack) decodeDiagnostic(in *Input, b *batch, m *pb.Diagnostic) (d diag.Diagnostic, later []int, err error) {
	rule, ok := p.rules[m.GetRule()]
	if !ok {
		return d, nil, fmt.Errorf("unknown rule %q", clip(m.GetRule(), 80))
	}
	d = diag.Diagnostic{Code: rule.Code, Severity: rule.DefaultSeverity, Message: m.GetMessage(), Path: m.GetPath(), Help: m.GetHelp()}
	if m.GetSeverity() != pb.Severity_SEVERITY_UNSPECIFIED {
		if d.Severity, ok = severity(m.GetSeverity()); !ok {
			return d, nil, fmt.Errorf("rule %s: invalid severity %d", rule.Name, m.GetSeverity())
		}
	}
	if err := checkText("message", d.Message, true); err != nil {
		return d, nil, fmt.Errorf("rule %s: %v", rule.Name, err)
	}
	if err := checkText("help", d.Help, false); err != nil {
		return d, nil, fmt.Errorf("rule %s: %v", rule.Name, err)
	}
	doc, ok := in.doc(b, d.Path)
	if !ok {
		return d, nil, fmt.Errorf("rule %s: path %q is not a document of the batch", rule.Name, clip(d.Path, 200))
	}
	if doc == nil {
		return d, nil, fmt.Errorf("rule %s: %s changed during the run", rule.Name, d.Path)
	}
	d.Path = doc.Path // the same, held once for all its findings
	if d.Range, err = decodeRange(doc, m.GetRange()); err != nil {
		return d, nil, fmt.Errorf("rule %s: %v", rule.Name, err)
	}
	// The text is at hand now; a fingerprint would read the file again.
	d.TakeSubject(doc.Src)
	for j, r := range m.GetRelated() {
		d.Related = append(d.Related, diag.Related{Path: r.GetPath(), Message: r.GetMessage()})
		if rdoc, known, wait := in.related(b, r.GetPath()); wait {
			later = append(later, j)
		} else if d.Related[j].Range, err = p.relatedRange(rdoc, known, r.GetPath(), r.GetRange()); err != nil {
			return d, nil, fmt.Errorf("rule %s: %v", rule.Name, err)
		}
		if err := checkText("related message", r.GetMessage(), false); err != nil {
			return d, nil, fmt.Errorf("rule %s: %v", rule.Name, err)
		}
	}
	return d, later, nil
}

// relatedRange checks and converts the range of a related location at
// path, whose document is doc (nil when its file changed during the run);
// known says whether path is a document of the tree.
func (p *Pack) relatedRange(doc *syntax.Document, known bool, path string, r *pb.Range) (diag.Range, error) {
	switch {
	case !known:
		return diag.Range{}, fmt.Errorf("related path %q is not a document of the tree", clip(path, 200))
	case doc == nil:
		return diag.Range{}, fmt.Errorf("related %s changed during the run", path)
	}
	rg, err := decodeRange(doc, r)
	if err != nil {
		return rg, fmt.Errorf("related: %v", err)
	}
	return rg, nil
}

func checkText(what, s string, required bool) error {
	switch {
	case required && s == "":
		return fmt.Errorf("empty %s", what)
	case !utf8.ValidString(s):
		return fmt.Errorf("%s is not valid UTF-8", what)
	case len(s) > maxMessage:
		return fmt.Errorf("%s longer than %d bytes", what, maxMessage)
	}
	return nil
}

// decodeRange checks a wire range against doc and recomputes its lines and
// columns from its offsets. A nil range means the whole file.
func decodeRange(doc *syntax.Document, r *pb.Range) (diag.Range, error) {
	if r == nil {
		return diag.Range{}, nil
	}
	s, e := r.GetStart().GetOffset(), r.GetEnd().GetOffset()
	if s < 0 || e < s || e > int64(len(doc.Src)) {
		return diag.Range{}, fmt.Errorf("range [%d, %d) is outside the %d bytes of %s", s, e, len(doc.Src), doc.Path)
	}
	lines := doc.Lines
	if lines == nil {
		lines = diag.NewLineIndex(doc.Src)
	}
	return lines.Range(int(s), int(e)), nil
}

// Set is the packs of one run.
type Set struct {
	// Packs are the packs that started and described themselves, in
	// configuration order.
	Packs []*Pack
	// Failures are the plugin/failed diagnostics of packs that did not.
	Failures diag.List
}

// StartAll starts every pack of specs in parallel. A pack that fails
// becomes a diagnostic in Failures; the error is the first [*VerifyError]
// or configuration problem (every started pack is then closed already), or
// ctx's error.
func StartAll(ctx context.Context, specs []Spec, opts Options) (*Set, error) {
	packs := make([]*Pack, len(specs))
	errs := make([]error, len(specs))
	var wg sync.WaitGroup
	for i, s := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			packs[i], errs[i] = Start(ctx, s, opts)
		}()
	}
	wg.Wait()
	set := &Set{}
	var hard error
	for i := range specs {
		if packs[i] != nil {
			set.Packs = append(set.Packs, packs[i])
			continue
		}
		if pe, ok := errs[i].(*Error); ok {
			set.Failures = append(set.Failures, Failure(pe))
		} else if hard == nil {
			hard = errs[i]
		}
	}
	if hard == nil && ctx.Err() != nil {
		hard = ctx.Err()
	}
	if hard == nil {
		hard = set.checkNames()
	}
	if hard != nil {
		set.Close()
		return nil, hard
	}
	return set, nil
}

// checkNames rejects two packs with the same namespace.
func (s *Set) checkNames() error {
	seen := map[string]string{}
	for _, p := range s.Packs {
		n := p.info.Name
		if other, dup := seen[n]; dup {
			return fmt.Errorf("rule packs %s and %s both use the name %q: give one a different name: in the configuration", other, p.info.Path, n)
		}
		seen[n] = p.info.Path
	}
	return nil
}

// Check runs every pack over in, in parallel, and returns their
// diagnostics and one plugin/failed diagnostic per pack that failed. The
// error is ctx's when the run was cancelled.
func (s *Set) Check(ctx context.Context, in *Input) (diag.List, error) {
	for _, b := range in.batches {
		b.pending.Store(int32(len(s.Packs)))
	}
	res := make([]packResult, len(s.Packs))
	var wg sync.WaitGroup
	for i, p := range s.Packs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = p.run(ctx, in, in.feed(ctx))
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return s.merge(res), nil
}

// merge returns the diagnostics of every pack's result, with one
// plugin/failed diagnostic (and a closed pack) for each that failed, after
// those of the packs that did not start, sorted.
func (s *Set) merge(res []packResult) diag.List {
	if len(res) == 1 && len(s.Failures) == 0 && res[0].err == nil {
		return res[0].ds // sorted already, and nothing to merge
	}
	n := len(s.Failures) + len(res)
	for _, r := range res {
		n += len(r.ds)
	}
	out := append(make(diag.List, 0, n), s.Failures...)
	for i, r := range res {
		if r.err != nil {
			pe, ok := r.err.(*Error)
			if !ok {
				pe = &Error{Pack: s.Packs[i].info.Name, Err: r.err, Stderr: s.Packs[i].Stderr()}
			}
			out = append(out, Failure(pe))
			s.Packs[i].Close()
			continue
		}
		out = append(out, r.ds...)
	}
	out.Sort()
	return out
}

// Infos returns the Info of every started pack.
func (s *Set) Infos() []Info {
	out := make([]Info, len(s.Packs))
	for i, p := range s.Packs {
		out[i] = p.info
	}
	return out
}

// Close closes every pack, in parallel.
func (s *Set) Close() {
	var wg sync.WaitGroup
	for _, p := range s.Packs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Close()
		}()
	}
	wg.Wait()
}

// InputOf encodes standalone documents, such as test files that are not
// laid out as a Journal tree. Each valid document is the only revision of
// its own chain; an invalid one is not accepted.
func InputOf(docs []*syntax.Document) *Input {
	in := &Input{byPath: make(map[string]*batch, len(docs))}
	for _, doc := range docs {
		cc := &protocol.Chain{Accepted: doc.RevisionOK}
		if doc.CoordinateOK {
			cc.Coordinate = doc.Coordinate.String()
		}
		if doc.RevisionOK {
			cc.Revisions = protocol.AppendChainEntries(nil, []*pb.ChainEntry{{Path: doc.Path, JournalVersion: doc.Revision.JournalVersion().String(), Digest: doc.Digest.String()}})
		}
		in.add(doc.Path, len(doc.Src), doc, cc)
	}
	return in
}
