package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

// longReport is the fixture report with findings added until it has n
// diagnostics: repeated warnings and infos on further files, so that codes
// recur with different counts and one code appears at two severities.
func longReport(n int) Report {
	r := fixtureReport()
	extra := []struct {
		code string
		sev  diag.Severity
	}{
		{"lint/description-missing", diag.Warning},
		{"lint/description-missing", diag.Warning},
		{"lint/release-order", diag.Info},
		{rules.ValueLicense, diag.Warning},
	}
	for i := 0; len(r.Diagnostics) < n; i++ {
		e := extra[i%len(extra)]
		r.Diagnostics = append(r.Diagnostics, diag.Diagnostic{Code: e.code, Severity: e.sev,
			Path:    fmt.Sprintf("acme/more%02d/2024-02-01T00:00:00Z.journal", i),
			Message: "finding " + fmt.Sprint(i)})
	}
	r.Diagnostics.Sort()
	r.Summary.Files += n
	return r
}

// TestCountTableGolden checks the table of counts per code that ends the
// text report of a run with more than CountTableMin findings.
func TestCountTableGolden(t *testing.T) {
	t.Parallel()
	golden(t, "text_table.golden", render(t, Text, longReport(CountTableMin+5), Options{}))
}

// TestCountTableThreshold checks that the table appears above
// CountTableMin findings only, in the text format only, right before the
// summary line.
func TestCountTableThreshold(t *testing.T) {
	t.Parallel()
	header := "\ncode                        severity  count\n"
	if got := string(render(t, Text, longReport(CountTableMin), Options{})); strings.Contains(got, "severity  count") {
		t.Errorf("a report of %d findings has a count table:\n%s", CountTableMin, got)
	}
	got := string(render(t, Text, longReport(CountTableMin+1), Options{}))
	i := strings.Index(got, header)
	if i < 0 {
		t.Fatalf("a report of %d findings has no count table:\n%s", CountTableMin+1, got)
	}
	table := got[i:]
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "4 errors, ") || lines[len(lines)-2] != "" {
		t.Errorf("the table is not followed by a blank line and the summary line:\n%s", table)
	}
	for _, f := range []Format{JSON, SARIF, GitHub} {
		if out := string(render(t, f, longReport(CountTableMin+1), Options{})); strings.Contains(out, "severity  count") {
			t.Errorf("format %v has the count table", f)
		}
	}
}

// TestCountTableColor colours the severity column like the diagnostics,
// keeping the columns aligned.
func TestCountTableColor(t *testing.T) {
	t.Parallel()
	got := string(render(t, Text, longReport(CountTableMin+1), Options{Color: true}))
	if !strings.Contains(got, "chain/fork                  "+ansiError+"error"+ansiReset+"         1\n") {
		t.Errorf("no coloured, aligned row for chain/fork:\n%q", got)
	}
}
