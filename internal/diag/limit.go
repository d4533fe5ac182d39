package diag

import "fmt"

// MaxPerFileCode is how many diagnostics of one code about one file
// journal-lint keeps. A hostile or broken file (16 MiB of one-letter lines,
// say) could otherwise produce millions of diagnostics and gigabytes of
// memory; past the limit, one diagnostic says how many more there were
// (issue: hostile input §3).
const MaxPerFileCode = 1000

// Limiter keeps the first [MaxPerFileCode] diagnostics of each file and code
// and counts the rest, so that its user's memory is proportional to what it
// keeps. The zero value is ready to use; a Limiter is not safe for
// concurrent use.
type Limiter struct {
	over map[limitKey]*overflow
	n    map[limitKey]int
}

type limitKey struct{ path, code string }

// overflow remembers the first dropped diagnostic of a file and code and
// how many were dropped.
type overflow struct {
	first   Diagnostic
	dropped int
}

// Full reports whether the next diagnostic of code about path would be
// dropped, so that a caller can skip building its message.
func (l *Limiter) Full(path, code string) bool {
	return l.n[limitKey{path, code}] >= MaxPerFileCode
}

// Keep counts d and reports whether to keep it: true for the first
// MaxPerFileCode diagnostics of d's path and code, false after them.
func (l *Limiter) Keep(d Diagnostic) bool {
	k := limitKey{d.Path, d.Code}
	if l.n == nil {
		l.n = map[limitKey]int{}
	}
	if l.n[k] < MaxPerFileCode {
		l.n[k]++
		return true
	}
	if l.over == nil {
		l.over = map[limitKey]*overflow{}
	}
	o := l.over[k]
	if o == nil {
		o = &overflow{first: Diagnostic{Code: d.Code, Severity: d.Severity, Path: d.Path, Range: d.Range}}
		l.over[k] = o
	}
	o.dropped++
	return false
}

// Overflow returns one diagnostic per file and code that went over the
// limit, at the position of its first dropped diagnostic, with the code and
// severity of the dropped ones and a message such as "and 8388000 more
// syntax/unknown-directive diagnostics in this file (only the first 1000
// are kept)". The order is unspecified; sort the result.
func (l *Limiter) Overflow() List {
	var out List
	for _, o := range l.over {
		d := o.first
		d.Message = fmt.Sprintf("and %d more %s diagnostics in this file (only the first %d are kept)", o.dropped, d.Code, MaxPerFileCode)
		d.Help = "fix the ones shown first: a file with this many is usually not a Journal at all"
		out = append(out, d)
	}
	return out
}
