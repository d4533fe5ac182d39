package rulestest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint/rulestest"
)

func TestParseWants(t *testing.T) {
	src := "# want \"a\" 3 `b\\.c`\n# want 4-6 \"d\"\nLINE 3\n# plain comment\n# want here \"e\"\nLAST\n"
	ws, err := rulestest.ParseWants([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, fmt.Sprintf("%d:%d:%d:%s", w.Line, w.Column, w.EndColumn, w.Message))
	}
	if s := strings.Join(got, " "); s != "3:0:0:a 3:3:0:b\\.c 3:4:6:d 5:0:0:e" {
		t.Errorf("wants = %s", s)
	}
	for _, bad := range []string{"# want\nX\n", "# want here\nX\n", "# want nope\nX\n", "# want \"(\"\nX\n", "X\n# want \"a\"\n"} {
		if _, err := rulestest.ParseWants([]byte(bad)); err == nil {
			t.Errorf("ParseWants(%q) succeeded", bad)
		}
	}
}

func TestCompare(t *testing.T) {
	ws, err := rulestest.ParseWants([]byte("# want 2-4 \"^bad$\"\nX\n# want \"other\"\nY\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := func(line, col, end int, msg string) diag.Diagnostic {
		return diag.Diagnostic{Message: msg, Range: diag.Range{Start: diag.Pos{Line: line, Column: col}, End: diag.Pos{Line: line, Column: end}}}
	}
	if p := rulestest.Compare(diag.List{d(2, 2, 4, "bad"), d(4, 9, 9, "the other one")}, ws); p != nil {
		t.Errorf("matching diagnostics: %v", p)
	}
	if p := rulestest.Compare(diag.List{d(2, 2, 5, "bad"), d(4, 1, 1, "x")}, ws); len(p) != 4 {
		t.Errorf("mismatches: got %d problems %v, want 2 unexpected and 2 unmatched", len(p), p)
	}
}
