package sdk

import (
	"errors"
	"fmt"
	"slices"
	"unsafe"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// The pack side of a Check reads the request's documents straight from
// their protobuf encoding into Documents: a batch is one byte slice, the
// request's own buffer (Text is a window of it), and one string over the
// same memory (paths, model values and decoded arguments are substrings of
// it), instead of becoming a tree
// of generated messages whose every string is allocated and checked on
// its own and then converted again. The bytes are the same either way; the
// server codec below only keeps CheckRequest.documents undecoded.

// serverOptions are the gRPC server options of a pack. The server has no
// receive buffer pool: each request arrives in a buffer of its own, which
// [codec] keeps for the documents instead of copying them out of a pooled
// one (the pool saved little, since its buffers went with every garbage
// collection).
func serverOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(maxMessageSize), grpc.MaxSendMsgSize(maxMessageSize),
		grpc.ForceServerCodec(codec{}),
	}
}

// codec is gRPC's protobuf codec, except that it leaves the documents of a
// CheckRequest encoded, in the message's unknown fields, for
// [decodeBatch].
type codec struct{}

func (codec) Name() string { return "proto" }

func (codec) Marshal(v any) ([]byte, error) {
	return encoding.GetCodec("proto").Marshal(v)
}

// Unmarshal keeps data, which gRPC does not reuse (no receive buffer pool,
// see [serverOptions]): the documents are a window of it when they follow
// each other (journal-lint sends them after every other field), else a
// copy.
func (codec) Unmarshal(data []byte, v any) error {
	req, ok := v.(*pb.CheckRequest)
	if !ok {
		return encoding.GetCodec("proto").Unmarshal(data, v)
	}
	// The window [lo, hi) from the first document field to the end of the
	// last, and whether other fields lie within it.
	lo, hi, size, mixed := -1, 0, 0, false
	for i := 0; i < len(data); {
		num, typ, n := protowire.ConsumeTag(data[i:])
		if n < 0 {
			return protowire.ParseError(n)
		}
		m := protowire.ConsumeFieldValue(num, typ, data[i+n:])
		if m < 0 {
			return protowire.ParseError(m)
		}
		if num == wire.CheckRequestDocuments && typ == protowire.BytesType {
			if lo < 0 {
				lo = i
			}
			mixed = mixed || hi != 0 && hi != i
			hi, size = i+n+m, size+n+m
		}
		i += n + m
	}
	var docs, rest []byte
	switch {
	case lo < 0:
		rest = data
	case !mixed:
		docs = data[lo:hi:hi]
		rest = append(data[:lo:lo], data[hi:]...)
	default:
		docs = make([]byte, 0, size)
		rest = make([]byte, 0, len(data)-size)
		for b := data; len(b) > 0; {
			num, typ, n := protowire.ConsumeTag(b)
			m := protowire.ConsumeFieldValue(num, typ, b[n:])
			if num == wire.CheckRequestDocuments && typ == protowire.BytesType {
				docs = append(docs, b[:n+m]...)
			} else {
				rest = append(rest, b[:n+m]...)
			}
			b = b[n+m:]
		}
	}
	if err := proto.Unmarshal(rest, req); err != nil {
		return err
	}
	if len(docs) > 0 {
		if u := req.ProtoReflect().GetUnknown(); len(u) > 0 {
			docs = append(u, docs...)
		}
		req.ProtoReflect().SetUnknown(docs)
	}
	return nil
}

// requestDocuments returns the encoded documents of req: its unknown
// fields as [codec] left them, followed by the decoded documents
// encoded again (a request that did not come through the codec). The
// result may share req's memory; req must not be used afterwards.
func requestDocuments(req *pb.CheckRequest) ([]byte, error) {
	raw := req.ProtoReflect().GetUnknown()
	if len(req.GetDocuments()) == 0 {
		return raw, nil
	}
	out := append([]byte(nil), raw...)
	for _, d := range req.GetDocuments() {
		b, err := proto.Marshal(d)
		if err != nil {
			return nil, err
		}
		out = protowire.AppendTag(out, wire.CheckRequestDocuments, protowire.BytesType)
		out = protowire.AppendBytes(out, b)
	}
	return out, nil
}

// reader is one batch's encoded documents, as bytes and as a string over
// the same memory.
type reader struct {
	b []byte
	s string
	// chains caches the decoded chain revisions by their encoding: every
	// document of an artifact carries the same list.
	chains map[string][]ChainEntry
	// licenses caches parsed license expressions, which repeat a lot.
	licenses map[string]vt.License
	// parse is set when the documents carry text instead of directives and
	// model (CheckRequest.parse_text), and needs are then the pack's
	// [Pack.EffectiveNeeds]: the parts its documents give.
	parse bool
	needs Needs
}

