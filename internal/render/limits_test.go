package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
)

// mixedReport returns a report of n diagnostics whose severities cycle
// info, warning, error (so errors come last in the list), each with a
// message of about size bytes that names its index, and every fifth one
// with a line break and a workflow command in its message.
func mixedReport(n, size int) Report {
	sevs := []diag.Severity{diag.Info, diag.Warning, diag.Error}
	var r Report
	for i := 0; i < n; i++ {
		msg := fmt.Sprintf("finding %d %s", i, strings.Repeat("x", size))
		if i%5 == 0 {
			msg += "\n::error::injected"
		}
		r.Diagnostics = append(r.Diagnostics, diag.Diagnostic{Code: "a/b", Severity: sevs[i%3], Message: msg,
			Path: fmt.Sprintf("c/%d.journal", i), Range: diag.Range{Start: diag.Pos{Line: 1, Column: 1}, End: diag.Pos{Line: 1, Column: 2}}})
	}
	return r
}

var findingIndex = regexp.MustCompile(`finding (\d+) `)

// indices returns the index of every "finding N" in out, in order.
func indices(t *testing.T, out string) []int {
	t.Helper()
	var idx []int
	for _, m := range findingIndex.FindAllStringSubmatch(out, -1) {
		i, err := strconv.Atoi(m[1])
		if err != nil {
			t.Fatal(err)
		}
		idx = append(idx, i)
	}
	return idx
}

// checkSeverityPrefix checks that got (indices into r.Diagnostics) is a
// prefix of the errors-first order in SeverityOrder, without repetition.
func checkSeverityPrefix(t *testing.T, r Report, got []int) {
	t.Helper()
	order := SeverityOrder(len(r.Diagnostics), func(i int) diag.Severity { return r.Diagnostics[i].Severity })
	if len(got) > len(order) {
		t.Fatalf("%d findings shown, only %d exist", len(got), len(order))
	}
	for k, i := range got {
		if order[k] != i {
			t.Fatalf("finding %d shown at place %d, want %d (errors, then warnings, then infos, each in order)", i, k, order[k])
		}
	}
}

func TestSeverityOrder(t *testing.T) {
	t.Parallel()
	sevs := []diag.Severity{diag.Info, diag.Error, diag.Warning, diag.SeverityInvalid, diag.Info, diag.Error, diag.Warning}
	got := SeverityOrder(len(sevs), func(i int) diag.Severity { return sevs[i] })
	want := []int{1, 3, 5, 2, 6, 0, 4}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("SeverityOrder = %v, want %v", got, want)
	}
}

func TestStepSummaryWithinLimit(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		n, size  int
		maxBytes int
	}{
		{"small limit", 300, 40, 8000},
		{"GitHub's limit", 9000, 200, StepSummaryLimit},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := mixedReport(tt.n, tt.size)
			var buf bytes.Buffer
			if err := WriteStepSummary(&buf, r, Options{}, tt.maxBytes); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if buf.Len() > tt.maxBytes {
				t.Fatalf("summary has %d bytes, more than %d", buf.Len(), tt.maxBytes)
			}
			shown := indices(t, out)
			checkSeverityPrefix(t, r, shown)
			if len(shown) == 0 || len(shown) == tt.n {
				t.Fatalf("%d of %d findings shown; the test wants some left out", len(shown), tt.n)
			}
			if rows := strings.Count(out, "\n| "); rows != len(shown)+2 {
				t.Errorf("%d table lines, want %d (header, separator, one row per finding)", rows, len(shown)+2)
			}
			var left Tally
			for _, i := range SeverityOrder(tt.n, func(i int) diag.Severity { return r.Diagnostics[i].Severity })[len(shown):] {
				left.Add(r.Diagnostics[i].Severity)
			}
			last := out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:]
			want := fmt.Sprintf("**%d findings left out** (%s) to stay within GitHub's step summary limit; `journal-lint check --format json` or `--format sarif` lists every finding.\n", left.Total(), left)
			if last != want {
				t.Errorf("last line %q, want %q", last, want)
			}
			// The room is used: one more row would not fit.
			if slack := tt.maxBytes - buf.Len(); slack > 2*(tt.size+100) {
				t.Errorf("%d bytes left unused", slack)
			}
		})
	}
}

func TestStepSummaryFits(t *testing.T) {
	t.Parallel()
	r := mixedReport(30, 10)
	var full bytes.Buffer
	if err := WriteStepSummary(&full, r, Options{}, StepSummaryLimit); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(full.String(), "left out") || len(indices(t, full.String())) != 30 {
		t.Fatalf("a summary that fits lost findings:\n%s", full.String())
	}
	// Exactly the room needed: the same bytes.
	var exact bytes.Buffer
	if err := WriteStepSummary(&exact, r, Options{}, full.Len()); err != nil || exact.String() != full.String() {
		t.Errorf("with exactly %d bytes: %v\n%s", full.Len(), err, exact.String())
	}
	// No room for the heading and the last line: nothing.
	var none bytes.Buffer
	if err := WriteStepSummary(&none, r, Options{}, 100); !errors.Is(err, ErrStepSummaryFull) || none.Len() != 0 {
		t.Errorf("with 100 bytes: %v, %d bytes written", err, none.Len())
	}
}

