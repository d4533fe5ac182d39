package wire_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"

	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// This file is the codec written with the generated code: the reference
// the hand codec is held to (TestCodecMatchesGenerated) and measured
// against (BenchmarkCodec).

// generated returns the generated message of d with the parts in needs,
// as AppendDocument encodes it.
func generated(d doc, needs wire.Needs) *pb.Document {
	needs = needs.Normal()
	out := &pb.Document{Path: validUTF8(d.Path), Digest: digest(d.Digest)}
	if needs&wire.NeedText != 0 {
		out.Text = d.Text
	}
	if needs&wire.NeedDirectives != 0 {
		out.Directives = &pb.Directives{}
		for _, x := range d.Directives {
			out.Directives.ArgCounts = append(out.Directives.ArgCounts, int32(len(x.Args)))
			out.Directives.Spans = append(out.Directives.Spans, int64(x.Start), int64(x.End), int64(x.KeywordStart), int64(x.KeywordEnd))
			for _, a := range x.Args {
				out.Directives.Spans = append(out.Directives.Spans, int64(a.Start), int64(a.End))
				out.Directives.Quoted = append(out.Directives.Quoted, a.Quoted)
				if a.Quoted {
					out.Directives.Decoded = append(out.Directives.Decoded, validUTF8(a.Text))
				}
			}
		}
	}
	if d.Valid {
		out.Revision = &pb.Revision{}
		if needs&wire.NeedRevision != 0 {
			out.Revision = pbRevision(d.Revision)
		}
	}
	if d.Chain != nil && needs&wire.NeedChain != 0 {
		out.Chain = &pb.ChainContext{Coordinate: d.Chain.Coordinate, Accepted: d.Chain.Accepted}
		for _, e := range d.entries {
			out.Chain.Revisions = append(out.Chain.Revisions, &pb.ChainEntry{Path: e.Path, JournalVersion: e.JournalVersion.String(), Digest: digest(e.Digest)})
		}
	}
	return out
}

func digest(d vt.Digest) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// pbRevision returns the generated message of a model; the zero Revision
// gives the empty message.
func pbRevision(r model.Revision) *pb.Revision {
	if r.Digest().IsZero() {
		return &pb.Revision{}
	}
	out := &pb.Revision{Coordinate: r.Coordinate().String(), JournalVersion: r.JournalVersion().String(), Description: r.Description()}
	if d, ok := r.Predecessor(); ok {
		out.Predecessor = d.String()
	}
	if u, ok := r.Info(); ok {
		out.Info = u.String()
	}
	if p, ok := r.Policy(); ok {
		out.Policy = pbPolicy(p)
	}
	for _, rel := range r.Releases() {
		x := &pb.Release{Version: rel.Version().String(), License: rel.License().String()}
		for _, c := range rel.Contents() {
			x.Contents = append(x.Contents, &pb.Content{Name: c.Name().String(), Digest: c.Digest().String()})
		}
		x.Description, _ = rel.Description()
		if t, ok := rel.Published(); ok {
			x.Published = t.String()
		}
		if p, ok := rel.Policy(); ok {
			x.Policy = pbPolicy(p)
		}
		for _, d := range rel.Dependencies() {
			desc, _ := d.Description()
			x.Depends = append(x.Depends, &pb.Dependency{Coordinate: d.Coordinate().String(), Constraint: d.Constraint().String(), Description: desc})
		}
		for _, e := range rel.Exclusions() {
			desc, _ := e.Description()
			x.Excludes = append(x.Excludes, &pb.Exclusion{Coordinate: e.Coordinate().String(), Description: desc})
		}
		for _, p := range rel.Preferences() {
			desc, _ := p.Description()
			x.Prefers = append(x.Prefers, &pb.Preference{Coordinate: p.Coordinate().String(), Version: p.Version().String(), Description: desc})
		}
		out.Releases = append(out.Releases, x)
	}
	return out
}

