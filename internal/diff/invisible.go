package diff

import (
	"bytes"
	"hash/maphash"
	"slices"
	"strings"
)

// invisible is one kind of change that leaves the meaning of a Journal
// text alone ("The revision digest" in docs/journal-format.md covers the
// exact bytes, and "Lines and encoding" and "Directives and arguments":
// comments, blank lines, indentation and trailing white space mean
// nothing), with how a no-semantic-change message names it and how it is
// taken out of a text's shape to test whether it explains a difference:
// by whole, on the shape's line ending or final newline, or else by line,
// which returns the line with the kind taken out and whether it stays.
type invisible struct {
	name  string
	whole func(*shape)
	line  func(string) (string, bool)
}

// shape is a text cut into lines without their terminators, with its line
// ending and whether its last line is terminated. Its lines are never
// changed in place: a shape with a kind taken out gets new lines where
// anything changed, so shapes may share them.
type shape struct {
	eol   string // "CRLF" when the text has one, else "LF"; "" once normalised
	final bool   // the last line ends with a terminator
	lines []string
}

func cut(src []byte) shape {
	s := shape{eol: "LF", final: bytes.HasSuffix(src, []byte("\n"))}
	if bytes.Contains(src, []byte("\r\n")) {
		s.eol = "CRLF"
	}
	text := strings.TrimSuffix(string(src), "\n")
	for line := range strings.SplitSeq(text, "\n") {
		s.lines = append(s.lines, strings.TrimSuffix(line, "\r"))
	}
	return s
}

// invisibles are the kinds in the order a message lists them; the
// normalisations are applied in this order too.
var invisibles = []invisible{
	{name: "line endings", whole: func(s *shape) { s.eol = "" }},
	{name: "the final newline", whole: func(s *shape) { s.final = false }},
	{name: "trailing white space", line: func(l string) (string, bool) { return strings.TrimRight(l, " \t"), true }},
	{name: "comments", line: func(l string) (string, bool) { return l, !strings.HasPrefix(strings.TrimLeft(l, " \t"), "#") }},
	{name: "blank lines", line: func(l string) (string, bool) { return l, strings.Trim(l, " \t") != "" }},
	{name: "indentation", line: func(l string) (string, bool) { return strings.TrimLeft(l, " \t"), true }},
	{name: "spacing between arguments", line: func(l string) (string, bool) { return squeeze(l), true }},
	{name: "the chain metadata (JOURNAL_VERSION, PREDECESSOR)", line: func(l string) (string, bool) {
		t := strings.TrimLeft(l, " \t")
		return l, !strings.HasPrefix(t, "JOURNAL_VERSION") && !strings.HasPrefix(t, "PREDECESSOR")
	}},
}

