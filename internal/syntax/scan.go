package syntax

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/rules"
	"github.com/r35157/journal-lint/suggest"
)

// Limits of "Lines and encoding" and "Directives and arguments" in
// docs/journal-format.md.
const (
	// MaxSize is the largest accepted text in bytes ("Lines and encoding" in
	// docs/journal-format.md: 16 MiB), the limit the file reader enforces too.
	MaxSize = readfile.MaxJournal
	// MaxQuoted is the largest accepted decoded quoted string in bytes
	// ("Directives and arguments" in docs/journal-format.md).
	MaxQuoted = 8192
)

// maxPreallocDirectives bounds the directives (and, four times over, the
// arguments) Parse allocates before it has seen them, about 10 MiB.
const maxPreallocDirectives = 1 << 16

// span is a half-open byte range [start, end) of the source.
type span struct{ start, end int }

// parser holds the state of one Parse call.
type parser struct {
	path  string
	src   []byte
	s     string // src as one string: arguments are substrings of it
	doc   *Document
	diags diag.List
	limit diag.Limiter // the per-code cap of the diagnostics

	// current line
	line      int  // 1-based
	ls        int  // offset of its first byte
	lineASCII bool // the line's content is pure ASCII
	bad       []span

	// the terminators, counted for the LF/CRLF consistency check
	nLF, nCRLF    int
	firstTermCRLF bool
	sawTerminator bool
	nonBlankLines int
	dirSlab       []Directive
	args          []Arg  // every argument so far (see finishArgs)
	argsHolder    *[]Arg // the recycled holder of args (see getArgScratch)
	lists         [numLists][]item
	keys          keyScratch // scratch of semantic.go
	relSlab       []release
	scratch       *scratch // where relSlab and lists come from, or nil
	blockSlab     []ReleaseBlock
	state         state
	decodeScratch []byte
	firstRelease  *Directive
	chunk         int // slab size: about the number of lines, 16 to 4096
}

// blank reports whether c is white space inside a line ("Lines and encoding"
// in docs/journal-format.md).
func blank(c byte) bool { return c == ' ' || c == '\t' }

// pos returns the position of byte offset off, which lies on the current
// line (its terminator included), with the column of [diag.Column].
func (p *parser) pos(off int) diag.Pos {
	if p.lineASCII {
		return diag.Pos{Offset: off, Line: p.line, Column: off - p.ls + 1}
	}
	return diag.Pos{Offset: off, Line: p.line, Column: diag.Column(p.src, p.ls, off)}
}

// rng returns the range [start, end) on the current line.
func (p *parser) rng(start, end int) diag.Range {
	return diag.Range{Start: p.pos(start), End: p.pos(end)}
}

// rng32 returns p.rng(start, end) as a lineRange.
func (p *parser) rng32(start, end int) lineRange {
	s, e := p.pos(start), p.pos(end)
	return lineRange{int32(s.Offset), int32(s.Line), int32(s.Column), int32(e.Offset), int32(e.Column)}
}

// report adds an error diagnostic. related and help may be empty.
func (p *parser) report(code string, r diag.Range, msg, help string, related ...diag.Related) {
	d := diag.Diagnostic{Code: code, Severity: diag.Error, Path: p.path, Range: r}
	if !p.limit.Keep(d) {
		return
	}
	for i := range related {
		related[i].Path = p.path
	}
	d.Message, d.Related, d.Help = msg, related, help
	p.diags = append(p.diags, d)
}

