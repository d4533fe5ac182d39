package check

import (
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/journal/model"
)

// history runs the semantic diff engine (package diff, issue 4) over every
// consecutive pair of accepted revisions of one artifact's chain and
// reports each change as a history/<kind> diagnostic on the newer
// revision, with the older revision's location as related information.
// Changes at info level are reported only when the configuration's rules:
// names their code (info kinds are off by default in check); every other
// level is reported, and config.Apply then applies overrides and off as for
// any rule. It runs while the tree streams (an analyzer of [visitor]), so
// it holds one chain at a time.
func history(cfg *config.Config, a *load.Artifact) diag.List {
	var out diag.List
	if len(a.Chain) < 2 {
		return nil
	}
	docs := docsOf(a)
	var hist []model.Revision
	for i := 1; i < len(a.Chain); i++ {
		prev, cur := docs[a.Chain[i-1].Source], docs[a.Chain[i].Source]
		if prev != nil && cur != nil {
			res, err := diff.Compare(prev, cur, diff.Options{History: hist})
			if err == nil {
				out = append(out, historyDiagnostics(cfg, res)...)
			}
		}
		hist = append(hist, a.Chain[i-1].Revision)
	}
	return out
}

// historyDiagnostics turns the changes of res into diagnostics, leaving out
// info-level changes whose code the configuration does not name.
func historyDiagnostics(cfg *config.Config, res *diff.Result) diag.List {
	var out diag.List
	for _, ch := range res.Changes {
		if ch.Level == diag.Info {
			if _, configured := cfg.Rules[ch.Kind.Code()]; !configured {
				continue
			}
		}
		out = append(out, ch.Diagnostic())
	}
	return out
}
