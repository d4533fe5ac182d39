package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
	"unsafe"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// Parse parses and validates one Journal text and returns its Document and
// every diagnostic it finds, sorted with [diag.List.Sort]. path is used only
// as the Path of the diagnostics (root-relative, forward slashes); Parse does
// no I/O and keeps src in the Document, whose strings share its memory:
// src must not change afterwards.
//
// Parse never panics and always returns a non-nil Document. Every
// diagnostic has severity [diag.Error] and one of these codes:
//
//   - [rules.FSTooLarge] for a text over [MaxSize] bytes ("Lines and
//     encoding" in docs/journal-format.md); it
//     is then the only diagnostic, about the whole file, and nothing else is
//     parsed;
//   - [rules.SyntaxEncoding] for a text that starts with a UTF-16 or UTF-32
//     byte-order mark: one diagnostic naming the encoding, and nothing else
//     is parsed (read as UTF-8 such a text is nothing but invalid bytes and
//     NULs, one error per line);
//   - [rules.SyntaxEmpty] for an empty text or one of only blanks and line
//     terminators (requirements: ingestion rejects empty or blank input);
//   - syntax/encoding, syntax/line-ending, syntax/unknown-directive and
//     syntax/arguments for the line and token rules of "Lines and encoding"
//     and "Directives and arguments" in docs/journal-format.md;
//   - syntax/misplaced-directive, syntax/duplicate-directive and
//     syntax/missing-directive for the structure of "The header" and
//     "Release blocks" and rule 3 of "Semantic rules" in
//     docs/journal-format.md;
//   - value/… for a value that breaks its grammar in "Values" in
//     docs/journal-format.md (the code is "value/"
//     plus the [vt.SyntaxError] Kind; value/format for JOURNAL_FORMAT other
//     than 1);
//   - semantic/… for the rules 2 and 4–7 of "Semantic rules" in
//     docs/journal-format.md (see semantic.go).
//
// The Document is filled as far as the text allows: Digest, LineEnding,
// Directives, Header and Releases always; Coordinate, JournalVersion and
// Predecessor whenever their own directive parsed, even if other parts of
// the text are invalid; Revision only when there is no diagnostic at all
// (RevisionOK).
func Parse(path string, src []byte) (*Document, diag.List) {
	doc := &Document{Path: path, Src: src, Digest: vt.DigestOf(src)}
	if len(src) > MaxSize {
		doc.Lines = diag.NewLineIndex(src)
		return doc, diag.List{{
			Code:     rules.FSTooLarge,
			Severity: diag.Error,
			Message:  fmt.Sprintf("text is %d bytes, more than the limit of %d bytes (16 MiB)", len(src), MaxSize),
			Path:     path,
			Help:     "a Journal file must not exceed 16 MiB (see \"Lines and encoding\" in docs/journal-format.md)",
		}}
	}
	// The arguments are substrings of src itself, not of a copy: Parse's
	// contract is that src does not change afterwards.
	p := &parser{path: path, src: src, s: unsafe.String(unsafe.SliceData(src), len(src)), doc: doc}
	if e, ok := foreignEncoding(src); ok {
		doc.Lines = diag.NewLineIndex(src)
		p.line, p.ls, p.lineASCII = 1, 0, false
		p.report(rules.SyntaxEncoding, p.rng(0, len(e.bom)),
			fmt.Sprintf("the text is %s (it starts with the byte-order mark % X), not UTF-8", e.name, e.bom),
			fmt.Sprintf("convert the file to UTF-8 without a byte-order mark (iconv -f %s -t UTF-8); its other problems are reported once it is UTF-8", e.iconv))
		return doc, p.diags
	}
	p.scanLines()
	if p.nonBlankLines == 0 {
		p.report(rules.SyntaxEmpty, diag.Range{}, "empty journal text",
			"a Journal starts with JOURNAL_FORMAT 1, ARTIFACT, JOURNAL_VERSION and DESCRIPTION")
	} else {
		p.finishStructure()
		p.checkSemantics()
		if len(p.diags) == 0 {
			p.build()
		}
	}
	p.putScratch()
	p.diags = append(p.diags, p.limit.Overflow()...)
	p.diags.Sort()
	return doc, p.diags
}