func TestGitHubErrorsFirstAndTotals(t *testing.T) {
	t.Parallel()
	r := mixedReport(36, 5) // 12 errors, 12 warnings, 12 infos
	r.Summary = Summary{Files: 36, Artifacts: 1, Revisions: 36}
	out := string(render(t, GitHub, r, Options{PathPrefix: "journals", StepSummary: true}))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 12+12+(AnnotationLimit-1)+1 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), 12+12+AnnotationLimit, out)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "::error ") && !strings.HasPrefix(l, "::warning ") && !strings.HasPrefix(l, "::notice ") {
			t.Errorf("line is no workflow command: %q", l)
		}
	}
	checkSeverityPrefix(t, r, indices(t, out))
	if notices := strings.Count(out, "\n::notice "); notices != AnnotationLimit {
		t.Errorf("%d notices, want %d (GitHub shows no more)", notices, AnnotationLimit)
	}
	want := "::notice title=journal-lint::12 errors, 12 warnings, 12 infos in 36 files (1 artifact, 36 revisions). 3 infos are left out of these annotations. " +
		"GitHub shows at most 10 error, 10 warning and 10 notice annotations per step: the step summary lists the findings (errors first), and --format json lists every one."
	if last := lines[len(lines)-1]; last != want {
		t.Errorf("last line\n%q\nwant\n%q", last, want)
	}
	// Without a step summary, the notice sends readers to the JSON only.
	out = string(render(t, GitHub, r, Options{PathPrefix: "journals"}))
	if !strings.HasSuffix(out, "per step: --format json lists every finding.\n") {
		t.Errorf("without a step summary, the last line is %q", out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:])
	}
	if empty := render(t, GitHub, Report{}, Options{}); len(empty) != 0 {
		t.Errorf("no diagnostics gave %q", empty)
	}
}

func TestSARIFResultLimit(t *testing.T) {
	t.Parallel()
	r := mixedReport(12, 5) // errors at 2, 5, 8, 11; warnings at 1, 4, 7, 10
	var buf bytes.Buffer
	if err := writeSARIFWithin(&buf, &r, Options{}, 6); err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if err := sarifSchema(t).Validate(doc); err != nil {
		t.Fatalf("capped SARIF is not valid SARIF 2.1.0: %v", err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Notifications []struct{ ID string }
				}
			}
			Invocations []struct {
				ExecutionSuccessful        bool
				ToolExecutionNotifications []struct {
					Descriptor struct {
						ID    string
						Index int
					}
					Level      string
					Message    struct{ Text string }
					Properties map[string]int
				}
			}
			Results []struct {
				Level   string
				Message struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	var got []string
	for _, res := range run.Results {
		got = append(got, res.Level+" "+strings.Fields(res.Message.Text)[1])
	}
	// Every error and the first two warnings, in the order of the report.
	want := []string{"warning 1", "error 2", "warning 4", "error 5", "error 8", "error 11"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("results %v, want %v", got, want)
	}
	if len(run.Invocations) != 1 || len(run.Invocations[0].ToolExecutionNotifications) != 1 || !run.Invocations[0].ExecutionSuccessful {
		t.Fatalf("invocations = %+v, want one successful with one notification", run.Invocations)
	}
	n := run.Invocations[0].ToolExecutionNotifications[0]
	if n.Descriptor.ID != SARIFResultsLeftOut || len(run.Tool.Driver.Notifications) != 1 || run.Tool.Driver.Notifications[0].ID != SARIFResultsLeftOut {
		t.Errorf("notification descriptor %+v, driver notifications %+v", n.Descriptor, run.Tool.Driver.Notifications)
	}
	if n.Level != "warning" || n.Properties["errors"] != 0 || n.Properties["warnings"] != 2 || n.Properties["notes"] != 4 ||
		!strings.HasPrefix(n.Message.Text, "6 results of 12 left out (0 errors, 2 warnings, 4 notes)") {
		t.Errorf("notification %+v", n)
	}

	// Within the limit: every result in order, no invocation.
	buf.Reset()
	if err := writeSARIFWithin(&buf, &r, Options{}, 12); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); strings.Contains(s, "invocations") || strings.Count(s, `"ruleId"`) != 12 {
		t.Errorf("a run within the limit changed:\n%s", s)
	}
}
