package wire

import (
	"bytes"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Document is one Journal file of a tree as the host hands it to the
// encoder ([AppendDocument]): what the host parsed of it, every part, of
// which the encoder writes those a pack needs.
type Document struct {
	// Path is root-relative with forward slashes.
	Path string
	// Text is the file's exact bytes.
	Text []byte
	// Digest is the revision digest of Text.
	Digest vt.Digest
	// Directives are every directive line in file order, as offsets into
	// Text.
	Directives []Directive
	// Valid reports whether Text is a valid Journal.
	Valid bool
	// Revision is the model of a valid Text.
	Revision model.Revision
	// Chain is the document's place in its artifact's chain; nil when the
	// host has none to give.
	Chain *ChainContext
	// ReleaseTexts, when not nil, holds the text of each release's block in
	// the order of Revision.Releases(): an [Encoder] writes a release
	// whose block it has written before as it did then. nil leaves every
	// release to be encoded.
	ReleaseTexts [][]byte
}

// Directive is one directive line as byte offsets into its document's
// text: [Start, End) covers the keyword to the last non-blank byte,
// [KeywordStart, KeywordEnd) the keyword.
type Directive struct {
	// Start and End are the byte offsets of the directive.
	Start, End int
	// KeywordStart and KeywordEnd are those of its keyword.
	KeywordStart, KeywordEnd int
	// Args are the arguments in order.
	Args []Arg
}

// Arg is one argument of a [Directive]: [Start, End) covers it as written,
// quotes included.
type Arg struct {
	// Start and End are the byte offsets of the argument as written.
	Start, End int
	// Quoted reports whether the argument is a quoted string.
	Quoted bool
	// Text is the decoded value of a quoted argument (valid UTF-8: the
	// encoder replaces invalid bytes with U+FFFD, as a protobuf string
	// must be); unused for a bare argument, whose value is its raw text.
	Text string
}

// ChainContext is what the host knows of a document's place in its
// artifact's chain, for [AppendDocument].
type ChainContext struct {
	// Coordinate is the artifact; "" when ARTIFACT could not be read.
	Coordinate string
	// Accepted reports whether the chain accepted the document.
	Accepted bool
	// Revisions are the artifact's accepted revisions, encoded once for all
	// its documents.
	Revisions Revisions
}

// Revisions is an artifact's accepted revisions in their wire form, made by
// [EncodeRevisions] and shared by the ChainContext of every document of
// the artifact. The zero value is no revision.
type Revisions struct{ enc []byte }

// Size returns the length of r's encoding in bytes.
func (r Revisions) Size() int { return len(r.enc) }

// ChainEntry is one accepted revision of an artifact.
type ChainEntry struct {
	// Path is the root-relative path of its file.
	Path string
	// JournalVersion is the revision's JOURNAL_VERSION.
	JournalVersion vt.JournalVersion
	// Digest is the revision digest of its file.
	Digest vt.Digest
}

// EncodeRevisions returns the wire form of an artifact's accepted
// revisions, in ascending Journal version: the genesis first.
func EncodeRevisions(entries []ChainEntry) Revisions {
	var b []byte
	for _, e := range entries {
		var m int
		b, m = openMessage(b, chainContextRevisions)
		b = appendString(b, chainEntryPath, validUTF8(e.Path))
		b = appendString(b, chainEntryJournalVersion, e.JournalVersion.String())
		b = appendDigest(b, chainEntryDigest, e.Digest)
		b = closeMessage(b, m)
	}
	return Revisions{enc: b}
}

// AppendDocument appends d, with the parts in needs (see [Needs.Normal]),
// to b as one element of CheckRequest.documents, and returns the extended
// buffer. A part that is not needed is left out, except that a valid
// document always carries a revision, empty when the model is not needed,
// so that the pack learns which documents are valid. The bytes are those
// proto.Marshal writes for the same message (fields in number order, zero
// values left out).
func AppendDocument(b []byte, d *Document, needs Needs) []byte {
	return (*Encoder)(nil).AppendDocument(b, d, needs)
}

// Encoder is [AppendDocument] that remembers the releases it wrote by the
// text of their blocks (Document.ReleaseTexts): the revisions of an
// artifact repeat the releases of the ones before, which it then copies
// instead of encoding them again. Its zero value is ready to use; a nil
// Encoder remembers nothing. It is not safe for concurrent use.
type Encoder struct {
	releases map[string][]byte
}

// Reset forgets every release e wrote, so that its memory holds one
// artifact's releases at a time.
func (e *Encoder) Reset() { clear(e.releases) }

// AppendDocument is the package's [AppendDocument], with e's memory of
// releases.
func (e *Encoder) AppendDocument(b []byte, d *Document, needs Needs) []byte {
	needs = needs.Normal()
	b, doc := openMessage(b, checkRequestDocuments)
	b = appendString(b, documentPath, validUTF8(d.Path))
	if len(d.Text) > 0 && needs&NeedText != 0 {
		b = protowire.AppendTag(b, documentText, protowire.BytesType)
		b = protowire.AppendBytes(b, d.Text)
	}
	b = appendDigest(b, documentDigest, d.Digest)
	var m int
	if needs&NeedDirectives != 0 {
		b, m = openMessage(b, documentDirectives)
		b = appendDirectives(b, d.Directives)
		b = closeMessage(b, m)
	}
	if d.Valid {
		b, m = openMessage(b, documentRevision)
		if needs&NeedRevision != 0 {
			b = e.appendRevision(b, d.Revision, d.ReleaseTexts)
		}
		b = closeMessage(b, m)
	}
	if c := d.Chain; c != nil && needs&NeedChain != 0 {
		b, m = openMessage(b, documentChain)
		b = appendString(b, chainContextCoordinate, c.Coordinate)
		if c.Accepted {
			b = protowire.AppendTag(b, chainContextAccepted, protowire.VarintType)
			b = protowire.AppendVarint(b, 1)
		}
		b = append(b, c.Revisions.enc...)
		b = closeMessage(b, m)
	}
	return closeMessage(b, doc)
}

// appendDirectives writes the packed arrays of a Directives message.
func appendDirectives(b []byte, dirs []Directive) []byte {
	if len(dirs) == 0 {
		return b
	}
	b, m := openMessage(b, directivesArgCounts)
	for _, d := range dirs {
		b = protowire.AppendVarint(b, uint64(int64(int32(len(d.Args)))))
	}
	b = closeMessage(b, m)
	b, m = openMessage(b, directivesSpans)
	quoted, nargs := 0, 0
	for _, d := range dirs {
		b = appendOffsets(b, d.Start, d.End)
		b = appendOffsets(b, d.KeywordStart, d.KeywordEnd)
		for _, a := range d.Args {
			b = appendOffsets(b, a.Start, a.End)
			if a.Quoted {
				quoted++
			}
		}
		nargs += len(d.Args)
	}
	b = closeMessage(b, m)
	if nargs > 0 {
		b = protowire.AppendTag(b, directivesQuoted, protowire.BytesType)
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
					b = protowire.AppendTag(b, directivesDecoded, protowire.BytesType)
					b = protowire.AppendString(b, validUTF8(a.Text))
				}
			}
		}
	}
	return b
}

