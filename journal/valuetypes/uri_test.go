package valuetypes

import (
	"strings"
	"testing"
)

func TestParseURI(t *testing.T) {
	t.Parallel()
	good := map[string]string{
		"https://widgets.example.org/widget":       "https",
		"git+https://git.example.org/widget.git":   "git+https",
		"git+ssh://git@example.org/w.git":          "git+ssh",
		"urn:example:core":                         "urn",
		"mailto:someone@example.org":               "mailto",
		"HTTPS://Example.ORG/":                     "HTTPS",
		"https://example.org:8443/a/b?x=1&y=%2F#f": "https",
		"https://example.org:/":                    "https",
		"https://[::1]:80/x":                       "https",
		"https://[2001:db8::7]/":                   "https",
		"https://[v7.fe80::a+b]/":                  "https",
		"https://u:p@h/":                           "https",
		"https://h/p?q/?x#frag/?:@":                "https",
		"file:///etc/hosts":                        "file",
		"a:":                                       "a",
		"a.b-c+d:x":                                "a.b-c+d",
		"tag:example.org,2026:x":                   "tag",
		"https://example.org/~user/it's(1)!*;$":    "https",
		"x://":                                     "x",
		"https://h/" + strings.Repeat("a", 2038):   "https",
	}
	for s, scheme := range good {
		u, err := ParseURI(s)
		if err != nil {
			t.Errorf("ParseURI(%q): %v", s, err)
			continue
		}
		roundTrip(t, s, u, ParseURI)
		if u.Scheme() != scheme {
			t.Errorf("%q Scheme = %q", s, u.Scheme())
		}
	}
	bad := []badCase{
		{"", 0},
		{"//example.org/x", 0},
		{"/relative/path", 0},
		{"example.org", 11},
		{"1http://x", 0},
		{":x", 0},
		{"ht tp://x", 2},
		{"http_s://x", 4},
		{"https://example.org/a b", 21},
		{"https://example.org/a\tb", 21},
		{"https://example.org/a\x7fb", 21},
		{"https://example.org/ä", 20},
		{"https://example.org/%", 20},
		{"https://example.org/%2", 20},
		{"https://example.org/%zz", 20},
		{"https://example.org/a#b#c", 23},
		{"https://example.org/<x>", 20},
		{"https://example.org/\"", 20},
		{"https://example.org/a\\b", 21},
		{"https://exa mple.org/", 11},
		{"https://example.org:80a/", 22},
		{"https://[::1/", 8},
		{"https://[zz]/", 9},
		{"https://[1.2.3.4]/", 9},
		{"https://[::1]x/", 13},
		{"https://[v.x]/", 9},
		{"https://a@b@c/", 9},
		{"https://ex[a]mple/", 10},
		{"urn:a[b]", 5},
		{"https://example.org/{x}", 20},
		{"https://example.org/^", 20},
		{"https://example.org/`", 20},
		{"https://example.org/|", 20},
		{"https://h/" + strings.Repeat("a", 2039), 2048},
	}
	for _, c := range bad {
		_, err := ParseURI(c.in)
		checkBad(t, KindURI, c, err)
	}
}
