package sdk

import (
	"bytes"
	"iter"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Document is one Journal file of the tree, as journal-lint parsed it.
type Document struct {
	// Path is root-relative with forward slashes, e.g.
	// "com.example.widget/20260110T080000Z.journal".
	Path string
	// Text is the file's exact bytes. Do not change it: the strings of
	// the batch's documents (Path, the model's values) share its memory.
	Text []byte
	// Digest is the revision digest: SHA-256 over Text ("The revision digest"
	// in docs/journal-format.md).
	Digest vt.Digest
	// Valid reports whether the text is a valid Journal. When it is false
	// the built-in diagnostics say why, and rules that need the model
	// should report nothing.
	Valid bool
	// Chain is the document's place in its artifact's hash chain.
	Chain Chain

	linesOnce sync.Once
	lines     *diag.LineIndex

	// How the directives and the model are had: parsed from src on first
	// use (parse), or decoded from the batch (wire, whose wireDirs are
	// decoded on first use).
	parse     Needs  // the parts to parse (of NeedDirectives and NeedRevision); 0: from the batch
	src       []byte // the text to parse, also when Text is not needed
	wire      *reader
	wireDirs  span
	wireText  span // Text in the batch
	parseOnce sync.Once
	mu        sync.Mutex
	parsed    *syntax.Document // the parse, until its directives are converted or the document is done
	dirsOnce  sync.Once
	dirs      []Directive
	revision  model.Revision

	blocksOnce sync.Once
	blocks     []ReleaseBlock
}

// Revision returns the parsed model; it is meaningful only when Valid (the
// zero Revision otherwise). The model is built on first use and shared.
func (d *Document) Revision() model.Revision {
	if d.parse != 0 {
		d.parseOnce.Do(d.parseText)
	}
	return d.revision
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
	d.dirsOnce.Do(func() {
		if d.parse == 0 {
			d.dirs = d.decodeDirectives()
			return
		}
		if d.parse&NeedDirectives == 0 {
			return
		}
		d.parseOnce.Do(d.parseText)
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.parsed != nil {
			d.dirs = directivesOf(d.parsed.Directives)
			syntax.Recycle(d.parsed)
			d.parsed = nil
		}
	})
	return d.dirs
}

// parseText parses the text with journal-lint's own parser, as the host
// did (see CheckRequest.parse_text): the model of a valid document when
// the pack needs it, and the parse kept for [Document.Directives] when the
// pack needs them, else handed back to the parser.
func (d *Document) parseText() {
	doc, _ := syntax.Parse(d.Path, d.src)
	if d.parse&NeedRevision != 0 && d.Valid && doc.RevisionOK {
		d.revision = doc.Revision
	}
	if d.parse&NeedDirectives == 0 {
		syntax.Recycle(doc)
		return
	}
	d.mu.Lock()
	d.parsed = doc
	d.mu.Unlock()
}

// done hands the parse that no rule asked the directives of back to the
// parser, once every rule has run on d.
func (d *Document) done() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.parsed != nil {
		syntax.Recycle(d.parsed)
		d.parsed = nil
	}
}

// parsedBlock is [Document.ReleaseBlock] while d holds its parse and has
// not converted its directives: it converts only the block's, the few that
// a rule reporting on a release needs. held is false when d holds no parse.
func (d *Document) parsedBlock(version string) (b ReleaseBlock, ok, held bool) {
	if d.parse&NeedDirectives == 0 {
		return b, false, false
	}
	d.parseOnce.Do(d.parseText)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.parsed == nil {
		return b, false, false
	}
	dirs := d.parsed.Directives
	for i, j := range blockSpans(len(dirs), func(k int) string { return dirs[k].Keyword }) {
		if len(dirs[i].Args) == 0 && version == "" || len(dirs[i].Args) > 0 && argText(dirs[i].Args[0]) == version {
			block := directivesOf(dirs[i:j])
			b = ReleaseBlock{Version: version, Release: block[0]}
			if len(block) > 1 {
				b.Directives = block[1:]
			}
			return b, true, true
		}
	}
	return b, false, true
}

// blockSpans yields the RELEASE blocks of n directives whose keywords
// keyword gives, in order, each as the index of its RELEASE directive and
// the index after its last directive.
func blockSpans(n int, keyword func(int) string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < n; i++ {
			if keyword(i) != "RELEASE" {
				continue
			}
			j := i + 1
			for j < n && keyword(j) != "RELEASE" {
				j++
			}
			if !yield(i, j) {
				return
			}
			i = j - 1
		}
	}
}

// directivesOf returns directives of a parse as the host would have
// encoded them.
func directivesOf(dirs []*syntax.Directive) []Directive {
	nargs := 0
	for _, x := range dirs {
		nargs += len(x.Args)
	}
	args := make([]Arg, nargs)
	out := make([]Directive, len(dirs))
	for i, x := range dirs {
		r := rangeOf(x.Range())
		n := len(x.Args)
		out[i] = Directive{Keyword: x.Keyword, KeywordRange: rangeOf(x.KeywordRange()), Range: r, Line: r.Start.Line, Args: args[:n:n]}
		args = args[n:]
		for j, a := range x.Args {
			out[i].Args[j] = Arg{Raw: a.Raw, Text: argText(a), Quoted: a.Quoted, Range: rangeOf(a.Range())}
		}
	}
	return out
}

