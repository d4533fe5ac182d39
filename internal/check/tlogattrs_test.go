package check

import (
	"testing"

	"github.com/r35157/journal-lint/internal/gitfacts"
)

// TestMoreConversion: a change of the log's attributes is tlog/modified
// only when it makes git convert more than before (gitattributes(5)).
func TestMoreConversion(t *testing.T) {
	t.Parallel()
	attrs := func(text, eol string) gitfacts.Attrs {
		return gitfacts.Attrs{Text: text, EOL: eol, Filter: "unspecified", Ident: "unspecified", Encoding: "unspecified"}
	}
	none := attrs("unspecified", "unspecified")
	for _, tt := range []struct {
		name        string
		now, before gitfacts.Attrs
		want        bool
	}{
		{"text where there was none", attrs("set", "unspecified"), none, true},
		{"-text", attrs("unset", "unspecified"), attrs("auto", "unspecified"), false},
		{"eol=lf forces text where auto detected it", attrs("unspecified", "lf"), attrs("auto", "unspecified"), true},
		{"eol=lf made explicit", attrs("set", "lf"), attrs("unspecified", "lf"), false},
		{"eol=crlf made explicit", attrs("set", "crlf"), attrs("unspecified", "crlf"), false},
		{"away from a conversion", attrs("auto", "lf"), attrs("auto", "unspecified"), false},
		{"eol=crlf anew", attrs("auto", "crlf"), attrs("auto", "unspecified"), true},
		{"an encoding anew", gitfacts.Attrs{Text: "auto", EOL: "unspecified", Filter: "unspecified", Ident: "unspecified", Encoding: "UTF-16"}, attrs("auto", "unspecified"), true},
		{"the same", attrs("auto", "unspecified"), attrs("auto", "unspecified"), false},
	} {
		if got := moreConversion(tt.now, tt.before); got != tt.want {
			t.Errorf("%s: moreConversion = %v, want %v", tt.name, got, tt.want)
		}
	}
}
