package sdk

import (
	"fmt"
	"sync"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// Document is one Journal file of the tree, as journal-lint parsed it.
type Document struct {
	// Path is root-relative with forward slashes, e.g.
	// "com.example.widget/20260110T080000Z.journal".
	Path string
	// Text is the file's exact bytes. Do not change it.
	Text []byte
	// Digest is the revision digest: SHA-256 over Text (format spec §1).
	Digest vt.Digest
	// Revision is the parsed model; it is meaningful only when Valid.
	Revision model.Revision
	// Valid reports whether the text is a valid Journal. When it is false
	// the built-in diagnostics say why, and rules that need the model
	// should report nothing.
	Valid bool
	// Chain is the document's place in its artifact's hash chain.
	Chain Chain

	linesOnce sync.Once
	lines     *diag.LineIndex

	wire     *pb.Document // the directives, decoded on first use
	dirsOnce sync.Once
	dirs     []Directive

	blocksOnce sync.Once
	blocks     []ReleaseBlock
}

// Directive is one directive line.
type Directive struct {
	// Keyword is the KEYWORD as written, such as "LICENSE".
	Keyword      string
	KeywordRange Range
	// Args are the arguments in order. LICENSE has one argument: the rest
	// of the line.
	Args []Arg
	// Range covers the directive from its keyword to its last non-blank
	// character.
	Range Range
	// Line is the 1-based line number.
	Line int
}

// Arg is one argument of a directive.
type Arg struct {
	// Raw is the argument exactly as written, with its quotes if quoted.
	Raw string
	// Text is the decoded value: Raw for a bare token, the JSON-decoded
	// string for a quoted one.
	Text string
	// Quoted reports whether the argument is a quoted string.
	Quoted bool
	// Range covers Raw.
	Range Range
}

// Chain places a document in its artifact's hash chain.
type Chain struct {
	// Coordinate is the artifact; "" when ARTIFACT could not be read.
	Coordinate string
	// Accepted reports whether the chain accepted this revision.
	Accepted bool
	// Revisions are the artifact's accepted revisions in ascending Journal
	// version: the genesis first, the head last.
	Revisions []ChainEntry
}

// ChainEntry is one accepted revision of an artifact.
type ChainEntry struct {
	// Path is the root-relative path of its file.
	Path           string
	JournalVersion vt.JournalVersion
	Digest         vt.Digest
}

// Head returns the newest accepted revision of the artifact, and false when
// none is accepted.
func (c Chain) Head() (ChainEntry, bool) {
	if len(c.Revisions) == 0 {
		return ChainEntry{}, false
	}
	return c.Revisions[len(c.Revisions)-1], true
}

// ReleaseBlock is one RELEASE block: its RELEASE directive and the
// directives after it up to the next RELEASE.
type ReleaseBlock struct {
	// Version is the RELEASE argument as written ("" when missing).
	Version    string
	Release    Directive
	Directives []Directive
}

// Find returns the first directive of the block with the given keyword.
func (b ReleaseBlock) Find(keyword string) (Directive, bool) {
	for _, d := range b.Directives {
		if d.Keyword == keyword {
			return d, true
		}
	}
	return Directive{}, false
}

// Directives returns every directive line in file order (comments and
// blank lines are not directives), also when the text is invalid. They are
// decoded on first use and shared: do not change the slice.
func (d *Document) Directives() []Directive {
	d.dirsOnce.Do(func() { d.dirs = d.decodeDirectives() })
	return d.dirs
}

// Header returns the first header directive (one before the first
// RELEASE) with the given keyword.
func (d *Document) Header(keyword string) (Directive, bool) {
	for _, x := range d.Directives() {
		if x.Keyword == "RELEASE" {
			break
		}
		if x.Keyword == keyword {
			return x, true
		}
	}
	return Directive{}, false
}

// ReleaseBlocks returns the document's RELEASE blocks in file order. The
// slice is computed once per document and shared: do not change it.
func (d *Document) ReleaseBlocks() []ReleaseBlock {
	d.blocksOnce.Do(func() { d.blocks = releaseBlocks(d.Directives()) })
	return d.blocks
}

func releaseBlocks(dirs []Directive) []ReleaseBlock {
	var out []ReleaseBlock
	for _, x := range dirs {
		if x.Keyword == "RELEASE" {
			b := ReleaseBlock{Release: x}
			if len(x.Args) > 0 {
				b.Version = x.Args[0].Text
			}
			out = append(out, b)
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].Directives = append(out[len(out)-1].Directives, x)
		}
	}
	return out
}

// ReleaseBlock returns the first RELEASE block whose version is written
// exactly as version.
func (d *Document) ReleaseBlock(version string) (ReleaseBlock, bool) {
	for _, b := range d.ReleaseBlocks() {
		if b.Version == version {
			return b, true
		}
	}
	return ReleaseBlock{}, false
}

// Range returns the range of the byte offsets [start, end) of Text, with
// lines and columns; offsets are clamped to the text.
func (d *Document) Range(start, end int) Range {
	d.linesOnce.Do(func() { d.lines = diag.NewLineIndex(d.Text) })
	if start < 0 {
		start = 0
	}
	if end > len(d.Text) {
		end = len(d.Text)
	}
	if end < start {
		end = start
	}
	return rangeOf(d.lines.Range(start, end))
}

