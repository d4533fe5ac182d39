// Package safetexttest checks the invariants of package safetext on whole
// outputs, for tests and fuzz targets: what a pull request puts into a tree
// never forges a GitHub Actions command and never reaches a terminal as a
// control sequence (issue: hostile input §1).
package safetexttest

import (
	"bytes"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/safetext"
)

// ownAnnotation is the shape of journal-lint's own workflow commands: the
// command, properties without a raw ":" and the message.
var ownAnnotation = regexp.MustCompile(`^::(error|warning|notice) [^:]*::`)

// Check returns an error describing the first line of out that breaks an
// invariant, or nil: no line starts (after white space) with "::" unless
// annotations is set and the line is one of journal-lint's own
// annotations; no line holds "##["; out holds no ESC byte, no other C0 or
// C1 control except tab and LF, no bidirectional or other format character
// and no byte that is not UTF-8. colour allows the SGR colour sequences of the text formats.
func Check(out []byte, annotations, colour bool) error {
	for i, line := range bytes.Split(out, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t\r\v\f\u00a0")
		trimmed = bytes.TrimLeftFunc(trimmed, func(r rune) bool {
			return r == 0x85 || r == 0xa0 || (r >= 0x2000 && r <= 0x200a) || r == 0x3000 || r == 0x1680 || r == 0x202f || r == 0x205f
		})
		if bytes.HasPrefix(trimmed, []byte("::")) && !(annotations && ownAnnotation.Match(line)) {
			return fmt.Errorf("line %d starts a workflow command: %q", i+1, line)
		}
		if bytes.Contains(line, []byte("##[")) {
			return fmt.Errorf("line %d holds a legacy workflow command: %q", i+1, line)
		}
		if colour {
			line = sgr.ReplaceAll(line, nil)
		}
		for j := 0; j < len(line); {
			r, n := utf8.DecodeRune(line[j:])
			if r != '\t' && safetext.Unsafe(r) && !(r == utf8.RuneError && n == 1) {
				return fmt.Errorf("line %d holds %s at byte %d: %q", i+1, safetext.Escape(r), j, line)
			}
			if r == utf8.RuneError && n == 1 {
				return fmt.Errorf("line %d holds the invalid byte %#x at byte %d: %q", i+1, line[j], j, line)
			}
			j += n
		}
	}
	return nil
}

// sgr matches the colour sequences journal-lint writes itself.
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)
