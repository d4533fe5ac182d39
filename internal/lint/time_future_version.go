package lint

import (
	"fmt"
	"strings"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
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

// SameAt reports whether [Run] with cfg finds the same on a document whose
// JOURNAL_VERSION is jv (zero when it has none) at the time now as at the
// time then, so that findings made at then may stand at now: time/
// future-version, the one rule that reads the clock, reports the same
// (nothing on both, or the same message, which names the clock to the
// second) or does not run.
func (cfg RunConfig) SameAt(jv vt.JournalVersion, then, now time.Time) bool {
	if jv.IsZero() || (cfg.Enabled != nil && !cfg.Enabled(rules.TimeFutureVersion)) {
		return true
	}
	r, ok := Lookup(rules.TimeFutureVersion)
	if !ok {
		return true
	}
	opts, err := cfg.options(r)
	if err != nil {
		return true // the rule does not run
	}
	skew := opts.Duration("skew")
	t := jv.Time()
	before, after := t.After(then.Add(skew)), t.After(now.Add(skew))
	return before == after && (!before || then.Unix() == now.Unix())
}