// argText returns the text of a parsed argument as the host would have
// encoded it: its raw text when bare, else its decoded text made valid
// UTF-8, as a protobuf string must be.
func argText(a syntax.Arg) string {
	if !a.Quoted {
		return a.Raw
	}
	if !utf8.ValidString(a.Text) {
		return strings.ToValidUTF8(a.Text, "\uFFFD")
	}
	return a.Text
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

// releaseBlocks groups dirs into RELEASE blocks. A block's Directives are
// a capped subslice of dirs, not a copy.
func releaseBlocks(dirs []Directive) []ReleaseBlock {
	n := 0
	for i := range dirs {
		if dirs[i].Keyword == "RELEASE" {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]ReleaseBlock, 0, n)
	for i, j := range blockSpans(len(dirs), func(k int) string { return dirs[k].Keyword }) {
		b := ReleaseBlock{Release: dirs[i]}
		if len(dirs[i].Args) > 0 {
			b.Version = dirs[i].Args[0].Text
		}
		if j > i+1 {
			b.Directives = dirs[i+1 : j : j]
		}
		out = append(out, b)
	}
	return out
}

// ReleaseBlock returns the first RELEASE block whose version is written
// exactly as version.
func (d *Document) ReleaseBlock(version string) (ReleaseBlock, bool) {
	if b, ok, held := d.parsedBlock(version); held {
		return b, ok
	}
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
// clamped; missing ones are empty. Keywords and raw arguments are
// substrings of one copy of the text, the arguments of all directives share
// one array, and positions come from a cursor that moves forward through
// the text (spans arrive in file order) instead of a search per offset.
func (d *Document) decodeDirectives() []Directive {
	if d.wire == nil {
		return nil
	}
	counts, sp, q, dec, err := d.wire.directives(d.wireDirs)
	if err != nil {
		return nil // the host never sends this; rules see no directives
	}
	text := d.wire.str(d.wireText)
	nargs := 0
	for _, n := range counts {
		nargs += max(0, int(n))
	}
	// Every argument has a span pair; more arguments than spans are empty.
	args := make([]Arg, min(nargs, len(sp)/2))
	out := make([]Directive, len(counts))
	cur := cursor{d: d, line: 1}
	k, a := 0, 0 // next span pair, next argument
	span := func() Range {
		if 2*k+1 >= len(sp) {
			k++
			return Range{}
		}
		r := cur.rangeOf(int(sp[2*k]), int(sp[2*k+1]))
		k++
		return r
	}
	for i, n := range counts {
		dir := &out[i]
		dir.Range = span()
		dir.KeywordRange = span()
		dir.Keyword = text[dir.KeywordRange.Start.Offset:dir.KeywordRange.End.Offset]
		dir.Line = dir.Range.Start.Line
		n := max(0, int(n))
		if a+n <= len(args) {
			dir.Args = args[a : a+n : a+n]
		} else {
			dir.Args = make([]Arg, n)
		}
		for j := range dir.Args {
			r := span()
			arg := &dir.Args[j]
			arg.Raw, arg.Range = text[r.Start.Offset:r.End.Offset], r
			arg.Text = arg.Raw
			if a < len(q) && q[a] {
				arg.Quoted = true
				if len(dec) > 0 {
					arg.Text, dec = dec[0], dec[1:]
				}
			}
			a++
		}
	}
	return out
}

// cursor turns byte offsets of a document's text into positions, like
// [Document.Range], scanning forward from the previous offset: the line and
// the column of the last offset are remembered, so a run of offsets in file
// order costs one pass over the text.
type cursor struct {
	d         *Document
	line      int // 1-based line of lineStart
	lineStart int // first byte of the current line
	at, col   int // a rune boundary on the current line (0 = none yet) and its column
}

// rangeOf returns the range of [start, end), clamped like Document.Range.
func (c *cursor) rangeOf(start, end int) Range {
	n := len(c.d.Text)
	start = min(max(start, 0), n)
	end = min(max(end, start), n)
	if start < c.lineStart || end < c.lineStart {
		return c.d.Range(start, end) // not in file order: search
	}
	s := c.pos(start)
	return Range{Start: s, End: c.pos(end)}
}

// pos returns the position of off, which is at or after the current line.
func (c *cursor) pos(off int) Pos {
	src := c.d.Text
	for {
		i := bytes.IndexByte(src[c.lineStart:off], '\n')
		if i < 0 {
			break
		}
		c.lineStart += i + 1
		c.line++
		c.at = 0
	}
	if c.at == 0 || c.at > off {
		c.at, c.col = c.lineStart, 1
	}
	i, col := c.at, c.col
	for i < off {
		if src[i] < utf8.RuneSelf {
			i++
			col++
			continue
		}
		_, n := utf8.DecodeRune(src[i:])
		if i+n > off {
			break
		}
		i += n
		col++
	}
	c.at, c.col = i, col
	return Pos{Offset: off, Line: c.line, Column: col}
}
