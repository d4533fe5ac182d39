package lsp

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// applyEach is what didChange did before applyChanges: each change
// applied to a copy of the whole text, positions by text.offset.
func applyEach(t *text, enc posEncoding, changes []contentChange) []byte {
	for _, ch := range changes {
		if ch.Range == nil {
			t = newText([]byte(ch.Text))
			continue
		}
		start, end := t.offset(enc, ch.Range.Start), t.offset(enc, ch.Range.End)
		end = max(start, end)
		src := append(append(append([]byte{}, t.src[:start]...), ch.Text...), t.src[end:]...)
		t = newText(src)
	}
	return t.src
}

// TestApplyChangesAsEachOnItsOwn: applying a change set through pieces
// gives the text that applying each change to the whole text gives, for
// random changes (positions past line ends and past the last line, ends
// before starts, multi-line, whole-text) over texts of CRLF, lone CR,
// astral and invalid UTF-8, small pieces included, in both position
// encodings.
func TestApplyChangesAsEachOnItsOwn(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "b", "\n", "\r\n", "\r", "é", "😀", "\xff", "\xe2\x82", "  "}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	pos := func() protocol.Position {
		return protocol.Position{Line: uint32(rng.IntN(40)), Character: uint32(rng.IntN(12))}
	}
	for round := range 3000 {
		src := []byte(word(rng.IntN(300)))
		if round%7 == 0 {
			src = []byte(word(rng.IntN(5000))) // several pieces
		}
		var changes []contentChange
		for range 1 + rng.IntN(20) {
			ch := contentChange{Text: word(rng.IntN(6))}
			if rng.IntN(30) > 0 {
				ch.Range = &protocol.Range{Start: pos(), End: pos()}
			}
			changes = append(changes, ch)
		}
		for _, enc := range []posEncoding{utf16, utf8Encoding} {
			want := applyEach(newText(src), enc, changes)
			if got := applyChanges(newText(src), enc, changes).src; !bytes.Equal(got, want) {
				t.Fatalf("round %d, %s: %q with %+v:\n got %q\nwant %q", round, enc, src, changes, got, want)
			}
		}
	}
}

// BenchmarkApplyManyChanges is the bound on a didChange of many edits
// (issue 26: 16,000 one-character edits of an 8 MB buffer blocked the
// server for 47-53 s): one change set of 16,000 one-character edits spread
// over an 8 MB buffer of short lines, from the bottom up as editors send
// them, against a change set of one edit. It reports the ratio as x and
// fails above 20: linear in the buffer plus the edits, the edits cost
// about what the buffer does (a copy of the buffer per edit: 16,000).
func BenchmarkApplyManyChanges(b *testing.B) {
	const size, edits = 8 << 20, 16000
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		fmt.Fprintf(&sb, "line %d é😀 text\n", i)
	}
	src := []byte(sb.String())
	lines := bytes.Count(src, []byte{'\n'})
	many := make([]contentChange, edits)
	for k := range many {
		line := uint32(lines - 1 - k*(lines/edits))
		many[k] = contentChange{Range: &protocol.Range{Start: protocol.Position{Line: line, Character: 3}, End: protocol.Position{Line: line, Character: 4}}, Text: "E"}
	}
	one := many[:1]
	var tMany, tOne time.Duration
	for b.Loop() {
		start := time.Now()
		applyChanges(newText(src), utf16, one)
		tOne += time.Since(start)
		start = time.Now()
		got := applyChanges(newText(src), utf16, many)
		tMany += time.Since(start)
		if len(got.src) != len(src) {
			b.Fatalf("%d bytes, want %d", len(got.src), len(src))
		}
	}
	x := float64(tMany) / float64(tOne)
	b.ReportMetric(x, "x")
	b.ReportMetric(float64(tMany.Milliseconds())/float64(b.N), "many-ms")
	if x > 20 {
		b.Fatalf("16,000 edits take %.1f times as long as one, want at most 20", x)
	}
}
