package wire

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Received is one document of a Check request as a pack receives it. The
// path, digest, validity, text and chain are decoded with the batch; the
// directives and the model when first asked for, so that a pack pays only
// for what its rules read. Its strings and Text share the memory of the
// batch's request.
type Received struct {
	// Path is root-relative with forward slashes.
	Path string
	// Text is the file's exact bytes; nil when the pack does not need them.
	// It is a window of the request: it must not be changed.
	Text []byte
	// Digest is the revision digest of the text.
	Digest vt.Digest
	// Valid reports whether the text is a valid Journal.
	Valid bool
	// Chain is the document's place in its artifact's chain; the zero Chain
	// when the pack does not need it.
	Chain Chain

	batch           *batch
	text, dirs, rev span
}

// TextString returns the bytes [lo, hi) of the text as a string that
// shares the batch's memory, with the offsets clamped to the text: what a
// keyword or an argument of [Received.Directives] says as written. It is
// "" when the pack does not need the text.
func (d *Received) TextString(lo, hi int) string {
	n := len(d.Text)
	lo = min(max(lo, 0), n)
	hi = min(max(hi, lo), n)
	return d.batch.s[d.text.lo+lo : d.text.lo+hi]
}

// Chain places a document in its artifact's hash chain.
type Chain struct {
	// Coordinate is the artifact; "" when ARTIFACT could not be read.
	Coordinate string
	// Accepted reports whether the chain accepted this revision.
	Accepted bool
	// Revisions are the artifact's accepted revisions in ascending Journal
	// version: the genesis first, the head last. Documents of one artifact
	// share the slice: do not change it.
	Revisions []ChainEntry
}

// Head returns the newest accepted revision of the artifact, and false when
// none is accepted.
func (c Chain) Head() (ChainEntry, bool) {
	if len(c.Revisions) == 0 {
		return ChainEntry{}, false
	}
	return c.Revisions[len(c.Revisions)-1], true
}

// batch is the encoded documents of one request, as bytes and as one
// string over a copy of them (paths, model values and decoded arguments
// are substrings of it), with what its documents share.
type batch struct {
	b []byte
	s string

	// chains holds the decoded chain revisions by their encoding: every
	// document of an artifact carries the same list.
	chains map[string][]ChainEntry

	mu sync.Mutex
	// releases holds decoded releases by their encoding: each revision of
	// an artifact repeats the releases of the one before.
	releases map[string]model.Release
	// licenses holds parsed license expressions, which repeat a lot.
	licenses map[string]vt.License
}

// span is the window [lo, hi) of a batch.
type span struct{ lo, hi int }

var errMalformed = errors.New("malformed message")

