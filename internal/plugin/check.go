package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"

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
const (
	batchDocs  = 512
	batchBytes = 4 << 20
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
// tree.
type Input struct {
	docs    []*syntax.Document // nil entries are read again (reread)
	paths   []string
	sizes   []int
	chains  []*protocol.Chain
	byPath  map[string]int // index into docs
	batches []*batch
	// reread returns the document of a file the load dropped, or nil when
	// the file no longer holds the bytes the load read.
	reread func(path string) *syntax.Document

	mu   sync.Mutex
	free [][]byte // encoding buffers of batches every pack has sent, for reuse
}

// batch is the documents docs[lo:hi] of an Input.
type batch struct {
	lo, hi int

	mu      sync.Mutex
	enc     [protocol.NeedsAll + 1][]byte // the documents as CheckRequest fields, by the packs' needs; nil until encoded, and again once every pack has it
	docs    []*syntax.Document            // docs[lo:hi], read again for this batch; nil until needed, and again once every pack has it
	pending atomic.Int32                  // packs of the running Set.Check still to send it
}

// NewInput takes the documents of lr, read or (when lr dropped them)
// to be read again, with their chain context, which lr.State gives.
func NewInput(lr *load.Result) *Input {
	in := &Input{byPath: make(map[string]int, len(lr.Files)), reread: lr.Doc}
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
				var list []*pb.ChainEntry
				for _, e := range lr.State.Entries(c) {
					list = append(list, &pb.ChainEntry{Path: e.Source, JournalVersion: e.Revision.JournalVersion().String(), Digest: e.Revision.Digest().String()})
				}
				entries = protocol.AppendChainEntries(nil, list)
				chains[cc.Coordinate] = entries
			}
			cc.Revisions = entries
		}
		in.add(f.Path, f.Summary.Size, f.Doc, cc)
	}
	in.split()
	return in
}

func (in *Input) add(path string, size int, doc *syntax.Document, cc *protocol.Chain) {
	in.byPath[path] = len(in.docs)
	in.docs = append(in.docs, doc)
	in.paths = append(in.paths, path)
	in.sizes = append(in.sizes, size)
	in.chains = append(in.chains, cc)
}

// doc returns document i, reading it again when the load dropped it: from
// b's documents when i is one of them (b.mu must not be held), else from
// its file. It is nil when the file changed since the load.
func (in *Input) doc(b *batch, i int) *syntax.Document {
	if d := in.docs[i]; d != nil || in.reread == nil {
		return d
	}
	if b != nil && i >= b.lo && i < b.hi {
		b.mu.Lock()
		defer b.mu.Unlock()
		return in.batchDocs(b)[i-b.lo]
	}
	return in.reread(in.paths[i])
}

// batchDocs returns the documents of b, reading the dropped ones again the
// first time; b.mu must be held.
func (in *Input) batchDocs(b *batch) []*syntax.Document {
	if b.docs == nil {
		b.docs = slices.Clone(in.docs[b.lo:b.hi])
		for i, d := range b.docs {
			if d == nil && in.reread != nil {
				b.docs[i] = in.reread(in.paths[b.lo+i])
			}
		}
	}
	return b.docs
}

// Len returns the number of documents.
func (in *Input) Len() int { return len(in.docs) }

// split cuts the documents into Check batches of at most batchDocs
// documents and, unless a batch holds a single document, batchBytes bytes
// of text.
func (in *Input) split() {
	lo, size := 0, 0
	for i, n := range in.sizes {
		if i > lo && (i-lo >= batchDocs || size+n > batchBytes) {
			in.batches = append(in.batches, &batch{lo: lo, hi: i})
			lo, size = i, 0
		}
		size += n
	}
	if lo < len(in.docs) {
		in.batches = append(in.batches, &batch{lo: lo, hi: len(in.docs)})
	}
}

// documents returns the wire form of batch b's documents with the parts
// in needs, the encoding of CheckRequest's documents field, encoding it if
// needed. Packs with the same needs share it.
func (in *Input) documents(b *batch, needs protocol.Needs) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.enc[needs] == nil {
		size := 0
		for i := b.lo; i < b.hi; i++ {
			// The text, then directives and model about as long again.
			size += 3*in.sizes[i] + len(in.chains[i].Revisions) + 256
		}
		enc := in.buffer(size)
		for i, doc := range in.batchDocs(b) {
			if doc != nil { // nil: the file changed since the load
				enc = protocol.AppendCheckDocumentFor(enc, doc, in.chains[b.lo+i], needs)
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
	req := &pb.CheckRequest{ConfigJson: config}
	req.ProtoReflect().SetUnknown(in.documents(b, needs))
	return req
}

// sent records that one pack of a Set.Check is done with batch b; after
// the last one its wire form is dropped (it is encoded again if needed)
// and its buffer reused for a later batch: a fresh buffer per batch would
// mean tens of megabytes of new pages for a large tree.
func (in *Input) sent(b *batch) {
	if b.pending.Add(-1) != 0 {
		return
	}
	b.mu.Lock()
	encs := b.enc
	b.enc = [protocol.NeedsAll + 1][]byte{}
	b.docs = nil
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
	batches := in.batches
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := min(runtime.GOMAXPROCS(0), 4, len(batches))
	results := make([]diag.List, len(batches))
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				ds, err := p.checkBatch(ctx, in, batches[i])
				in.sent(batches[i])
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
						cancel()
					}
					mu.Unlock()
					continue
				}
				results[i] = ds
			}
		}()
	}
