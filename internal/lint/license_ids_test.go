package lint

import (
	"testing"
	"unsafe"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// TestLicenseVerdictsJudgeOnce holds licenseVerdicts to judging a text
// once, to a kept verdict that holds none of the memory the text came in,
// and to reporting nothing for a text that is no SPDX expression.
func TestLicenseVerdictsJudgeOnce(t *testing.T) {
	var seen licenseVerdicts[string]
	judged := 0
	judge := func(l vt.License) (string, bool) {
		judged++
		return l.String(), true
	}
	src := []byte("MIT OR Apache-2.0")
	// A text shares its document's memory, as the parser's arguments do.
	first := seen.of(unsafe.String(unsafe.SliceData(src), len(src)), judge)
	copy(src, "XXX") // the text's memory changes, as a recycled source's would
	again := seen.of("MIT OR Apache-2.0", judge)
	if !first.report || !again.report || again.v != "MIT OR Apache-2.0" || judged != 1 {
		t.Errorf("verdicts %+v, %+v after %d judgements; want one reported verdict", first, again, judged)
	}
	if bad := seen.of("MIT OR (", judge); bad.report || judged != 1 {
		t.Errorf("an invalid expression: %+v after %d judgements", bad, judged)
	}
}