// DecodeDocuments decodes the CheckRequest.documents fields in raw, the
// encoding of a request's documents (other fields are skipped). The
// documents' Text are windows of raw, which must not change afterwards.
// It fails on bytes that are not such a list or on a document whose path,
// digest or chain cannot be read; a malformed model or directive list is
// the error of [Received.Revision] or [Received.Directives].
func DecodeDocuments(raw []byte) ([]*Received, error) {
	w := &batch{b: raw, s: string(raw), chains: map[string][]ChainEntry{}, releases: map[string]model.Release{}, licenses: map[string]vt.License{}}
	var out []*Received
	err := w.fields(span{0, len(raw)}, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if num != checkRequestDocuments || typ != protowire.BytesType {
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

// fields calls f for each field of the message in w.b[s.lo:s.hi]: with the
// window of a length-delimited field's content, or the value of a varint.
// Fields of other wire types are skipped.
func (w *batch) fields(s span, f func(num protowire.Number, typ protowire.Type, val span, v uint64) error) error {
	for i := s.lo; i < s.hi; {
		num, typ, n := protowire.ConsumeTag(w.b[i:s.hi])
		if n < 0 {
			return errMalformed
		}
		i += n
		switch typ {
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(w.b[i:s.hi])
			if n < 0 {
				return errMalformed
			}
			i += n
			if err := f(num, typ, span{}, v); err != nil {
				return err
			}
		case protowire.BytesType:
			l, n := protowire.ConsumeVarint(w.b[i:s.hi])
			if n < 0 || l > uint64(s.hi-i-n) {
				return errMalformed
			}
			i += n
			if err := f(num, typ, span{i, i + int(l)}, 0); err != nil {
				return err
			}
			i += int(l)
		default:
			n := protowire.ConsumeFieldValue(num, typ, w.b[i:s.hi])
			if n < 0 {
				return errMalformed
			}
			i += n
		}
	}
	return nil
}

func (w *batch) str(s span) string { return w.s[s.lo:s.hi] }

// document decodes one Document message.
func (w *batch) document(s span) (*Received, error) {
	d := &Received{batch: w, dirs: span{-1, -1}, rev: span{-1, -1}}
	var digest, chain span
	hasChain := false
	err := w.fields(s, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case documentPath:
			d.Path = w.str(val)
		case documentText:
			d.Text, d.text = w.b[val.lo:val.hi:val.hi], val
		case documentDigest:
			digest = val
		case documentDirectives:
			d.dirs = val
		case documentRevision:
			d.rev, d.Valid = val, true
		case documentChain:
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
	return d, nil
}

func (w *batch) chain(s span) (Chain, error) {
	var c Chain
	var entries []span
	err := w.fields(s, func(num protowire.Number, typ protowire.Type, val span, v uint64) error {
		switch {
		case num == chainContextCoordinate && typ == protowire.BytesType:
			c.Coordinate = w.str(val)
		case num == chainContextAccepted && typ == protowire.VarintType:
			c.Accepted = v != 0
		case num == chainContextRevisions && typ == protowire.BytesType:
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
				case chainEntryPath:
					c.Revisions[i].Path = w.str(val)
				case chainEntryJournalVersion:
					jv = val
				case chainEntryDigest:
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
func (w *batch) contiguous(spans []span) bool {
	for i := 1; i < len(spans); i++ {
		gap := spans[i].lo - spans[i-1].hi
		l := spans[i].hi - spans[i].lo
		if gap != protowire.SizeTag(chainContextRevisions)+protowire.SizeVarint(uint64(l)) {
			return false
		}
	}
	return true
}

// Revision returns the model of a valid document, decoded on each call
// (callers keep it): the zero Revision when the document is not valid or
// the pack does not need the model. It fails when the model on the wire is
// malformed or holds a value that does not parse.
func (d *Received) Revision() (model.Revision, error) {
	if d.rev.lo >= d.rev.hi {
		return model.Revision{}, nil
	}
	rev, err := d.batch.revision(d.rev, d.Digest)
	if err != nil {
		return model.Revision{}, fmt.Errorf("document %s: model: %w", d.Path, err)
	}
	return rev, nil
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
func (w *batch) license(dc *decoder, s string) vt.License {
	w.mu.Lock()
	l, ok := w.licenses[s]
	w.mu.Unlock()
	if ok {
		return l
	}
	l = parse(dc, vt.ParseLicense, s)
	if dc.err == nil {
		w.mu.Lock()
		w.licenses[s] = l
		w.mu.Unlock()
	}
	return l
}

func (w *batch) revision(s span, digest vt.Digest) (model.Revision, error) {
	var dc decoder
	spec := model.RevisionSpec{Digest: digest}
	var coordinate, version bool
	err := w.fields(s, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case revisionCoordinate:
			spec.Coordinate, coordinate = parse(&dc, vt.ParseCoordinate, w.str(val)), true
		case revisionJournalVersion:
			spec.JournalVersion, version = parse(&dc, vt.ParseJournalVersion, w.str(val)), true
		case revisionPredecessor:
			if val.hi > val.lo {
				spec.Predecessor = parse(&dc, vt.ParseDigest, w.str(val))
			}
		case revisionDescription:
			spec.Description = w.str(val)
		case revisionInfo:
			if val.hi > val.lo {
				u := parse(&dc, vt.ParseURI, w.str(val))
				spec.Info = &u
			}
		case revisionPolicy:
			p, err := w.policy(&dc, val)
			if err != nil {
				return err
			}
			spec.Policy = &p
		case revisionReleases:
			key := w.str(val)
			w.mu.Lock()
			r, ok := w.releases[key]
			w.mu.Unlock()
			if !ok {
				var err error
				if r, err = w.release(&dc, val); err != nil {
					return err
				}
				if dc.err == nil {
					w.mu.Lock()
					w.releases[key] = r
					w.mu.Unlock()
				}
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
	return model.NewRevisionOwned(spec), nil
}

func (w *batch) policy(dc *decoder, s span) (model.Policy, error) {
	var verdict, reason string
	err := w.strings(s, policyFields, &verdict, &reason)
	return model.NewPolicy(parse(dc, vt.ParseVerdict, verdict), reason), err
}

// strings reads the string fields nums of the message in s: out[i] gets
// the value of field nums[i] (the last one, as protobuf wants).
func (w *batch) strings(s span, nums []protowire.Number, out ...*string) error {
	return w.fields(s, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if typ == protowire.BytesType {
			if i := slices.Index(nums, num); i >= 0 {
				*out[i] = w.str(val)
			}
		}
		return nil
	})
}

// The string fields of the small messages of a revision, in the order the
// decoder reads them.
var (
	policyFields     = []protowire.Number{policyVerdict, policyReason}
	contentFields    = []protowire.Number{contentName, contentDigest}
	dependencyFields = []protowire.Number{dependencyCoordinate, dependencyConstraint, dependencyDescription}
	exclusionFields  = []protowire.Number{exclusionCoordinate, exclusionDescription}
	preferenceFields = []protowire.Number{preferenceCoordinate, preferenceVersion, preferenceDescription}
)

func (w *batch) release(dc *decoder, s span) (model.Release, error) {
	var spec model.ReleaseSpec
	var version, license bool
	err := w.fields(s, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		var a, b, c string
		switch num {
		case releaseVersion:
			spec.Version, version = parse(dc, vt.ParseVersion, w.str(val)), true
		case releaseLicense:
			spec.License, license = w.license(dc, w.str(val)), true
		case releaseContents:
			if err := w.strings(val, contentFields, &a, &b); err != nil {
				return err
			}
			spec.Contents = append(spec.Contents, model.NewContent(parse(dc, vt.ParseName, a), parse(dc, vt.ParseDigest, b)))
		case releaseDescription:
			spec.Description = w.str(val)
		case releasePublished:
			if val.hi > val.lo {
				spec.Published = parse(dc, vt.ParseTimestamp, w.str(val))
			}
		case releasePolicy:
			p, err := w.policy(dc, val)
			if err != nil {
				return err
			}
			spec.Policy = &p
		case releaseDepends:
			if err := w.strings(val, dependencyFields, &a, &b, &c); err != nil {
				return err
			}
			spec.Depends = append(spec.Depends, model.NewDependency(parse(dc, vt.ParseCoordinate, a), parse(dc, vt.ParseConstraint, b), c))
		case releaseExcludes:
			if err := w.strings(val, exclusionFields, &a, &b); err != nil {
				return err
			}
			spec.Excludes = append(spec.Excludes, model.NewExclusion(parse(dc, vt.ParseCoordinate, a), b))
		case releasePrefers:
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
	return model.NewReleaseOwned(spec), nil
}

// Directives returns the document's directive lines in file order as
// offsets into its text, decoded on each call (callers keep them); nil
// when the pack does not need them. The arguments of all directives share
// one array and the decoded texts are substrings of the batch. Spans that
// do not fit the text (which a host never sends) are clamped; missing
// ones are empty. It fails when the list on the wire is malformed.
func (d *Received) Directives() ([]Directive, error) {
	if d.dirs.lo < 0 {
		return nil, nil
	}
	if out, ok := d.packedDirectives(); ok {
		return out, nil
	}
	counts, sp, quoted, decoded, err := d.batch.directives(d.dirs)
	if err != nil {
		return nil, fmt.Errorf("document %s: directives: %w", d.Path, err)
	}
	k := 0 // the next span pair
	next := func() (int, int) {
		if 2*k+1 >= len(sp) {
			k++
			return 0, 0
		}
		k++
		return d.clamp(int(sp[2*k-2]), int(sp[2*k-1]))
	}
	nargs := 0
	for _, c := range counts {
		nargs += max(0, int(c))
	}
	// Every argument has a span pair; more arguments than spans are empty.
	args := make([]Arg, min(nargs, len(sp)/2))
	out := make([]Directive, len(counts))
	a := 0 // the next argument
	for i, c := range counts {
		dir := &out[i]
		dir.Start, dir.End = next()
		dir.KeywordStart, dir.KeywordEnd = next()
		c := max(0, int(c))
		if a+c <= len(args) {
			dir.Args = args[a : a+c : a+c]
		} else {
			dir.Args = make([]Arg, c)
		}
		for j := range dir.Args {
			arg := &dir.Args[j]
			arg.Start, arg.End = next()
			if a < len(quoted) && quoted[a] {
				arg.Quoted = true
				if len(decoded) > 0 {
					arg.Text, decoded = decoded[0], decoded[1:]
				}
			}
			a++
		}
	}
	return out, nil
}

// clamp returns [lo, hi) clamped to the text.
func (d *Received) clamp(lo, hi int) (int, int) {
	n := len(d.Text)
	lo = min(max(lo, 0), n)
	return lo, min(max(hi, lo), n)
}

// packedDirectives is [Received.Directives] for the encoding a host
// writes: each of the three arrays packed, once, and consistent (as many
// span pairs as directives and arguments need, one quoted flag per
// argument). It reads the arrays in one pass, without decoding them into
// lists first; false means another encoding, which Directives reads the
// general way.
func (d *Received) packedDirectives() ([]Directive, bool) {
	w := d.batch
	var counts, spans, quoted span
	var seen [directivesDecoded + 1]int
	var decoded []string
	err := w.fields(d.dirs, func(num protowire.Number, typ protowire.Type, val span, _ uint64) error {
		if num < directivesArgCounts || num > directivesDecoded {
			return nil
		}
		if typ != protowire.BytesType {
			return errMalformed // unpacked: the general way
		}
		seen[num]++
		switch num {
		case directivesArgCounts:
			counts = val
		case directivesSpans:
			spans = val
		case directivesQuoted:
			quoted = val
		case directivesDecoded:
			decoded = append(decoded, w.str(val))
		}
		return nil
	})
	if err != nil || seen[directivesArgCounts] > 1 || seen[directivesSpans] > 1 || seen[directivesQuoted] > 1 {
		return nil, false
	}
	cb, sb, qb := w.b[counts.lo:counts.hi], w.b[spans.lo:spans.hi], w.b[quoted.lo:quoted.hi]
	varint := func(b *[]byte) (int, bool) {
		v, n := protowire.ConsumeVarint(*b)
		if n < 0 {
			return 0, false
		}
		*b = (*b)[n:]
		return int(int64(v)), true
	}
	pair := func() (int, int, bool) {
		lo, ok1 := varint(&sb)
		hi, ok2 := varint(&sb)
		lo, hi = d.clamp(lo, hi)
		return lo, hi, ok1 && ok2
	}
	out := make([]Directive, 0, len(cb))
	args := make([]Arg, len(qb)) // one flag per argument, one byte each
	a := 0
	for len(cb) > 0 {
		c, ok := varint(&cb)
		if !ok || c < 0 || a+c > len(args) {
			return nil, false
		}
		var dir Directive
		var ok1, ok2 bool
		dir.Start, dir.End, ok1 = pair()
		dir.KeywordStart, dir.KeywordEnd, ok2 = pair()
		if !ok1 || !ok2 {
			return nil, false
		}
		dir.Args = args[a : a+c : a+c]
		for j := range dir.Args {
			arg := &dir.Args[j]
			if arg.Start, arg.End, ok = pair(); !ok || qb[a] > 1 {
				return nil, false
			}
			if qb[a] == 1 {
				if len(decoded) == 0 {
					return nil, false
				}
				arg.Quoted, arg.Text, decoded = true, decoded[0], decoded[1:]
			}
			a++
		}
		out = append(out, dir)
	}
	if a != len(args) || len(sb) > 0 || len(decoded) > 0 {
		return nil, false
	}
	return out, true
}

// directives decodes the packed arrays of a Directives message. Repeated
// scalars are accepted packed or not, as protobuf requires.
func (w *batch) directives(s span) (counts []int32, spans []int64, quoted []bool, decoded []string, err error) {
	err = w.fields(s, func(num protowire.Number, typ protowire.Type, val span, v uint64) error {
		switch num {
		case directivesArgCounts, directivesSpans, directivesQuoted:
			each := func(v uint64) {
				switch num {
				case directivesArgCounts:
					counts = append(counts, int32(v))
				case directivesSpans:
					spans = append(spans, int64(v))
				case directivesQuoted:
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
			case directivesArgCounts:
				counts = slices.Grow(counts, len(b))
			case directivesSpans:
				spans = slices.Grow(spans, len(b)/2)
			case directivesQuoted:
				quoted = slices.Grow(quoted, len(b))
			}
			for len(b) > 0 {
				x, n := protowire.ConsumeVarint(b)
				if n < 0 {
					return errMalformed
				}
				each(x)
				b = b[n:]
			}
		case directivesDecoded:
			if typ == protowire.BytesType {
				decoded = append(decoded, w.str(val))
			}
		}
		return nil
	})
	return
}