// scanLines runs over the text once, line by line: it checks encoding and line
// endings ("Lines and encoding" in docs/journal-format.md), hands every
// directive line to p.directiveLine and sets Document.Lines.
func (p *parser) scanLines() {
	src := p.src
	n := len(src)
	start := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		p.line, p.ls, p.lineASCII = 1, 0, false
		p.report(rules.SyntaxEncoding, p.rng(0, 3), "byte-order mark at the start of the text",
			"save the file as UTF-8 without a byte-order mark")
		start = 3
	}
	cnt := countLines(src)
	dirs, rels := cnt.directives, cnt.releases
	p.chunk = min(max(dirs, 16), 4096)
	// One slab for every directive of a text and one for the release
	// blocks (the counts are upper bounds), so that none is allocated on its
	// own and little is wasted.
	// The counts of a text of junk lines are large, but most of its lines
	// are never kept (see directiveLine): allocate at most
	// maxPreallocDirectives up front and the rest in chunks as they come.
	p.dirSlab = dirSlabs.get(min(dirs, maxPreallocDirectives))
	p.doc.Directives = dirPtrs.get(min(dirs, maxPreallocDirectives))[:0]
	p.doc.mem.dirs, p.doc.mem.dirPtrs = p.dirSlab, p.doc.Directives
	if rels > 0 {
		p.scratch = getScratch(rels, cnt.lists)
		p.relSlab = p.scratch.rels[:rels]
		p.scratch.used = rels
		p.blockSlab = blockSlabs.get(rels)
		p.doc.Releases = blockPtrs.get(rels)[:0]
		p.doc.mem.blocks, p.doc.mem.blockPtrs = p.blockSlab, p.doc.Releases
		p.state.rels = p.scratch.relPtrs[:0]
		p.lists = p.scratch.lists
		p.keys = p.scratch.keys
	}
	// Most directives have one to three arguments; the scratch grows when
	// a text has more.
	p.argsHolder = getArgScratch(min(2*dirs, 4*maxPreallocDirectives))
	p.args = *p.argsHolder
	defer p.finishArgs()
	// The line index is made from the LFs the loop finds anyway.
	lines := diag.NewLineMarks(cnt.lfs)
	ls := 0
	for line := 1; ls < n; line++ {
		le, next := n, n
		if i := bytes.IndexByte(src[ls:], '\n'); i >= 0 {
			le, next = ls+i, ls+i+1
			lines.LF(le)
		}
		ce := le // content end
		p.line, p.ls = line, ls
		if le < n {
			if le > ls && src[le-1] == '\r' {
				ce = le - 1
				p.terminator(true)
			} else {
				p.terminator(false)
			}
		}
		p.checkBytes(ls, ce)
		cs := ls
		if ls == 0 {
			cs = start
		}
		p.directiveLine(cs, ce)
		ls = next
	}
	p.doc.Lines = lines.Index(src)
	p.finishReleases()
	p.finishLineEndings()
}

// counts holds upper bounds found by countLines.
type counts struct {
	lfs        int // line feeds (exact)
	directives int // directive lines
	releases   int // RELEASE directives
	lists      [numLists]int
}

// listKeywords are the keywords of the per-release lists, by list index.
var listKeywords = [numLists]string{
	listContents: "CONTENT", listDepends: "DEPENDS", listExcludes: "EXCLUDES", listPrefers: "PREFERS",
}

// countLines returns upper bounds of what src holds, so that the parser can
// allocate every slab once: directive lines are the lines whose first byte
// that is not a blank is not '#' (directiveLine's rule, applied to the
// whole line with its terminator and a possible byte-order mark, which can
// only count more); RELEASE and list directives are counted by their
// line's first word starting with the keyword.
func countLines(src []byte) counts {
	var c counts
	for ls := 0; ls < len(src); {
		i := ls
		for i < len(src) && blank(src[i]) {
			i++
		}
		le := len(src)
		if nl := bytes.IndexByte(src[i:], '\n'); nl >= 0 {
			le = i + nl
			c.lfs++
		}
		if i < le && src[i] != '#' {
			c.directives++
			line := src[i:le]
			if line[0] == 'R' && bytes.HasPrefix(line, []byte("RELEASE")) {
				c.releases++
			}
			for k, kw := range listKeywords {
				if line[0] == kw[0] && bytes.HasPrefix(line, []byte(kw)) {
					c.lists[k]++
				}
			}
		}
		ls = le + 1
	}
	return c
}

