package check

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/tlog"
	"github.com/r35157/journal-lint/rules"
)

// LogPreview is the transparency log's part of a check against a revision
// (docs/tlog.md, "The gate"): the merge base's checkpoint, verified with
// the base configuration's key, and the unsigned checkpoint that the
// operator's next append would write after this change is merged.
type LogPreview struct {
	// Base is the merge base's checkpoint.
	Base tlog.Checkpoint
	// After is the checkpoint after the change's added revisions.
	After tlog.Checkpoint
	// Added counts the revisions the change adds to the log.
	Added int
	// Signed says that the change is that append itself, signed with the
	// log's key (the operator's append commit): After is the checkpoint
	// the change holds. Cosigned says that the change is the base's
	// checkpoint cosigned anew (tlog witness).
	Signed, Cosigned bool
}

// logGate is the analyzer of the transparency log, for a check against a
// revision whose base configuration has a tlog: block (config.TLog, taken
// from the base by BaseConfig): tlog/modified for each file of
// journal-log/ that the change touches, tlog/bad-checkpoint when the merge
// base's checkpoint does not verify, and otherwise the preview in
// run.logPreview. A base without a checkpoint has nothing to verify.
func logGate(ctx context.Context, r *run) (diag.List, []diag.Note, error) {
	g := r.gate
	if g == nil || g.Repo == nil || g.Commit == "" || r.cfg == nil || r.cfg.TLog.VKey == "" {
		return nil, nil, nil
	}
	dir := tlog.DirFor(r.opts.Root)
	rel, err := g.Repo.Rel(dir)
	if err != nil {
		return nil, nil, nil // the root is the top of the work tree: no log can be committed beside it
	}
	changes, err := g.Repo.Diff(ctx, g.Commit, g.staged, rel)
	if err != nil {
		return nil, nil, fmt.Errorf("--against: %w", err)
	}
	shown := func(top string) string { return "../" + tlog.DirName + strings.TrimPrefix(top, rel) }
	var out diag.List
	for _, c := range changes {
		out = append(out, diag.Diagnostic{Code: rules.TLogModified, Severity: diag.Error, Path: shown(c.Path), Range: diag.FileStart,
			Message: fmt.Sprintf("this change %s a file of the transparency log: only the log's operator appends to it, after merge", changeVerb(c.Status)),
			Help:    "drop the change of " + tlog.DirName + "/ from the pull request (git checkout <base> -- " + rel + "); see docs/tlog.md"})
	}
	checkpoint := "../" + tlog.DirName + "/" + tlog.CheckpointFile
	bad, err := logAttributes(ctx, g, dir, rel, checkpoint)
	if err != nil {
		return nil, nil, fmt.Errorf("--against: %w", err)
	}
	if len(bad) > 0 {
		return append(out, bad...), nil, nil
	}
	base, err := tlog.ReadCheckpoint(tlog.GitFS{Ctx: ctx, Repo: g.Repo, Commit: g.Commit, Dir: rel}, r.cfg.TLog.VKey)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return out, nil, nil
	case err != nil:
		return append(out, diag.Diagnostic{Code: rules.TLogBadCheckpoint, Severity: diag.Error, Path: checkpoint, Range: diag.FileStart,
			Message: fmt.Sprintf("the checkpoint at the base revision %s does not verify with the base configuration's tlog: key: %v", gitfacts.ShortCommit(g.Commit), err)}), nil, nil
	}
	// A change of the log is the operator's append when it has an
	// append's shape and its checkpoint, signed with the base's key, is
	// the one the preview computes below (appended). Anything else is
	// tlog/modified, and the work tree's tiles are then not the base's.
	var appended *tlog.Signed
	if len(out) > 0 {
		if appended = operatorAppend(ctx, r, rel, base, changes); appended == nil {
			return out, nil, nil
		}
	}
	// The batch: the change's revisions, and the merge base's in the
	// directories where its checkpoint may lag (unloggedDirs). When the
	// merge base holds more accepted revisions than the log and that
	// batch account for (the operator's append commit rebased onto a
	// revision it did not log, a log begun before the root existed), the
	// batch is every accepted revision; tlog.Prepare leaves out the logged.
	unlogged := unloggedDirs(ctx, g, rel)
	batch := func(all bool) (revs []tlog.Revision, atBase int) {
		for _, f := range r.load.Files {
			if f.Outcome != chain.Appended || !f.Summary.RevisionOK {
				continue
			}
			_, old := g.AtBase(f.Path)
			if old {
				atBase++
				if !all && !unlogged[load.ArtifactDir(f.Path)] {
					continue
				}
			}
			if doc := r.load.Doc(f.Path); doc != nil && doc.RevisionOK {
				revs = append(revs, tlog.Revision{Path: f.Path, Entry: tlog.EntryOf(doc.Revision)})
			}
		}
		return revs, atBase
	}
	added, atBase := batch(false)
	plan, err := tlog.Prepare(tlog.DirFS(dir), base, added)
	if err == nil {
		found := 0 // the merge base's revisions the batch found unlogged
		for _, a := range plan.Added {
			if _, old := g.AtBase(a.Path); old {
				found++
			}
		}
		if atBase > int(base.Tree.N)+found {
			added, _ = batch(true)
			plan, err = tlog.Prepare(tlog.DirFS(dir), base, added)
		}
	}
	if err != nil && appended != nil {
		return out, nil, nil // the change's tiles, which Prepare read, are not an append to the base's
	}
	if err != nil {
		return diag.List{{Code: rules.TLogBadTiles, Severity: diag.Error, Path: checkpoint, Range: diag.FileStart,
			Message: fmt.Sprintf("the tiles at the base revision %s do not match its checkpoint: %v", gitfacts.ShortCommit(g.Commit), err)}}, nil, nil
	}
	switch {
	case appended != nil && appended.N == base.N: // cosignatures alone
		r.logPreview = &LogPreview{Base: base.Checkpoint, After: plan.New, Added: len(plan.Added), Cosigned: true}
		return nil, nil, nil
	case appended != nil && appended.Tree != plan.New.Tree:
		return out, nil, nil // signed, but not the append of this tree
	case appended != nil:
		r.logPreview = &LogPreview{Base: base.Checkpoint, After: plan.New, Added: len(plan.Added), Signed: true}
		return nil, nil, nil
	}
	r.logPreview = &LogPreview{Base: base.Checkpoint, After: plan.New, Added: len(plan.Added)}
	return nil, nil, nil
}