// foreignEncoding returns the name of the encoding that the byte-order
// mark at the start of src announces and the mark itself, or "" when src
// does not start with a UTF-16 or UTF-32 mark (a UTF-8 mark is reported by
// scanLines, since the rest of such a text is readable). The UTF-32 marks
// are tested first: FF FE 00 00 also starts with the UTF-16 LE mark.
func foreignEncoding(src []byte) (foreign, bool) {
	for _, e := range foreignMarks {
		if bytes.HasPrefix(src, e.bom) {
			return e, true
		}
	}
	return foreign{}, false
}

// foreign is an encoding that a byte-order mark announces: its name in
// messages, the mark, and its name for iconv (which drops the mark).
type foreign struct {
	name  string
	bom   []byte
	iconv string
}

var foreignMarks = []foreign{
	{"UTF-32 little-endian", []byte{0xff, 0xfe, 0, 0}, "UTF-32"},
	{"UTF-32 big-endian", []byte{0, 0, 0xfe, 0xff}, "UTF-32"},
	{"UTF-16 little-endian", []byte{0xff, 0xfe}, "UTF-16"},
	{"UTF-16 big-endian", []byte{0xfe, 0xff}, "UTF-16"},
}

// values holds the parsed arguments of one directive, by position. No
// directive has two arguments of the same type, so one field per type
// suffices.
type values struct {
	ok         [3]bool
	coordinate vt.Coordinate
	timestamp  vt.Timestamp
	digest     vt.Digest
	version    vt.Version
	constraint vt.Constraint
	license    vt.License
	uri        vt.URI
	name       vt.Name
	verdict    vt.Verdict
	quoted     string
	hasQuoted  bool
}

// item is one directive of a release block with its parsed values.
type item struct {
	d *Directive
	v values
}

// release is the parse state of one release block.
type release struct {
	block *ReleaseBlock
	// at is the index of the RELEASE directive in Document.Directives.
	at int
	// The directives a release states at most once; d == nil when absent.
	license     item
	description item
	published   item
	policy      item
	// The lists, views into parser.lists set by finishReleases; starts
	// holds where this release's items begin there, by list.
	contents []item
	depends  []item
	excludes []item
	prefers  []item
	starts   [numLists]int
}

// The per-release lists, indexes of parser.lists and release.starts.
const (
	listContents = iota
	listDepends
	listExcludes
	listPrefers
	numLists
)

// state is the structural state of a parse ("The header" and "Release blocks"
// in docs/journal-format.md).
type state struct {
	description string
	descOK      bool
	info        vt.URI
	infoOK      bool
	policy      model.Policy
	policyOK    bool
	rels        []*release
	cur         *release
}

// directive checks the arguments of d, parses its values and places it in
// the header or the current release block.
func (p *parser) directive(d *Directive, argErr bool) {
	if d.Kind == KindUnknown {
		// In a release block it is one of the block's Directives (see
		// finishReleases).
		return
	}
	var v values // by pointer from here on: it is 184 bytes
	p.checkArgs(d, argErr, &v)
	p.place(d, &v)
}

// checkArgs checks the number and form of the arguments of d against its
// grammar ("The header" and "Release blocks" in docs/journal-format.md) and
// parses each value ("Values" in docs/journal-format.md) into v.
func (p *parser) checkArgs(d *Directive, argErr bool, v *values) {
	spec := argSpecs[d.Kind]
	args := d.Args
	if !argErr {
		if len(args) < spec.min {
			p.report(rules.SyntaxArguments, d.KeywordRange(),
				fmt.Sprintf("missing %s for %s", argKindNames[spec.kinds[len(args)]], d.Keyword),
				"usage: "+spec.usage)
		} else if len(args) > len(spec.kinds) {
			first, last := args[len(spec.kinds)], args[len(args)-1]
			p.report(rules.SyntaxArguments, p.rng(first.Range().Start.Offset, last.Range().End.Offset),
				fmt.Sprintf("too many arguments for %s", d.Keyword), "usage: "+spec.usage)
		}
	}
	for i, a := range args {
		if i >= len(spec.kinds) {
			break
		}
		if a.bad {
			continue
		}
		k := spec.kinds[i]
		if k == argQuoted {
			if !a.Quoted {
				p.report(rules.SyntaxArguments, a.Range(),
					fmt.Sprintf("expected a quoted string for %s, found a bare token", d.Keyword),
					"usage: "+spec.usage)
				continue
			}
			v.quoted, v.hasQuoted, v.ok[i] = a.Text, true, true
			continue
		}
		if a.Quoted {
			p.report(rules.SyntaxArguments, a.Range(),
				fmt.Sprintf("the %s of %s is written without quotes", argKindNames[k], d.Keyword),
				"usage: "+spec.usage)
			continue
		}
		var err error
		t := a.Text
		switch k {
		case argFormat:
			if t != "1" {
				p.report(rules.ValueFormat, a.Range(), fmt.Sprintf("unsupported journal format %s", quoteShort(t)),
					"this tool reads format version 1: write JOURNAL_FORMAT 1")
				continue
			}
		case argCoordinate:
			v.coordinate, err = vt.ParseCoordinate(t)
		case argTimestamp:
			v.timestamp, err = vt.ParseTimestamp(t)
		case argDigest:
			v.digest, err = vt.ParseDigest(t)
		case argVersion:
			v.version, err = vt.ParseVersion(t)
		case argConstraint:
			v.constraint, err = vt.ParseConstraint(t)
		case argLicense:
			v.license, err = vt.ParseLicense(t)
		case argURI:
			v.uri, err = vt.ParseURI(t)
		case argName:
			v.name, err = vt.ParseName(t)
		case argVerdict:
			v.verdict, err = vt.ParseVerdict(t)
		}
		if err != nil {
			p.valueError(a, k, err)
			continue
		}
		v.ok[i] = true
	}
}

