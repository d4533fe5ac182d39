package protocol

import (
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// The Append functions write the protobuf encoding of rulepack.v1 messages
// straight from journal-lint's parsed documents, without building the
// generated message structs first: the host encodes every Journal file of
// a tree, and the structs, their strings and the generic marshaller cost
// more than the wire bytes themselves. The output is what proto.Marshal
// produces for the message [EncodeDocument] returns (fields in number
// order, zero values left out); the tests hold them to that.

// Chain is a document's chain context in wire-ready form: Revisions is the
// encoding of the ChainContext's repeated revisions field (see
// [AppendChainEntries]), shared by every document of the artifact.
type Chain struct {
	Coordinate string
	Accepted   bool
	Revisions  []byte
}

// AppendCheckDocument appends doc as one element of CheckRequest.documents
// (field 2, length-delimited), so that a batch's bytes can travel as the
// request's unknown fields and be read by the pack as its documents.
func AppendCheckDocument(b []byte, doc *syntax.Document, chain *Chain) []byte {
	return AppendCheckDocumentFor(b, doc, chain, NeedsAll)
}

// AppendCheckDocumentFor is [AppendCheckDocument] with only the parts of
// doc in needs.
func AppendCheckDocumentFor(b []byte, doc *syntax.Document, chain *Chain, needs Needs) []byte {
	b, m := openMessage(b, wire.CheckRequestDocuments)
	b = AppendDocumentFor(b, doc, chain, needs)
	return closeMessage(b, m)
}

// AppendDocument appends the encoding of the Document message for doc
// (the fields of [EncodeDocument]); chain may be nil.
func AppendDocument(b []byte, doc *syntax.Document, chain *Chain) []byte {
	return AppendDocumentFor(b, doc, chain, NeedsAll)
}

// AppendDocumentFor is [AppendDocument] with only the parts in needs: what
// a pack leaves out is not encoded (a valid document's revision is then an
// empty message, see [Needs]). With [ParseText] the directives and the
// model are left out whatever needs says, so it reads of doc only what
// syntax.Recycle leaves: path, text, digest and validity.
func AppendDocumentFor(b []byte, doc *syntax.Document, chain *Chain, needs Needs) []byte {
	needs = needs.normal()
	if needs&ParseText != 0 {
		needs &^= NeedDirectives | NeedRevision
	}
	b = appendString(b, wire.DocumentPath, validUTF8(doc.Path))
	if len(doc.Src) > 0 && needs&NeedText != 0 {
		b = protowire.AppendTag(b, wire.DocumentText, protowire.BytesType)
		b = protowire.AppendBytes(b, doc.Src)
	}
	b = appendDigest(b, wire.DocumentDigest, doc.Digest)
	var m int
	if needs&NeedDirectives != 0 {
		b, m = openMessage(b, wire.DocumentDirectives)
		b = appendDirectives(b, doc.Directives)
		b = closeMessage(b, m)
	}
	if doc.RevisionOK {
		if needs&NeedRevision != 0 {
			b, m = openMessage(b, wire.DocumentRevision)
			b = appendRevision(b, doc.Revision)
			b = closeMessage(b, m)
		} else {
			b = protowire.AppendTag(b, wire.DocumentRevision, protowire.BytesType)
			b = protowire.AppendVarint(b, 0)
		}
	}
	if chain != nil && needs&NeedChain != 0 {
		b, m = openMessage(b, wire.DocumentChain)
		b = appendString(b, wire.ChainContextCoordinate, chain.Coordinate)
		if chain.Accepted {
			b = protowire.AppendTag(b, wire.ChainContextAccepted, protowire.VarintType)
			b = protowire.AppendVarint(b, 1)
		}
		b = append(b, chain.Revisions...)
		b = closeMessage(b, m)
	}
	return b
}

// AppendChainEntries appends entries as the repeated revisions field of a
// ChainContext.
func AppendChainEntries(b []byte, entries []*pb.ChainEntry) []byte {
	for _, e := range entries {
		var m int
		b, m = openMessage(b, wire.ChainContextRevisions)
		b = appendString(b, wire.ChainEntryPath, e.GetPath())
		b = appendString(b, wire.ChainEntryJournalVersion, e.GetJournalVersion())
		b = appendString(b, wire.ChainEntryDigest, e.GetDigest())
		b = closeMessage(b, m)
	}
	return b
}

func appendDirectives(b []byte, dirs []*syntax.Directive) []byte {
	if len(dirs) == 0 {
		return b
	}
	b, m := openMessage(b, wire.DirectivesArgCounts)
	for _, d := range dirs {
		b = protowire.AppendVarint(b, uint64(int64(int32(len(d.Args)))))
	}
	b = closeMessage(b, m)
	b, m = openMessage(b, wire.DirectivesSpans)
	quoted, nargs := 0, 0
	for _, d := range dirs {
		b = protowire.AppendVarint(b, uint64(int64(d.Range().Start.Offset)))
		b = protowire.AppendVarint(b, uint64(int64(d.Range().End.Offset)))
		b = protowire.AppendVarint(b, uint64(int64(d.KeywordRange().Start.Offset)))
		b = protowire.AppendVarint(b, uint64(int64(d.KeywordRange().End.Offset)))
		for _, a := range d.Args {
			b = protowire.AppendVarint(b, uint64(int64(a.Range().Start.Offset)))
			b = protowire.AppendVarint(b, uint64(int64(a.Range().End.Offset)))
			if a.Quoted {
				quoted++
			}
		}
		nargs += len(d.Args)
	}
	b = closeMessage(b, m)
	if nargs > 0 {
		b = protowire.AppendTag(b, wire.DirectivesQuoted, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(nargs))
		for _, d := range dirs {
			for _, a := range d.Args {
				b = append(b, byte(protowire.EncodeBool(a.Quoted)))
			}
		}
	}
	if quoted > 0 {
		for _, d := range dirs {
			for _, a := range d.Args {
				if a.Quoted {
					// A repeated string keeps its empty elements.
					b = protowire.AppendTag(b, wire.DirectivesDecoded, protowire.BytesType)
					b = protowire.AppendString(b, validUTF8(a.Text))
				}
			}
		}
	}
	return b
}

func appendRevision(b []byte, r model.Revision) []byte {
	b = appendString(b, wire.RevisionCoordinate, r.Coordinate().String())
	b = appendString(b, wire.RevisionJournalVersion, r.JournalVersion().String())
	if d, ok := r.Predecessor(); ok {
		b = appendDigest(b, wire.RevisionPredecessor, d)
	}
	b = appendString(b, wire.RevisionDescription, r.Description())
	if u, ok := r.Info(); ok {
		b = appendString(b, wire.RevisionInfo, u.String())
	}
	if p, ok := r.Policy(); ok {
		b = appendPolicy(b, wire.RevisionPolicy, p)
	}
	for _, rel := range r.Releases() {
		var m int
		b, m = openMessage(b, wire.RevisionReleases)
		b = appendRelease(b, rel)
		b = closeMessage(b, m)
	}
	return b
}

func appendPolicy(b []byte, num protowire.Number, p model.Policy) []byte {
	b, m := openMessage(b, num)
	b = appendString(b, wire.PolicyVerdict, p.Verdict().String())
	reason, _ := p.Reason()
	b = appendString(b, wire.PolicyReason, reason)
	return closeMessage(b, m)
}

func appendRelease(b []byte, r model.Release) []byte {
	b = appendString(b, wire.ReleaseVersion, r.Version().String())
	b = appendString(b, wire.ReleaseLicense, r.License().String())
	var m int
	for _, c := range r.Contents() {
		b, m = openMessage(b, wire.ReleaseContents)
		b = appendString(b, wire.ContentName, c.Name().String())
		b = appendDigest(b, wire.ContentDigest, c.Digest())
		b = closeMessage(b, m)
	}
	desc, _ := r.Description()
	b = appendString(b, wire.ReleaseDescription, desc)
	if t, ok := r.Published(); ok {
		b = appendString(b, wire.ReleasePublished, t.String())
	}
	if p, ok := r.Policy(); ok {
		b = appendPolicy(b, wire.ReleasePolicy, p)
	}
	for _, d := range r.Dependencies() {
		b, m = openMessage(b, wire.ReleaseDepends)
		b = appendString(b, wire.DependencyCoordinate, d.Coordinate().String())
		b = appendString(b, wire.DependencyConstraint, d.Constraint().String())
		desc, _ := d.Description()
		b = appendString(b, wire.DependencyDescription, desc)
		b = closeMessage(b, m)
	}
	for _, e := range r.Exclusions() {
		b, m = openMessage(b, wire.ReleaseExcludes)
		b = appendString(b, wire.ExclusionCoordinate, e.Coordinate().String())
		desc, _ := e.Description()
		b = appendString(b, wire.ExclusionDescription, desc)
		b = closeMessage(b, m)
	}
	for _, p := range r.Preferences() {
		b, m = openMessage(b, wire.ReleasePrefers)
		b = appendString(b, wire.PreferenceCoordinate, p.Coordinate().String())
		b = appendString(b, wire.PreferenceVersion, p.Version().String())
		desc, _ := p.Description()
		b = appendString(b, wire.PreferenceDescription, desc)
		b = closeMessage(b, m)
	}
	return b
}

// appendString appends a singular string field, left out when empty as
// proto3 does.
func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

// validUTF8 returns s with invalid UTF-8 replaced by U+FFFD: a protobuf
// string must be UTF-8 (proto.Marshal refuses it otherwise, and a pack's
// decoder would too). Only a path or a quoted argument of an invalid text
// can be invalid; the model of a valid text never is.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// appendDigest appends d as a string field in its text form
// ("sha256:" + hex) without building the string.
func appendDigest(b []byte, num protowire.Number, d vt.Digest) []byte {
	if d.IsZero() {
		return b
	}
	const prefix = "sha256:"
	sum := d.Sum()
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(len(prefix)+hex.EncodedLen(len(sum))))
	b = append(b, prefix...)
	return hex.AppendEncode(b, sum[:])
}

// openMessage starts a length-delimited field whose length is not known
// yet; closeMessage writes the length once the content is appended.
func openMessage(b []byte, num protowire.Number) ([]byte, int) {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return b, len(b)
}

// closeMessage inserts the varint length of b[start:] at start, moving the
// content up by the length's size (one byte for most short fields).
func closeMessage(b []byte, start int) []byte {
	n := len(b) - start
	k := protowire.SizeVarint(uint64(n))
	for range k {
		b = append(b, 0)
	}
	copy(b[start+k:], b[start:start+n])
	protowire.AppendVarint(b[:start], uint64(n))
	return b
}
