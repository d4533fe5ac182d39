package cli

import (
	"strings"
	"testing"
)

// new refuses a DESCRIPTION that would hide or forge text where it is shown
// (issue: hostile input §1), and one that is not UTF-8 instead of silently
// writing U+FFFD.
func TestCheckDescription(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"A tiny UI toolkit", ""},
		{"名前 ü \"quoted\" <x> ::error::", ""},
		{"evil\u202etxt", `--description holds \u202e at byte 5`},
		{"line\n::error file=x::forged", `--description holds \n at byte 5`},
		{"bell\x07", `--description holds \a at byte 5`}, {"esc\x1b[2J", `--description holds \x1b at byte 4`},
		{"csi\u009b", `--description holds \u009b at byte 4`},
		{"bad\xffutf8", `--description is not valid UTF-8: byte 4 is \xff`},
	}
	for _, tt := range tests {
		err := checkDescription(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (tt.want == "") != (got == "") || !strings.HasPrefix(got, tt.want) {
			t.Errorf("checkDescription(%q) = %q, want prefix %q", tt.in, got, tt.want)
		}
	}
}