var valueKinds = [...]string{
	argFormat:     "format",
	argCoordinate: vt.KindCoordinate,
	argTimestamp:  vt.KindTimestamp,
	argDigest:     vt.KindDigest,
	argVersion:    vt.KindVersion,
	argConstraint: vt.KindConstraint,
	argLicense:    vt.KindLicense,
	argURI:        vt.KindURI,
	argName:       vt.KindName,
	argVerdict:    vt.KindVerdict,
}

// valueCodes maps the name of each value kind (valueKinds, and the Kind of
// a valuetypes SyntaxError) to its diagnostic code.
var valueCodes = map[string]string{
	"format":          rules.ValueFormat,
	vt.KindCoordinate: rules.ValueCoordinate,
	vt.KindTimestamp:  rules.ValueTimestamp,
	vt.KindDigest:     rules.ValueDigest,
	vt.KindVersion:    rules.ValueVersion,
	vt.KindConstraint: rules.ValueConstraint,
	vt.KindLicense:    rules.ValueLicense,
	vt.KindURI:        rules.ValueURI,
	vt.KindName:       rules.ValueName,
	vt.KindVerdict:    rules.ValueVerdict,
}

// valueError reports err, the failure to parse argument a as a k: the code
// of the value kind err names (or of k), the range narrowed to start at the
// reported offset.
func (p *parser) valueError(a Arg, k argKind, err error) {
	kind := valueKinds[k]
	msg := fmt.Sprintf("invalid %s %s", kind, quoteShort(a.Text))
	off := -1
	var se *vt.SyntaxError
	if errors.As(err, &se) {
		if se.Kind != "" {
			kind = se.Kind
		}
		msg = fmt.Sprintf("invalid %s %s: %s", kind, quoteShort(a.Text), se.ReasonAndHint())
		off = se.Offset
	} else {
		msg += ": " + err.Error()
	}
	r := a.Range()
	if off > 0 && off < len(a.Raw) {
		st := a.Range().Start.Offset + off
		for st > a.Range().Start.Offset && !utf8.RuneStart(p.src[st]) {
			st--
		}
		r = p.rng(st, a.Range().End.Offset)
	}
	code, ok := valueCodes[kind]
	if !ok {
		code = valueCodes[valueKinds[k]]
	}
	p.report(code, r, msg, "")
}

// headerSlot returns the Header field for a header kind.
func (p *parser) headerSlot(k Kind) **Directive {
	h := &p.doc.Header
	switch k {
	case KindJournalFormat:
		return &h.Format
	case KindArtifact:
		return &h.Artifact
	case KindJournalVersion:
		return &h.JournalVersion
	case KindPredecessor:
		return &h.Predecessor
	case KindDescription:
		return &h.Description
	case KindInfo:
		return &h.Info
	}
	return &h.Policy
}

