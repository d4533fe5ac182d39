package lint

import (
	"bytes"
	"iter"

	"github.com/r35157/journal-lint/internal/syntax"
)

// acceptedNote ends the help of the rules whose fix changes the revision's
// bytes: a draft (a revision a commit adds) is fixed as it is, an accepted
// revision in its successor.
const acceptedNote = "if the revision is already accepted it cannot change (its digest would), so fix it in the next revision"

// lines yields the start and end offsets of each line of src, its LF or
// CRLF excluded, in order; a last line without a terminator included.
func lines(src []byte) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for start := 0; start < len(src); {
			end, next := len(src), len(src)
			if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
				end, next = start+i, start+i+1
				if end > start && src[end-1] == '\r' {
					end--
				}
			}
			if !yield(start, end) {
				return
			}
			start = next
		}
	}
}

// releaseDirectives yields each release block of doc with each of its
// directives whose keyword is keyword, in file order.
func releaseDirectives(doc *syntax.Document, keyword string) iter.Seq2[*syntax.ReleaseBlock, *syntax.Directive] {
	return func(yield func(*syntax.ReleaseBlock, *syntax.Directive) bool) {
		for _, rb := range doc.Releases {
			if rb == nil {
				continue
			}
			for _, d := range rb.Directives {
				if d != nil && d.Keyword == keyword && !yield(rb, d) {
					return
				}
			}
		}
	}
}

// bareArg returns the i-th argument of d when it exists and is not quoted.
func bareArg(d *syntax.Directive, i int) (syntax.Arg, bool) {
	if i >= len(d.Args) || d.Args[i].Quoted {
		return syntax.Arg{}, false
	}
	return d.Args[i], true
}