// squeeze writes every run of spaces and tabs after the first word of line
// and outside a quoted string as one space; a run at the end stays one
// space, so that trailing white space is still seen, and the indentation
// is left as it is.
func squeeze(line string) string {
	rest := strings.TrimLeft(line, " \t")
	if !strings.Contains(rest, "  ") && !strings.Contains(rest, "\t") {
		return line // every run is one space already
	}
	var b strings.Builder
	b.Grow(len(line))
	b.WriteString(line[:len(line)-len(rest)])
	line = rest
	quoted, escaped, space := false, false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted:
			b.WriteByte(c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				quoted = false
			}
			continue
		case c == ' ' || c == '\t':
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		quoted = c == '"'
		b.WriteByte(c)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

// orderKind is the name of a change of the order of lines, which is
// judged on the lines that both texts hold once every kind of
// [invisibles] is taken out.
const orderKind = "the order of lines"

// invisibleChanges names what differs between the texts old and new that
// mean the same, in the order of [invisibles]: every kind that, when it is
// the only one left in, makes the texts differ in more lines than with
// every kind taken out; then orderKind when the lines both texts hold
// stand in another order; then "the spelling of a value" when lines still
// differ with everything taken out (a quoted string written with other
// escapes, say). Lines are compared as multisets of 64-bit hashes, sorted
// once per kind: O(n log n) in the lines of the texts. A line-ending or
// final-newline change says in which direction it went.
func invisibleChanges(old, new []byte) []string {
	o, n := cut(old), cut(new)
	seed := maphash.MakeSeed()
	// taken[i] are the texts with the kinds before i taken out, so
	// taken[len(invisibles)] have every kind taken out. A kind that
	// changed neither text where it was applied leaves the same texts
	// when it is the one left in: it needs no comparison of its own.
	taken := make([][2]shape, len(invisibles)+1)
	taken[0] = [2]shape{o, n}
	changed := make([]bool, len(invisibles))
	for i, k := range invisibles {
		a, ca := takeOut(k, taken[i][0])
		b, cb := takeOut(k, taken[i][1])
		changed[i] = ca || cb
		taken[i+1] = [2]shape{a, b}
	}
	no, nn := taken[len(invisibles)][0], taken[len(invisibles)][1]
	residual := distance(no, nn, seed)
	var out []string
	for i, k := range invisibles {
		if !changed[i] {
			continue
		}
		a, b := taken[i][0], taken[i][1]
		for _, later := range invisibles[i+1:] {
			a, _ = takeOut(later, a)
			b, _ = takeOut(later, b)
		}
		if distance(a, b, seed) > residual {
			out = append(out, describe(k.name, i, o, n))
		}
	}
	reordered := !slices.Equal(common(no.lines, nn.lines, seed), common(nn.lines, no.lines, seed))
	if len(out) == 0 && residual == 0 && !reordered {
		// Two kinds explain the same bytes (trailing white space on a
		// comment line): name the first that makes the texts equal.
		for i := range invisibles {
			if distance(taken[i+1][0], taken[i+1][1], seed) == 0 {
				return []string{describe(invisibles[i].name, i, o, n)}
			}
		}
	}
	if reordered {
		out = append(out, orderKind)
	}
	if residual > 0 {
		out = append(out, "the spelling of a value")
	}
	return out
}

// takeOut returns s with the kind k taken out, and whether that changed
// it; s itself is left as it is (its lines are shared where nothing
// changed).
func takeOut(k invisible, s shape) (shape, bool) {
	if k.whole != nil {
		old := s
		k.whole(&s)
		return s, s.eol != old.eol || s.final != old.final
	}
	var out []string // nil until a line changes
	for i, l := range s.lines {
		nl, keep := k.line(l)
		if out == nil {
			if keep && nl == l {
				continue
			}
			out = make([]string, i, len(s.lines))
			copy(out, s.lines[:i])
		}
		if keep {
			out = append(out, nl)
		}
	}
	if out == nil {
		return s, false
	}
	s.lines = out
	return s, true
}

// distance is the number of lines that one of s and o holds more often
// than the other, plus one for another line ending and one for another
// final newline.
func distance(s, o shape, seed maphash.Seed) int {
	d := 0
	if s.eol != o.eol {
		d++
	}
	if s.final != o.final {
		d++
	}
	a, b := sortedHashes(s.lines, seed), sortedHashes(o.lines, seed)
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			i++
			j++
		case a[i] < b[j]:
			i++
			d++
		default:
			j++
			d++
		}
	}
	return d + len(a) - i + len(b) - j
}

func sortedHashes(lines []string, seed maphash.Seed) []uint64 {
	h := make([]uint64, len(lines))
	for i, l := range lines {
		h[i] = maphash.String(seed, l)
	}
	slices.Sort(h)
	return h
}

// common returns the hashes of the lines of a, in a's order, that b holds
// too (each as often as b holds it).
func common(a, b []string, seed maphash.Seed) []uint64 {
	left := make(map[uint64]int, len(b))
	for _, l := range b {
		left[maphash.String(seed, l)]++
	}
	var out []uint64
	for _, l := range a {
		h := maphash.String(seed, l)
		if left[h] > 0 {
			left[h]--
			out = append(out, h)
		}
	}
	return out
}

// describe adds the direction to a change of the line endings (kind 0) or
// of the final newline (kind 1).
func describe(name string, kind int, o, n shape) string {
	switch {
	case kind == 0:
		return name + " (" + o.eol + " → " + n.eol + ")"
	case kind == 1 && n.final:
		return name + " (added)"
	case kind == 1:
		return name + " (removed)"
	}
	return name
}
