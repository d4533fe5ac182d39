package diff

import (
	"strings"
	"unicode"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Op is the operation of one [Segment] of a word diff.
type Op int

// The operations of a word diff.
const (
	Equal Op = iota
	Delete
	Insert
)

// Segment is one run of a word diff: text that both sides share, that only
// the old side has (Delete) or that only the new side has (Insert).
type Segment struct {
	Op   Op
	Text string
}

// maxWordDiffTokens bounds the words that [WordDiff] hands to the diff
// algorithm, after the words both texts start and end with are set aside:
// Myers' algorithm costs O((N+M)·D), quadratic for texts that differ
// throughout, so longer middles are shown as replaced whole.
const maxWordDiffTokens = 4000

// WordDiff returns the word-level differences that turn old into new,
// computed with github.com/sergi/go-diff over words rather than characters:
// a word is a run of letters and digits, a run of white space, or one other
// character. Concatenating the Equal and Delete segments gives old, the Equal
// and Insert segments give new. The words both texts start and end with are
// Equal; when more than maxWordDiffTokens words remain between them, they
// are one Delete and one Insert, which keeps the cost linear in the length
// of the texts (issue: hostile input §2). It never panics.
func WordDiff(old, new string) []Segment {
	ta, tb := tokens(old), tokens(new)
	pre := 0
	for pre < len(ta) && pre < len(tb) && ta[pre] == tb[pre] {
		pre++
	}
	suf := 0
	for suf < len(ta)-pre && suf < len(tb)-pre && ta[len(ta)-1-suf] == tb[len(tb)-1-suf] {
		suf++
	}
	if len(ta)+len(tb)-2*(pre+suf) > maxWordDiffTokens {
		var out []Segment
		add := func(op Op, toks []string) {
			if t := strings.Join(toks, ""); t != "" {
				out = append(out, Segment{op, t})
			}
		}
		add(Equal, ta[:pre])
		add(Delete, ta[pre:len(ta)-suf])
		add(Insert, tb[pre:len(tb)-suf])
		add(Equal, ta[len(ta)-suf:])
		return out
	}
	ids := map[string]rune{}
	var names []string
	encode := func(toks []string) ([]rune, bool) {
		out := make([]rune, len(toks))
		for i, t := range toks {
			r, ok := ids[t]
			if !ok {
				var good bool
				if r, good = tokenRune(len(names)); !good {
					return nil, false
				}
				ids[t] = r
				names = append(names, t)
			}
			out[i] = r
		}
		return out, true
	}
	ra, okA := encode(ta)
	rb, okB := encode(tb)
	if !okA || !okB {
		return wholeDiff(old, new)
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMainRunes(ra, rb, false))
	byRune := make(map[rune]string, len(names))
	for t, r := range ids {
		byRune[r] = t
	}
	var out []Segment
	for _, d := range diffs {
		var b strings.Builder
		for _, r := range d.Text {
			b.WriteString(byRune[r])
		}
		op := Equal
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = Delete
		case diffmatchpatch.DiffInsert:
			op = Insert
		}
		if b.Len() == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Op == op {
			out[n-1].Text += b.String()
			continue
		}
		out = append(out, Segment{Op: op, Text: b.String()})
	}
	return out
}

// tokenRune maps the i-th distinct token to a private-use code point, so
// that the character diff of go-diff becomes a word diff. It reports false
// when there are more tokens than private-use code points.
func tokenRune(i int) (rune, bool) {
	const bmp = 0xF8FF - 0xE000 + 1
	if i < bmp {
		return rune(0xE000 + i), true
	}
	i -= bmp
	if i < 0xFFFD-0x0000+1 {
		return rune(0xF0000 + i), true
	}
	return 0, false
}

func wholeDiff(old, new string) []Segment {
	var out []Segment
	if old != "" {
		out = append(out, Segment{Delete, old})
	}
	if new != "" {
		out = append(out, Segment{Insert, new})
	}
	return out
}

// tokens splits s into words: runs of letters and digits joined by inner
// '.', '-', '_' or '+' (so "1.2.0" and "CVE-2026-0001" are one word each),
// runs of white space, and single other characters. The tokens concatenate
// to s byte for byte, even when s is not valid UTF-8.
func tokens(s string) []string {
	type runeAt struct {
		r   rune
		off int
	}
	var rs []runeAt
	for i, r := range s {
		rs = append(rs, runeAt{r, i})
	}
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	class := func(i int) int {
		r := rs[i].r
		switch {
		case isWord(r):
			return 1
		case unicode.IsSpace(r):
			return 2
		case strings.ContainsRune(".-_+", r) && i > 0 && i+1 < len(rs) && isWord(rs[i-1].r) && isWord(rs[i+1].r):
			return 1
		}
		return 0
	}
	var out []string
	start, prev := 0, -1
	for i := range rs {
		c := class(i)
		if off := rs[i].off; off > start && (c != prev || c == 0) {
			out = append(out, s[start:off])
			start = off
		}
		prev = c
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