// span is the window [lo, hi) of a reader.
type span struct{ lo, hi int }

var errTruncated = errors.New("malformed message")

// fields calls f for each field of the message in w.b[s.lo:s.hi]: with the
// window of a length-delimited field's content, or the value of a varint.
// Fields of other wire types are skipped.
func (w *reader) fields(s span, f func(num protowire.Number, typ protowire.Type, val span, v uint64) error) error {
	for i := s.lo; i < s.hi; {
		num, typ, n := protowire.ConsumeTag(w.b[i:s.hi])
		if n < 0 {
			return errTruncated
		}
		i += n
		switch typ {
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(w.b[i:s.hi])
			if n < 0 {
				return errTruncated
			}
			i += n
			if err := f(num, typ, span{}, v); err != nil {
				return err
			}
		case protowire.BytesType:
			l, n := protowire.ConsumeVarint(w.b[i:s.hi])
			if n < 0 || l > uint64(s.hi-i-n) {
				return errTruncated
			}
			i += n
			if err := f(num, typ, span{i, i + int(l)}, 0); err != nil {
				return err
			}
			i += int(l)
		default:
			n := protowire.ConsumeFieldValue(num, typ, w.b[i:s.hi])
			if n < 0 {
				return errTruncated
			}
			i += n
		}
	}
	return nil
}

func (w *reader) str(s span) string { return w.s[s.lo:s.hi] }