func pbPolicy(p model.Policy) *pb.Policy {
	reason, _ := p.Reason()
	return &pb.Policy{Verdict: p.Verdict().String(), Reason: reason}
}

// fromGenerated builds the model of a generated message, as a pack on the
// generated code would.
func fromGenerated(m *pb.Revision, dg vt.Digest) (model.Revision, error) {
	var err error
	keep := func(e error) {
		if err == nil {
			err = e
		}
	}
	spec := model.RevisionSpec{Digest: dg, Description: m.GetDescription()}
	var e error
	spec.Coordinate, e = vt.ParseCoordinate(m.GetCoordinate())
	keep(e)
	spec.JournalVersion, e = vt.ParseJournalVersion(m.GetJournalVersion())
	keep(e)
	if s := m.GetPredecessor(); s != "" {
		spec.Predecessor, e = vt.ParseDigest(s)
		keep(e)
	}
	if s := m.GetInfo(); s != "" {
		u, e := vt.ParseURI(s)
		keep(e)
		spec.Info = &u
	}
	policy := func(x *pb.Policy) *model.Policy {
		if x == nil {
			return nil
		}
		v, e := vt.ParseVerdict(x.GetVerdict())
		keep(e)
		pol := model.NewPolicy(v, x.GetReason())
		return &pol
	}
	spec.Policy = policy(m.GetPolicy())
	for _, r := range m.GetReleases() {
		var rs model.ReleaseSpec
		rs.Version, e = vt.ParseVersion(r.GetVersion())
		keep(e)
		rs.License, e = vt.ParseLicense(r.GetLicense())
		keep(e)
		for _, c := range r.GetContents() {
			n, e1 := vt.ParseName(c.GetName())
			d, e2 := vt.ParseDigest(c.GetDigest())
			keep(e1)
			keep(e2)
			rs.Contents = append(rs.Contents, model.NewContent(n, d))
		}
		rs.Description = r.GetDescription()
		if s := r.GetPublished(); s != "" {
			rs.Published, e = vt.ParseTimestamp(s)
			keep(e)
		}
		rs.Policy = policy(r.GetPolicy())
		for _, d := range r.GetDepends() {
			c, e1 := vt.ParseCoordinate(d.GetCoordinate())
			k, e2 := vt.ParseConstraint(d.GetConstraint())
			keep(e1)
			keep(e2)
			rs.Depends = append(rs.Depends, model.NewDependency(c, k, d.GetDescription()))
		}
		for _, x := range r.GetExcludes() {
			c, e := vt.ParseCoordinate(x.GetCoordinate())
			keep(e)
			rs.Excludes = append(rs.Excludes, model.NewExclusion(c, x.GetDescription()))
		}
		for _, x := range r.GetPrefers() {
			c, e1 := vt.ParseCoordinate(x.GetCoordinate())
			v, e2 := vt.ParseVersion(x.GetVersion())
			keep(e1)
			keep(e2)
			rs.Prefers = append(rs.Prefers, model.NewPreference(c, v, x.GetDescription()))
		}
		spec.Releases = append(spec.Releases, model.NewReleaseOwned(rs))
	}
	if err != nil {
		return model.Revision{}, err
	}
	return model.NewRevisionOwned(spec), nil
}

// decodeGenerated is a pack's decoding on the generated code: unmarshal
// the request, then build every valid document's model.
func decodeGenerated(b *testing.B, raw []byte) int {
	var req pb.CheckRequest
	if err := proto.Unmarshal(raw, &req); err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, d := range req.GetDocuments() {
		dg, err := vt.ParseDigest(d.GetDigest())
		if err != nil {
			b.Fatal(err)
		}
		if d.Revision != nil {
			if _, err := fromGenerated(d.GetRevision(), dg); err != nil {
				b.Fatal(err)
			}
		}
		n += len(d.GetDirectives().GetArgCounts())
	}
	return n
}