// scratch holds the parse state of release blocks that no Document keeps:
// the per-release states (relSlab) and the per-release lists (lists).
// Parse recycles it through scratchPool, so that a tree of many texts
// does not allocate (and collect) them for every text.
type scratch struct {
	rels    []release
	used    int        // the release states handed out: rels[:used] may be set
	relPtrs []*release // the array of state.rels
	lists   [numLists][]item
	keys    keyScratch
}

// keyScratch holds the scratch slices of semantic.go, with how much of
// each was used, so that putScratch clears no more than that.
type keyScratch struct {
	list      []keyed    // keys of one list
	first     [3][]keyed // first occurrences of coordinates, by slot
	idx       []int      // result of firstByKey
	listUsed  int
	firstUsed [3]int
}

var scratchPool sync.Pool

// maxScratchReleases bounds the release states a recycled scratch keeps.
const maxScratchReleases = 1 << 12

// getScratch returns a scratch with room for rels release states and,
// per list, lists[k] items, all zero and the lists empty.
func getScratch(rels int, lists [numLists]int) *scratch {
	s, _ := scratchPool.Get().(*scratch)
	if s == nil {
		s = &scratch{}
	}
	if cap(s.rels) < rels {
		s.rels = make([]release, rels)
	}
	if cap(s.relPtrs) < rels {
		s.relPtrs = make([]*release, 0, rels)
	}
	for k, n := range lists {
		if cap(s.lists[k]) < n {
			s.lists[k] = make([]item, 0, n)
		}
		s.lists[k] = s.lists[k][:0]
	}
	return s
}

// putScratch zeroes what p used of its scratch, so that it keeps no
// memory of the text, and recycles it.
func (p *parser) putScratch() {
	s := p.scratch
	if s == nil {
		return
	}
	clear(s.rels[:s.used])
	if cap(p.state.rels) != cap(s.relPtrs) {
		clear(s.relPtrs[:cap(s.relPtrs)]) // outgrown, as a list below can be
	}
	clear(p.state.rels)
	s.relPtrs = p.state.rels[:0]
	p.scratch, p.relSlab, p.state.rels = nil, nil, nil
	for k := range p.lists {
		if cap(p.lists[k]) != cap(s.lists[k]) {
			// The list outgrew the scratch (a byte-order mark hid a first
			// line from countLines); what went into the old array before
			// it grew is cleared too.
			clear(s.lists[k][:cap(s.lists[k])])
		}
		clear(p.lists[k])
		p.lists[k] = nil
	}
	k := &p.keys
	clear(k.list[:k.listUsed])
	s.keys = keyScratch{list: k.list[:0], idx: k.idx}
	for i := range k.first {
		clear(k.first[i][:k.firstUsed[i]])
		s.keys.first[i] = k.first[i][:0]
	}
	p.keys = keyScratch{}
	if cap(s.rels) <= maxScratchReleases {
		scratchPool.Put(s)
	}
}

// argScratch recycles the buffers in which Parse collects arguments before
// it copies them, exactly sized, into the Document.
var argScratch sync.Pool

// getArgScratch returns an empty buffer with room for n arguments, in the
// holder that finishArgs recycles (a holder allocated for every Put would
// cost an allocation per parse).
func getArgScratch(n int) *[]Arg {
	b, _ := argScratch.Get().(*[]Arg)
	if b == nil {
		b = new([]Arg)
	}
	if cap(*b) < n {
		*b = make([]Arg, 0, max(n, 64))
	}
	*b = (*b)[:0]
	return b
}

// finishArgs copies the arguments collected in p.args into one exactly sized
// array, points every directive's Args into it, and recycles p.args.
// Directive.Args is never nil (an empty, non-nil slice when there are none).
func (p *parser) finishArgs() {
	scratch := p.args
	p.args = nil
	final := argSlabs.get(len(scratch))
	p.doc.mem.args = final
	copy(final, scratch)
	off := 0
	for _, d := range p.doc.Directives {
		n := len(d.Args)
		d.Args = final[off : off+n : off+n]
		off += n
	}
	clear(scratch) // drop the references into the text
	if cap(scratch) <= 1<<16 {
		*p.argsHolder = scratch[:0]
		argScratch.Put(p.argsHolder)
	}
	p.argsHolder = nil
}