// decodeBatch decodes the CheckRequest.documents fields in raw (other
// fields are skipped). The documents' Text and strings share raw, which
// must not change afterwards: the reader's string is raw itself, not a
// copy (a batch is megabytes, and a copy of it was a third of the
// decoding). With parse (CheckRequest.parse_text), each document parses
// its text on first use of its directives or model, and gives only the
// parts in needs, as it would with every part on the wire.
func decodeBatch(raw []byte, parse bool, needs Needs) ([]*Document, error) {
	b := raw
	w := &reader{b: b, s: unsafe.String(unsafe.SliceData(b), len(b)), chains: map[string][]ChainEntry{}, licenses: map[string]vt.License{},
		parse: parse, needs: needs.normal()}
	var out []*Document
	err := w.fields(span{0, len(b)}, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if num != wire.CheckRequestDocuments || typ != protowire.BytesType {
			return nil
		}
		d, err := w.document(val)
		if err != nil {
			return err
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// document decodes one Document message.
func (w *reader) document(s span) (*Document, error) {
	d := &Document{}
	var digest, revision, chain span
	var hasRevision, hasChain bool
	err := w.fields(s, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case wire.DocumentPath:
			d.Path = w.str(val)
		case wire.DocumentText:
			d.src, d.wireText = w.b[val.lo:val.hi:val.hi], val
			if !w.parse || w.needs&NeedText != 0 {
				d.Text = d.src
			}
		case wire.DocumentDigest:
			digest = val
		case wire.DocumentDirectives:
			d.wire, d.wireDirs = w, val
		case wire.DocumentRevision:
			revision, hasRevision = val, true
		case wire.DocumentChain:
			chain, hasChain = val, true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("document: %w", err)
	}
	if d.Digest, err = vt.ParseDigest(w.str(digest)); err != nil {
		return nil, fmt.Errorf("document %s: digest: %w", d.Path, err)
	}
	if hasChain {
		if d.Chain, err = w.chain(chain); err != nil {
			return nil, fmt.Errorf("document %s: chain: %w", d.Path, err)
		}
	}
	if w.parse {
		d.parse = w.needs & (NeedDirectives | NeedRevision)
	}
	if hasRevision && (revision.lo == revision.hi || w.parse) {
		// A valid document whose model the pack does not need (Needs),
		// or builds itself.
		d.Valid = true
	} else if hasRevision {
		rev, err := w.revision(revision, d.Digest)
		if err != nil {
			return nil, fmt.Errorf("document %s: model: %w", d.Path, err)
		}
		d.revision, d.Valid = rev, true
	}
	return d, nil
}

func (w *reader) chain(s span) (Chain, error) {
	var c Chain
	var entries []span
	err := w.fields(s, func(num protowire.Number, typ protowire.Type, val span, v uint64) error {
		switch {
		case num == wire.ChainContextCoordinate && typ == protowire.BytesType:
			c.Coordinate = w.str(val)
		case num == wire.ChainContextAccepted && typ == protowire.VarintType:
			c.Accepted = v != 0
		case num == wire.ChainContextRevisions && typ == protowire.BytesType:
			entries = append(entries, val)
		}
		return nil
	})
	if err != nil || len(entries) == 0 {
		return c, err
	}
	// The entries' encoding, as the cache key when they are contiguous.
	key := ""
	if last := entries[len(entries)-1]; w.contiguous(entries) {
		key = w.s[entries[0].lo:last.hi]
		if revs, ok := w.chains[key]; ok {
			c.Revisions = revs
			return c, nil
		}
	}
	c.Revisions = make([]ChainEntry, len(entries))
	for i, e := range entries {
		var jv, dg span
		err := w.fields(e, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
			if typ == protowire.BytesType {
				switch num {
				case wire.ChainEntryPath:
					c.Revisions[i].Path = w.str(val)
				case wire.ChainEntryJournalVersion:
					jv = val
				case wire.ChainEntryDigest:
					dg = val
				}
			}
			return nil
		})
		if err != nil {
			return c, err
		}
		if c.Revisions[i].JournalVersion, err = vt.ParseJournalVersion(w.str(jv)); err != nil {
			return c, err
		}
		if c.Revisions[i].Digest, err = vt.ParseDigest(w.str(dg)); err != nil {
			return c, err
		}
	}
	if key != "" {
		w.chains[key] = c.Revisions
	}
	return c, nil
}

// contiguous reports whether the length-delimited fields whose contents
// are spans follow each other with nothing but their tags and lengths in
// between (so that the bytes from the first to the last are the list).
func (w *reader) contiguous(spans []span) bool {
	for i := 1; i < len(spans); i++ {
		gap := spans[i].lo - spans[i-1].hi
		l := spans[i].hi - spans[i].lo
		if gap != protowire.SizeTag(wire.ChainContextRevisions)+protowire.SizeVarint(uint64(l)) {
			return false
		}
	}
	return true
}

// decoder collects the first error of a series of value parses.
type decoder struct{ err error }

func parse[T any](dc *decoder, f func(string) (T, error), s string) T {
	v, err := f(s)
	if err != nil && dc.err == nil {
		dc.err = err
	}
	return v
}

// license parses a license expression, once per distinct text and batch.
func (w *reader) license(dc *decoder, s string) vt.License {
	if l, ok := w.licenses[s]; ok {
		return l
	}
	l := parse(dc, vt.ParseLicense, s)
	if dc.err == nil {
		w.licenses[s] = l
	}
	return l
}

func (w *reader) revision(s span, digest vt.Digest) (model.Revision, error) {
	var dc decoder
	spec := model.RevisionSpec{Digest: digest}
	var coordinate, version bool
	err := w.fields(s, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case wire.RevisionCoordinate:
			spec.Coordinate, coordinate = parse(&dc, vt.ParseCoordinate, w.str(val)), true
		case wire.RevisionJournalVersion:
			spec.JournalVersion, version = parse(&dc, vt.ParseJournalVersion, w.str(val)), true
		case wire.RevisionPredecessor:
			if val.hi > val.lo {
				spec.Predecessor = parse(&dc, vt.ParseDigest, w.str(val))
			}
		case wire.RevisionDescription:
			spec.Description = w.str(val)
		case wire.RevisionInfo:
			if val.hi > val.lo {
				u := parse(&dc, vt.ParseURI, w.str(val))
				spec.Info = &u
			}
		case wire.RevisionPolicy:
			p, err := w.policy(&dc, val)
			if err != nil {
				return err
			}
			spec.Policy = &p
		case wire.RevisionReleases:
			r, err := w.release(&dc, val)
			if err != nil {
				return err
			}
			spec.Releases = append(spec.Releases, r)
		}
		return nil
	})
	if err != nil {
		return model.Revision{}, err
	}
	if !coordinate { // absent: as empty, which does not parse
		spec.Coordinate = parse(&dc, vt.ParseCoordinate, "")
	}
	if !version {
		spec.JournalVersion = parse(&dc, vt.ParseJournalVersion, "")
	}
	if dc.err != nil {
		return model.Revision{}, dc.err
	}
	return model.NewRevision(spec), nil
}

func (w *reader) policy(dc *decoder, s span) (model.Policy, error) {
	var verdict, reason string
	err := w.fields(s, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if typ == protowire.BytesType {
			switch num {
			case wire.PolicyVerdict:
				verdict = w.str(val)
			case wire.PolicyReason:
				reason = w.str(val)
			}
		}
		return nil
	})
	return model.NewPolicy(parse(dc, vt.ParseVerdict, verdict), reason), err
}