feed:
	for i := range batches {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := parent.Err(); err != nil {
		p.kill()
		return nil, err
	}
	if firstErr != nil {
		return nil, firstErr
	}
	var out diag.List
	for _, ds := range results {
		out = append(out, ds...)
	}
	out.Sort()
	return out, nil
}

// checkBatch sends one batch and decodes its answer.
func (p *Pack) checkBatch(ctx context.Context, in *Input, b *batch) (diag.List, error) {
	req := in.request(p.config, p.needs, b)
	cctx, cancel := context.WithTimeout(ctx, p.spec.timeout())
	defer cancel()
	resp, err := p.rpc.Check(cctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err() // the run was cancelled, not the pack's fault
		}
		return nil, p.failure(p.info.Name, p.callError(cctx, "check", err))
	}
	out := make(diag.List, 0, len(resp.GetDiagnostics()))
	for _, m := range resp.GetDiagnostics() {
		d, err := p.decodeDiagnostic(in, b, m)
		if err != nil {
			p.kill()
			return nil, p.failure(p.info.Name, fmt.Errorf("malformed diagnostic: %v", err))
		}
		out = append(out, d)
	}
	return out, nil
}

// decodeDiagnostic checks one diagnostic of a pack and converts it. Ranges
// are taken by their byte offsets, which must lie in the document; lines
// and columns are recomputed from them.
func (p *Pack) decodeDiagnostic(in *Input, b *batch, m *pb.Diagnostic) (diag.Diagnostic, error) {
	rule, ok := p.rules[m.GetRule()]
	if !ok {
		return diag.Diagnostic{}, fmt.Errorf("unknown rule %q", clip(m.GetRule(), 80))
	}
	d := diag.Diagnostic{Code: rule.Code, Severity: rule.DefaultSeverity, Message: m.GetMessage(), Path: m.GetPath(), Help: m.GetHelp()}
	if m.GetSeverity() != pb.Severity_SEVERITY_UNSPECIFIED {
		if d.Severity, ok = severity(m.GetSeverity()); !ok {
			return d, fmt.Errorf("rule %s: invalid severity %d", rule.Name, m.GetSeverity())
		}
	}
	if err := checkText("message", d.Message, true); err != nil {
		return d, fmt.Errorf("rule %s: %v", rule.Name, err)
	}
	if err := checkText("help", d.Help, false); err != nil {
		return d, fmt.Errorf("rule %s: %v", rule.Name, err)
	}
	i, ok := in.byPath[d.Path]
	if !ok || i < b.lo || i >= b.hi {
		return d, fmt.Errorf("rule %s: path %q is not a document of the batch", rule.Name, clip(d.Path, 200))
	}
	doc := in.doc(b, i)
	if doc == nil {
		return d, fmt.Errorf("rule %s: %s changed during the run", rule.Name, d.Path)
	}
	var err error
	if d.Range, err = decodeRange(doc, m.GetRange()); err != nil {
		return d, fmt.Errorf("rule %s: %v", rule.Name, err)
	}
	for _, r := range m.GetRelated() {
		j, ok := in.byPath[r.GetPath()]
		if !ok {
			return d, fmt.Errorf("rule %s: related path %q is not a document of the tree", rule.Name, clip(r.GetPath(), 200))
		}
		rdoc := in.doc(b, j)
		if rdoc == nil {
			return d, fmt.Errorf("rule %s: related %s changed during the run", rule.Name, r.GetPath())
		}
		rg, err := decodeRange(rdoc, r.GetRange())
		if err != nil {
			return d, fmt.Errorf("rule %s: related: %v", rule.Name, err)
		}
		if err := checkText("related message", r.GetMessage(), false); err != nil {
			return d, fmt.Errorf("rule %s: %v", rule.Name, err)
		}
		d.Related = append(d.Related, diag.Related{Path: r.GetPath(), Range: rg, Message: r.GetMessage()})
	}
	return d, nil
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
	res := make([]diag.List, len(s.Packs))
	errs := make([]error, len(s.Packs))
	var wg sync.WaitGroup
	for i, p := range s.Packs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = p.Check(ctx, in)
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	out := append(diag.List{}, s.Failures...)
	for i := range s.Packs {
		if errs[i] != nil {
			pe, ok := errs[i].(*Error)
			if !ok {
				pe = &Error{Pack: s.Packs[i].info.Name, Err: errs[i], Stderr: s.Packs[i].Stderr()}
			}
			out = append(out, Failure(pe))
			s.Packs[i].Close()
			continue
		}
		out = append(out, res[i]...)
	}
	sort.SliceStable(out, func(i, j int) bool { return diag.Less(out[i], out[j]) })
	return out, nil
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
	in := &Input{byPath: make(map[string]int, len(docs))}
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
	in.split()
	return in
}