// decodeDirectives turns the packed wire directives into Directives.
// Spans that do not fit the text (which journal-lint never sends) are
// clamped; missing ones are empty.
func (d *Document) decodeDirectives() []Directive {
	w := d.wire.GetDirectives()
	counts, sp, q, dec := w.GetArgCounts(), w.GetSpans(), w.GetQuoted(), w.GetDecoded()
	out := make([]Directive, len(counts))
	k, a := 0, 0 // next span pair, next argument
	span := func() Range {
		if 2*k+1 >= len(sp) {
			k++
			return Range{}
		}
		r := d.Range(int(sp[2*k]), int(sp[2*k+1]))
		k++
		return r
	}
	for i, n := range counts {
		dir := Directive{Range: span(), KeywordRange: span()}
		dir.Keyword = string(d.Text[dir.KeywordRange.Start.Offset:dir.KeywordRange.End.Offset])
		dir.Line = dir.Range.Start.Line
		dir.Args = make([]Arg, max(0, int(n)))
		for j := range dir.Args {
			r := span()
			arg := Arg{Raw: string(d.Text[r.Start.Offset:r.End.Offset]), Range: r}
			arg.Text = arg.Raw
			if a < len(q) && q[a] {
				arg.Quoted = true
				if len(dec) > 0 {
					arg.Text, dec = dec[0], dec[1:]
				}
			}
			a++
			dir.Args[j] = arg
		}
		out[i] = dir
	}
	return out
}

// decodeDocument turns a wire document into a Document; its directives are
// decoded on first use.
func decodeDocument(m *pb.Document) (*Document, error) {
	d := &Document{Path: m.GetPath(), Text: m.GetText(), wire: m}
	var err error
	if d.Digest, err = vt.ParseDigest(m.GetDigest()); err != nil {
		return nil, fmt.Errorf("document %s: digest: %w", d.Path, err)
	}
	if c := m.GetChain(); c != nil {
		d.Chain = Chain{Coordinate: c.GetCoordinate(), Accepted: c.GetAccepted()}
		for _, e := range c.GetRevisions() {
			jv, err := vt.ParseJournalVersion(e.GetJournalVersion())
			if err != nil {
				return nil, fmt.Errorf("document %s: chain: %w", d.Path, err)
			}
			dg, err := vt.ParseDigest(e.GetDigest())
			if err != nil {
				return nil, fmt.Errorf("document %s: chain: %w", d.Path, err)
			}
			d.Chain.Revisions = append(d.Chain.Revisions, ChainEntry{Path: e.GetPath(), JournalVersion: jv, Digest: dg})
		}
	}
	if r := m.GetRevision(); r != nil {
		rev, err := decodeRevision(r, d.Digest)
		if err != nil {
			return nil, fmt.Errorf("document %s: model: %w", d.Path, err)
		}
		d.Revision, d.Valid = rev, true
	}
	return d, nil
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

func decodeRevision(m *pb.Revision, digest vt.Digest) (model.Revision, error) {
	var dc decoder
	spec := model.RevisionSpec{
		Digest:         digest,
		Coordinate:     parse(&dc, vt.ParseCoordinate, m.GetCoordinate()),
		JournalVersion: parse(&dc, vt.ParseJournalVersion, m.GetJournalVersion()),
		Description:    m.GetDescription(),
	}
	if m.GetPredecessor() != "" {
		spec.Predecessor = parse(&dc, vt.ParseDigest, m.GetPredecessor())
	}
	if m.GetInfo() != "" {
		u := parse(&dc, vt.ParseURI, m.GetInfo())
		spec.Info = &u
	}
	if p := m.GetPolicy(); p != nil {
		pol := decodePolicy(&dc, p)
		spec.Policy = &pol
	}
	for _, r := range m.GetReleases() {
		spec.Releases = append(spec.Releases, decodeRelease(&dc, r))
	}
	if dc.err != nil {
		return model.Revision{}, dc.err
	}
	return model.NewRevision(spec), nil
}

func decodePolicy(dc *decoder, p *pb.Policy) model.Policy {
	return model.NewPolicy(parse(dc, vt.ParseVerdict, p.GetVerdict()), p.GetReason())
}

func decodeRelease(dc *decoder, m *pb.Release) model.Release {
	spec := model.ReleaseSpec{
		Version:     parse(dc, vt.ParseVersion, m.GetVersion()),
		License:     parse(dc, vt.ParseLicense, m.GetLicense()),
		Description: m.GetDescription(),
	}
	for _, c := range m.GetContents() {
		spec.Contents = append(spec.Contents, model.NewContent(parse(dc, vt.ParseName, c.GetName()), parse(dc, vt.ParseDigest, c.GetDigest())))
	}
	if m.GetPublished() != "" {
		spec.Published = parse(dc, vt.ParseTimestamp, m.GetPublished())
	}
	if p := m.GetPolicy(); p != nil {
		pol := decodePolicy(dc, p)
		spec.Policy = &pol
	}
	for _, x := range m.GetDepends() {
		spec.Depends = append(spec.Depends, model.NewDependency(parse(dc, vt.ParseCoordinate, x.GetCoordinate()),
			parse(dc, vt.ParseConstraint, x.GetConstraint()), x.GetDescription()))
	}
	for _, x := range m.GetExcludes() {
		spec.Excludes = append(spec.Excludes, model.NewExclusion(parse(dc, vt.ParseCoordinate, x.GetCoordinate()), x.GetDescription()))
	}
	for _, x := range m.GetPrefers() {
		spec.Prefers = append(spec.Prefers, model.NewPreference(parse(dc, vt.ParseCoordinate, x.GetCoordinate()),
			parse(dc, vt.ParseVersion, x.GetVersion()), x.GetDescription()))
	}
	return model.NewRelease(spec)
}
