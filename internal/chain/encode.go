package chain

import (
	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// AppendPending writes p, a rejection waiting for the rest of the input
// (see [Pending]), to w, for journal-lint's persistent cache: a load that
// takes an artifact's ingestion from there resolves it anew against the
// tree it loads.
func AppendPending(w *codec.Writer, p *Pending) {
	w.String(p.coordinate.String())
	w.Digest(p.predecessor)
	w.String(p.path)
	diag.AppendRange(w, p.rng)
	w.String(p.help)
	diag.AppendFixes(w, p.fixes)
	w.Timestamp(p.version)
}

// ReadPending reads a Pending written by [AppendPending]. A corrupt record
// sets r's error (codec.Reader.Err) and returns nil.
func ReadPending(r *codec.Reader) *Pending {
	p := &Pending{}
	coordinate := r.Interned()
	p.predecessor = r.Digest()
	p.path = r.Interned()
	p.rng = diag.ReadRange(r)
	p.help = r.String()
	p.fixes = diag.ReadFixes(r)
	p.version = r.Timestamp()
	if r.Err() != nil {
		return nil
	}
	c, err := vt.ParseCoordinate(coordinate)
	if err != nil {
		return nil
	}
	p.coordinate = c
	return p
}