// operatorAppend returns the log's checkpoint when the change of the log
// (changes, under rel) is the operator's: an append to the base's
// checkpoint base that writes all of what an append writes and nothing
// else (tlog.IsAppend), as regular files, or at base's size and root a
// new checkpoint alone that keeps every listed witness's cosignature at
// least as new (tlog witness); with a checkpoint that verifies with the
// base configuration's key and holds no other signature lines than the
// log's and its listed witnesses', each verified (tlog.OperatorNote), and
// tiles that verify against it. Else nil. What is judged is what git
// records: the index with --staged, else HEAD, whose log the work tree
// must hold unchanged.
func operatorAppend(ctx context.Context, r *run, rel string, base tlog.Signed, changes []gitrepo.Change) *tlog.Signed {
	g := r.gate
	fsys := tlog.GitFS{Ctx: ctx, Repo: g.Repo, Dir: rel} // the index
	if !g.staged {
		head, err := g.Repo.ResolveCommit(ctx, "HEAD")
		if err != nil {
			return nil
		}
		if uncommitted, err := g.Repo.Diff(ctx, head, false, rel); err != nil || len(uncommitted) > 0 {
			return nil
		}
		fsys.Commit = head
	}
	cp, err := tlog.ReadCheckpoint(fsys, r.cfg.TLog.VKey)
	if err != nil || !tlog.IsAppend(changes, rel, base.N, cp.N) {
		return nil
	}
	for _, ch := range changes { // regular files in git (ReadFile reads no other)
		if ch.Status != 'D' {
			if _, err := fsys.ReadFile(strings.TrimPrefix(ch.Path, rel+"/")); err != nil {
				return nil
			}
		}
	}
	witnesses := r.cfg.TLog.WitnessKeys()
	times, err := tlog.OperatorNote(cp.Note, r.cfg.TLog.VKey, witnesses)
	if err != nil {
		return nil
	}
	if cp.N == base.N {
		if cp.Tree != base.Tree {
			return nil
		}
		// A base whose lines do not verify bounds nothing: the new
		// checkpoint's lines verify (OperatorNote).
		before, _ := tlog.Cosignatures(base.Note, witnesses)
		for id, t := range before {
			if now, ok := times[id]; !ok || now.Before(t) {
				return nil // a cosignature dropped or rolled back
			}
		}
	}
	if _, err := tlog.Leaves(fsys, cp.Tree); err != nil {
		return nil
	}
	return &cp
}

