package valuetypes

import (
	"net/netip"
	"strings"
)

// MaxURILen is the longest URI in bytes ("Values" in docs/journal-format.md).
const MaxURILen = 2048

// URI is an absolute URI per RFC 3986 with any scheme, e.g.
// "https://widgets.example.org/widget", "git+ssh://git@example.org/w.git",
// "urn:example:core" ("Values" in docs/journal-format.md, used by INFO). A
// fragment is allowed ("Lines and encoding" in docs/journal-format.md: a "#"
// after the start of a directive line is part of the value). The zero value is
// the absent URI.
type URI struct{ s string }

// ParseURI parses s as an absolute URI ("Values" in docs/journal-format.md;
// RFC 3986 §3 and §4.3
// plus an optional fragment): scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" /
// "." ), then ":", then a hier-part ("//" authority path-abempty, or a path),
// an optional "?" query and an optional "#" fragment. Only characters RFC
// 3986 allows are accepted (unreserved, sub-delims, ":", "@", "/", "?", "%"
// in well-formed percent-encodings "%" HEXDIG HEXDIG, "[" and "]" only around
// an IP literal host, "#" once); so no spaces, no control characters and no
// non-ASCII bytes. The authority's port must be digits and an IP literal
// must be an IPv6 address (without zone) or an IPvFuture. At most 2048
// bytes. It returns the URI, or a *SyntaxError of Kind "uri" whose Offset is
// the first offending byte.
func ParseURI(s string) (URI, error) {
	if reason, off := checkURI(s); reason != "" {
		return URI{}, synErr(KindURI, s, reason, off)
	}
	return URI{s}, nil
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

func isSubDelim(c byte) bool {
	return strings.IndexByte("!$&'()*+,;=", c) >= 0
}

// uriCharReason explains why byte c is not allowed at this place.
func uriCharReason(c byte) string {
	switch {
	case c == ' ':
		return "space not allowed"
	case c < 0x20 || c == 0x7f:
		return "control character not allowed"
	case c >= 0x80:
		return "non-ascii byte not allowed, percent-encode it"
	case c == '[' || c == ']':
		return "brackets only allowed around an ip literal host"
	case c == '#':
		return "second # not allowed"
	}
	return "character not allowed"
}

// scanChars checks s[from:to]: every byte must be unreserved, a sub-delim, in
// extra, or start a well-formed percent-encoding.
func scanChars(s string, from, to int, extra string) (string, int) {
	for i := from; i < to; i++ {
		c := s[i]
		switch {
		case isUnreserved(c) || isSubDelim(c) || strings.IndexByte(extra, c) >= 0:
		case c == '%':
			if i+2 >= to || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "malformed percent-encoding", i
			}
			i += 2
		default:
			return uriCharReason(c), i
		}
	}
	return "", -1
}

