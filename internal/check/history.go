package check

import (
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
func history(r *run, a *load.Artifact) diag.List {
	var out diag.List
	if len(a.Chain) < 2 {
		return nil
	}
	docs := docsOf(a)
	hist := make([]model.Revision, 0, len(a.Chain)-1)
	for i := 1; i < len(a.Chain); i++ {
		prev, cur := docs[a.Chain[i-1].Source], docs[a.Chain[i].Source]
		if prev != nil && cur != nil {
			drop := func(k diff.Kind) bool { return r.dropped(k, cur.Path) }
			res, err := diff.Compare(prev, cur, diff.Options{History: hist, Drop: drop})
			if err == nil {
				out = append(out, historyDiagnostics(r, res)...)
			}
		}
		hist = append(hist, a.Chain[i-1].Revision)
	}
	return out
}

// historyDiagnostics turns the changes of res into diagnostics, leaving out
// info-level changes whose code the configuration does not name. A new
// revision that a commit adds (--staged, the revision is not in HEAD) and
// that changes nothing but comments, spacing or order is a warning even
// when unconfigured: its author probably forgot the edit the revision was
// drafted for.
func historyDiagnostics(r *run, res *diff.Result) diag.List {
	var out diag.List
	for _, ch := range res.Changes {
		if ch.Kind == diff.NoSemanticChange && r.addedByCommit(ch.Diagnostic().Path) {
			if _, configured := r.cfg.Rules[ch.Kind.Code()]; !configured {
				ch.Level = diag.Warning
			}
		}
		if ch.Level == diag.Info {
			if _, configured := r.cfg.Rules[ch.Kind.Code()]; !configured {
				continue
			}
		}
		out = append(out, ch.Diagnostic())
	}
	return out
}

// dropped reports whether historyDiagnostics leaves out every change of
// kind k on the revision at path: a kind at its default level, info, whose
// code the configuration does not name, unless it is a no-semantic-change
// on a revision that the commit adds.
func (r *run) dropped(k diff.Kind, path string) bool {
	if k == diff.NoSemanticChange && r.addedByCommit(path) {
		return false
	}
	if _, configured := r.cfg.Rules[k.Code()]; configured {
		return false
	}
	info, _ := diff.LookupKind(k)
	return info.Level == diag.Info
}

// addedByCommit reports whether the Journal file at root-relative path is
// staged for the commit being checked (--staged) and is no accepted
// revision: it does not exist at the revision it is compared against, and
// no merge under way brings it in (gitfacts.Facts.Accepted).
func (r *run) addedByCommit(path string) bool {
	g := r.gate
	if g == nil || !g.staged || g.Commit == "" || path == "" {
		return false
	}
	return !g.Accepted(path)
}

// noneAdded reports whether addedByCommit is false for every Journal file
// that the source holds as a regular file in the artifact directory dir
// (root-relative), without asking the index about each: so it is without
// --staged or a compared commit, and when git reports no difference under
// dir between that commit and the index, which then holds every such
// file as the commit does (gitfacts.Facts.UnchangedDir).
func (r *run) noneAdded(dir string) bool {
	g := r.gate
	if g == nil || !g.staged || g.Commit == "" {
		return true
	}
	return g.UnchangedDir(dir)
}