// logAttributes returns tlog/modified on the checkpoint (its shown path)
// when the change makes git convert a file of the log between its blob
// and the checkout more than at the compared commit (moreConversion): its
// attributes in the checked tree (the index's with --staged) against
// those at the commit, for every file of the log and for the places of
// the files later appends write (logProbes), whose attributes a pattern
// may set before they exist. A repository whose log already lives under
// such attributes is not held to them by every pull request. A converted
// file breaks the log after the merge: the next append signs, or a
// checkout verifies, other bytes. dir is the log's directory, rel the
// same relative to the top. Its error is git's.
func logAttributes(ctx context.Context, g *gate, dir, rel, checkpoint string) (diag.List, error) {
	seen := map[string]bool{}
	var paths []string
	add := func(p string) {
		if p = path.Join(rel, p); !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	for _, p := range logProbes() {
		add(p)
	}
	_ = fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			add(p)
		}
		return nil
	})
	names := gitfacts.AttrNames()
	now, err := g.Repo.Attributes(ctx, g.staged, "", paths, names...)
	if err != nil {
		return nil, fmt.Errorf("git check-attr: %w", err)
	}
	before, err := g.Repo.AttributesAt(ctx, g.Commit, "", paths, names...)
	if err != nil {
		return nil, fmt.Errorf("git check-attr: %w", err)
	}
	for i, v := range now {
		a := gitfacts.AttrsOf(v)
		if !moreConversion(a, gitfacts.AttrsOf(before[i])) {
			continue
		}
		return diag.List{{Code: rules.TLogModified, Severity: diag.Error, Path: checkpoint, Range: diag.FileStart,
			Message: fmt.Sprintf("this change makes git convert the files of the transparency log between their blobs and the checkout (first: %s, %s, filter: %s, ident: %s, working-tree-encoding: %s): they must stay byte for byte",
				paths[i], a.Describe(), a.Filter, a.Ident, a.Encoding),
			Help: "end the .gitattributes at the top of the repository with: " + rel + "/** -text -eol -filter -ident -working-tree-encoding"}}, nil
	}
	return nil, nil
}

// logProbes are places of the log's files, relative to its directory,
// that appends write as the log grows (C2SP tlog-tiles), asked about
// before they exist: the checkpoint, the first four tiles of levels 0 to
// 3 with every partial width of the first, and the first tiles of the
// second and third thousand at level 0. A pattern aimed at a place
// further on is not seen before an append writes a file there.
var logProbes = sync.OnceValue(func() []string {
	out := []string{tlog.CheckpointFile}
	for level := range 4 {
		for n := range 4 {
			out = append(out, fmt.Sprintf("tile/%d/%03d", level, n))
		}
		for w := 1; w < 256; w++ {
			out = append(out, fmt.Sprintf("tile/%d/000.p/%d", level, w))
		}
	}
	for _, x := range []string{"x001", "x002"} {
		out = append(out, "tile/0/"+x+"/000", "tile/0/"+x+"/000.p/1")
	}
	return out
})

// moreConversion reports whether the attributes now make git convert a
// file in a way the attributes before did not (gitattributes(5)): any
// conversion where there was none (Attrs.ConvertsNothing, without
// core.autocrlf), else a filter, ident or working-tree encoding set anew,
// eol=crlf anew, or text forced (text set, or eol set without a text
// attribute: no detection of binary files) where it was not. A change
// away from a conversion (eol=lf where it was unspecified) is none.
func moreConversion(now, before gitfacts.Attrs) bool {
	set := func(v string) bool { return v != "unspecified" && v != "unset" }
	forced := func(a gitfacts.Attrs) bool {
		return a.Text == "set" || a.Text == "unspecified" && (a.EOL == "lf" || a.EOL == "crlf")
	}
	switch {
	case now.ConvertsNothing("false"):
		return false
	case before.ConvertsNothing("false"):
		return true
	}
	return set(now.Filter) && now.Filter != before.Filter ||
		set(now.Ident) && now.Ident != before.Ident ||
		set(now.Encoding) && now.Encoding != before.Encoding ||
		now.EOL == "crlf" && before.EOL != "crlf" ||
		forced(now) && !forced(before)
}

// unloggedDirs returns the artifact directories in which the compared
// commit may hold revisions its checkpoint does not log yet: those that
// changed since the commit that last wrote the checkpoint (logDir is the
// log's directory, relative to the top), where the operator has not
// appended since. Their revisions join the change's in the preview, and
// tlog.Prepare leaves out those the log holds. It returns nil when the
// commit wrote the checkpoint itself, and when git cannot tell (the
// preview then counts the change's revisions alone).
func unloggedDirs(ctx context.Context, g *gate, logDir string) map[string]bool {
	last, err := g.Repo.LastChange(ctx, g.Commit, path.Join(logDir, tlog.CheckpointFile))
	if err != nil || last == "" || last == g.Commit {
		return nil
	}
	before, err := g.Repo.TreeAt(ctx, last, g.RootRel)
	if err != nil || before == "" {
		return nil
	}
	now, err := g.Repo.TreeAt(ctx, g.Commit, g.RootRel)
	if err != nil || now == "" {
		return nil
	}
	changes, err := g.Repo.TreeDiff(ctx, before, now) // one level: the artifact directories
	if err != nil {
		return nil
	}
	dirs := map[string]bool{}
	for _, c := range changes {
		dirs[c.Path] = true
	}
	return dirs
}

// changeVerb names git's status letter of a change in a message.
func changeVerb(status byte) string {
	switch status {
	case 'A':
		return "adds"
	case 'D':
		return "deletes"
	case 'R':
		return "renames"
	}
	return "modifies"
}
