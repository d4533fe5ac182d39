package check

import (
	"context"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
)

// history runs the semantic diff engine (package diff, issue 4) over every
// consecutive pair of accepted revisions of every chain and reports each
// change as a history/<kind> diagnostic on the newer revision, with the
// older revision's location as related information. Changes at info level
// are reported only when the configuration's rules: names their code (info
// kinds are off by default in check); every other level is reported, and
// config.Apply then applies overrides and off as for any rule.
func history(ctx context.Context, r *run) (diag.List, error) {
	byPath := make(map[string]*syntax.Document, len(r.load.Files))
	for _, f := range r.load.Files {
		if f.Doc != nil {
			byPath[f.Path] = f.Doc
		}
	}
	var out diag.List
	for _, co := range r.load.State.Coordinates() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		entries := r.load.State.Entries(co)
		var hist []model.Revision
		for i := 1; i < len(entries); i++ {
			prev, cur := byPath[entries[i-1].Source], byPath[entries[i].Source]
			if prev != nil && cur != nil {
				res, err := diff.Compare(prev, cur, diff.Options{History: hist})
				if err == nil {
					out = append(out, historyDiagnostics(r, res)...)
				}
			}
			hist = append(hist, entries[i-1].Revision)
		}
	}
	return out, nil
}

// historyDiagnostics turns the changes of res into diagnostics, leaving out
// info-level changes whose code the configuration does not name.
func historyDiagnostics(r *run, res *diff.Result) diag.List {
	var out diag.List
	for _, ch := range res.Changes {
		if ch.Level == diag.Info {
			if _, configured := r.cfg.Rules[ch.Kind.Code()]; !configured {
				continue
			}
		}
		out = append(out, ch.Diagnostic())
	}
	return out
}