// strings reads the string fields nums of the message in s: out[i] gets
// the value of field nums[i] (the last one, as protobuf wants).
func (w *reader) strings(s span, nums []protowire.Number, out ...*string) error {
	return w.fields(s, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if typ == protowire.BytesType {
			if i := slices.Index(nums, num); i >= 0 {
				*out[i] = w.str(val)
			}
		}
		return nil
	})
}

// The string fields of the small messages of a Release, in the order the
// decoder reads them.
var (
	contentFields    = []protowire.Number{wire.ContentName, wire.ContentDigest}
	dependencyFields = []protowire.Number{wire.DependencyCoordinate, wire.DependencyConstraint, wire.DependencyDescription}
	exclusionFields  = []protowire.Number{wire.ExclusionCoordinate, wire.ExclusionDescription}
	preferenceFields = []protowire.Number{wire.PreferenceCoordinate, wire.PreferenceVersion, wire.PreferenceDescription}
)

func (w *reader) release(dc *decoder, s span) (model.Release, error) {
	var spec model.ReleaseSpec
	var version, license bool
	err := w.fields(s, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		var a, b, c string
		switch num {
		case wire.ReleaseVersion:
			spec.Version, version = parse(dc, vt.ParseVersion, w.str(val)), true
		case wire.ReleaseLicense:
			spec.License, license = w.license(dc, w.str(val)), true
		case wire.ReleaseContents:
			if err := w.strings(val, contentFields, &a, &b); err != nil {
				return err
			}
			spec.Contents = append(spec.Contents, model.NewContent(parse(dc, vt.ParseName, a), parse(dc, vt.ParseDigest, b)))
		case wire.ReleaseDescription:
			spec.Description = w.str(val)
		case wire.ReleasePublished:
			if val.hi > val.lo {
				spec.Published = parse(dc, vt.ParseTimestamp, w.str(val))
			}
		case wire.ReleasePolicy:
			p, err := w.policy(dc, val)
			if err != nil {
				return err
			}
			spec.Policy = &p
		case wire.ReleaseDepends:
			if err := w.strings(val, dependencyFields, &a, &b, &c); err != nil {
				return err
			}
			spec.Depends = append(spec.Depends, model.NewDependency(parse(dc, vt.ParseCoordinate, a), parse(dc, vt.ParseConstraint, b), c))
		case wire.ReleaseExcludes:
			if err := w.strings(val, exclusionFields, &a, &b); err != nil {
				return err
			}
			spec.Excludes = append(spec.Excludes, model.NewExclusion(parse(dc, vt.ParseCoordinate, a), b))
		case wire.ReleasePrefers:
			if err := w.strings(val, preferenceFields, &a, &b, &c); err != nil {
				return err
			}
			spec.Prefers = append(spec.Prefers, model.NewPreference(parse(dc, vt.ParseCoordinate, a), parse(dc, vt.ParseVersion, b), c))
		}
		return nil
	})
	if err != nil {
		return model.Release{}, err
	}
	if !version {
		spec.Version = parse(dc, vt.ParseVersion, "")
	}
	if !license {
		spec.License = w.license(dc, "")
	}
	return model.NewRelease(spec), nil
}

// directives decodes the packed arrays of a Directives message. Repeated
// scalars are accepted packed or not, as protobuf requires.
func (w *reader) directives(s span) (counts []int32, spans []int64, quoted []bool, decoded []string, err error) {
	err = w.fields(s, func(num protowire.Number, typ protowire.Type, val span, v uint64) error {
		switch num {
		case wire.DirectivesArgCounts, wire.DirectivesSpans, wire.DirectivesQuoted:
			each := func(v uint64) {
				switch num {
				case wire.DirectivesArgCounts:
					counts = append(counts, int32(v))
				case wire.DirectivesSpans:
					spans = append(spans, int64(v))
				case wire.DirectivesQuoted:
					quoted = append(quoted, v != 0)
				}
			}
			if typ == protowire.VarintType {
				each(v)
				return nil
			}
			if typ != protowire.BytesType {
				return nil
			}
			b := w.b[val.lo:val.hi]
			switch num { // sizes for one-byte (quoted) and two-byte values
			case wire.DirectivesArgCounts:
				counts = slices.Grow(counts, len(b))
			case wire.DirectivesSpans:
				spans = slices.Grow(spans, len(b)/2)
			case wire.DirectivesQuoted:
				quoted = slices.Grow(quoted, len(b))
			}
			for len(b) > 0 {
				x, n := protowire.ConsumeVarint(b)
				if n < 0 {
					return errTruncated
				}
				each(x)
				b = b[n:]
			}
		case wire.DirectivesDecoded:
			if typ == protowire.BytesType {
				decoded = append(decoded, w.str(val))
			}
		}
		return nil
	})
	return
}
