package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Example is one fenced example block of a rule doc.
type Example struct {
	// Failing reports whether the block follows "Failing example:" (the rule
	// reports it) rather than "Passing example:" (the rule is silent).
	Failing bool
	// Lang is the fence's info string: "journal" for the text of one Journal
	// file in the example notation, "text" for a layout or description that
	// is not executed.
	Lang string
	// Text is the block's content as written, each line ending in LF.
	Text string
}

// Source returns the exact bytes of a journal example: Text decoded with
// [DecodeExample].
func (e Example) Source() ([]byte, error) { return DecodeExample(e.Text) }

// Examples returns the example blocks of r.Doc in order. It fails unless
// there is at least one failing and one passing example, every "Failing
// example:" or "Passing example:" line is followed by a fenced block (``` or
// ~~~) tagged journal or text with some content, and every journal block
// decodes. Fenced blocks without a marker are illustrations and are skipped.
func (r Rule) Examples() ([]Example, error) {
	var (
		out              []Example
		pending, inBlock bool
		isExample        bool   // the open block follows a marker
		fence            string // "```" or "~~~", closing the open block
		cur              Example
		body             strings.Builder
		failing, passing int
	)
	for _, line := range strings.Split(r.Doc, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case inBlock && trimmed == fence:
			inBlock = false
			if !isExample {
				continue
			}
			cur.Text = body.String()
			if strings.TrimSpace(cur.Text) == "" {
				return nil, errors.New("empty example block")
			}
			if cur.Lang == "journal" {
				if _, err := cur.Source(); err != nil {
					return nil, fmt.Errorf("example %d: %w", len(out)+1, err)
				}
			}
			if cur.Failing {
				failing++
			} else {
				passing++
			}
			out = append(out, cur)
		case inBlock:
			body.WriteString(line)
			body.WriteByte('\n')
		case trimmed == "Failing example:" || trimmed == "Passing example:":
			if pending {
				return nil, errors.New("example marker without a fenced block")
			}
			pending = true
			cur = Example{Failing: trimmed == "Failing example:"}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			// A block after a marker is an example; any other block is an
			// illustration and is skipped.
			fence = trimmed[:3]
			inBlock, isExample = true, pending
			pending = false
			body.Reset()
			if isExample {
				cur.Lang = trimmed[3:]
				if cur.Lang != "journal" && cur.Lang != "text" {
					return nil, fmt.Errorf("example block tagged %q, want journal or text", cur.Lang)
				}
			}
		}
	}
	if inBlock || pending {
		return nil, errors.New("unterminated example")
	}
	if failing == 0 || passing == 0 {
		return nil, fmt.Errorf("want at least one failing and one passing example, have %d and %d", failing, passing)
	}
	return out, nil
}

// DecodeExample turns the text of a journal example into the bytes of the
// file it stands for: "␍" becomes CR, "␠" a space, "␉" a tab, "⟦U+hhhh⟧"
// the code point hhhh, and a "␄" at the very end of the last line ends the
// file there, dropping the final terminator. Every other character stands
// for itself. It fails on a malformed "⟦…⟧" or a "␄" anywhere else.
func DecodeExample(text string) ([]byte, error) {
	var b strings.Builder
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch r {
		case '␍':
			b.WriteByte('\r')
		case '␠':
			b.WriteByte(' ')
		case '␉':
			b.WriteByte('\t')
		case '␄':
			if rest := text[i+n:]; rest != "" && rest != "\n" {
				return nil, fmt.Errorf("␄ at offset %d is not at the end of the text", i)
			}
			return []byte(b.String()), nil
		case '⟦':
			end := strings.IndexRune(text[i:], '⟧')
			if end < 0 {
				return nil, fmt.Errorf("unclosed ⟦ at offset %d", i)
			}
			hex, ok := strings.CutPrefix(text[i+n:i+end], "U+")
			cp, err := strconv.ParseUint(hex, 16, 32)
			if !ok || err != nil || len(hex) < 4 || !utf8.ValidRune(rune(cp)) {
				return nil, fmt.Errorf("bad code point %q at offset %d", text[i:i+end+len("⟧")], i)
			}
			b.WriteRune(rune(cp))
			n = end + len("⟧")
		default:
			b.WriteString(text[i : i+n])
		}
		i += n
	}
	return []byte(b.String()), nil
}
