package load

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/source"
	"github.com/r35157/journal-lint/rules"
)

// A load can take unchanged artifacts from an earlier load of the same root
// (Options.Prior) instead of listing, reading, parsing and ingesting them
// again, so that a caller who loads the same tree again and again with
// small changes, such as an editor's language server checking an unsaved
// buffer (Overlay), pays for what changed. The result is the one a
// load from scratch would give, as long as what the caller vouches for
// holds:
//
//   - Prior is a Result of Load for the same root with the same Examples,
//     without Base and without DropDocs (otherwise it is ignored).
//   - Without Rescan, the directories are not listed again and their files
//     are not looked at: the caller answers for the tree on disk being as
//     Prior read it, apart from the artifact directories in which the
//     source lists an editor's buffer (source.Overlay) now or did in
//     Prior's load, which are always looked at and read again; and the
//     whole tree is listed again when the buffers add to the root's own
//     listing now or did in Prior's load (source.Overlay.ListsInRoot),
//     or when Prior could not list the root.
//   - With Rescan, the whole tree is listed again, and an artifact
//     directory is taken over only when it holds the same files with the
//     same stat stamps (readfile.Stamp: size, modification time and mode,
//     on Linux also device, inode and change time) as Prior recorded
//     for them when it read them (a buffer has none, so it is read
//     again, and so is the file it stood in for). A file rewritten
//     within the file system's timestamp granularity with the same size
//     goes unnoticed.
//
// An artifact taken over keeps Prior's documents, diagnostics and chain,
// and Options.Visit sees it with Artifact.Prior set to its index there.
// Every file read records the stat stamp of the bytes it read (at no
// system call of its own) for a later Rescan, whose walk then lstats every
// file to compare.

// listing is what the walk found: the diagnostics of the root's own
// entries and the listing of each artifact directory, in name order.
type listing struct {
	rootDiags diag.List
	dirs      []dirListing
}

// dirListing is the listing of one artifact directory (listDir).
type dirListing struct {
	name    string
	cands   []candidate
	diags   diag.List
	skipped int
}

// flat returns every candidate sorted by directory and then
// chronologically by stem, every diagnostic of the listing, and how many
// examples it skipped.
func (l *listing) flat() ([]candidate, diag.List, int) {
	n := 0
	for _, d := range l.dirs {
		n += len(d.cands)
	}
	cands := make([]candidate, 0, n)
	ds := slices.Clone(l.rootDiags)
	skipped := 0
	for _, d := range l.dirs {
		cands = append(cands, d.cands...)
		ds = append(ds, d.diags...)
		skipped += d.skipped
	}
	sortCandidates(cands)
	return cands, ds, skipped
}

// reusableLoad reports whether a load with opts can serve a later one as
// its Options.Prior: one without Base that keeps its documents.
func reusableLoad(opts Options) bool { return opts.Base == nil && !opts.DropDocs }

// reusable is what a Result keeps for a later load that takes it as
// Options.Prior.
type reusable struct {
	examples bool
	listing  *listing
	// arts are the artifacts by directory name.
	arts map[string]priorArtifact
	// overlaid are the artifact directories in which the source listed an
	// editor's buffer, and inRoot says that it listed one in the root's
	// own listing (source.Overlay.ListsInRoot).
	overlaid map[string]bool
	inRoot   bool
}

// priorArtifact is one artifact of an earlier load: its index there, its
// run (with its chain stage) and its files.
type priorArtifact struct {
	index int
	run   *artifactRun
	files []*File
}

// priorOf returns what opts.Prior offers for reuse, or nil when it cannot
// serve.
func priorOf(opts Options) *reusable {
	p := opts.Prior
	if p == nil || p.reuse == nil || p.reuse.examples != opts.Examples || opts.Base != nil || opts.DropDocs {
		return nil
	}
	return p.reuse
}

// overlayDirs returns the artifact directories in which src lists an
// editor's buffers (source.Overlay).
func overlayDirs(src source.Source) map[string]bool {
	out := map[string]bool{}
	if o, ok := src.(*source.Overlay); ok {
		for _, dir := range o.Dirs() {
			out[dir] = true
		}
	}
	return out
}

// rootUnlisted reports whether prior's load could not list the root.
func (p *reusable) rootUnlisted() bool {
	return slices.ContainsFunc(p.listing.rootDiags, func(d diag.Diagnostic) bool { return d.Code == rules.FSRootUnreadable })
}

// listsInRoot reports whether src lists an editor's buffer in the root's
// own listing (source.Overlay.ListsInRoot).
func listsInRoot(src source.Source) bool {
	o, ok := src.(*source.Overlay)
	return ok && o.ListsInRoot()
}

// touched reports whether the source listed an editor's buffer in the
// artifact directory dir in prior's load (overlaid) or lists one now
// (now).
func (p *reusable) touched(dir string, now map[string]bool) bool {
	return now[dir] || p.overlaid[dir]
}

