package render

import (
	"bytes"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/safetext/safetexttest"
)

// FuzzRenderers renders one diagnostic whose every string comes from the
// fuzzer, with a source the fuzzer chose, in every format with and without
// colour and a path prefix, and checks the invariants of issue "hostile
// input" §1 on the output: no forged workflow command, no control or bidi
// character. The step summary is checked too.
func FuzzRenderers(f *testing.F) {
	f.Add("a/20260101T000000Z\n::error file=Y::INJ.journal", "x\u202e\x1b]52;c;aGk=\a", "syntax/x", "::warning::h\n##[error]z", "  ::error::src\nline 2\r\n", 1, 3, 2)
	f.Add("", "", "", "", "", 0, 0, 0)
	f.Add("dir\xff/\u2066f", "m\u0085\u009b", "c\nd", "h", "\xef\xbb\xbfA\tB\n", 1, 1, 1)
	f.Fuzz(func(t *testing.T, path, msg, code, help, src string, line, col, width int) {
		line, col, width = line%5, col%200, width%50
		d := diag.Diagnostic{Code: code, Severity: diag.Severity(1 + (line+col)%3), Message: msg, Path: path, Help: help,
			Related: []diag.Related{{Path: path, Message: help}}}
		if line > 0 && col > 0 {
			d.Range = diag.Range{Start: diag.Pos{Line: line, Column: col}, End: diag.Pos{Line: line, Column: col + max(width, 0)}}
		}
		r := Report{Diagnostics: diag.List{d}, Source: func(string) []byte { return []byte(src) },
			Rule: func(string) (RuleInfo, bool) { return RuleInfo{Summary: help, Doc: msg}, true }}
		for _, format := range ReportFormats() {
			for _, opts := range []Options{{}, {Color: true, PathPrefix: "j/" + path}} {
				var b bytes.Buffer
				if err := Write(&b, format, r, opts); err != nil {
					t.Fatal(err)
				}
				if err := safetexttest.Check(b.Bytes(), format == GitHub, opts.Color); err != nil {
					t.Fatalf("%v %+v: %v", format, opts, err)
				}
			}
		}
		var b bytes.Buffer
		if err := WriteStepSummary(&b, r, Options{}, StepSummaryLimit); err != nil {
			t.Fatal(err)
		}
		if err := safetexttest.Check(b.Bytes(), false, false); err != nil {
			t.Fatalf("step summary: %v", err)
		}
	})
}
