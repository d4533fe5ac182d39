package protocol

import (
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// EncodeDocument returns the wire form of one parsed document: its path,
// exact text, digest, every directive with its byte spans, the model when
// the text is valid (doc.RevisionOK), and chain (which may be nil). The
// message shares doc.Src; neither may change while it is in use.
func EncodeDocument(doc *syntax.Document, chain *pb.ChainContext) *pb.Document {
	out := &pb.Document{
		Path:       doc.Path,
		Text:       doc.Src,
		Digest:     doc.Digest.String(),
		Directives: EncodeDirectives(doc.Directives),
		Chain:      chain,
	}
	if doc.RevisionOK {
		out.Revision = EncodeRevision(doc.Revision)
	}
	return out
}

// EncodeDirectives returns the packed wire form of a document's directives.
func EncodeDirectives(dirs []*syntax.Directive) *pb.Directives {
	nargs := 0
	for _, d := range dirs {
		nargs += len(d.Args)
	}
	out := &pb.Directives{
		ArgCounts: make([]int32, len(dirs)),
		Spans:     make([]int64, 0, 4*len(dirs)+2*nargs),
		Quoted:    make([]bool, 0, nargs),
	}
	for i, d := range dirs {
		out.ArgCounts[i] = int32(len(d.Args))
		out.Spans = append(out.Spans, int64(d.Range().Start.Offset), int64(d.Range().End.Offset),
			int64(d.KeywordRange().Start.Offset), int64(d.KeywordRange().End.Offset))
		for _, a := range d.Args {
			out.Spans = append(out.Spans, int64(a.Range().Start.Offset), int64(a.Range().End.Offset))
			out.Quoted = append(out.Quoted, a.Quoted)
			if a.Quoted {
				out.Decoded = append(out.Decoded, a.Text)
			}
		}
	}
	return out
}

// EncodeRevision returns the wire form of a valid revision's model.
func EncodeRevision(r model.Revision) *pb.Revision {
	out := &pb.Revision{
		Coordinate:     r.Coordinate().String(),
		JournalVersion: r.JournalVersion().String(),
		Description:    r.Description(),
	}
	if d, ok := r.Predecessor(); ok {
		out.Predecessor = d.String()
	}
	if u, ok := r.Info(); ok {
		out.Info = u.String()
	}
	if p, ok := r.Policy(); ok {
		out.Policy = encodePolicy(p)
	}
	for _, rel := range r.Releases() {
		out.Releases = append(out.Releases, encodeRelease(rel))
	}
	return out
}

func encodePolicy(p model.Policy) *pb.Policy {
	reason, _ := p.Reason()
	return &pb.Policy{Verdict: p.Verdict().String(), Reason: reason}
}

func encodeRelease(r model.Release) *pb.Release {
	out := &pb.Release{Version: r.Version().String(), License: r.License().String()}
	for _, c := range r.Contents() {
		out.Contents = append(out.Contents, &pb.Content{Name: c.Name().String(), Digest: c.Digest().String()})
	}
	out.Description, _ = r.Description()
	if t, ok := r.Published(); ok {
		out.Published = t.String()
	}
	if p, ok := r.Policy(); ok {
		out.Policy = encodePolicy(p)
	}
	for _, d := range r.Dependencies() {
		desc, _ := d.Description()
		out.Depends = append(out.Depends, &pb.Dependency{Coordinate: d.Coordinate().String(), Constraint: d.Constraint().String(), Description: desc})
	}
	for _, e := range r.Exclusions() {
		desc, _ := e.Description()
		out.Excludes = append(out.Excludes, &pb.Exclusion{Coordinate: e.Coordinate().String(), Description: desc})
	}
	for _, p := range r.Preferences() {
		desc, _ := p.Description()
		out.Prefers = append(out.Prefers, &pb.Preference{Coordinate: p.Coordinate().String(), Version: p.Version().String(), Description: desc})
	}
	return out
}
