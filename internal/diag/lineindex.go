package diag

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// LineIndex converts byte offsets of one file into positions. Lines end after
// LF; a CR before it belongs to the line's terminator. Columns count Unicode
// code points, and an invalid UTF-8 byte counts as one column.
type LineIndex struct {
	src    []byte
	starts []int // byte offset of the first byte of each line, ascending
}

// NewLineIndex indexes src. It keeps a reference to src, which must not change.
func NewLineIndex(src []byte) *LineIndex {
	// Count first (vectorised), so that starts is allocated once, exactly.
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		starts = append(starts, off)
	}
	return &LineIndex{src: src, starts: starts}
}

// Pos returns the position of byte offset off, clamped to [0, len(src)].
func (x *LineIndex) Pos(off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > len(x.src) {
		off = len(x.src)
	}
	line := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	start := x.starts[line]
	col := 1
	for i := start; i < off; {
		_, n := utf8.DecodeRune(x.src[i:])
		if i+n > off {
			break
		}
		i += n
		col++
	}
	return Pos{Offset: off, Line: line + 1, Column: col}
}

// Range returns the range of the byte offsets [start, end).
func (x *LineIndex) Range(start, end int) Range {
	return Range{Start: x.Pos(start), End: x.Pos(end)}
}

// LineCount returns the number of lines; a final line without a terminator
// counts, an empty text after the last LF does not.
func (x *LineIndex) LineCount() int {
	n := len(x.starts)
	if x.starts[n-1] == len(x.src) {
		n--
	}
	return n
}

// Line returns the bytes of 1-based line n without its LF or CRLF terminator,
// or nil when n is out of range.
func (x *LineIndex) Line(n int) []byte {
	if n < 1 || n > len(x.starts) {
		return nil
	}
	s := x.starts[n-1]
	e := len(x.src)
	if n < len(x.starts) {
		e = x.starts[n] - 1
	}
	if e > s && x.src[e-1] == '\r' {
		e--
	}
	if e < s {
		e = s
	}
	return x.src[s:e]
}

// Source returns the indexed text.
func (x *LineIndex) Source() []byte { return x.src }

// LineStart returns the byte offset where 1-based line n starts, clamped to
// the first and the last line.
func (x *LineIndex) LineStart(n int) int {
	n = min(max(n, 1), len(x.starts))
	return x.starts[n-1]
}
