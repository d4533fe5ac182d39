package suggest

import "testing"

func TestClosest(t *testing.T) {
	cmds := []string{"check", "completion", "diff", "digest", "log", "new", "show", "rules"}
	tests := []struct {
		s    string
		cand []string
		want string
	}{
		{"chek", cmds, "check"},
		{"dif", cmds, "diff"},
		{"lgo", cmds, "log"},
		{"formt", []string{"format", "fail-on", "from"}, "format"},
		{"comp", cmds, "completion"},
		{"zzzzzz", cmds, ""},
		{"", cmds, ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.s, tt.cand); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
	if got := ClosestFold("mti", []string{"FTL", "MIT"}); got != "MIT" {
		t.Errorf(`ClosestFold("mti") = %q, want "MIT"`, got)
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"MTI", "MIT", 1}, {"MTI", "FTL", 2}, {"ca", "abc", 3},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