// terminator counts a line terminator (the CR of CRLF, or the LF). Where
// the terminators are is looked up again only for a text that mixes both
// styles (see terminatorOffsets), so that counting allocates nothing.
func (p *parser) terminator(crlf bool) {
	if !p.sawTerminator {
		p.sawTerminator = true
		p.firstTermCRLF = crlf
	}
	if crlf {
		p.nCRLF++
	} else {
		p.nLF++
	}
}

// terminatorOffsets returns the offsets of the first terminators of each
// style (the CR of CRLF, or the LF), at most diag.MaxPerFileCode+1 of each:
// what finishLineEndings reports, of a text that mixes both styles.
func (p *parser) terminatorOffsets() (lfAt, crlfAt []int) {
	const keep = diag.MaxPerFileCode + 1
	src := p.src
	for ls := 0; len(lfAt) < keep || len(crlfAt) < keep; {
		i := bytes.IndexByte(src[ls:], '\n')
		if i < 0 {
			break
		}
		le := ls + i
		if le > ls && src[le-1] == '\r' {
			if len(crlfAt) < keep {
				crlfAt = append(crlfAt, le-1)
			}
		} else if len(lfAt) < keep {
			lfAt = append(lfAt, le)
		}
		ls = le + 1
	}
	return lfAt, crlfAt
}

// finishLineEndings sets Document.LineEnding and reports the terminators of
// the minority style ("Lines and encoding" in docs/journal-format.md: one
// style throughout). On a tie the style of the first terminator wins.
func (p *parser) finishLineEndings() {
	doc := p.doc
	switch {
	case p.nCRLF == 0 && p.nLF == 0:
		if doc.LineEnding != Mixed {
			doc.LineEnding = NoTerminator
		}
		return
	case p.nCRLF == 0:
		if doc.LineEnding != Mixed {
			doc.LineEnding = LF
		}
		return
	case p.nLF == 0:
		if doc.LineEnding != Mixed {
			doc.LineEnding = CRLF
		}
		return
	}
	doc.LineEnding = Mixed
	useCRLF := p.nCRLF > p.nLF || (p.nCRLF == p.nLF && p.firstTermCRLF)
	lfAt, crlfAt := p.terminatorOffsets()
	wrong, size, msg, help := lfAt, 1, "line ends with LF but the text mostly uses CRLF", "end every line with CRLF, or every line with LF"
	majority := crlfAt[0]
	if !useCRLF {
		wrong, size, msg = crlfAt, 2, "line ends with CRLF but the text mostly uses LF"
		majority = lfAt[0]
	}
	mpos := doc.Lines.Pos(majority)
	for _, off := range wrong {
		st := doc.Lines.Pos(off)
		r := diag.Range{Start: st, End: doc.Lines.Pos(off + size)}
		p.report(rules.SyntaxLineEnding, r, msg, help, diag.Related{
			Range:   diag.Range{Start: mpos, End: doc.Lines.Pos(majority + 3 - size)},
			Message: "first line ending of the prevailing style",
		})
	}
}

// printable8 reports whether each of the 8 bytes of w is printable ASCII
// (0x20 to 0x7E), eight at a time: no byte below 0x20 (the borrow of
// subtracting 0x20 from each reaches its high bit) and none at 0x7F or
// above (adding 1 to its low seven bits reaches the high bit, or the
// high bit is set).
func printable8(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (w - 0x20*ones) &^ w & highs
	above := (((w &^ highs) + ones) | w) & highs
	return below|above == 0
}

