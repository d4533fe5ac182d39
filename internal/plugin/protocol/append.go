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
)

// The Append functions write the protobuf encoding of rulepack.v1 messages
// straight from journal-lint's parsed documents, without building the
// generated message structs first: the host encodes every Journal file of
// a tree, and the structs, their strings and the generic marshaller cost
// more than the wire bytes themselves. The output is what proto.Marshal
// produces for the message [EncodeDocument] returns (fields in number
// order, zero values left out); the tests hold them to that.

// Field numbers of rulepack.v1 (rulepack.proto).
const (
	fieldCheckDocuments = 2

	fieldDocPath       = 1
	fieldDocText       = 2
	fieldDocDigest     = 3
	fieldDocDirectives = 4
	fieldDocRevision   = 5
	fieldDocChain      = 6

	fieldDirArgCounts = 1
	fieldDirSpans     = 2
	fieldDirQuoted    = 3
	fieldDirDecoded   = 4

	fieldChainCoordinate = 1
	fieldChainAccepted   = 2
	fieldChainRevisions  = 3
)

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
	b, m := openMessage(b, fieldCheckDocuments)
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
// empty message, see [Needs]).
func AppendDocumentFor(b []byte, doc *syntax.Document, chain *Chain, needs Needs) []byte {
	needs = needs.normal()
	b = appendString(b, fieldDocPath, validUTF8(doc.Path))
	if len(doc.Src) > 0 && needs&NeedText != 0 {
		b = protowire.AppendTag(b, fieldDocText, protowire.BytesType)
		b = protowire.AppendBytes(b, doc.Src)
	}
	b = appendDigest(b, fieldDocDigest, doc.Digest)
	var m int
	if needs&NeedDirectives != 0 {
		b, m = openMessage(b, fieldDocDirectives)
		b = appendDirectives(b, doc.Directives)
		b = closeMessage(b, m)
	}
	if doc.RevisionOK {
		b, m = openMessage(b, fieldDocRevision)
		if needs&NeedRevision != 0 {
			b = appendRevision(b, doc.Revision)
		}
		b = closeMessage(b, m)
	}
	if chain != nil && needs&NeedChain != 0 {
		b, m = openMessage(b, fieldDocChain)
		b = appendString(b, fieldChainCoordinate, chain.Coordinate)
		if chain.Accepted {
			b = protowire.AppendTag(b, fieldChainAccepted, protowire.VarintType)
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
		b, m = openMessage(b, fieldChainRevisions)
		b = appendString(b, 1, e.GetPath())
		b = appendString(b, 2, e.GetJournalVersion())
		b = appendString(b, 3, e.GetDigest())
		b = closeMessage(b, m)
	}
	return b
}

func appendDirectives(b []byte, dirs []*syntax.Directive) []byte {
	if len(dirs) == 0 {
		return b
	}
	b, m := openMessage(b, fieldDirArgCounts)
	for _, d := range dirs {
		b = protowire.AppendVarint(b, uint64(int64(int32(len(d.Args)))))
	}
	b = closeMessage(b, m)
	b, m = openMessage(b, fieldDirSpans)
	quoted, nargs := 0, 0
	for _, d := range dirs {
		b = protowire.AppendVarint(b, uint64(int64(d.Range.Start.Offset)))
		b = protowire.AppendVarint(b, uint64(int64(d.Range.End.Offset)))
		b = protowire.AppendVarint(b, uint64(int64(d.KeywordRange.Start.Offset)))
		b = protowire.AppendVarint(b, uint64(int64(d.KeywordRange.End.Offset)))
		for _, a := range d.Args {
			b = protowire.AppendVarint(b, uint64(int64(a.Range.Start.Offset)))
			b = protowire.AppendVarint(b, uint64(int64(a.Range.End.Offset)))
			if a.Quoted {
				quoted++
			}
		}
		nargs += len(d.Args)
	}
	b = closeMessage(b, m)
	if nargs > 0 {
		b = protowire.AppendTag(b, fieldDirQuoted, protowire.BytesType)
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
					b = protowire.AppendTag(b, fieldDirDecoded, protowire.BytesType)
					b = protowire.AppendString(b, validUTF8(a.Text))
				}
			}
		}
	}
	return b
}

func appendRevision(b []byte, r model.Revision) []byte {
	b = appendString(b, 1, r.Coordinate().String())
	b = appendString(b, 2, r.JournalVersion().String())
	if d, ok := r.Predecessor(); ok {
		b = appendDigest(b, 3, d)
	}
	b = appendString(b, 4, r.Description())
	if u, ok := r.Info(); ok {
		b = appendString(b, 5, u.String())
	}
	if p, ok := r.Policy(); ok {
		b = appendPolicy(b, 6, p)
	}
	for _, rel := range r.Releases() {
		var m int
		b, m = openMessage(b, 7)
		b = appendRelease(b, rel)
		b = closeMessage(b, m)
	}
	return b
}

func appendPolicy(b []byte, num protowire.Number, p model.Policy) []byte {
	b, m := openMessage(b, num)
	b = appendString(b, 1, p.Verdict().String())
	reason, _ := p.Reason()
	b = appendString(b, 2, reason)
	return closeMessage(b, m)
}

func appendRelease(b []byte, r model.Release) []byte {
	b = appendString(b, 1, r.Version().String())
	b = appendString(b, 2, r.License().String())
	var m int
	for _, c := range r.Contents() {
		b, m = openMessage(b, 3)
		b = appendString(b, 1, c.Name().String())
		b = appendDigest(b, 2, c.Digest())
		b = closeMessage(b, m)
	}
	desc, _ := r.Description()
	b = appendString(b, 4, desc)
	if t, ok := r.Published(); ok {
		b = appendString(b, 5, t.String())
	}
	if p, ok := r.Policy(); ok {
		b = appendPolicy(b, 6, p)
	}
	for _, d := range r.Dependencies() {
		b, m = openMessage(b, 7)
		b = appendString(b, 1, d.Coordinate().String())
		b = appendString(b, 2, d.Constraint().String())
		desc, _ := d.Description()
		b = appendString(b, 3, desc)
		b = closeMessage(b, m)
	}
	for _, e := range r.Exclusions() {
		b, m = openMessage(b, 8)
		b = appendString(b, 1, e.Coordinate().String())
		desc, _ := e.Description()
		b = appendString(b, 2, desc)
		b = closeMessage(b, m)
	}
	for _, p := range r.Preferences() {
		b, m = openMessage(b, 9)
		b = appendString(b, 1, p.Coordinate().String())
		b = appendString(b, 2, p.Version().String())
		desc, _ := p.Description()
		b = appendString(b, 3, desc)
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
