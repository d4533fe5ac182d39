package lint

import (
	"fmt"
	"strings"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
)

// checkFutureVersion is the check of time/future-version: JOURNAL_VERSION lies further in
// the future than the allowed clock skew.
func checkFutureVersion(p *Pass) {
	h := p.Doc.Header.JournalVersion
	if !p.Doc.JournalVersionOK || h == nil || len(h.Args) == 0 {
		return
	}
	skew := p.Options.Duration("skew")
	jv := p.Doc.JournalVersion.Time()
	limit := p.Now.Add(skew)
	if !jv.After(limit) {
		return
	}
	p.Report(diag.Diagnostic{
		Range: h.Args[0].Range(),
		Message: fmt.Sprintf("journal version %s is in the future (now %s, allowed skew %s)",
			h.Args[0].Text, p.Now.UTC().Format("20060102T150405Z"), shortDuration(skew)),
		Help: "set JOURNAL_VERSION to the time the revision is written, in UTC (YYYYMMDDTHHMMSSZ)",
	})
}

// shortDuration formats d like time.Duration.String without zero minute and
// second parts: "24h", "1h30m", "0s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
