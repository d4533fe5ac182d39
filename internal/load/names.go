package load

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/safetext"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// whyRejected says in a few words why name, rejected with err by
// [vt.ParseCoordinate] or [vt.ParseTimestamp], is not what the layout wants
// ("Filesystem layout" in docs/journal-format.md), naming the first
// offending character the way a reader can see it: an uppercase letter, a non-ASCII character by its code point
// (a combining mark hints at an NFD spelling), a trailing space, a control
// character, a Windows device name. Otherwise it is the grammar's own
// reason.
func whyRejected(name string, err error) string {
	if vt.IsWindowsDeviceName(name) {
		return fmt.Sprintf("%s is a Windows device name", safetext.Quote(name))
	}
	var se *vt.SyntaxError
	if !errors.As(err, &se) {
		return err.Error()
	}
	if strings.Contains(se.Reason, "device name") {
		first, _, _ := strings.Cut(name, ".")
		return fmt.Sprintf("its first segment %s is a Windows device name", safetext.Quote(first))
	}
	off := se.Offset
	if off < 0 || off >= len(name) {
		return se.Reason
	}
	c := name[off]
	switch {
	case off == 0 && c == '.':
		return "it starts with a dot"
	case c == ' ' && strings.TrimRight(name, " ") == name[:off]:
		return "a trailing space"
	case c == ' ':
		return fmt.Sprintf("a space at byte %d", off)
	case c >= 'A' && c <= 'Z':
		return fmt.Sprintf("an uppercase letter %q at byte %d", c, off)
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf("a control character %s at byte %d", safetext.Quote(name[off:off+1]), off)
	case c < 0x80:
		if (c == 't' || c == 'z') && (se.Reason == "expected T between date and time" || se.Reason == "expected Z at the end") {
			return fmt.Sprintf("a lowercase %q at byte %d: T and Z are uppercase", c, off)
		}
		return se.Reason
	}
	r, size := utf8.DecodeRuneInString(name[off:])
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf("a byte %s that is not UTF-8 at byte %d", safetext.Quote(name[off:off+1]), off)
	}
	why := fmt.Sprintf("a non-ASCII character U+%04X at byte %d", r, off)
	if unicode.Is(unicode.Mn, r) {
		why += " (a combining mark: the name may be spelled in NFD)"
	}
	return why
}

// nearJournalName says why the file name fname, which does not end in
// .journal or .journal.example, looks like it was meant to (a trailing
// space or other white space after the suffix, a suffix in another case),
// or returns "".
func nearJournalName(fname string) string {
	trimmed := strings.TrimRightFunc(fname, unicode.IsSpace)
	if _, _, ok := journalName(trimmed); ok {
		return "white space after the suffix"
	}
	if _, _, ok := journalName(strings.ToLower(trimmed)); ok {
		return "the suffix must be written in lowercase"
	}
	return ""
}
