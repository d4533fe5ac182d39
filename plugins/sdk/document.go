package sdk

import (
	"bytes"
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// Document is one Journal file of the tree, as journal-lint parsed it. The
// directives and the model travel from journal-lint and are decoded the
// first time a rule asks for them.
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

	recv *wire.Received

	linesOnce sync.Once
	lines     []int // the offset of the first byte of every line

	revOnce  sync.Once
	revision model.Revision

	wireOnce sync.Once
	wireDirs []wire.Directive // the directives as offsets, decoded once

	dirsOnce sync.Once
	dirs     []Directive
	built    atomic.Bool // dirs is built

	blocksOnce sync.Once
	blocks     []ReleaseBlock

	mu    sync.Mutex
	err   error                   // the first part that did not decode
	asked map[string]ReleaseBlock // ReleaseBlock's answers before the directives are built

}

// newDocument returns the document r of a Check request.
func newDocument(r *wire.Received) *Document {
	return &Document{Path: r.Path, Text: r.Text, Digest: r.Digest, Valid: r.Valid, Chain: r.Chain, recv: r}
}

// fail records the first error of a part that did not decode; the server
// fails the request with it once the rules ran.
func (d *Document) fail(err error) {
	if err == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err == nil {
		d.err = err
	}
}

// decodeErr returns the error fail recorded, or nil.
func (d *Document) decodeErr() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// Revision returns the parsed model; it is meaningful only when Valid (the
// zero Revision otherwise). The model is decoded on first use and shared.
func (d *Document) Revision() model.Revision {
	d.revOnce.Do(func() {
		if d.recv != nil {
			var err error
			d.revision, err = d.recv.Revision()
			d.fail(err)
		}
	})
	return d.revision
}

// Chain places a document in its artifact's hash chain: its Coordinate
// ("" when ARTIFACT could not be read), whether the chain Accepted the
// document, and the artifact's accepted Revisions in ascending Journal
// version (the genesis first, the head last; [Chain.Head] is the last).
type Chain = wire.Chain

// ChainEntry is one accepted revision of an artifact: the root-relative
// Path of its file, its JournalVersion and its Digest.
type ChainEntry = wire.ChainEntry

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

// wireDirectives returns the directives as offsets, decoded on first use.
func (d *Document) wireDirectives() []wire.Directive {
	d.wireOnce.Do(func() {
		if d.recv != nil {
			var err error
			d.wireDirs, err = d.recv.Directives()
			d.fail(err)
		}
	})
	return d.wireDirs
}

// Directives returns every directive line in file order (comments and
// blank lines are not directives), also when the text is invalid. They are
// built on first use and shared: do not change the slice.
func (d *Document) Directives() []Directive {
	d.dirsOnce.Do(func() {
		ws := d.wireDirectives()
		if ws == nil {
			return
		}
		c := cursor{d: d, line: 1}
		d.dirs = d.convert(ws, c.rangeOf)
		d.built.Store(true)
	})
	return d.dirs
}

// convert turns directives as offsets into Directives, with the ranges
// rangeOf gives. The arguments of all of them share one array, and
// keywords and raw arguments share the batch's memory.
func (d *Document) convert(ws []wire.Directive, rangeOf func(start, end int) Range) []Directive {
	nargs := 0
	for _, w := range ws {
		nargs += len(w.Args)
	}
	args := make([]Arg, nargs)
	out := make([]Directive, len(ws))
	for i, w := range ws {
		dir := &out[i]
		dir.Range = rangeOf(w.Start, w.End)
		dir.KeywordRange = rangeOf(w.KeywordStart, w.KeywordEnd)
		dir.Keyword = d.recv.TextString(w.KeywordStart, w.KeywordEnd)
		dir.Line = dir.Range.Start.Line
		n := len(w.Args)
		dir.Args, args = args[:n:n], args[n:]
		for j, a := range w.Args {
			arg := &dir.Args[j]
			arg.Range = rangeOf(a.Start, a.End)
			arg.Raw = d.recv.TextString(a.Start, a.End)
			arg.Text, arg.Quoted = arg.Raw, a.Quoted
			if a.Quoted {
				arg.Text = a.Text
			}
		}
	}
	return out
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
	d.blocksOnce.Do(func() {
		dirs := d.Directives()
		for i, j := range blockSpans(len(dirs), func(k int) string { return dirs[k].Keyword }) {
			d.blocks = append(d.blocks, block(dirs[i:j:j]))
		}
	})
	return d.blocks
}

