package lsp

import (
	"bytes"
	"math"
	"sync"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
)

// posEncoding is how a Position's character counts (LSP 3.17
// "PositionEncodingKind"): UTF-16 code units unless the client offers UTF-8.
type posEncoding string

const (
	utf16        posEncoding = "utf-16"
	utf8Encoding posEncoding = "utf-8"
)

// text is one version of a file's bytes with its line index, and its
// parse once a check or a request made it.
type text struct {
	src   []byte
	lines *diag.LineIndex

	parsing sync.Mutex // held while a request parses the text
	mu      sync.Mutex // guards doc and prev
	doc     *syntax.Document
	// prev is the newest earlier version of the buffer that was parsed,
	// while this one is not: requests about lines that did not change
	// are answered from it instead of parsing again.
	prev *text
}

func newText(src []byte) *text { return &text{src: src, lines: diag.NewLineIndex(src)} }

// follow records that t, a new text, follows old in a buffer.
func (t *text) follow(old *text) {
	old.mu.Lock()
	prev := old.prev
	if old.doc != nil {
		prev = old
	}
	old.mu.Unlock()
	t.mu.Lock()
	t.prev = prev
	t.mu.Unlock()
}

// parsed returns the text parsed (path names it in positions), parsing it
// the first time: the requests about one version of a buffer share one
// parse, also with the check that parsed it ([text.keep]).
func (t *text) parsed(path string) *syntax.Document {
	t.parsing.Lock()
	defer t.parsing.Unlock()
	t.mu.Lock()
	doc := t.doc
	t.mu.Unlock()
	if doc != nil {
		return doc
	}
	if h := hooks.parse.Load(); h != nil {
		(*h)()
	}
	doc, _ = syntax.Parse(path, t.src)
	t.keep(doc)
	return doc
}

// keep makes doc, a parse of exactly this text, its parse.
func (t *text) keep(doc *syntax.Document) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.doc == nil {
		t.doc, t.prev = doc, nil
	}
}

// reusable returns the parse of the text, or else that of an earlier
// version in which line (1-based) is the same bytes at the same line
// number, with that version's text; nil when there is neither, without
// parsing.
func (t *text) reusable(line int) (*text, *syntax.Document) {
	t.mu.Lock()
	doc, prev := t.doc, t.prev
	t.mu.Unlock()
	if doc != nil {
		return t, doc
	}
	if prev == nil || line < 1 || line > t.lines.LineCount() || line > prev.lines.LineCount() ||
		!bytes.Equal(t.lines.Line(line), prev.lines.Line(line)) {
		return nil, nil
	}
	prev.mu.Lock()
	defer prev.mu.Unlock()
	return prev, prev.doc
}

// position returns the LSP position of byte offset off (clamped to the
// text). An invalid UTF-8 byte counts as one unit in either encoding.
func (t *text) position(enc posEncoding, off int) protocol.Position {
	off = min(max(off, 0), len(t.src))
	p := t.lines.Pos(off)
	start := t.lines.LineStart(p.Line)
	return protocol.Position{Line: uint32(p.Line - 1), Character: uint32(units(enc, t.src[start:off]))}
}

// units counts b in enc's units.
func units(enc posEncoding, b []byte) int {
	if enc == utf8Encoding {
		return len(b)
	}
	_, n := advance(enc, b, 0, math.MaxInt)
	return n
}

// offset returns the byte offset of pos, clamped to its line (a character
// past the line's end means the end of the line, LSP 3.17 "Position") and to
// the text.
func (t *text) offset(enc posEncoding, pos protocol.Position) int {
	line := int(pos.Line) + 1
	total := t.lines.LineCount()
	if len(t.src) == 0 || t.src[len(t.src)-1] == '\n' {
		total++ // the empty line after the last terminator
	}
	if line > total {
		return len(t.src)
	}
	start := t.lines.LineStart(line)
	lineText := t.lines.Line(line)
	if end := start + len(lineText); end == len(t.src)-1 && t.src[end] == '\r' {
		lineText = t.src[start:] // a lone CR ending the text is not a terminator here
	}
	off, _ := advance(enc, lineText, 0, int(pos.Character))
	return start + off
}

// advance returns how many bytes of b the units of enc from n up to want
// take, and n plus their units: it stops at want, at the end of b, or
// before a sequence that would go past want (want inside a surrogate pair
// or a UTF-8 sequence). An invalid UTF-8 byte counts as one unit in either
// encoding.
func advance(enc posEncoding, b []byte, n, want int) (int, int) {
	off := 0
	for off < len(b) && n < want {
		r, size := utf8.DecodeRune(b[off:])
		u := 1
		switch {
		case enc == utf8Encoding:
			u = size
		case r >= 0x10000:
			u = 2
		}
		if n+u > want {
			break
		}
		n, off = n+u, off+size
	}
	return off, n
}

// lspRange returns the LSP range of the byte range [start, end).
func (t *text) lspRange(enc posEncoding, start, end int) protocol.Range {
	return protocol.Range{Start: t.position(enc, start), End: t.position(enc, max(start, end))}
}

// diagRange returns the LSP range of a diagnostic's range; a range that is
// not known (the whole file) becomes the file's first line.
func (t *text) diagRange(enc posEncoding, r diag.Range) protocol.Range {
	if !r.IsValid() {
		return t.lspRange(enc, 0, len(t.lines.Line(1)))
	}
	end := r.End.Offset
	if !r.End.IsValid() {
		end = r.Start.Offset
	}
	return t.lspRange(enc, r.Start.Offset, end)
}

// relatedRange returns the LSP range of a related location; a location
// without a range (a whole file) becomes the file's start.
func (t *text) relatedRange(enc posEncoding, r diag.Range) protocol.Range {
	if !r.IsValid() {
		return protocol.Range{}
	}
	return t.diagRange(enc, r)
}
