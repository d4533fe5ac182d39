package diag_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

func at(line, col, off int) diag.Pos { return diag.Pos{Offset: off, Line: line, Column: col} }

func TestPosAndRange(t *testing.T) {
	t.Parallel()
	if s := at(3, 7, 40).String(); s != "3:7" {
		t.Errorf("Pos.String = %q", s)
	}
	if p := (diag.Pos{}); p.IsValid() || p.String() != "-" {
		t.Errorf("zero Pos: valid %v, %q", p.IsValid(), p.String())
	}
	r := diag.Range{Start: at(1, 3, 2), End: at(1, 6, 5)}
	if !r.IsValid() || (diag.Range{}).IsValid() {
		t.Error("IsValid")
	}
	for off, want := range map[int]bool{1: false, 2: true, 4: true, 5: false} {
		if r.Contains(off) != want {
			t.Errorf("Contains(%d) = %v", off, !want)
		}
	}
	src := []byte("abcdefg")
	tests := []struct {
		r    diag.Range
		want string
	}{
		{r, "cde"},
		{diag.Range{Start: at(1, 1, -3), End: at(1, 3, 2)}, "ab"},
		{diag.Range{Start: at(1, 6, 5), End: at(1, 99, 99)}, "fg"},
		{diag.Range{Start: at(1, 6, 5), End: at(1, 3, 2)}, ""},
	}
	for _, tt := range tests {
		if got := string(tt.r.Slice(src)); got != tt.want {
			t.Errorf("Slice(%+v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestSeverity(t *testing.T) {
	t.Parallel()
	for _, s := range []diag.Severity{diag.Error, diag.Warning, diag.Info} {
		got, err := rules.ParseSeverity(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSeverity(%q) = %v, %v", s, got, err)
		}
	}
	if s := diag.SeverityInvalid.String(); s != "invalid" {
		t.Errorf("SeverityInvalid.String = %q", s)
	}
	for _, s := range []string{"", "Error", "invalid", "fatal"} {
		if got, err := rules.ParseSeverity(s); err == nil || got != diag.SeverityInvalid {
			t.Errorf("ParseSeverity(%q) = %v, %v; want an error", s, got, err)
		}
	}
	tests := []struct {
		s, min diag.Severity
		want   bool
	}{
		{diag.Error, diag.Error, true}, {diag.Error, diag.Info, true}, {diag.Warning, diag.Error, false},
		{diag.Info, diag.Warning, false}, {diag.Info, diag.Info, true}, {diag.SeverityInvalid, diag.Info, false},
	}
	for _, tt := range tests {
		if got := tt.s.AtLeast(tt.min); got != tt.want {
			t.Errorf("%v.AtLeast(%v) = %v", tt.s, tt.min, got)
		}
	}
}

func TestDiagnosticString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    diag.Diagnostic
		want string
	}{
		{diag.Diagnostic{Code: "chain/fork", Severity: diag.Error, Message: "m", Path: "a/b.journal", Range: diag.Range{Start: at(5, 13, 90)}},
			"a/b.journal:5:13: error: m [chain/fork]"},
		{diag.Diagnostic{Code: "fs/x", Severity: diag.Warning, Message: "whole file", Path: "a/b.journal"},
			"a/b.journal: warning: whole file [fs/x]"},
		{diag.Diagnostic{Code: "fs/root", Severity: diag.Info, Message: "about the root"},
			"info: about the root [fs/root]"},
	}
	for _, tt := range tests {
		if got := tt.d.String(); got != tt.want {
			t.Errorf("String = %q, want %q", got, tt.want)
		}
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	var empty diag.List
	if empty.Err() != nil || empty.HasErrors() || empty.Error() != "no diagnostics" {
		t.Errorf("empty list: Err %v, HasErrors %v, %q", empty.Err(), empty.HasErrors(), empty.Error())
	}
	w := diag.Diagnostic{Code: "x/w", Severity: diag.Warning, Message: "w", Path: "p"}
	e := diag.Diagnostic{Code: "x/e", Severity: diag.Error, Message: "e", Path: "p"}
	one := diag.List{w}
	if one.HasErrors() || one.Error() != w.String() {
		t.Errorf("one warning: HasErrors %v, %q", one.HasErrors(), one.Error())
	}
	two := diag.List{e, w}
	var l diag.List
	if !two.HasErrors() || two.Error() != e.String()+" (and 1 more)" || !errors.As(two.Err(), &l) || len(l) != 2 {
		t.Errorf("two: HasErrors %v, %q, Err %v", two.HasErrors(), two.Error(), two.Err())
	}
}

// Sort orders by path (the root first), line, column, code and message,
// and keeps equal diagnostics in their order.
func TestSort(t *testing.T) {
	t.Parallel()
	d := func(path string, line, col int, code, msg string) diag.Diagnostic {
		return diag.Diagnostic{Code: code, Severity: diag.Error, Message: msg, Path: path, Range: diag.Range{Start: at(line, col, 0)}}
	}
	want := diag.List{
		d("", 0, 0, "fs/root", "root"),
		d("a", 0, 0, "z/whole", "file"),
		d("a", 1, 9, "b/b", "x"),
		d("a", 2, 1, "a/a", "x"),
		d("a", 2, 3, "a/a", "x"),
		d("a", 2, 3, "a/b", "a"),
		d("a", 2, 3, "a/b", "b"),
		d("b", 1, 1, "a/a", "x"),
	}
	got := slices.Clone(want)
	slices.Reverse(got)
	got.Sort()
	if !slices.EqualFunc(got, want, func(a, b diag.Diagnostic) bool { return a.String() == b.String() }) {
		t.Errorf("Sort:\n%v\nwant\n%v", got, want)
	}
	for i := 1; i < len(want); i++ {
		if !diag.Less(want[i-1], want[i]) || diag.Less(want[i], want[i-1]) {
			t.Errorf("Less(%v, %v)", want[i-1], want[i])
		}
	}
}

// TestSortIsStable holds Sort to a stable sort by Less on lists with many
// ties (diagnostics equal in all five keys keep their order: they differ
// in Help here), sorted, reversed and shuffled.
func TestSortIsStable(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		n := rng.IntN(60)
		l := make(diag.List, n)
		for i := range l {
			l[i] = diag.Diagnostic{
				Code:  []string{"a/a", "b/b"}[rng.IntN(2)],
				Path:  []string{"", "x", "y"}[rng.IntN(3)],
				Range: diag.Range{Start: at(1+rng.IntN(3), 1+rng.IntN(2), 0)},
				Help:  strconv.Itoa(i), // the original position
			}
		}
		switch round % 3 {
		case 1:
			sort.SliceStable(l, func(i, j int) bool { return diag.Less(l[i], l[j]) })
		case 2:
			slices.Reverse(l)
		}
		want := slices.Clone(l)
		sort.SliceStable(want, func(i, j int) bool { return diag.Less(want[i], want[j]) })
		l.Sort()
		if !slices.EqualFunc(l, want, func(a, b diag.Diagnostic) bool { return a.Help == b.Help }) {
			t.Fatalf("round %d: Sort gave %v, a stable sort %v", round, helps(l), helps(want))
		}
	}
}

func helps(l diag.List) []string {
	var out []string
	for _, d := range l {
		out = append(out, d.Help)
	}
	return out
}

// TestTakeSubject: a short subject is kept, one longer than a kilobyte is
// left for the fingerprint to read again.
func TestTakeSubject(t *testing.T) {
	t.Parallel()
	src := []byte(strings.Repeat("ab\r\n", 1000))
	short := diag.Diagnostic{Range: diag.Range{Start: at(1, 1, 0), End: at(2, 1, 4)}}
	short.TakeSubject(src)
	if short.Subject != "ab\n" || short.NeedsText() {
		t.Errorf("short range: subject %q", short.Subject)
	}
	long := diag.Diagnostic{Range: diag.Range{Start: at(1, 1, 0), End: at(1000, 1, len(src))}}
	long.TakeSubject(src)
	if long.Subject != "" || !long.NeedsText() {
		t.Errorf("long range: subject of %d bytes kept", len(long.Subject))
	}
}