// block returns the release block of dirs, a RELEASE directive and those
// after it up to the next RELEASE.
func block(dirs []Directive) ReleaseBlock {
	b := ReleaseBlock{Release: dirs[0]}
	if len(dirs[0].Args) > 0 {
		b.Version = dirs[0].Args[0].Text
	}
	if len(dirs) > 1 {
		b.Directives = dirs[1:]
	}
	return b
}

// ReleaseBlock returns the first RELEASE block whose version is written
// exactly as version. Until a rule asks for every directive, it builds only
// the directives of that block: a rule that reports on a few releases pays
// for those.
func (d *Document) ReleaseBlock(version string) (ReleaseBlock, bool) {
	if !d.built.Load() {
		d.mu.Lock()
		b, ok := d.asked[version]
		d.mu.Unlock()
		if !ok {
			b, ok = d.releaseBlock(version)
			d.mu.Lock()
			if d.asked == nil {
				d.asked = map[string]ReleaseBlock{}
			}
			d.asked[version] = b
			d.mu.Unlock()
		}
		return b, b.Release.Keyword != ""
	}
	for _, b := range d.ReleaseBlocks() {
		if b.Version == version {
			return b, true
		}
	}
	return ReleaseBlock{}, false
}

// releaseBlock builds the first RELEASE block written as version from the
// directives as offsets, and only it: its positions come from a cursor
// that starts on the block's line.
func (d *Document) releaseBlock(version string) (ReleaseBlock, bool) {
	ws := d.wireDirectives()
	keyword := func(k int) string { return d.recv.TextString(ws[k].KeywordStart, ws[k].KeywordEnd) }
	for i, j := range blockSpans(len(ws), keyword) {
		w := ws[i]
		v := ""
		if len(w.Args) > 0 {
			v = d.recv.TextString(w.Args[0].Start, w.Args[0].End)
			if w.Args[0].Quoted {
				v = w.Args[0].Text
			}
		}
		if v != version {
			continue
		}
		start := min(max(w.Start, 0), len(d.Text))
		c := cursor{d: d, line: 1 + bytes.Count(d.Text[:start], []byte{'\n'}), lineStart: bytes.LastIndexByte(d.Text[:start], '\n') + 1}
		return block(d.convert(ws[i:j], c.rangeOf)), true
	}
	return ReleaseBlock{}, false
}

// blockSpans calls yield with the RELEASE blocks of n directives whose
// keywords keyword gives, in order, each as the index of its RELEASE
// directive and the index after its last directive.
func blockSpans(n int, keyword func(int) string) func(yield func(int, int) bool) {
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

// Range returns the range of the byte offsets [start, end) of Text, with
// lines and columns; offsets are clamped to the text.
func (d *Document) Range(start, end int) Range {
	n := len(d.Text)
	start = min(max(start, 0), n)
	end = min(max(end, start), n)
	return Range{Start: d.pos(start), End: d.pos(end)}
}

// pos returns the position of off, an offset within the text.
func (d *Document) pos(off int) Pos {
	d.linesOnce.Do(func() {
		d.lines = make([]int, 1, bytes.Count(d.Text, []byte{'\n'})+1)
		for i := 0; ; {
			j := bytes.IndexByte(d.Text[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			d.lines = append(d.lines, i)
		}
	})
	line := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
	return Pos{Offset: off, Line: line + 1, Column: column(d.Text, d.lines[line], off)}
}

// column returns the 1-based column of offset off on the line of text that
// starts at lineStart: one more than the code points before it on the
// line, where an invalid UTF-8 byte counts as one and a code point that
// off cuts in half does not count (journal-lint's column rule).
func column(text []byte, lineStart, off int) int {
	_, col := advance(text, lineStart, 1, off)
	return col
}

// advance moves from offset i, at column col, over the whole code points
// before off, and returns where it stopped and that column.
func advance(text []byte, i, col, off int) (int, int) {
	for i < off {
		if text[i] < utf8.RuneSelf {
			i++
			col++
			continue
		}
		_, n := utf8.DecodeRune(text[i:])
		if i+n > off {
			break
		}
		i += n
		col++
	}
	return i, col
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
	c.at, c.col = advance(src, c.at, c.col, off)
	return Pos{Offset: off, Line: c.line, Column: c.col}
}