// list lists the tree: from scratch without a prior load, with Rescan,
// when the source's buffers add to the root's own listing now or did in
// prior's load (source.Overlay.ListsInRoot), or when prior could not list
// the root; else prior's listing with the touched directories looked at
// again: listed, or left out where the source holds no directory (a
// buffer closed in a directory that only it made; a buffer in a directory
// that is a file or a link on disk, which only the walk reports). A walk
// stops listing once ctx is cancelled, and the listing is then partial.
func list(ctx context.Context, shown string, opts Options, prior *reusable) *listing {
	// The walk stats the files only for a load that compares stamps.
	stat := (prior != nil && opts.Rescan) || comparesStamps(opts)
	if prior == nil || opts.Rescan || listsInRoot(opts.Source) || prior.inRoot || prior.rootUnlisted() {
		// A buffer that adds to the root's own listing, now or in
		// prior's load (whose listing holds the root's diagnostics),
		// lists the tree again too, and so does a root prior's load
		// could not list (it listed no directory to take over).
		return walk(ctx, opts.Source, shown, opts.Examples, stat)
	}
	now := overlayDirs(opts.Source)
	l := &listing{rootDiags: prior.listing.rootDiags, dirs: make([]dirListing, 0, len(prior.listing.dirs)+len(now))}
	// relist lists dir again where the source holds a directory there
	// (never through a link, which the walk reports and does not enter),
	// or cannot tell (listDir then reports why); false where it holds
	// none.
	relist := func(dir string) bool {
		mode, err := opts.Source.Stat(dir)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && !mode.IsDir()) {
			return false
		}
		l.dirs = append(l.dirs, listDir(opts.Source, dir, opts.Examples, stat))
		return true
	}
	seen := map[string]bool{}
	for _, d := range prior.listing.dirs {
		seen[d.name] = true
		if !prior.touched(d.name, now) {
			l.dirs = append(l.dirs, d)
		} else {
			relist(d.name)
		}
	}
	added := false
	for dir := range now {
		if !seen[dir] && relist(dir) {
			added = true
		}
	}
	if added {
		slices.SortFunc(l.dirs, func(a, b dirListing) int { return strings.Compare(a.name, b.name) })
	}
	return l
}

// reuseArtifacts takes over from prior every artifact that is unchanged
// (see above): it fills its files, restages its chain, counts it and
// visits it. It returns the indexes of the candidates that must be read.
func reuseArtifacts(prior *reusable, opts Options, cands []candidate, files []*File, arts []*artifactRun) []int {
	todo := make([]int, 0, len(cands))
	now := overlayDirs(opts.Source)
	for ai, a := range arts {
		if prior != nil && !prior.touched(cands[a.lo].dir(), now) {
			if pa, ok := prior.arts[cands[a.lo].dir()]; ok && sameFiles(pa.files, cands[a.lo:a.hi], opts.Rescan) {
				takeOver(ai, len(arts), a, pa, cands[a.lo].dir(), files[a.lo:a.hi], opts)
				continue
			}
		}
		for i := a.lo; i < a.hi; i++ {
			todo = append(todo, i)
		}
	}
	return todo
}

// sameFiles reports whether the prior files are the candidates, and with
// rescan also whether each has the stat stamp recorded.
func sameFiles(prior []*File, cands []candidate, rescan bool) bool {
	if len(prior) != len(cands) {
		return false
	}
	for i, f := range prior {
		if f.Path != cands[i].rel || (rescan && !sameStat(f.stat, cands[i].stat)) {
			return false
		}
	}
	return true
}

// takeOver makes the prior artifact pa the artifact a of this load (index
// ai): copies of its files without the diagnostics of a pending rejection
// (resolvePending gives them again, as the rest of the tree may have
// changed), its chain restaged, and a visit.
func takeOver(ai, total int, a *artifactRun, pa priorArtifact, dir string, fs []*File, opts Options) {
	for i, f := range pa.files {
		nf := *f
		if f.pending != nil {
			nf.Diagnostics = f.Diagnostics[:f.own:f.own]
		}
		fs[i] = &nf
	}
	if pa.run.cs != nil {
		a.cs = pa.run.cs.Restage()
	}
	a.accepted = pa.run.accepted
	a.pending.Store(0)
	if opts.Visit != nil {
		art := &Artifact{Index: ai, Of: total, Dir: dir, Files: fs, Prior: pa.index}
		if a.cs != nil {
			art.Chain = a.cs.Entries()
		}
		opts.Visit(art)
	}
}

// keepForReuse returns what a later load may take over from this one, or
// nil when it cannot serve as Options.Prior.
func keepForReuse(opts Options, l *listing, cands []candidate, arts []*artifactRun, files []*File) *reusable {
	if !reusableLoad(opts) {
		return nil
	}
	r := &reusable{examples: opts.Examples, listing: l, arts: make(map[string]priorArtifact, len(arts)), overlaid: overlayDirs(opts.Source), inRoot: listsInRoot(opts.Source)}
	for i, a := range arts {
		r.arts[cands[a.lo].dir()] = priorArtifact{index: i, run: a, files: files[a.lo:a.hi]}
	}
	return r
}
