package diff

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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

// maxWordEdits bounds the words inserted and deleted that [WordDiff]
// looks for: Myers' algorithm costs O((N+M)·D) for D edits, so it stops
// at this D, and a value that differs in more words is shown as replaced
// whole between the text both start and end with. A word diff of more
// edits than this is no longer read as one anyway.
const maxWordEdits = 32

// maxWordDiffBytes bounds the bytes between the text both values start and
// end with (of both together) that [WordDiff] splits into words: a longer
// middle is shown as replaced whole, at the cost of comparing bytes, so
// that the word diffs of a revision's descriptions cost a fraction of
// reading the revision.
const maxWordDiffBytes = 1024

// WordDiff returns the word-level differences that turn old into new: a
// word is a run of letters and digits, a run of white space, or one other
// character, and the shortest edit script over words (Myers) is cleaned
// up for people by github.com/sergi/go-diff's semantic cleanup.
// Concatenating the Equal and Delete segments gives old, the Equal and
// Insert segments give new. The text both start and end with, up to
// white space, is Equal; when what lies between is more than
// maxWordDiffBytes long, or differs by more than maxWordEdits words
// inserted and deleted, it is one Delete and one Insert. The cost is
// linear in the length of the texts (issue: hostile input §2; issue 26:
// 80-107 s for the Markdown diff of two 1.3 MB revisions). It never
// panics.
func WordDiff(old, new string) []Segment {
	if old == new {
		if old == "" {
			return nil
		}
		return []Segment{{Equal, old}}
	}
	pre, suf := commonEnds(old, new)
	var out []Segment
	add := func(op Op, toks ...string) {
		if t := strings.Join(toks, ""); t != "" {
			if n := len(out); n > 0 && out[n-1].Op == op {
				out[n-1].Text += t
				return
			}
			out = append(out, Segment{op, t})
		}
	}
	add(Equal, old[:pre])
	midA, midB := old[pre:len(old)-suf], new[pre:len(new)-suf]
	if len(midA)+len(midB) > maxWordDiffBytes {
		add(Delete, midA)
		add(Insert, midB)
		add(Equal, old[len(old)-suf:])
		return out
	}
	ma, mb := tokens(midA), tokens(midB)
	script, ok := editScript(ma, mb, maxWordEdits)
	var diffs []diffmatchpatch.Diff
	var words map[rune]string
	if ok {
		diffs, words, ok = runeDiffs(script)
	}
	if !ok { // too many edits, or too many distinct words
		add(Delete, midA)
		add(Insert, midB)
		add(Equal, old[len(old)-suf:])
		return out
	}
	var toks []string
	for _, d := range diffmatchpatch.New().DiffCleanupSemantic(diffs) {
		toks = toks[:0]
		for _, r := range d.Text {
			toks = append(toks, words[r])
		}
		op := Equal
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = Delete
		case diffmatchpatch.DiffInsert:
			op = Insert
		}
		add(op, toks...)
	}
	add(Equal, old[len(old)-suf:])
	return out
}

// commonEnds returns the lengths of the longest prefix and suffix that a
// and b share and that end and start at a word boundary of both: where
// white space ends or starts, since white space never joins a word. The
// prefix and the suffix do not overlap in either text.
func commonEnds(a, b string) (pre, suf int) {
	n := min(len(a), len(b))
	for pre < n && a[pre] == b[pre] {
		pre++
	}
	// A boundary at i: white space before it, none at it in either text.
	for pre > 0 && !(isSpaceByte(a[pre-1]) && pre < n && !isSpaceByte(a[pre]) && !isSpaceByte(b[pre])) {
		pre--
	}
	n -= pre
	for suf < n && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	// A boundary at the suffix's start: white space at it, none before it
	// in either text.
	for suf > 0 {
		ea, eb := len(a)-suf, len(b)-suf
		if isSpaceByte(a[ea]) && ea > pre && eb > pre && !isSpaceByte(a[ea-1]) && !isSpaceByte(b[eb-1]) {
			break
		}
		suf--
	}
	return pre, suf
}