// checkBytes checks the content of one line (terminator excluded) for invalid
// UTF-8, forbidden control characters and lone CRs ("Lines and encoding" in
// docs/journal-format.md), records the bad spans for the tokenizer and sets
// p.lineASCII.
func (p *parser) checkBytes(ls, ce int) {
	src := p.src
	p.bad = p.bad[:0]
	i := ls
	for i+8 <= ce && printable8(binary.LittleEndian.Uint64(src[i:])) {
		i += 8
	}
	for i < ce {
		if c := src[i]; c >= 0x20 && c < 0x7f || c == '\t' {
			i++
			continue
		}
		break
	}
	p.lineASCII = true
	if i == ce {
		return
	}
	// Slow path: the line holds non-ASCII text or a control character.
	for k := i; k < ce; k++ {
		if src[k] >= 0x80 {
			p.lineASCII = false
			break
		}
	}
	for i < ce {
		c := src[i]
		if c < 0x80 {
			if c >= 0x20 && c < 0x7f || c == '\t' {
				i++
				continue
			}
			if c == '\r' {
				p.bad = append(p.bad, span{i, i + 1})
				p.doc.LineEnding = Mixed
				p.report(rules.SyntaxLineEnding, p.rng(i, i+1), "carriage return not followed by a line feed",
					"end lines with LF or CRLF; a lone CR is not a line ending")
				i++
				continue
			}
			j := i + 1
			for j < ce && src[j] == c {
				j++
			}
			p.bad = append(p.bad, span{i, j})
			p.report(rules.SyntaxEncoding, p.rng(i, j), fmt.Sprintf("forbidden control character U+%04X", c),
				controlHelp(c))
			i = j
			continue
		}
		r, size := utf8.DecodeRune(src[i:ce])
		if r == utf8.RuneError && size == 1 {
			j := i + 1
			for j < ce && src[j] >= 0x80 {
				if r2, n2 := utf8.DecodeRune(src[j:ce]); r2 != utf8.RuneError || n2 != 1 {
					break
				}
				j++
			}
			p.bad = append(p.bad, span{i, j})
			p.report(rules.SyntaxEncoding, p.rng(i, j), "invalid UTF-8", "the text must be valid UTF-8")
			i = j
			continue
		}
		if r >= 0x80 && r <= 0x9f {
			p.bad = append(p.bad, span{i, i + size})
			p.report(rules.SyntaxEncoding, p.rng(i, i+size), fmt.Sprintf("forbidden control character U+%04X", r),
				"C1 control characters U+0080–U+009F are not allowed")
		}
		i += size
	}
}

func controlHelp(c byte) string {
	if c == 0 {
		return "a NUL byte: is this a binary file?"
	}
	return "control characters other than TAB and line endings are not allowed; inside a quoted string use a JSON escape"
}

// overlapsBad reports whether [start, end) overlaps a span with an encoding
// or line-ending error on the current line.
func (p *parser) overlapsBad(start, end int) bool {
	for _, b := range p.bad {
		if b.start < end && start < b.end {
			return true
		}
	}
	return false
}

// newDirective returns a fresh directive from the slab (sized by
// countLines, so a new chunk is only a safety net).
func (p *parser) newDirective() *Directive {
	if len(p.dirSlab) == 0 {
		p.dirSlab = make([]Directive, p.chunk)
	}
	d := &p.dirSlab[0]
	p.dirSlab = p.dirSlab[1:]
	return d
}

