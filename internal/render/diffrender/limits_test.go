package diffrender

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/render"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// manyChanges returns nr comparisons of nc changes each, whose levels cycle
// info, warning, error over all changes, each message naming its place
// ("change N") in the order of the results.
func manyChanges(nr, nc int) []*diff.Result {
	levels := []diag.Severity{diag.Info, diag.Warning, diag.Error}
	kinds := []diff.Kind{diff.ReleaseAdded, diff.ReleaseBackdated, diff.ReleaseRemoved}
	var results []*diff.Result
	n := 0
	for i := 0; i < nr; i++ {
		r := &diff.Result{
			Old: diff.Side{Path: fmt.Sprintf("c%d/1.journal", i), Coordinate: fmt.Sprintf("com.example:a%d", i), JournalVersion: journalVersion("20260101T000000Z")},
			New: diff.Side{Path: fmt.Sprintf("c%d/2.journal", i), Coordinate: fmt.Sprintf("com.example:a%d", i), JournalVersion: journalVersion("20260201T000000Z")},
		}
		for j := 0; j < nc; j++ {
			v := diff.Value{Text: "x", Present: true, Path: r.New.Path,
				Range: diag.Range{Start: diag.Pos{Line: j + 1, Column: 1}, End: diag.Pos{Line: j + 1, Column: 5}}}
			r.Changes = append(r.Changes, diff.Change{Kind: kinds[n%3], Level: levels[n%3], Release: strconv.Itoa(j),
				Message: fmt.Sprintf("change %d %s", n, strings.Repeat("y", 60)), Old: v, New: v})
			n++
		}
		results = append(results, r)
	}
	return results
}

var changeIndex = regexp.MustCompile(`\| change (\d+) `)

func TestMarkdownWithinLimit(t *testing.T) {
	t.Parallel()
	results := manyChanges(20, 30) // 600 changes, 200 of each level
	var full bytes.Buffer
	WriteStepSummary(&full, results, WriteOptions{}, render.StepSummaryLimit)
	if strings.Contains(full.String(), "left out") {
		t.Fatal("the whole diff fits GitHub's limit, yet changes were left out")
	}
	const maxBytes = 100000
	if full.Len() <= maxBytes {
		t.Fatalf("the whole diff has only %d bytes; the test wants more than %d", full.Len(), maxBytes)
	}
	var buf bytes.Buffer
	WriteStepSummary(&buf, results, WriteOptions{}, maxBytes)
	out := buf.String()
	if buf.Len() > maxBytes {
		t.Fatalf("%d bytes, more than %d", buf.Len(), maxBytes)
	}
	// The kept table rows: every error, then warnings by place.
	var shown []int
	for _, m := range changeIndex.FindAllStringSubmatch(out, -1) {
		i, _ := strconv.Atoi(m[1])
		shown = append(shown, i)
	}
	kept := map[int]bool{}
	warnings := 0
	for _, i := range shown {
		kept[i] = true
		if i%3 == 1 {
			warnings++
		}
	}
	for i := 0; i < 600; i++ {
		var want bool
		switch i % 3 {
		case 2:
			want = true // errors
		case 1:
			want = (i-1)/3 < warnings // the first warnings
		}
		if kept[i] != want {
			t.Fatalf("change %d shown = %v, want %v (errors first, then warnings in order; %d shown)", i, kept[i], want, len(shown))
		}
	}
	if warnings == 0 || warnings == 200 {
		t.Fatalf("%d warnings shown; the test wants some but not all", warnings)
	}
	left := 600 - len(shown)
	want := fmt.Sprintf("\n**%d changes left out** (0 errors, %d warnings, 200 infos) to stay within GitHub's step summary limit; `journal-lint diff --format json` lists every change.\n", left, 200-warnings)
	if !strings.HasSuffix(out, want) {
		t.Errorf("output ends\n%q\nwant\n%q", out[max(0, len(out)-300):], want)
	}
	if !strings.HasPrefix(out, "### journal-lint diff\n\n20 comparisons, 600 changes: 200 errors, 200 warnings, 200 infos\n") {
		t.Errorf("the summary line does not count every change:\n%s", out[:200])
	}
}

func TestGitHubErrorsFirstAndTotals(t *testing.T) {
	t.Parallel()
	results := manyChanges(3, 12) // 36 changes, 12 of each level
	var buf bytes.Buffer
	writeGitHub(&buf, results, WriteOptions{PathPrefix: "journals"})
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if want := 12 + 12 + render.AnnotationLimit; len(lines) != want {
		t.Fatalf("%d lines, want %d", len(lines), want)
	}
	prefixes := map[int]string{0: "::error ", 12: "::warning ", 24: "::notice "}
	cur := ""
	for i, l := range lines {
		if p, ok := prefixes[i]; ok {
			cur = p
		}
		if !strings.HasPrefix(l, cur) {
			t.Errorf("line %d %q, want %q", i, l, cur)
		}
	}
	want := "::notice title=journal-lint diff::3 comparisons, 36 changes: 12 errors, 12 warnings, 12 infos. 3 infos are left out of these annotations. " +
		"GitHub shows at most 10 error, 10 warning and 10 notice annotations per step: --format markdown (for the step summary, errors first) lists the changes, and --format json lists every one."
	if last := lines[len(lines)-1]; last != want {
		t.Errorf("last line\n%q\nwant\n%q", last, want)
	}
}

// journalVersion parses s, which must be a valid JOURNAL_VERSION.
func journalVersion(s string) vt.JournalVersion {
	v, err := vt.ParseTimestamp(s)
	if err != nil {
		panic(err)
	}
	return v
}