func checkURI(s string) (string, int) {
	if s == "" {
		return "empty", 0
	}
	if len(s) > MaxURILen {
		return "longer than 2048 bytes", MaxURILen
	}
	// scheme
	if !isAlpha(s[0]) {
		if s[0] == ':' {
			return "empty scheme", 0
		}
		return "scheme must start with a letter", 0
	}
	i := 1
	for i < len(s) && (isAlpha(s[i]) || isDigit(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.') {
		i++
	}
	if i == len(s) || s[i] != ':' {
		if i == len(s) {
			return "not an absolute uri: missing scheme and colon", len(s)
		}
		if r := uriCharReason(s[i]); r != "character not allowed" {
			return r, i
		}
		return "character not allowed in scheme", i
	}
	i++
	// Split off fragment and query; each must only contain its own characters.
	end := len(s)
	if h := strings.IndexByte(s[i:], '#'); h >= 0 {
		h += i
		if r, off := scanChars(s, h+1, len(s), ":@/?"); r != "" {
			return r, off
		}
		end = h
	}
	if q := strings.IndexByte(s[i:end], '?'); q >= 0 {
		q += i
		if r, off := scanChars(s, q+1, end, ":@/?"); r != "" {
			return r, off
		}
		end = q
	}
	// hier-part
	if strings.HasPrefix(s[i:end], "//") {
		a := i + 2
		ae := end
		if k := strings.IndexByte(s[a:end], '/'); k >= 0 {
			ae = a + k
		}
		if r, off := checkAuthority(s, a, ae); r != "" {
			return r, off
		}
		i = ae
	}
	return scanChars(s, i, end, ":@/")
}

// checkAuthority checks the authority s[from:to] (RFC 3986 §3.2).
func checkAuthority(s string, from, to int) (string, int) {
	host := from
	if at := strings.LastIndexByte(s[from:to], '@'); at >= 0 {
		// userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
		if r, off := scanChars(s, from, from+at, ":"); r != "" {
			if s[off] == '@' {
				return "more than one @ in authority", off
			}
			return r, off
		}
		host = from + at + 1
	}
	port := -1
	if host < to && s[host] == '[' {
		rb := strings.IndexByte(s[host:to], ']')
		if rb < 0 {
			return "unclosed [ in host", host
		}
		rb += host
		if r, off := checkIPLiteral(s, host+1, rb); r != "" {
			return r, off
		}
		if rb+1 < to {
			if s[rb+1] != ':' {
				return "expected : or end of authority after ip literal", rb + 1
			}
			port = rb + 2
		}
	} else {
		he := to
		if c := strings.IndexByte(s[host:to], ':'); c >= 0 {
			he = host + c
			port = he + 1
		}
		// reg-name / IPv4address = *( unreserved / pct-encoded / sub-delims )
		if r, off := scanChars(s, host, he, ""); r != "" {
			return r, off
		}
	}
	if port >= 0 {
		for k := port; k < to; k++ {
			if !isDigit(s[k]) {
				return "port must be digits", k
			}
		}
	}
	return "", -1
}

// checkIPLiteral checks the text between "[" and "]" (RFC 3986 §3.2.2).
func checkIPLiteral(s string, from, to int) (string, int) {
	lit := s[from:to]
	if lit == "" {
		return "empty ip literal", from
	}
	if lit[0] == 'v' || lit[0] == 'V' {
		// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
		k := from + 1
		for k < to && isHex(s[k]) {
			k++
		}
		if k == from+1 || k >= to || s[k] != '.' || k+1 == to {
			return "malformed ipvfuture literal", from
		}
		for k++; k < to; k++ {
			if !(isUnreserved(s[k]) || isSubDelim(s[k]) || s[k] == ':') {
				return "character not allowed in ipvfuture literal", k
			}
		}
		return "", -1
	}
	for k := from; k < to; k++ {
		if !(isHex(s[k]) || s[k] == ':' || s[k] == '.') {
			return "character not allowed in ipv6 literal", k
		}
	}
	a, err := netip.ParseAddr(lit)
	if err != nil || !a.Is6() || a.Zone() != "" {
		return "malformed ipv6 literal", from
	}
	return "", -1
}

// String returns the URI text ("" for the zero value).
func (u URI) String() string { return u.s }

// IsZero reports whether u is the zero (absent) URI.
func (u URI) IsZero() bool { return u.s == "" }

// Scheme returns the scheme as written, without the colon (e.g. "https",
// "git+ssh", "urn"); "" for the zero value. Schemes are case-insensitive
// (RFC 3986 §3.1): compare with strings.EqualFold or lower-case first.
func (u URI) Scheme() string {
	sch, _, _ := strings.Cut(u.s, ":")
	return sch
}

// MarshalText implements encoding.TextMarshaler: the text, or empty text for
// the zero value. It never fails.
func (u URI) MarshalText() ([]byte, error) { return []byte(u.s), nil }

// UnmarshalText implements encoding.TextUnmarshaler: empty text gives the
// zero value, anything else is parsed with ParseURI. On error u is unchanged
// and the *SyntaxError is returned.
func (u *URI) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*u = URI{}
		return nil
	}
	p, err := ParseURI(string(text))
	if err != nil {
		return err
	}
	*u = p
	return nil
}