// directiveLine handles the content [cs, ce) of one line: blank, comment
// or directive ("Lines and encoding" in docs/journal-format.md).
func (p *parser) directiveLine(cs, ce int) {
	s := p.s
	i := cs
	for i < ce && blank(s[i]) {
		i++
	}
	if i == ce {
		return
	}
	p.nonBlankLines++
	if s[i] == '#' {
		return
	}
	e := ce
	for e > i && blank(s[e-1]) {
		e--
	}
	k := i
	for k < e && !blank(s[k]) && s[k] != '"' {
		k++
	}
	if k == i { // the line starts with a quote
		for k < e && !blank(s[k]) {
			k++
		}
	}
	kind := KindOf(s[i:k])
	if kind == KindUnknown && p.limit.Full(p.path, rules.SyntaxUnknownDirective) {
		// Junk past the cap: counted, not kept, so that the memory of a
		// text of millions of junk lines stays proportional to what the
		// Document keeps (issue: hostile input §3).
		p.limit.Keep(diag.Diagnostic{Code: rules.SyntaxUnknownDirective, Severity: diag.Error, Path: p.path, Range: p.rng(i, k)})
		return
	}
	d := p.newDirective()
	d.Keyword = s[i:k]
	d.rng = p.rng32(i, e)
	kw := p.pos(k)
	d.kwEndOff, d.kwEndCol = int32(kw.Offset), int32(kw.Column)
	d.Line = p.line
	d.Kind = kind
	p.doc.Directives = append(p.doc.Directives, d)

	// The arguments are appended to p.args; d.Args views them there until
	// finishArgs moves them into their final array.
	base := len(p.args)
	args := p.args

	argErr := false
	switch {
	case p.overlapsBad(i, k):
		// Already reported as an encoding error; do not guess what it is.
		d.Kind = KindUnknown
		args = p.splitQuiet(args, k, e)
		argErr = true
	case d.Kind == KindUnknown:
		p.unknownKeyword(d)
		args = p.splitQuiet(args, k, e)
		argErr = true
	case d.Kind == KindLicense:
		j := k
		for j < e && blank(s[j]) {
			j++
		}
		if j < e {
			args = append(args, Arg{Raw: s[j:e], Text: s[j:e], rng: p.rng32(j, e), bad: p.overlapsBad(j, e)})
		}
	default:
		args, argErr = p.tokenize(args, base, k, e)
	}
	p.args = args
	d.Args = args[base:len(args):len(args)]
	p.directive(d, argErr)
}

// unknownKeyword reports an unknown or malformed KEYWORD
// ("Directives and arguments" in docs/journal-format.md).
func (p *parser) unknownKeyword(d *Directive) {
	kw := d.Keyword
	known := kindNames[KindUnknown+1:]
	help := "known directives: " + strings.Join(known, ", ")
	var fixes []diag.Fix
	write := func(k string) []diag.Fix {
		return []diag.Fix{{Title: "Write " + k, Edits: []diag.Edit{{Range: d.KeywordRange(), NewText: k}}}}
	}
	up := asciiUpper(kw)
	if up != kw && KindOf(up) != KindUnknown {
		help = "keywords are case-sensitive: write " + up
		fixes = write(up)
	} else if k := suggest.Closest(up, known); k != "" {
		help = "did you mean " + k + "?"
		fixes = write(k)
	}
	msg := fmt.Sprintf("unknown directive %s", quoteShort(kw))
	if !validKeyword(kw) {
		msg = fmt.Sprintf("invalid keyword %s", quoteShort(kw))
	}
	p.report(rules.SyntaxUnknownDirective, d.KeywordRange(), msg, help)
	if n := len(p.diags); fixes != nil && n > 0 && p.diags[n-1].Code == rules.SyntaxUnknownDirective && p.diags[n-1].Range == d.KeywordRange() {
		p.diags[n-1].Fixes = fixes
	}
}

