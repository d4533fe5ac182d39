package ref

import (
	"errors"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/journal/journalerr"
	"github.com/r35157/journal-lint/rules"
)

// export carries every field of the public view; invalid keeps only the
// validity errors.
func TestExport(t *testing.T) {
	t.Parallel()
	d := diag.Diagnostic{Code: rules.SyntaxEmpty, Severity: diag.Error, Message: "m", Path: "a/b.journal",
		Range: diag.Range{Start: diag.Pos{Offset: 4, Line: 2, Column: 3}, End: diag.Pos{Offset: 9, Line: 2, Column: 8}}}
	want := journalerr.Diagnostic{Code: rules.SyntaxEmpty, Severity: "error", Message: "m", Path: "a/b.journal",
		Line: 2, Column: 3, Offset: 4, EndLine: 2, EndColumn: 8, EndOffset: 9}
	if got := export(d); got != want {
		t.Errorf("export = %+v, want %+v", got, want)
	}
	lint := diag.Diagnostic{Code: "style/x", Severity: diag.Error, Message: "lint"}
	warn := d
	warn.Severity = diag.Warning
	var ie *journalerr.InvalidError
	if err := invalid("start", diag.List{lint, warn, d}); !errors.As(err, &ie) || ie.Op != "start" || len(ie.Diagnostics) != 1 || ie.Diagnostics[0] != want {
		t.Errorf("invalid = %#v", err)
	}
	if err := invalid("start", diag.List{lint}); errors.As(err, &ie) || err.Error() != "start: invalid journal data" {
		t.Errorf("invalid without validity errors = %v", err)
	}
}
