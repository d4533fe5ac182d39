package rules

import (
	"fmt"
	"strings"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
)

// timeFutureVersion is time/future-version: JOURNAL_VERSION lies further in
// the future than the allowed clock skew.
var timeFutureVersion = Rule{
	Code:            "time/future-version",
	DefaultSeverity: diag.Error,
	Summary:         "JOURNAL_VERSION lies in the future",
	Doc: `JOURNAL_VERSION is the instant the worldview was written, and every successor
revision must be strictly later than its predecessor (format spec §6). A
revision dated in the future, by a typo in the year or a wrong clock, is valid
on its own, but once accepted it blocks every honest successor until that date
has passed: the only way forward is to date the next revision even further
ahead. So this rule reports it before it is accepted.

A JOURNAL_VERSION is reported when it is later than now plus the ` + "`skew`" + `
option (default 24h), which absorbs clock differences between machines. The
range is the timestamp.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 29260110T080000Z
DESCRIPTION "A tiny UI toolkit"
` + "```" + `

Passing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
` + "```" + `
`,
	Check: checkFutureVersion,
	Options: []Option{{
		Name:    "skew",
		Kind:    DurationOption,
		Default: "24h",
		Summary: "how far past the current time a JOURNAL_VERSION may lie",
	}},
}

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
		Range: h.Args[0].Range,
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
