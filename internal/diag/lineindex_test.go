package diag

import (
	"bytes"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// naive positions, to check the sparse index against.
func naivePos(src []byte, off int) Pos {
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	col := 1
	for i := start; i < off; {
		_, n := utf8.DecodeRune(src[i:])
		if i+n > off {
			break
		}
		i += n
		col++
	}
	return Pos{Offset: off, Line: line, Column: col}
}

func TestLineIndexMatchesNaive(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "é", "\n", "\r\n", "名", "\xff", "\t", ""}
	for round := 0; round < 200; round++ {
		var b strings.Builder
		for n := rng.Intn(300); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		src := []byte(b.String())
		x := NewLineIndex(src)
		for off := 0; off <= len(src); off++ {
			if got, want := x.Pos(off), naivePos(src, off); got != want {
				t.Fatalf("%q: Pos(%d) = %v, want %v", src, off, got, want)
			}
		}
		// In any order: a lookup goes on from the one before only on its
		// line and further on.
		for range 50 {
			off := rng.Intn(len(src) + 1)
			if got, want := x.Pos(off), naivePos(src, off); got != want {
				t.Fatalf("%q: Pos(%d) after others = %v, want %v", src, off, got, want)
			}
		}
		lines := bytes.Split(src, []byte("\n"))
		for n := 1; n <= len(lines); n++ {
			want := bytes.TrimSuffix(lines[n-1], []byte("\r"))
			if got := x.Line(n); !bytes.Equal(got, want) {
				t.Fatalf("%q: Line(%d) = %q, want %q", src, n, got, want)
			}
		}
		if x.Line(0) != nil || x.Line(len(lines)+1) != nil {
			t.Fatalf("%q: Line out of range is not nil", src)
		}
		wantCount := len(lines)
		if len(src) == 0 || src[len(src)-1] == '\n' {
			wantCount--
		}
		if got := x.LineCount(); got != wantCount {
			t.Fatalf("%q: LineCount = %d, want %d", src, got, wantCount)
		}
	}
}

// TestLineMarks checks that an index built from the LFs is the one
// NewLineIndex builds, whatever the capacity hint.
func TestLineMarks(t *testing.T) {
	t.Parallel()
	for _, lfs := range []int{0, 1, 31, 32, 33, 64, 100} {
		src := []byte(strings.Repeat("a\n", lfs) + "end")
		for _, hint := range []int{0, lfs, 3 * lfs} {
			m := NewLineMarks(hint)
			for off, c := range src {
				if c == '\n' {
					m.LF(off)
				}
			}
			if got, want := m.Index(src), NewLineIndex(src); !reflect.DeepEqual(got.marks, want.marks) || got.lines != want.lines {
				t.Errorf("%d LFs, hint %d: marks %v (%d lines), want %v (%d)", lfs, hint, got.marks, got.lines, want.marks, want.lines)
			}
		}
	}
}

func TestLineStart(t *testing.T) {
	t.Parallel()
	src := []byte(strings.Repeat("ab\n", 100))
	x := NewLineIndex(src)
	for n := 1; n <= 101; n++ {
		if got := x.LineStart(n); got != 3*(n-1) {
			t.Fatalf("LineStart(%d) = %d", n, got)
		}
	}
	if x.LineStart(0) != 0 || x.LineStart(500) != 300 {
		t.Errorf("clamping: %d %d", x.LineStart(0), x.LineStart(500))
	}
}

// BenchmarkPosOnLongLine is the cost of a finding's position on one long
// line: 1,000 findings spread over a 16 MiB line of multi-byte text (the
// most a file may hold), looked up in order as findings come. Each
// lookup goes on from the one before, so the whole costs about one pass
// over the line, not one per finding (ns/op is for all 1,000).
func BenchmarkPosOnLongLine(b *testing.B) {
	src := bytes.Repeat([]byte("é"), 8<<20)
	const findings = 1000
	for b.Loop() {
		x := NewLineIndex(src)
		for i := range findings {
			x.Pos(i * len(src) / findings)
		}
	}
}
