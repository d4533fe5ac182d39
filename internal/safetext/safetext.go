// Package safetext is the one sanitising rule for untrusted strings in the
// human-readable outputs of journal-lint (text, diff text, Markdown, and the
// message part of GitHub workflow commands): file and directory names,
// values quoted from a Journal, quoted source lines, rule-pack messages and
// git output.
//
// A pull request controls all of those strings, and CI shows the output in a
// terminal or a GitHub Actions log, where some characters do more than show
// up: an LF starts a new line that the Actions runner may execute as a
// workflow command, ESC starts a terminal escape sequence (colours, OSC 52
// clipboard writes, cursor moves), and bidirectional controls such as U+202E
// make the displayed text differ from the real text. [Text] shows every such
// character as a visible escape instead, and breaks the two spellings that
// the Actions runner executes as commands.
//
// The escapes follow Go string literals: "\n", "\r", "\t" and the other
// single-letter escapes, "\x1b" for other ASCII controls and for bytes that
// are not UTF-8, "\u202e" (or "\U000e0001") for other code points.
package safetext

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/par"
)

// Unsafe reports whether code point r is escaped by [Text]: C0 and C1
// control characters and DEL (including LF, CR and tab), format characters
// (category Cf, which holds the bidirectional controls U+061C, U+200E,
// U+200F, U+202A–U+202E and U+2066–U+2069 and the zero-width characters),
// the line and paragraph separators U+2028 and U+2029, and U+FFFD (so that
// a replacement character in the input cannot be mistaken for an escaped
// byte).
func Unsafe(r rune) bool {
	switch {
	case r < 0x20 || (0x7f <= r && r <= 0x9f):
		return true
	case r < 0xad:
		return false
	case r == 0x2028 || r == 0x2029 || r == utf8.RuneError:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// Escape returns the visible escape of the unsafe code point r ("\n",
// "\x1b", "\u202e"), or string(r) when r is safe.
func Escape(r rune) string {
	if !Unsafe(r) {
		return string(r)
	}
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	switch {
	case r < 0x80:
		return fmt.Sprintf(`\x%02x`, r)
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}

// EscapeByte returns the escape of a byte that does not start valid UTF-8,
// such as "\xff".
func EscapeByte(b byte) string { return fmt.Sprintf(`\x%02x`, b) }

// The escapes that break the command syntax of the GitHub Actions runner.
const (
	// colonEscape replaces the first colon of a "::" at the start of a
	// line (after white space), which the runner reads as a workflow
	// command such as "::error::" or "::stop-commands::".
	colonEscape = `\x3a`
	// bracketEscape replaces the bracket of "##[" anywhere in a line, which
	// the runner reads as a legacy command such as "##[error]".
	bracketEscape = `\x5b`
)

// Piece is one code point (or one invalid byte) of a string as [Pieces]
// shows it.
type Piece struct {
	// Text is what to print: the code point itself or its escape.
	Text string
	// Escaped reports whether Text is an escape rather than the code point.
	Escaped bool
}

// Pieces splits s into code points (an invalid UTF-8 byte is a piece of its
// own) and gives each the text [Text] prints for it, so that a caller that
// lays out columns (such as a snippet with carets under it) can measure
// each piece. s is taken to start a line: a "::" after the leading white
// space has its first colon escaped, and every "##[" its bracket.
func Pieces(s string) []Piece {
	var out []Piece
	lead := true // only white space so far
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		var p Piece
		switch {
		case r == utf8.RuneError && n == 1:
			p = Piece{EscapeByte(s[i]), true}
		case Unsafe(r):
			p = Piece{Escape(r), true}
		case r == ':' && lead && strings.HasPrefix(s[i+1:], ":"):
			p = Piece{colonEscape, true}
		case r == '[' && strings.HasSuffix(s[:i], "##"):
			p = Piece{bracketEscape, true}
		default:
			p = Piece{s[i : i+n], false}
		}
		if !unicode.IsSpace(r) {
			lead = false
		}
		out = append(out, p)
		i += n
	}
	return out
}

// Text returns s with every unsafe code point ([Unsafe]) and every byte
// that is not UTF-8 replaced by its visible escape, so the result holds no
// control character, no bidirectional control and no line break. When s
// starts a line, it cannot start a GitHub Actions workflow command either:
// the first colon of a "::" after leading white space is shown as "\x3a",
// and the bracket of every "##[" as "\x5b". Text returns s itself when
// nothing needs escaping.
func Text(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for _, p := range Pieces(s) {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Lines applies [Text] to each line of s and joins them with LF again: for
// text that is meant to span lines (such as help), where every line is
// untrusted.
func Lines(s string) string {
	if !needsEscape(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Text(l)
	}
	return strings.Join(lines, "\n")
}

// needsEscape reports whether [Text] would change s.
func needsEscape(s string) bool {
	if strings.Contains(s, "##[") || strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "::") {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if Unsafe(r) {
			return true // includes an invalid byte, decoded as U+FFFD
		}
		i += n
	}
	return false
}

// ShellWord returns s as one word of a POSIX shell command line, for the
// commands that help texts and error messages suggest (git checkout REV --
// PATH): s itself when it holds only letters, digits and / . - _ : +, else
// s in single quotes, where each single quote of s ends the quoting, is
// escaped with a backslash and starts it again. The empty string is two
// single quotes. It does not make s safe to show (see [Text]).
func ShellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(c rune) bool {
		return !(c == '/' || c == '.' || c == '-' || c == '_' || c == ':' || c == '+' ||
			(c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Quote returns s in double quotes with every code point outside printable
// ASCII escaped, so that names that look alike print differently: an "é"
// written as one code point (NFC, "\u00e9") and as "e" plus a combining
// accent (NFD, "e\u0301"), a trailing space, a Cyrillic "а" for a Latin "a".
// It is for names that journal-lint rejects, where the exact spelling is
// the point.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(EscapeByte(s[i]))
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case Unsafe(r):
			b.WriteString(Escape(r))
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += n
	}
	b.WriteByte('"')
	return b.String()
}

// JSON returns the encoded JSON document doc with every unsafe code point
// ([Unsafe]) inside its strings written as a \u escape, and the bracket of
// every "##[" as "\u005b", so that the document decodes to the same values
// but holds no raw bidirectional or C1 control and no legacy GitHub Actions
// command. encoding/json already escapes C0 controls and U+2028/U+2029; a
// JSON document has no "#" outside its strings.
func JSON(doc []byte) []byte {
	// Runs of bytes that need nothing are copied whole; out stays nil, and
	// doc is returned as it is, until something needs an escape.
	var out []byte
	last := 0
	escape := func(i, n int, esc string) {
		if out == nil {
			out = make([]byte, 0, len(doc)+16)
		}
		out = append(append(out, doc[last:i]...), esc...)
		last = i + n
	}
	for i := 0; i < len(doc); {
		c := doc[i]
		if c == '[' && i >= 2 && doc[i-1] == '#' && doc[i-2] == '#' {
			escape(i, 1, `\u005b`)
		}
		if c < utf8.RuneSelf && c != 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(doc[i:])
		if Unsafe(r) && !(r == utf8.RuneError && n == 1) {
			if r > 0xffff {
				r1, r2 := utf16Pair(r)
				escape(i, n, fmt.Sprintf(`\u%04x\u%04x`, r1, r2))
			} else {
				escape(i, n, fmt.Sprintf(`\u%04x`, r))
			}
		}
		i += n
	}
	if out == nil {
		return doc
	}
	return append(out, doc[last:]...)
}

// utf16Pair returns the surrogate pair of a code point above U+FFFF.
func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// WriteJSON writes v to w as a JSON document indented by two spaces, with
// HTML characters unescaped and then made safe by [JSON], followed by a
// newline. It returns the error of the encoding or the first error of w.
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	if err := encodeIndented(&buf, v, ""); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err := w.Write(JSON(buf.Bytes()))
	return err
}

// encodeIndented appends v to buf as WriteJSON encodes it, every line after
// the first prefixed by prefix, without the final newline.
func encodeIndented(buf *bytes.Buffer, v any, prefix string) error {
	return newIndentedEncoder(prefix).encode(buf, v)
}

// indentedEncoder encodes values as WriteJSON does, each line after the
// first prefixed by its prefix; one encoder serves many values, so that
// the buffers encoding/json indents through are made once.
type indentedEncoder struct {
	out bytes.Buffer
	enc *json.Encoder
}

func newIndentedEncoder(prefix string) *indentedEncoder {
	e := &indentedEncoder{}
	e.enc = json.NewEncoder(&e.out)
	e.enc.SetEscapeHTML(false)
	e.enc.SetIndent(prefix, "  ")
	return e
}

// encode appends v to buf, without the final newline.
func (e *indentedEncoder) encode(buf *bytes.Buffer, v any) error {
	e.out.Reset()
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	buf.Write(e.out.Bytes()[:e.out.Len()-1]) // Encode ends the value with a newline
	return nil
}

// streamChunk is the number of elements of [WriteJSONStream] that one
// goroutine encodes in turn.
const streamChunk = 256

// WriteJSONStream writes the same bytes as WriteJSON of a document in which
// one array holds n elements, without holding the whole document in
// memory: doc is the document with that array empty (not omitted), key the
// array's member name, depth the nesting depth of the object holding it (1
// for a member of the top-level object), and elem(i) returns element i, for
// i from 0 to n-1. Each element is encoded and made safe by [JSON] on its
// own (an element is whole JSON values, so the result is that of the whole
// document). Chunks of elements are encoded on every core at once, a few
// chunks per core at a time, and written in order through a buffer, so elem
// must be safe to call for distinct indexes at once. It returns an error
// when doc holds no such empty array or more than one, the first error of
// an encoding, in element order, or the first error of w.
func WriteJSONStream(w io.Writer, doc any, key string, depth, n int, elem func(i int) any) error {
	var buf bytes.Buffer
	if err := encodeIndented(&buf, doc, ""); err != nil {
		return err
	}
	indent := strings.Repeat("  ", depth)
	// A JSON string holds no raw newline, so the marker matches only the
	// member itself.
	marker := "\n" + indent + strconv.Quote(key) + ": []"
	skeleton := buf.String()
	at := strings.Index(skeleton, marker)
	if at < 0 || strings.Count(skeleton, marker) != 1 {
		return fmt.Errorf("safetext: the document holds no single empty array %q at depth %d", key, depth)
	}
	at += len(marker) - 1 // at the closing bracket
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(JSON([]byte(skeleton[:at])))
	inner := indent + "  "
	workers := runtime.GOMAXPROCS(0)
	chunks := (n + streamChunk - 1) / streamChunk
	window := make([]bytes.Buffer, min(chunks, 2*workers))
	errs := make([]error, len(window))
	for first := 0; first < chunks; first += len(window) {
		m := min(len(window), chunks-first)
		par.ForWorkers(m, workers, func() func(int) {
			e := newIndentedEncoder(inner)
			var one bytes.Buffer
			return func(k int) {
				out := &window[k]
				out.Reset()
				errs[k] = nil
				c := first + k
				for i := c * streamChunk; i < min(n, (c+1)*streamChunk); i++ {
					one.Reset()
					if i > 0 {
						one.WriteByte(',')
					}
					one.WriteString("\n" + inner)
					if err := e.encode(&one, elem(i)); err != nil {
						errs[k] = err
						return
					}
					out.Write(JSON(one.Bytes()))
				}
			}
		})
		for k := range m {
			if errs[k] != nil {
				return errs[k]
			}
			bw.Write(window[k].Bytes())
		}
	}
	if n > 0 {
		bw.WriteString("\n" + indent)
	}
	bw.Write(JSON([]byte(skeleton[at:])))
	bw.WriteByte('\n')
	return bw.Flush()
}
