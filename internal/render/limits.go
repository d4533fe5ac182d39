package render

import (
	"fmt"
	"sort"

	"github.com/r35157/journal-lint/internal/diag"
)

// GitHub's limits on what one workflow step can show. This is their one
// home: the step summary ([WriteStepSummary]), `diff --format markdown`,
// SARIF and the workflow commands of the github format all meet them.
const (
	// StepSummaryLimit is the most bytes of step summary GitHub Actions
	// accepts from one step (1 MiB); it drops a larger summary entirely.
	// What journal-lint writes to a step summary stays within it, leaving
	// out findings (errors last) with a line that says so.
	StepSummaryLimit = 1 << 20
	// SARIFResultLimit is the most results GitHub code scanning accepts in
	// one SARIF run; it rejects a run with more. A SARIF log keeps errors,
	// then warnings, then notes up to it and records the rest in a tool
	// execution notification.
	SARIFResultLimit = 25000
	// AnnotationLimit is the most annotations of one kind (error, warning,
	// notice) GitHub shows for one step; it drops later ones. The github
	// format writes errors first and ends with one notice of the totals.
	AnnotationLimit = 10
)

// SeverityOrder returns the indices 0..n-1 of n findings ordered errors
// first, then warnings, then infos, each level in its given order; sev
// returns the severity of the finding at an index, and an invalid severity
// counts as an error (as every renderer shows it). Renderers that must leave
// findings out to meet a limit keep a prefix of this order.
func SeverityOrder(n int, sev func(i int) diag.Severity) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	rank := func(i int) int {
		switch severity(sev(i)) {
		case diag.Error:
			return 0
		case diag.Warning:
			return 1
		}
		return 2
	}
	sort.SliceStable(order, func(a, b int) bool { return rank(order[a]) < rank(order[b]) })
	return order
}

// Tally is a count of findings by severity.
type Tally struct{ Errors, Warnings, Infos int }

// Add counts one finding of severity s (an invalid severity as an error).
func (t *Tally) Add(s diag.Severity) {
	switch severity(s) {
	case diag.Error:
		t.Errors++
	case diag.Warning:
		t.Warnings++
	default:
		t.Infos++
	}
}

// Total returns the number of findings counted.
func (t Tally) Total() int { return t.Errors + t.Warnings + t.Infos }

// String returns the counts as "3 errors, 1 warning, 0 infos".
func (t Tally) String() string {
	return fmt.Sprintf("%s, %s, %s", plural(t.Errors, "error", "errors"),
		plural(t.Warnings, "warning", "warnings"), plural(t.Infos, "info", "infos"))
}