func appendOffsets(b []byte, start, end int) []byte {
	b = protowire.AppendVarint(b, uint64(int64(start)))
	return protowire.AppendVarint(b, uint64(int64(end)))
}

// appendRevision appends the fields of a Revision message; texts are the
// texts of its releases' blocks, or nil.
func (e *Encoder) appendRevision(b []byte, r model.Revision, texts [][]byte) []byte {
	b = appendString(b, revisionCoordinate, r.Coordinate().String())
	b = appendString(b, revisionJournalVersion, r.JournalVersion().String())
	if d, ok := r.Predecessor(); ok {
		b = appendDigest(b, revisionPredecessor, d)
	}
	b = appendString(b, revisionDescription, r.Description())
	if u, ok := r.Info(); ok {
		b = appendString(b, revisionInfo, u.String())
	}
	if p, ok := r.Policy(); ok {
		b = appendPolicy(b, revisionPolicy, p)
	}
	releases := r.Releases()
	if len(texts) != len(releases) || e == nil {
		texts = nil
	}
	for i, rel := range releases {
		if texts != nil {
			if enc, ok := e.releases[string(texts[i])]; ok {
				b = append(b, enc...)
				continue
			}
		}
		start := len(b)
		var m int
		b, m = openMessage(b, revisionReleases)
		b = appendRelease(b, rel)
		b = closeMessage(b, m)
		if texts != nil {
			if e.releases == nil {
				e.releases = map[string][]byte{}
			}
			e.releases[string(texts[i])] = bytes.Clone(b[start:])
		}
	}
	return b
}

func appendPolicy(b []byte, num protowire.Number, p model.Policy) []byte {
	b, m := openMessage(b, num)
	b = appendString(b, policyVerdict, p.Verdict().String())
	reason, _ := p.Reason()
	b = appendString(b, policyReason, reason)
	return closeMessage(b, m)
}

func appendRelease(b []byte, r model.Release) []byte {
	b = appendString(b, releaseVersion, r.Version().String())
	b = appendString(b, releaseLicense, r.License().String())
	var m int
	for _, c := range r.Contents() {
		b, m = openMessage(b, releaseContents)
		b = appendString(b, contentName, c.Name().String())
		b = appendDigest(b, contentDigest, c.Digest())
		b = closeMessage(b, m)
	}
	desc, _ := r.Description()
	b = appendString(b, releaseDescription, desc)
	if t, ok := r.Published(); ok {
		b = appendString(b, releasePublished, t.String())
	}
	if p, ok := r.Policy(); ok {
		b = appendPolicy(b, releasePolicy, p)
	}
	for _, d := range r.Dependencies() {
		b, m = openMessage(b, releaseDepends)
		b = appendString(b, dependencyCoordinate, d.Coordinate().String())
		b = appendString(b, dependencyConstraint, d.Constraint().String())
		desc, _ := d.Description()
		b = appendString(b, dependencyDescription, desc)
		b = closeMessage(b, m)
	}
	for _, e := range r.Exclusions() {
		b, m = openMessage(b, releaseExcludes)
		b = appendString(b, exclusionCoordinate, e.Coordinate().String())
		desc, _ := e.Description()
		b = appendString(b, exclusionDescription, desc)
		b = closeMessage(b, m)
	}
	for _, p := range r.Preferences() {
		b, m = openMessage(b, releasePrefers)
		b = appendString(b, preferenceCoordinate, p.Coordinate().String())
		b = appendString(b, preferenceVersion, p.Version().String())
		desc, _ := p.Description()
		b = appendString(b, preferenceDescription, desc)
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
// string must be UTF-8 (proto.Marshal refuses it otherwise, and so would
// a pack's decoder). Only a path or a quoted argument of an invalid text
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
