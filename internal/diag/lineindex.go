package diag

import (
	"bytes"
	"sort"
	"sync/atomic"
	"unicode/utf8"
)

// LineIndex converts byte offsets of one file into positions. Lines end after
// LF; a CR before it belongs to the line's terminator. Columns count Unicode
// code points, and an invalid UTF-8 byte counts as one column.
//
// It records the start of every lineStride-th line only and finds the
// others by scanning at most lineStride-1 lines, so that its memory is a
// small fraction of the text's even for a text of millions of one-byte
// lines (issue: hostile input §3); a lookup costs O(log L + lineStride·l)
// for L lines of l bytes. A lookup further on the line of the one before
// goes on from where that one stopped, so that the findings on one long
// line, which come in order, cost the line's length once and not once
// each. Its methods are safe for concurrent use.
type LineIndex struct {
	src   []byte
	marks []int // byte offset of the first byte of lines 0, lineStride, 2·lineStride, … (0-based)
	lines int   // number of line starts: the LFs plus one
	last  atomic.Pointer[cursor]
}

// cursor is where a [LineIndex.Pos] stopped: at the code point boundary
// at, in column col, of 1-based line line, which starts at byte start.
type cursor struct{ line, start, at, col int }

// lineStride is the distance in lines between the recorded line starts.
const lineStride = 32

// NewLineIndex indexes src. It keeps a reference to src, which must not change.
func NewLineIndex(src []byte) *LineIndex {
	lines := bytes.Count(src, []byte{'\n'}) + 1
	marks := make([]int, 1, (lines+lineStride-1)/lineStride)
	for off, line := 0, 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		if line++; line%lineStride == 0 {
			marks = append(marks, off)
		}
	}
	return &LineIndex{src: src, marks: marks, lines: lines}
}

// LineMarks builds a [LineIndex] from the offsets of a text's LFs, for a
// caller that finds every LF anyway (the parser, line by line), so that the
// text is not searched for them a second time. The zero value is not
// usable: start with [NewLineMarks].
type LineMarks struct {
	marks []int
	lfs   int
}

// NewLineMarks returns a LineMarks for a text of about lfs LFs (a hint for
// the capacity; any count works).
func NewLineMarks(lfs int) LineMarks {
	return LineMarks{marks: make([]int, 1, (lfs+lineStride)/lineStride)}
}

// LF records the next LF of the text, at offset off. The LFs must be
// recorded in order, every one of them.
func (m *LineMarks) LF(off int) {
	if m.lfs++; m.lfs%lineStride == 0 {
		m.marks = append(m.marks, off+1)
	}
}

// Index returns the index of src, whose LFs m has recorded: what
// [NewLineIndex] returns for src. It keeps a reference to src, which must
// not change.
func (m *LineMarks) Index(src []byte) *LineIndex {
	return &LineIndex{src: src, marks: m.marks, lines: m.lfs + 1}
}

// start returns the byte offset of the first byte of 0-based line i, which
// must be below x.lines.
func (x *LineIndex) start(i int) int {
	off := x.marks[i/lineStride]
	for k := i % lineStride; k > 0; k-- {
		off += bytes.IndexByte(x.src[off:], '\n') + 1
	}
	return off
}

// Pos returns the position of byte offset off, clamped to [0, len(src)].
func (x *LineIndex) Pos(off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > len(x.src) {
		off = len(x.src)
	}
	c := x.last.Load()
	if c == nil || c.at > off || bytes.IndexByte(x.src[c.at:off], '\n') >= 0 {
		m := sort.Search(len(x.marks), func(i int) bool { return x.marks[i] > off }) - 1
		line := m*lineStride + bytes.Count(x.src[x.marks[m]:off], []byte{'\n'})
		start := x.marks[m] + bytes.LastIndexByte(x.src[x.marks[m]:off], '\n') + 1
		c = &cursor{line: line + 1, start: start, at: start, col: 1}
	}
	col, at := columnFrom(x.src, c.at, c.col, off)
	x.last.Store(&cursor{line: c.line, start: c.start, at: at, col: col})
	return Pos{Offset: off, Line: c.line, Column: col}
}

// Column returns the 1-based column of byte offset off on the line of src
// that starts at byte offset lineStart (lineStart <= off <= len(src)): one
// more than the number of code points in src[lineStart:off], where an
// invalid UTF-8 byte counts as one code point and a code point that off
// cuts in half does not count. It is the one column rule of journal-lint
// (columns count code points), shared by [LineIndex] and the parser.
func Column(src []byte, lineStart, off int) int {
	col, _ := columnFrom(src, lineStart, 1, off)
	return col
}

// columnFrom goes on counting columns as [Column] does from the code point
// boundary i of a line, in column col, to off (i <= off): it returns the
// column of off and the boundary where it stopped, off itself or the
// start of the code point that off cuts.
func columnFrom(src []byte, i, col, off int) (int, int) {
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
	return col, i
}

// Range returns the range of the byte offsets [start, end).
func (x *LineIndex) Range(start, end int) Range {
	return Range{Start: x.Pos(start), End: x.Pos(end)}
}

// LineCount returns the number of lines; a final line without a terminator
// counts, an empty text after the last LF does not.
func (x *LineIndex) LineCount() int {
	n := x.lines
	if len(x.src) == 0 || x.src[len(x.src)-1] == '\n' {
		n--
	}
	return n
}

// Line returns the bytes of 1-based line n without its LF or CRLF terminator,
// or nil when n is out of range.
func (x *LineIndex) Line(n int) []byte {
	if n < 1 || n > x.lines {
		return nil
	}
	s := x.start(n - 1)
	e := len(x.src)
	if n < x.lines {
		e = s + bytes.IndexByte(x.src[s:], '\n')
	}
	if e > s && x.src[e-1] == '\r' {
		e--
	}
	return x.src[s:e]
}

// Source returns the indexed text.
func (x *LineIndex) Source() []byte { return x.src }

// LineStart returns the byte offset where 1-based line n starts, clamped to
// the first and the last line.
func (x *LineIndex) LineStart(n int) int {
	n = min(max(n, 1), x.lines)
	return x.start(n - 1)
}