// isSpaceByte reports whether c is ASCII white space.
func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// edits is an edit script over words: each step keeps, deletes or inserts
// one word.
type edits struct {
	ops   []diffmatchpatch.Operation
	steps []string // the word of each op
}

// editScript returns the shortest edit script that turns a into b, by
// Myers' greedy algorithm, and false when it needs more than maxD
// insertions and deletions. It costs O((len(a)+len(b))·maxD) time and
// O(maxD²) memory, and compares words, so that texts that differ in more
// than maxD words cost no more than reading them.
func editScript(a, b []string, maxD int) (edits, bool) {
	n, m := len(a), len(b)
	if n-m > maxD || m-n > maxD {
		return edits{}, false
	}
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int // v after each d
	found := false
	for d := 0; d <= maxD && !found; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
		trace = append(trace, slices.Clone(v[off-d-1:off+d+2]))
	}
	if !found {
		return edits{}, false
	}
	// Back from the end, collecting the steps in reverse.
	var e edits
	step := func(op diffmatchpatch.Operation, w string) {
		e.ops = append(e.ops, op)
		e.steps = append(e.steps, w)
	}
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		pv := trace[d-1] // v[-d : d+1] of step d-1, from index -d
		at := func(k int) int { return pv[k+d] }
		k := x - y
		pk := k - 1
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			step(diffmatchpatch.DiffEqual, a[x])
		}
		if x == px {
			y--
			step(diffmatchpatch.DiffInsert, b[y])
		} else {
			x--
			step(diffmatchpatch.DiffDelete, a[x])
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		step(diffmatchpatch.DiffEqual, a[x])
	}
	slices.Reverse(e.ops)
	slices.Reverse(e.steps)
	return e, true
}

// runeDiffs returns the steps of e as go-diff's diffs (runs of one
// operation) over one private-use rune per distinct word, and the word of
// each rune; false when there are more distinct words than such runes.
func runeDiffs(e edits) ([]diffmatchpatch.Diff, map[rune]string, bool) {
	ids := map[string]rune{}
	words := map[rune]string{}
	var out []diffmatchpatch.Diff
	var run []rune
	for i, w := range e.steps {
		r, ok := ids[w]
		if !ok {
			if r, ok = tokenRune(len(ids)); !ok {
				return nil, nil, false
			}
			ids[w], words[r] = r, w
		}
		run = append(run, r)
		if i == len(e.steps)-1 || e.ops[i+1] != e.ops[i] {
			out = append(out, diffmatchpatch.Diff{Type: e.ops[i], Text: string(run)})
			run = run[:0]
		}
	}
	return out, words, true
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

// tokens splits s into words: runs of letters and digits joined by inner
// '.', '-', '_' or '+' (so "1.2.0" and "CVE-2026-0001" are one word each),
// runs of white space, and single other characters. The tokens concatenate
// to s byte for byte, even when s is not valid UTF-8.
func tokens(s string) []string {
	isWord := func(r rune) bool {
		if r < utf8.RuneSelf {
			return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
		}
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	out := make([]string, 0, len(s)/4+1) // a word and a space of 1 byte each
	start, prevClass := 0, -1
	prevWord := false // the rune before is a letter or digit
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		c := 0
		switch {
		case isWord(r):
			c = 1
		case unicode.IsSpace(r):
			c = 2
		case strings.ContainsRune(".-_+", r) && prevWord && i+n < len(s):
			if next, _ := utf8.DecodeRuneInString(s[i+n:]); isWord(next) {
				c = 1
			}
		}
		if i > start && (c != prevClass || c == 0) {
			out = append(out, s[start:i])
			start = i
		}
		prevClass, prevWord = c, c == 1 && isWord(r)
		i += n
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
