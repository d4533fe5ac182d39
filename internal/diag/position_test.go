package diag

import (
	"strings"
	"testing"
)

func TestLineIndexPos(t *testing.T) {
	t.Parallel()
	// "aé日\xff" on line 1 (bytes 0-6), CRLF (7-8), "b" on line 2 (9), LF
	// (10), an empty line 3 at 11.
	src := []byte("aé日\xff\r\nb\n")
	x := NewLineIndex(src)
	tests := []struct {
		off       int
		line, col int
		wantOff   int
	}{
		{-5, 1, 1, 0},  // clamped
		{0, 1, 1, 0},   // a
		{1, 1, 2, 1},   // é
		{2, 1, 2, 2},   // inside é: the cut code point does not count
		{3, 1, 3, 3},   // 日
		{5, 1, 3, 5},   // inside 日
		{6, 1, 4, 6},   // the invalid byte counts as one
		{7, 1, 5, 7},   // CR belongs to the terminator
		{8, 1, 6, 8},   // LF
		{9, 2, 1, 9},   // b
		{10, 2, 2, 10}, // LF
		{11, 3, 1, 11}, // end of text
		{99, 3, 1, 11}, // clamped
	}
	for _, tt := range tests {
		got := x.Pos(tt.off)
		if want := (Pos{Offset: tt.wantOff, Line: tt.line, Column: tt.col}); got != want {
			t.Errorf("Pos(%d) = %+v, want %+v", tt.off, got, want)
		}
	}
	if got, want := x.Range(1, 9), (Range{Start: Pos{Offset: 1, Line: 1, Column: 2}, End: Pos{Offset: 9, Line: 2, Column: 1}}); got != want {
		t.Errorf("Range(1, 9) = %+v, want %+v", got, want)
	}
}

func TestLineIndexLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src   string
		count int
		lines []string // Line(1), Line(2), …: one more than count, "", when the text ends with LF
	}{
		{"", 0, []string{""}},
		{"a", 1, []string{"a"}},
		{"a\n", 1, []string{"a", ""}},
		{"a\r\nb", 2, []string{"a", "b"}},
		{"a\r\n\r\nb\r", 3, []string{"a", "", "b"}}, // a final CR is dropped too
		{"\n\n", 2, []string{"", "", ""}},
	}
	for _, tt := range tests {
		x := NewLineIndex([]byte(tt.src))
		if got := x.LineCount(); got != tt.count {
			t.Errorf("%q: LineCount = %d, want %d", tt.src, got, tt.count)
		}
		for i, want := range tt.lines {
			if got := string(x.Line(i + 1)); got != want {
				t.Errorf("%q: Line(%d) = %q, want %q", tt.src, i+1, got, want)
			}
		}
		for _, n := range []int{0, -1, len(tt.lines) + 1} {
			if got := x.Line(n); got != nil {
				t.Errorf("%q: Line(%d) = %q, want nil", tt.src, n, got)
			}
		}
		if strings.Count(tt.src, "\n") > 0 && x.LineStart(2) != strings.IndexByte(tt.src, '\n')+1 {
			t.Errorf("%q: LineStart(2) = %d", tt.src, x.LineStart(2))
		}
		if string(x.Source()) != tt.src {
			t.Errorf("Source = %q", x.Source())
		}
	}
}

// Column agrees with a plain decode loop for every offset of one-line texts
// with ASCII, multi-byte and invalid UTF-8, from every start.
func TestColumn(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "abc", "é", "日本語 text", "a\xffb\xe6\x97c", "\xe6\x97", "mixed é and 日 and \xf0\x9f\x98\x80!"} {
		src := []byte(s)
		for start := 0; start <= len(src); start++ {
			for off := start; off <= len(src); off++ {
				if got, want := Column(src, start, off), naivePos(src[start:], off-start).Column; got != want {
					t.Errorf("Column(%q, %d, %d) = %d, want %d", s, start, off, got, want)
				}
			}
		}
	}
}

// FuzzLineIndex: Pos never panics, and its line and column match a count
// from the start of the text.
func FuzzLineIndex(f *testing.F) {
	f.Add([]byte("a\r\né\n\xff日"), 5)
	f.Add([]byte(""), 0)
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		x := NewLineIndex(src)
		p := x.Pos(off)
		if want := naivePos(src, min(max(off, 0), len(src))); p != want {
			t.Errorf("Pos(%d) = %+v, want %+v", off, p, want)
		}
	})
}
