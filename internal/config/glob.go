package config

import (
	"errors"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// codeRE is the form of a rule code: "category/name"; compiled on first
// use.
var codeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9-]+/[a-z0-9-]+$`) })

// hasMeta reports whether s contains glob syntax.
func hasMeta(s string) bool { return strings.ContainsAny(s, `*?[\`) }

// compilePathGlob compiles a glob over slash-separated paths relative to the
// configuration file's directory.
//
//   - `*` matches any run of characters other than `/`, `?` one such character;
//   - `[abc]`, `[a-z]`, `[!a-z]` (or `[^a-z]`) match one character of a class;
//   - `\x` matches x literally;
//   - `**` as a whole segment matches zero or more whole segments, so `a/**`
//     matches a and everything below it, `**/x` matches x in any directory;
//   - a trailing `/` means everything below: `legacy/` is `legacy/**`.
//
// The whole path must match.
func compilePathGlob(pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, errors.New("empty pattern")
	}
	if strings.HasPrefix(pattern, "/") {
		return nil, errors.New("paths are relative to the directory of the configuration file: remove the leading /")
	}
	if strings.HasSuffix(pattern, "/") {
		pattern += "**"
	}
	var segs []string
	for _, s := range strings.Split(pattern, "/") {
		if s == "" {
			return nil, errors.New("empty path segment (two / in a row)")
		}
		if s == "**" && len(segs) > 0 && segs[len(segs)-1] == "**" {
			continue // "**/**" is "**"
		}
		segs = append(segs, s)
	}
	var b strings.Builder
	b.WriteString("^")
	for i, s := range segs {
		if s == "**" {
			switch {
			case len(segs) == 1:
				b.WriteString(".*")
			case i == 0:
				b.WriteString("(?:[^/]+/)*")
			case i == len(segs)-1:
				b.WriteString("(?:/[^/]+)*")
			default:
				b.WriteString("/(?:[^/]+/)*")
			}
			continue
		}
		if i > 0 && segs[i-1] != "**" {
			b.WriteString("/")
		}
		if err := segmentRegexp(&b, s); err != nil {
			return nil, err
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// segmentRegexp writes the regular expression of one path segment to b.
func segmentRegexp(b *strings.Builder, s string) error {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '*':
			if i+1 < len(s) && s[i+1] == '*' {
				return errors.New("** must be a whole path segment, like a/**/b")
			}
			b.WriteString("[^/]*")
		case '?':
			b.WriteString("[^/]")
		case '\\':
			if i+1 >= len(s) {
				return errors.New(`trailing \ escapes nothing`)
			}
			r2, n2 := utf8.DecodeRuneInString(s[i+1:])
			b.WriteString(regexp.QuoteMeta(string(r2)))
			n += n2
		case '[':
			m, err := classRegexp(b, s[i:])
			if err != nil {
				return err
			}
			n = m
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
		i += n
	}
	return nil
}

// classRegexp writes the character class at the start of s ("[...]") to b
// and returns how many bytes of s it used.
func classRegexp(b *strings.Builder, s string) (int, error) {
	i := 1
	neg := false
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		neg = true
		i++
	}
	var items []string
	first := true
	for {
		if i >= len(s) {
			return 0, errors.New("unclosed [ in pattern")
		}
		if s[i] == ']' && !first {
			i++
			break
		}
		first = false
		lo, n, err := classChar(s[i:])
		if err != nil {
			return 0, err
		}
		i += n
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			hi, m, err := classChar(s[i+1:])
			if err != nil {
				return 0, err
			}
			if hi < lo {
				return 0, errors.New("bad range in [ ]: " + string(lo) + "-" + string(hi))
			}
			i += 1 + m
			items = append(items, quoteClass(lo)+"-"+quoteClass(hi))
			continue
		}
		items = append(items, quoteClass(lo))
	}
	if neg {
		b.WriteString("[^/")
	} else {
		b.WriteString("[")
	}
	b.WriteString(strings.Join(items, ""))
	b.WriteString("]")
	return i, nil
}

// classChar reads one (possibly escaped) character of a class.
func classChar(s string) (rune, int, error) {
	r, n := utf8.DecodeRuneInString(s)
	if r == '\\' {
		if len(s) < 2 {
			return 0, 0, errors.New("unclosed [ in pattern")
		}
		r2, n2 := utf8.DecodeRuneInString(s[1:])
		return r2, 1 + n2, nil
	}
	if r == '/' {
		return 0, 0, errors.New("/ cannot appear in [ ]")
	}
	return r, n, nil
}

// quoteClass quotes r for use inside a regexp character class.
func quoteClass(r rune) string {
	switch r {
	case '\\', ']', '[', '^', '-':
		return `\` + string(r)
	}
	return string(r)
}

// compileCodeGlob compiles a code or a glob over codes ("style/*"). A code
// glob has the form category/name, either part possibly using *, ? and [ ].
func compileCodeGlob(pattern string) (*regexp.Regexp, error) {
	if !hasMeta(pattern) {
		if !codeRE().MatchString(pattern) {
			return nil, errors.New("not a code: want category/name in lowercase letters, digits and -, like style/crlf, or a glob like style/*")
		}
		return regexp.MustCompile("^" + regexp.QuoteMeta(pattern) + "$"), nil
	}
	cat, name, ok := strings.Cut(pattern, "/")
	if !ok || cat == "" || name == "" || strings.Contains(name, "/") {
		return nil, errors.New("a code glob has the form category/name, like style/* or */trailing-*")
	}
	if strings.Contains(pattern, "**") {
		return nil, errors.New("** has no meaning in a code glob: codes have exactly one /")
	}
	return compilePathGlob(pattern)
}

// MatchesCode reports whether the entry's code pattern matches code,
// whatever its path pattern says; a malformed pattern (only possible for
// entries built in code) matches nothing.
func (e IgnoreEntry) MatchesCode(code string) bool {
	re, err := compileCodeGlob(e.Code)
	return err == nil && re.MatchString(code)
}