// place puts d in the header or the current release block and reports the
// structural errors of "The header" and "Release blocks" in
// docs/journal-format.md: order, duplicates, misplacement.
func (p *parser) place(d *Directive, v *values) {
	st := &p.state
	switch {
	case d.Kind == KindRelease:
		if p.firstRelease == nil {
			p.firstRelease = d
		}
		b := p.newRelease()
		*b.block = ReleaseBlock{Release: d, Version: v.version, VersionOK: v.ok[0]}
		b.at = len(p.doc.Directives) - 1
		for i := range b.starts {
			b.starts[i] = len(p.lists[i])
		}
		p.doc.Releases = append(p.doc.Releases, b.block)
		st.cur = b
		st.rels = append(st.rels, st.cur)
		return
	case d.Kind.headerOnly() || d.Kind.isHeader() && st.cur == nil:
		p.placeHeader(d, v)
		return
	case st.cur == nil:
		p.report(rules.SyntaxMisplacedDirective, d.KeywordRange(),
			fmt.Sprintf("release directive %s before the first RELEASE", d.Keyword),
			"release directives belong to a release block: start it with RELEASE <version>")
		return
	}
	cur := st.cur
	it := item{d: d, v: *v}
	once := func(slot *item) {
		if slot.d != nil {
			p.duplicate(d, slot.d, "a release has at most one "+d.Keyword+" (rule 3 of \"Semantic rules\" in docs/journal-format.md)")
			return
		}
		*slot = it
	}
	switch d.Kind {
	case KindLicense:
		once(&cur.license)
	case KindDescription:
		once(&cur.description)
	case KindPublished:
		once(&cur.published)
	case KindPolicy:
		once(&cur.policy)
	case KindContent:
		p.lists[listContents] = append(p.lists[listContents], it)
	case KindDepends:
		p.lists[listDepends] = append(p.lists[listDepends], it)
	case KindExcludes:
		p.lists[listExcludes] = append(p.lists[listExcludes], it)
	case KindPrefers:
		p.lists[listPrefers] = append(p.lists[listPrefers], it)
	}
}

// newRelease returns a fresh release and its block from the slabs sized by
// countLines.
func (p *parser) newRelease() *release {
	if len(p.relSlab) == 0 {
		p.relSlab = make([]release, 16)
	}
	if len(p.blockSlab) == 0 {
		p.blockSlab = make([]ReleaseBlock, 16)
	}
	r := &p.relSlab[0]
	r.block = &p.blockSlab[0]
	p.relSlab, p.blockSlab = p.relSlab[1:], p.blockSlab[1:]
	return r
}

// finishReleases runs after the last line: every directive after a RELEASE
// up to the next one belongs to its block (directive and place append every
// such directive), so a block's Directives is a view of Document.Directives;
// its lists are views of parser.lists. A block without directives keeps a
// nil Directives.
func (p *parser) finishReleases() {
	if len(p.doc.Releases) == 0 {
		p.doc.Releases = nil // as without the preallocation
	}
	dirs := p.doc.Directives
	rels := p.state.rels
	for k, r := range rels {
		end := len(dirs)
		ends := [numLists]int{}
		for i := range ends {
			ends[i] = len(p.lists[i])
		}
		if k+1 < len(rels) {
			next := rels[k+1]
			end = next.at
			ends = next.starts
		}
		if r.at+1 < end {
			r.block.Directives = dirs[r.at+1 : end : end]
		}
		r.contents = p.lists[listContents][r.starts[listContents]:ends[listContents]]
		r.depends = p.lists[listDepends][r.starts[listDepends]:ends[listDepends]]
		r.excludes = p.lists[listExcludes][r.starts[listExcludes]:ends[listExcludes]]
		r.prefers = p.lists[listPrefers][r.starts[listPrefers]:ends[listPrefers]]
	}
}

// duplicate reports d as a second occurrence of first.
func (p *parser) duplicate(d, first *Directive, help string) {
	p.report(rules.SyntaxDuplicateDirective, d.KeywordRange(),
		fmt.Sprintf("duplicate %s", d.Keyword), help,
		diag.Related{Range: first.KeywordRange(), Message: "first stated here"})
}

