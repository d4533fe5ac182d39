package protocol

import (
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// EncodeDocument returns the wire form of one parsed document: its path,
// exact text, digest, every directive with its positions, the model when the
// text is valid (doc.RevisionOK), and chain (which may be nil). The message
// shares doc.Src; neither may change while it is in use.
func EncodeDocument(doc *syntax.Document, chain *pb.ChainContext) *pb.Document {
	out := &pb.Document{
		Path:       doc.Path,
		Text:       doc.Src,
		Digest:     doc.Digest.String(),
		Directives: make([]*pb.Directive, len(doc.Directives)),
		Chain:      chain,
	}
	for i, d := range doc.Directives {
		pd := &pb.Directive{
			Keyword:      d.Keyword,
			KeywordRange: EncodeRange(d.KeywordRange),
			Range:        EncodeRange(d.Range),
			Line:         int32(d.Line),
			Args:         make([]*pb.Arg, len(d.Args)),
		}
		for j, a := range d.Args {
			pd.Args[j] = &pb.Arg{Raw: a.Raw, Text: a.Text, Quoted: a.Quoted, Range: EncodeRange(a.Range)}
		}
		out.Directives[i] = pd
	}
	if doc.RevisionOK {
		out.Revision = EncodeRevision(doc.Revision)
	}
	return out
}

// EncodeRange returns the wire form of r.
func EncodeRange(r diag.Range) *pb.Range {
	return &pb.Range{Start: encodePos(r.Start), End: encodePos(r.End)}
}

func encodePos(p diag.Pos) *pb.Pos {
	return &pb.Pos{Offset: int64(p.Offset), Line: int32(p.Line), Column: int32(p.Column)}
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
