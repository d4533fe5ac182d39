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
// taken out of a text's shape to test whether it explains a difference.
type invisible struct {
	name      string
	normalise func(*shape)
}

// shape is a text cut into lines without their terminators, with its line
// ending and whether its last line is terminated.
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

// filter keeps the lines for which keep is true.
func (s *shape) filter(keep func(string) bool) {
	s.lines = slices.DeleteFunc(s.lines, func(l string) bool { return !keep(l) })
}

// invisibles are the kinds in the order a message lists them; the
// normalisations are applied in this order too.
var invisibles = []invisible{
	{"line endings", func(s *shape) { s.eol = "" }},
	{"the final newline", func(s *shape) { s.final = false }},
	{"trailing white space", func(s *shape) {
		for i, l := range s.lines {
			s.lines[i] = strings.TrimRight(l, " \t")
		}
	}},
	{"comments", func(s *shape) {
		s.filter(func(l string) bool { return !strings.HasPrefix(strings.TrimLeft(l, " \t"), "#") })
	}},
	{"blank lines", func(s *shape) {
		s.filter(func(l string) bool { return strings.Trim(l, " \t") != "" })
	}},
	{"indentation", func(s *shape) {
		for i, l := range s.lines {
			s.lines[i] = strings.TrimLeft(l, " \t")
		}
	}},
	{"spacing between arguments", func(s *shape) {
		for i, l := range s.lines {
			s.lines[i] = squeeze(l)
		}
	}},
	{"the chain metadata (JOURNAL_VERSION, PREDECESSOR)", func(s *shape) {
		s.filter(func(l string) bool {
			l = strings.TrimLeft(l, " \t")
			return !strings.HasPrefix(l, "JOURNAL_VERSION") && !strings.HasPrefix(l, "PREDECESSOR")
		})
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
		a, b := takeOut(k, taken[i][0]), takeOut(k, taken[i][1])
		changed[i] = !a.equal(taken[i][0]) || !b.equal(taken[i][1])
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
			a, b = takeOut(later, a), takeOut(later, b)
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

// takeOut returns s with the kind k taken out, leaving s as it is.
func takeOut(k invisible, s shape) shape {
	s.lines = slices.Clone(s.lines)
	k.normalise(&s)
	return s
}

// equal reports whether s and o are the same shape.
func (s shape) equal(o shape) bool {
	return s.eol == o.eol && s.final == o.final && slices.Equal(s.lines, o.lines)
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