// placeHeader handles a header directive ("The header" in
// docs/journal-format.md: once each, in order, before the first RELEASE).
func (p *parser) placeHeader(d *Directive, v *values) {
	st := &p.state
	slot := p.headerSlot(d.Kind)
	if st.cur != nil {
		// One of the block's Directives (see finishReleases).
		p.report(rules.SyntaxMisplacedDirective, d.KeywordRange(),
			fmt.Sprintf("header directive %s after the first RELEASE", d.Keyword),
			"header directives come before the first RELEASE",
			diag.Related{Range: p.firstRelease.KeywordRange(), Message: "first RELEASE here"})
		if *slot != nil {
			return
		}
	} else {
		if *slot != nil {
			p.duplicate(d, *slot, "the header states "+d.Keyword+" once (see \"The header\" in docs/journal-format.md)")
			return
		}
		if m := p.firstAfter(d.Kind); m != nil {
			// Named is the first line it must precede: moving it just
			// above that line puts it in order.
			p.report(rules.SyntaxMisplacedDirective, d.KeywordRange(),
				fmt.Sprintf("header directive %s must come before %s", d.Keyword, m.Keyword),
				"header order: JOURNAL_FORMAT, ARTIFACT, JOURNAL_VERSION, PREDECESSOR, DESCRIPTION, INFO, POLICY",
				diag.Related{Range: m.KeywordRange(), Message: m.Keyword + " stated here"})
		}
	}
	*slot = d
	doc := p.doc
	switch d.Kind {
	case KindArtifact:
		doc.Coordinate, doc.CoordinateOK = v.coordinate, v.ok[0]
	case KindJournalVersion:
		doc.JournalVersion, doc.JournalVersionOK = v.timestamp, v.ok[0]
	case KindPredecessor:
		doc.Predecessor, doc.PredecessorOK = v.digest, v.ok[0]
	case KindDescription:
		st.description, st.descOK = v.quoted, v.ok[0]
	case KindInfo:
		st.info, st.infoOK = v.uri, v.ok[0]
	case KindPolicy:
		st.policy, st.policyOK = model.NewPolicy(v.verdict, v.quoted), v.ok[0]
	}
}

// firstAfter returns the header directive stated so far that comes first
// in the text among those whose kind the header order puts after k, or
// nil when there is none.
func (p *parser) firstAfter(k Kind) *Directive {
	var first *Directive
	for n := k + 1; n <= KindPolicy; n++ {
		if d := *p.headerSlot(n); d != nil && (first == nil || d.Line < first.Line) {
			first = d
		}
	}
	return first
}

// finishStructure reports what is missing once the whole text is read:
// required header directives ("The header" and "Release blocks" in
// docs/journal-format.md) and, per release, LICENSE and CONTENT (rule 3 of
// "Semantic rules" in docs/journal-format.md).
func (p *parser) finishStructure() {
	h := &p.doc.Header
	slots := [...]*Directive{
		KindJournalFormat:  h.Format,
		KindArtifact:       h.Artifact,
		KindJournalVersion: h.JournalVersion,
		KindPredecessor:    h.Predecessor,
		KindDescription:    h.Description,
		KindInfo:           h.Info,
		KindPolicy:         h.Policy,
	}
	for _, k := range []Kind{KindJournalFormat, KindArtifact, KindJournalVersion, KindDescription} {
		if slots[k] != nil {
			continue
		}
		// Point where it belongs: at the next header directive present, else
		// the first RELEASE, else the end of the text.
		var at *Directive
		for n := k + 1; n <= KindPolicy && at == nil; n++ {
			if slots[n] != nil && (p.firstRelease == nil || slots[n].Line < p.firstRelease.Line) {
				at = slots[n]
			}
		}
		if at == nil {
			at = p.firstRelease
		}
		var r diag.Range
		if at != nil {
			r = at.KeywordRange()
		} else {
			end := p.doc.Lines.Pos(len(p.src))
			r = diag.Range{Start: end, End: end}
		}
		help := "the header is: " + argSpecs[k].usage
		p.report(rules.SyntaxMissingDirective, r, fmt.Sprintf("missing %s", k), help)
	}
	for _, rel := range p.state.rels {
		d := rel.block.Release
		name := "release"
		if rel.block.VersionOK {
			name = "release " + rel.block.Version.String()
		}
		if rel.license.d == nil {
			p.report(rules.SyntaxMissingDirective, d.Range(), name+" has no LICENSE",
				"every release has exactly one LICENSE <spdx-expression>")
		}
		if len(rel.contents) == 0 {
			p.report(rules.SyntaxMissingDirective, d.Range(), name+" has no CONTENT",
				"every release has at least one CONTENT <name> <digest>")
		}
	}
}