// validKeyword reports whether kw matches [A-Z][A-Z_]*
// ("Directives and arguments" in docs/journal-format.md).
func validKeyword(kw string) bool {
	if kw == "" || kw[0] < 'A' || kw[0] > 'Z' {
		return false
	}
	for i := 1; i < len(kw); i++ {
		if c := kw[i]; (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return true
}

func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// quoteShort quotes s for a message, shortened to 64 bytes.
func quoteShort(s string) string {
	if len(s) > 64 {
		cut := 64
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return fmt.Sprintf("%q...", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}

// splitQuiet splits [k, e) into blank-separated tokens without judging
// them: the arguments of a directive whose grammar is unknown.
func (p *parser) splitQuiet(args []Arg, k, e int) []Arg {
	s := p.s
	j := k
	for j < e {
		for j < e && blank(s[j]) {
			j++
		}
		t := j
		for j < e && !blank(s[j]) {
			j++
		}
		if j > t {
			args = append(args, Arg{Raw: s[t:j], Text: s[t:j], rng: p.rng32(t, j), bad: true})
		}
	}
	return args
}

// tokenize splits the arguments [k, e) of a known directive other than LICENSE
// into bare tokens and at most one final quoted string
// ("Directives and arguments" in docs/journal-format.md). It reports malformed
// arguments and returns argErr when the argument list itself could not be
// split reliably. The directive's arguments are appended to args, whose first
// base elements belong to earlier directives.
func (p *parser) tokenize(args []Arg, base, k, e int) ([]Arg, bool) {
	s := p.s
	j := k
	for j < e {
		if !blank(s[j]) {
			// The previous token stopped at a quote.
			msg := "missing space before quoted string"
			if len(args) > base {
				msg = "quote inside a bare argument"
				args[len(args)-1].bad = true
			}
			p.report(rules.SyntaxArguments, p.rng(j, j+1), msg,
				"arguments are separated by spaces or tabs; only the last argument may be a quoted string")
			return args, true
		}
		for j < e && blank(s[j]) {
			j++
		}
		if j >= e {
			break
		}
		if s[j] == '"' {
			a, end, ok := p.quoted(j, e)
			args = append(args, a)
			if !ok {
				return args, true
			}
			if end < e {
				q := end
				for q < e && blank(s[q]) {
					q++
				}
				p.report(rules.SyntaxArguments, p.rng(q, e), "text after the quoted string",
					"a quoted string must be the last argument")
				return args, true
			}
			return args, false
		}
		t := j
		for j < e && !blank(s[j]) && s[j] != '"' {
			j++
		}
		args = append(args, Arg{Raw: s[t:j], Text: s[t:j], rng: p.rng32(t, j), bad: p.overlapsBad(t, j)})
	}
	return args, false
}

// quoted reads the JSON string (RFC 8259 §7) that starts with the quote at
// q and must end before e. It reports every problem of
// "Directives and arguments" in docs/journal-format.md:
// unterminated string, raw TAB, bad escape, decoded control character,
// unpaired surrogate, more than MaxQuoted decoded bytes. end is the offset
// after the closing quote; ok is false when the string is unterminated.
func (p *parser) quoted(q, e int) (a Arg, end int, ok bool) {
	s := p.s
	buf := p.decodeScratch[:0]
	escaped := false
	bad := false
	j := q + 1
	for j < e {
		c := s[j]
		switch {
		case c == '"':
			end = j + 1
			a = Arg{Raw: s[q:end], Quoted: true, rng: p.rng32(q, end)}
			if escaped {
				a.Text = string(buf)
			} else {
				a.Text = s[q+1 : j]
			}
			p.decodeScratch = buf[:0]
			n := len(buf)
			if !escaped {
				n = j - q - 1
			}
			if n > MaxQuoted {
				p.report(rules.SyntaxArguments, a.Range(),
					fmt.Sprintf("quoted string is %d bytes long when decoded, more than %d", n, MaxQuoted), "")
				bad = true
			}
			if bad || p.overlapsBad(q, end) {
				a.bad = true
			}
			return a, end, true
		case c == '\\':
			if !escaped {
				escaped = true
				buf = append(buf, s[q+1:j]...)
			}
			var n int
			var okEsc bool
			buf, n, okEsc = p.escape(buf, j, e)
			if !okEsc {
				bad = true
			}
			j += n
		case c == '\t':
			p.report(rules.SyntaxArguments, p.rng(j, j+1), "raw tab inside a quoted string",
				`write a tab inside a quoted string as \t`)
			bad = true
			if escaped {
				buf = append(buf, c)
			}
			j++
		default:
			// Other control characters, DEL, C1 and invalid UTF-8 are
			// encoding errors already reported by checkBytes.
			if escaped {
				buf = append(buf, c)
			}
			j++
		}
	}
	p.decodeScratch = buf[:0]
	p.report(rules.SyntaxArguments, p.rng(q, e), "unterminated quoted string",
		"a quoted string ends with an unescaped \" on the same line")
	return Arg{Raw: s[q:e], Text: s[q+1 : e], Quoted: true, rng: p.rng32(q, e), bad: true}, e, false
}

// escape decodes the escape sequence at s[j] == '\\' (before e), appends its
// text to buf and returns the number of bytes it spans. It reports a bad
// escape, a forbidden decoded control character or an unpaired surrogate.
func (p *parser) escape(buf []byte, j, e int) ([]byte, int, bool) {
	s := p.s
	if j+1 >= e {
		// A backslash just before the end: the string is unterminated,
		// which the caller reports.
		return buf, 1, true
	}
	var r rune
	n := 2
	switch s[j+1] {
	case '"', '\\', '/':
		return append(buf, s[j+1]), 2, true
	case 'n':
		return append(buf, '\n'), 2, true
	case 't':
		return append(buf, '\t'), 2, true
	case 'b':
		r = '\b'
	case 'f':
		r = '\f'
	case 'r':
		r = '\r'
	case 'u':
		v, okHex := hex4(s, j+2, e)
		if !okHex {
			end := j + 2
			for end < e && end < j+6 && isHex(s[end]) {
				end++
			}
			if end < e && end < j+6 {
				end++
				for end < e && !utf8.RuneStart(s[end]) {
					end++
				}
			}
			p.report(rules.SyntaxArguments, p.rng(j, end), `invalid \u escape: want four hex digits`, "")
			return buf, end - j, false
		}
		r, n = rune(v), 6
		switch {
		case r >= 0xd800 && r <= 0xdbff:
			if j+7 < e && s[j+6] == '\\' && s[j+7] == 'u' {
				if lo, okLo := hex4(s, j+8, e); okLo && lo >= 0xdc00 && lo <= 0xdfff {
					r = 0x10000 + (r-0xd800)<<10 + (rune(lo) - 0xdc00)
					return utf8.AppendRune(buf, r), 12, true
				}
			}
			p.report(rules.SyntaxArguments, p.rng(j, j+6),
				fmt.Sprintf(`unpaired surrogate \u%s`, s[j+2:j+6]), "a high surrogate must be followed by a low surrogate escape")
			return buf, 6, false
		case r >= 0xdc00 && r <= 0xdfff:
			p.report(rules.SyntaxArguments, p.rng(j, j+6),
				fmt.Sprintf(`unpaired surrogate \u%s`, s[j+2:j+6]), "a low surrogate must follow a high surrogate escape")
			return buf, 6, false
		}
	default:
		end := j + 2
		for end < e && !utf8.RuneStart(s[end]) {
			end++
		}
		p.report(rules.SyntaxArguments, p.rng(j, end), fmt.Sprintf("invalid escape %s", quoteShort(s[j:end])),
			`valid escapes are \" \\ \/ \b \f \n \r \t and \uXXXX`)
		return buf, end - j, false
	}
	if forbiddenDecoded(r) {
		p.report(rules.SyntaxArguments, p.rng(j, j+n),
			fmt.Sprintf("quoted string contains control character U+%04X", r),
			"a quoted string may contain no control characters other than LF (\\n) and TAB (\\t)")
		return buf, n, false
	}
	return utf8.AppendRune(buf, r), n, true
}

// forbiddenDecoded reports whether r is a control character that decoded
// quoted text must not contain ("Directives and arguments" in
// docs/journal-format.md: all but LF and TAB).
func forbiddenDecoded(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// hex4 decodes the four hex digits s[i:i+4], which must end before e.
func hex4(s string, i, e int) (int, bool) {
	if i+4 > e {
		return 0, false
	}
	v := 0
	for k := i; k < i+4; k++ {
		c := s[k]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | int(d)
	}
	return v, true
}
