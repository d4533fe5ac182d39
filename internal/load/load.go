// Package load is the one validation path of journal-lint (architecture
// "One validation path"): it walks a Journal root, checks placement, reads
// and parses every file, and ingests each artifact's revisions in
// chronological order into a chain stage. It always collects every
// diagnostic; the service manager publishes the result only when it has no
// validity diagnostic, and the linter reports all of them.
//
// It follows "Filesystem layout" in docs/journal-format.md and the requirement
// "Filesystem-backed lifecycle loading". It never creates, writes or deletes
// anything: files are opened read-only and only regular files are opened.
package load

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/par"
	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/internal/source"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// Suffixes of runtime Journal files and of example files ("Filesystem layout"
// in docs/journal-format.md).
const (
	Suffix        = ".journal"
	ExampleSuffix = ".journal.example"
)

// Options tune a load. The zero value loads runtime files onto an empty
// state and keeps every parsed document in the result.
type Options struct {
	// Examples loads <timestamp>.journal.example files as Journals too.
	Examples bool
	// Base is the previously accepted state (refresh); nil means empty. An
	// accepted revision whose file is gone is reported as fs/revision-missing.
	Base *chain.State
	// Workers is the number of files read and parsed in parallel; 0 means
	// GOMAXPROCS.
	Workers int
	// Visit, when set, is called once for every artifact directory that
	// holds Journal files, as soon as all of them were read, parsed, placed
	// and ingested into the artifact's chain. Calls for different artifacts
	// run concurrently on the worker goroutines, in no fixed order; Visit
	// must only read the Artifact.
	Visit func(*Artifact)
	// DropDocs frees each file's parsed document and text once its
	// artifact was visited: [File.Doc] is then nil in the result, and
	// [Result.Source] and [Result.Doc] read the file again when asked.
	// Unless KeepState is set too, Result.State then stays Base: the
	// accepted revisions are only counted (Result.Chains,
	// Result.Revisions). It bounds memory by the artifacts in flight
	// instead of the tree, for a load that checks.
	DropDocs bool
	// KeepState, with DropDocs, still gathers the accepted revisions into
	// Result.State: only the documents go, so that the peak memory of a
	// load for the query service is its state plus the artifacts in
	// flight, not every parsed document.
	KeepState bool
	// Recycle, with DropDocs, is asked after each artifact's visit whether
	// its dropped documents' memory may go back to the parser
	// (syntax.Recycle), so that the next files reuse it: it may say yes
	// only for a Visit that keeps nothing of the documents it saw (no
	// Directive, Arg or ReleaseBlock, nor the documents themselves) past
	// its return. Asking after the visit lets a Visit that learns what it
	// keeps only while the load runs (a check's rule packs, which start
	// alongside it) decide in time. Nil never recycles.
	Recycle func() bool
	// Progress, when set, is told how far the reading got (a progress line
	// on a terminal). Nil reports nothing.
	Progress Progress
	// Prior and Rescan let a load take unchanged artifacts from an
	// earlier one instead of reading them again (reuse.go), for a caller
	// that loads the same root again and again, such as an editor's
	// language server. Any load without Base that keeps its documents
	// (not DropDocs) can serve as a later one's Prior.
	Prior  *Result
	Rescan bool
	// Compact makes the revisions of the state hold copies of their
	// strings, shared among the revisions of an artifact with their equal
	// releases, instead of substrings of their whole texts
	// (model.Revision.Compact): for a state that outlives the load (the
	// query service). The documents in the result keep their text.
	Compact bool
	// Stamp records in [Result.Stamps] a stat stamp of every file the
	// load accepted without an error (stamp.go), for a later load's
	// Stamped. A file's stamp comes from the file as it was read; only a
	// load with Stamped (and Base) lstats every file in the walk.
	Stamp bool
	// Stamped, with Base, are the stamps of the load that made Base (or of
	// one whose state Base extends, with every file of those stamps in it):
	// a file whose stamp is unchanged is taken to hold the bytes Base
	// accepted and is not read (stamp.go). Result.Files, Result.Artifacts,
	// Options.Visit and Options.Progress then see only the files that were
	// read, and Result.Diagnostics has no diagnostic of the others (they had
	// no error). Without Base it is ignored.
	Stamped *Stamps
	// Source is where the tree's bytes come from; nil reads the disk under
	// the root given to [Load] (source.Disk). Rescan, Stamp and Stamped
	// compare stat stamps, which only the disk has (source.Disk, and a
	// source.Overlay over it for every file but its buffers).
	Source source.Source
	// Memo, when set, gives back what an earlier run found of an artifact
	// directory with the same [Key], which is then neither read (when the
	// source knows its files' content addresses, source.Addresser, or
	// vouches for them, source.Voucher) nor
	// parsed nor ingested (record.go). Options.Visit sees such an
	// artifact with Artifact.Record set and no documents, and with
	// KeepState, Result.State holds only the artifacts that were read
	// (Result.Chains and Result.Revisions still count all). It is used
	// only by a load that drops its documents, without Base or Prior.
	Memo Memo
	// ShownRoot is how the messages about the root itself (fs/root-missing,
	// fs/root-not-directory, fs/root-unreadable) name it, such as its output
	// path; "" names it as given to [Load].
	ShownRoot string
}

// Progress follows a load as it reads files. Read is called concurrently
// from the worker goroutines once per file, on the hot path: it must be
// cheap and safe for concurrent use (an atomic add, not a lock or a
// channel send).
type Progress interface {
	// Total is called once, after the walk and before any Read, with the
	// number of Journal files the load is about to read.
	Total(files int)
	// Read is called after each file was read and parsed, with its size in
	// bytes (0 when it could not be read).
	Read(bytes int64)
}

// File is one Journal file that was read.
type File struct {
	// Path is root-relative with forward slashes.
	Path string
	// Doc is the parsed document; nil when the file could not be read, or
	// after its artifact was visited when Options.DropDocs is set.
	Doc *syntax.Document
	// Summary holds the identity of the text, kept when Doc is dropped.
	Summary Summary
	// Diagnostics are this file's own diagnostics (placement, parse, chain).
	Diagnostics diag.List
	// Outcome says whether the chain accepted it.
	Outcome chain.Outcome

	// (A File is kept for every file of a tree: the small fields share one
	// word.)

	// recent says that the file's times were recent when it was read
	// (readfile.Recent), so that its stat stamp is not recorded.
	recent bool
	// own is the number of Diagnostics before the pending rejection's
	// (resolvePending), so that a later load can resolve it anew.
	own     int32
	pending *chain.Pending
	// stat is the stat stamp sum of the bytes read (readfile.ReadStamped),
	// for Options.Stamp and a later load's Options.Rescan (reuse.go); zero
	// for a source without stamps, such as an editor's buffer
	// (source.Overlay).
	stat uint64
}

// Summary is the identity of one Journal text (its header, "The header" in
// docs/journal-format.md, and its digest, "The revision digest" in
// docs/journal-format.md): what the chain rules and the git gate need of a
// revision after its document is gone. A field whose OK flag is false did not
// parse.
//
// A Summary is kept for every file of a tree, so it holds only what is
// read of it; a PREDECESSOR that the chain could not place is kept by the
// rejection that waits for it (chain.Pending).
type Summary struct {
	// (The flags sit after the digest, where they fill what would be
	// padding.)

	// Digest is the SHA-256 of the exact bytes.
	Digest vt.Digest
	// Read reports whether the file's bytes were read and parsed at all.
	Read                           bool
	CoordinateOK, JournalVersionOK bool
	// RevisionOK reports that the text is a valid Journal (no syntax, value
	// or semantic error).
	RevisionOK     bool
	Coordinate     vt.Coordinate
	JournalVersion vt.JournalVersion
	// Size is the number of bytes of the text.
	Size int
}

// summarize returns the summary of doc, found in the artifact directory
// dir. Its coordinate shares no memory with the document's text, so the
// summary does not keep the text alive.
func summarize(doc *syntax.Document, dir string) Summary {
	var c vt.Coordinate
	if doc.CoordinateOK {
		s := doc.Coordinate.String()
		if s == dir {
			s = dir
		} else {
			s = strings.Clone(s)
		}
		c, _ = vt.ParseCoordinate(s)
	}
	return Summary{Read: true, Digest: doc.Digest,
		Coordinate: c, CoordinateOK: doc.CoordinateOK,
		JournalVersion: doc.JournalVersion, JournalVersionOK: doc.JournalVersionOK,
		RevisionOK: doc.RevisionOK, Size: len(doc.Src)}
}

// Artifact is what Options.Visit sees of one artifact directory.
type Artifact struct {
	// Index is the position of the artifact among the visited ones in
	// directory order, from 0: stable across runs, so visitors can store
	// per-artifact results by it and combine them in a fixed order.
	Index int
	// Of is the number of artifacts the load visits (every Index is
	// below it), so that a visitor can size its storage once.
	Of int
	// Dir is the directory name (the coordinate as written).
	Dir string
	// Files are the directory's Journal files in chronological order, with
	// their documents and their placement, parse and chain diagnostics (a
	// rejection whose cause lies in another artifact gets its diagnostic
	// later, in the result only).
	Files []*File
	// Chain lists the accepted revisions of the artifact after this load,
	// genesis first, Base's included.
	Chain []chain.Entry
	// Prior is the Index of this artifact in Options.Prior's load when it
	// was taken from there unchanged (its files and chain are the same and
	// were not read again), else -1.
	Prior int
	// Key identifies the artifact's inputs (record.go) for a load with
	// Options.Memo; the zero Key when it has none (a file could not be
	// read, or its bytes are not those a source.Voucher vouched for), and
	// then nothing of it may be kept under a key.
	Key Key
	// Record is the record Options.Memo gave back for Key, whose files
	// are Files (without documents; Chain is nil), or nil when the
	// artifact was read.
	Record *Record
}

// Result is everything one load found.
type Result struct {
	// Root is the absolute root that was loaded.
	Root string
	// State holds every revision that was accepted, Base included. Publish
	// it only when [Result.Valid] is true.
	State *chain.State
	// Files lists every Journal file read, by artifact directory and then
	// chronologically.
	Files []*File
	// Diagnostics lists every diagnostic, sorted (diag.List.Sort).
	Diagnostics diag.List
	// SkippedExamples counts the <timestamp>.journal.example files that were
	// not loaded because Options.Examples was off.
	SkippedExamples int
	// Artifacts counts the artifact directories that hold Journal files.
	Artifacts int
	// Stamps are the stamps of this load's accepted files with
	// Options.Stamp; nil without it.
	Stamps *Stamps
	// Chains and Revisions count the chains with an accepted revision and
	// the accepted revisions after the load, Base included (with
	// Options.DropDocs, Base's chains of directories that are gone are
	// not counted).
	Chains, Revisions int

	// sorted says that Files are in the order of sortCandidates, as a
	// load leaves them: File searches them.
	sorted bool
	src    source.Source // Options.Source, or the disk
	// reuse is what a later load with this one as Options.Prior takes
	// over; nil when this load cannot serve as one.
	reuse *reusable

	mu   sync.Mutex
	last struct { // the text Source read again last, by path
		path string
		src  []byte
	}
	lastDoc struct { // the document Doc parsed again last, by path
		path string
		doc  *syntax.Document
	}
}

// File returns the file at root-relative path, or nil when it was not read.
// The files of a load are sorted as its candidates are (sortCandidates),
// so it searches them by halves. It is safe for concurrent use.
func (r *Result) File(path string) *File {
	if i, ok := r.fileIndex(path); ok {
		return r.Files[i]
	}
	return nil
}

// fileIndex returns the position of the file at path in r.Files.
func (r *Result) fileIndex(path string) (int, bool) {
	if !r.sorted { // a Result not made by Load
		i := slices.IndexFunc(r.Files, func(f *File) bool { return f.Path == path })
		return i, i >= 0
	}
	return slices.BinarySearchFunc(r.Files, candidate{rel: path}, func(f *File, key candidate) int {
		return compareCandidates(candidate{rel: f.Path}, key)
	})
}

// Predecessor returns the accepted revision (chain.Appended) that comes
// last before the file at path in its artifact directory, in the order of
// Files (chronological): the predecessor of an accepted revision, since a
// chain is linear. Nil when there is none, or path was not read. It is
// safe for concurrent use.
func (r *Result) Predecessor(path string) *File {
	i, ok := r.fileIndex(path)
	if !ok {
		return nil
	}
	dir, _, _ := strings.Cut(path, "/")
	for j := i - 1; j >= 0; j-- {
		f := r.Files[j]
		if d, _, _ := strings.Cut(f.Path, "/"); d != dir {
			return nil
		}
		if f.Outcome == chain.Appended {
			return f
		}
	}
	return nil
}

// Doc returns the parsed document of the file at root-relative path, or nil
// when the file was not read. When the load dropped documents
// (Options.DropDocs), the text from [Result.Source] is parsed again: nil
// when the file no longer holds the bytes that were loaded. Consecutive
// calls for one path parse it once and return the same document, which
// callers must not change. It is safe for concurrent use.
func (r *Result) Doc(path string) *syntax.Document {
	f := r.File(path)
	if f == nil {
		return nil
	}
	if f.Doc != nil {
		return f.Doc
	}
	r.mu.Lock()
	if r.lastDoc.path == path {
		defer r.mu.Unlock()
		return r.lastDoc.doc
	}
	r.mu.Unlock()
	src := r.Source(path)
	if src == nil {
		return nil
	}
	doc, _ := syntax.Parse(f.Path, src)
	r.mu.Lock()
	r.lastDoc.path, r.lastDoc.doc = path, doc
	r.mu.Unlock()
	return doc
}

// Source returns the exact bytes of the file at root-relative path that
// the load read, or nil when it read none. When the load dropped the
// document (Options.DropDocs), the file is read again from the source and
// its bytes are returned only when their SHA-256 is still the digest the
// load saw: nil when the file changed since. Consecutive calls for one
// path read it once (diagnostics come sorted by path). It is safe for
// concurrent use, and calls on several goroutines read their files in
// parallel.
func (r *Result) Source(path string) []byte {
	f := r.File(path)
	switch {
	case f == nil || !f.Summary.Read:
		return nil
	case f.Doc != nil:
		return f.Doc.Src
	}
	r.mu.Lock()
	if r.last.path == path {
		defer r.mu.Unlock()
		return r.last.src
	}
	r.mu.Unlock()
	// Read without the lock, so that callers on several goroutines read
	// several files at once.
	src := r.src.ReadAgain(path, f.Summary.Digest)
	r.mu.Lock()
	r.last.path, r.last.src = path, src
	r.mu.Unlock()
	return src
}

// Valid reports whether the load found no validity diagnostic (the categories
// of "Diagnostic codes" in docs/journal-format.md) of severity error: exactly
// when the manager may publish.
func (r *Result) Valid() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error && rules.IsValidity(d.Code) {
			return false
		}
	}
	return true
}

// Load loads the tree under root (an absolute, clean path) as opts say. It
// returns an error only when ctx is cancelled; every problem with the data
// is a diagnostic in the result.
//
// Files are read and parsed by a pool of workers; each artifact's files are
// then ingested in chronological order into the artifact's own chain stage
// (chain.Stage.Chain) and visited, so that artifacts proceed independently.
// A PREDECESSOR that names no revision of its own artifact is resolved once
// every file was read (chain.Pending), which keeps chain/cross-artifact
// independent of the order artifacts finish in.
func Load(ctx context.Context, root string, opts Options) (*Result, error) {
	base := opts.Base
	if base == nil {
		base = chain.Empty()
	}
	if opts.Source == nil {
		opts.Source = diskSource(root)
	}
	res := &Result{Root: root, State: base, Files: []*File{}, src: opts.Source}
	var out diag.List
	if d, ok := checkRoot(opts.Source, opts.shownRoot(root)); !ok {
		res.Diagnostics = diag.List{d}
		return res, nil
	}
	prior := priorOf(opts)
	l := list(ctx, opts.shownRoot(root), opts, prior)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cands, wd, skipped := l.flat()
	if !reusableLoad(opts) {
		l = nil // only a later load's Prior reads it: 0.3 KB per file, let it go
	}
	res.SkippedExamples = skipped
	out = append(out, wd...)
	cands, stamps := splitStamped(opts, cands)

	stage := chain.NewStage(base)
	arts := artifacts(cands)
	files := make([]*File, len(cands))
	todo := reuseArtifacts(prior, opts, cands, files, arts)
	if memoized(opts) {
		todo = memoPass(ctx, cands, files, arts, opts)
	}
	if opts.Progress != nil {
		opts.Progress.Total(len(todo))
	}
	if err := readAll(ctx, cands, todo, files, arts, stage, opts); err != nil {
		return nil, err
	}
	res.Files = files
	res.Artifacts = len(arts)
	res.sorted = true
	for _, a := range arts {
		if a.cs != nil {
			stage.Merge(a.cs)
		}
	}
	resolvePending(files, arts, base, wd)
	for _, f := range files {
		out = append(out, f.Diagnostics...)
	}
	if opts.Base != nil {
		seen := make(map[string]bool, len(files)+stamps.same)
		for _, f := range files {
			seen[f.Path] = true
		}
		stamps.markSeen(seen)
		out = append(out, vanished(opts.Base, seen)...)
	}
	if opts.KeepState || !opts.DropDocs {
		res.State = stage.Freeze()
	}
	if opts.DropDocs && (!opts.KeepState || memoized(opts)) {
		// The state holds no artifact taken from a record: count them all.
		for _, a := range arts {
			if a.accepted > 0 {
				res.Chains++
				res.Revisions += a.accepted
			}
		}
	} else {
		res.Chains, res.Revisions = res.State.Artifacts(), res.State.RevisionCount()
	}
	out.FillFileRanges()
	out.Sort()
	res.Diagnostics = out
	res.reuse = keepForReuse(opts, l, cands, arts, files)
	res.Stamps = stamps.next(cands, files)
	return res, nil
}

// shownRoot is how messages name root: o.ShownRoot, else root as given.
func (o Options) shownRoot(root string) string {
	if o.ShownRoot != "" {
		return o.ShownRoot
	}
	return root
}

// checkRoot reports a root that is missing, unreadable or not a directory,
// naming it shown in the message.
func checkRoot(src source.Source, shown string) (diag.Diagnostic, bool) {
	mode, err := src.Stat("")
	switch {
	case err != nil && os.IsNotExist(err):
		return diag.Diagnostic{Code: rules.FSRootMissing, Severity: diag.Error, Message: fmt.Sprintf("journal root %s does not exist", shown),
			Help: "point at an existing directory; the root is never created"}, false
	case err != nil:
		return diag.Diagnostic{Code: rules.FSRootUnreadable, Severity: diag.Error, Message: fmt.Sprintf("journal root %s cannot be read: %v", shown, readfile.PathCause(err))}, false
	case !mode.IsDir():
		return diag.Diagnostic{Code: rules.FSRootNotDirectory, Severity: diag.Error, Message: fmt.Sprintf("journal root %s is not a directory", shown)}, false
	}
	return diag.Diagnostic{}, true
}

// candidate is a file that looks like a Journal by its placement.
// A load keeps one for every file of the tree while it reads them, so it
// holds only the path; its parts are slices of it.
type candidate struct {
	rel string // root-relative, forward slashes: <dir>/<stem><suffix>
	// stat is the file's stat stamp sum when the walk recorded it, to compare
	// with an earlier one (Options.Rescan, Options.Stamped).
	stat uint64
}

// dir returns the artifact directory name of c.
func (c candidate) dir() string {
	dir, _, _ := strings.Cut(c.rel, "/")
	return dir
}

// stem returns the file name of c without its suffix.
func (c candidate) stem() string {
	_, name, _ := strings.Cut(c.rel, "/")
	stem, _, _ := journalName(name)
	return stem
}

// rootFiles are the repository files that may stand directly in the root as
// regular files and are never read as Journals (since revision 1.1 of the
// format specification, "Filesystem layout" in docs/journal-format.md):
// .gitkeep, so that an empty root can be committed, and .gitattributes, so
// that the -text rule for Journals can live next to them. Anywhere else, or as
// anything but a regular file, they are unexpected entries.
var rootFiles = map[string]bool{".gitkeep": true, ".gitattributes": true}

// walk lists the root as "Filesystem layout" in docs/journal-format.md
// says: a diagnostic for every unexpected entry directly in it, and the
// listing of each artifact directory (listDir), in name order. It lists
// no more artifact directories once ctx is cancelled.
func walk(ctx context.Context, src source.Source, shown string, examples, stat bool) *listing {
	l := &listing{}
	entries, err := src.ReadDir("", false)
	if err != nil {
		l.rootDiags = diag.List{{Code: rules.FSRootUnreadable, Severity: diag.Error, Message: fmt.Sprintf("journal root %s cannot be listed: %v", shown, readfile.PathCause(err))}}
		return l
	}
	for _, e := range entries {
		name := e.Name
		if rootFiles[name] && e.Type.IsRegular() {
			continue
		}
		if !e.Type.IsDir() {
			l.rootDiags = append(l.rootDiags, UnexpectedEntry(name, e.Type, "only artifact directories (and the regular files .gitkeep and .gitattributes) belong directly in the root"))
			continue
		}
		if _, err := vt.ParseCoordinate(name); err != nil {
			d := UnexpectedEntry(name, e.Type, "a directory in the root must be named after an artifact coordinate")
			if rootFiles[name] {
				d.Help = "only the regular files .gitkeep and .gitattributes may stand in the root under these names"
			} else {
				d.Message = fmt.Sprintf("unexpected directory: %s is not an artifact coordinate: %s", safetext.Quote(name), whyRejected(name, err))
			}
			l.rootDiags = append(l.rootDiags, d)
			continue
		}
		l.dirs = append(l.dirs, dirListing{name: name})
	}
	// The artifact directories are listed in parallel, each into its own
	// slot: listing is system calls, and the reads start only after it.
	par.For(len(l.dirs), 0, func(i int) {
		if ctx.Err() == nil {
			l.dirs[i] = listDir(src, l.dirs[i].name, examples, stat)
		}
	})
	return l
}

// listDir lists the artifact directory name of root ("Filesystem layout" in
// docs/journal-format.md): its
// candidate files sorted chronologically by stem (with their stat stamps
// when stat is set), a diagnostic for every unexpected
// entry, and how many examples it skipped.
func listDir(src source.Source, name string, examples, stat bool) dirListing {
	dl := dirListing{name: name}
	sub, err := src.ReadDir(name, stat)
	if err != nil {
		dl.diags = diag.List{{Code: rules.FSUnreadableFile, Severity: diag.Error, Path: name,
			Message: fmt.Sprintf("artifact directory cannot be listed: %v", readfile.PathCause(err))}}
		return dl
	}
	var names []string // the file names of dl.cands
	for _, f := range sub {
		fname := f.Name
		rel := func() string { return name + "/" + fname } // for diagnostics only
		stem, isExample, ok := journalName(fname)
		switch {
		case !ok:
			d := UnexpectedEntry(rel(), f.Type, "an artifact directory holds only <timestamp>.journal files and <timestamp>.journal.example examples")
			if why := nearJournalName(fname); why != "" && f.Type.IsRegular() {
				d.Message = fmt.Sprintf("unexpected file: %s is not a Journal name: %s", safetext.Quote(fname), why)
			}
			dl.diags = append(dl.diags, d)
			continue
		case !f.Type.IsRegular():
			dl.diags = append(dl.diags, UnexpectedEntry(rel(), f.Type, "a Journal must be a regular file"))
			continue
		}
		if _, err := vt.ParseTimestamp(stem); err != nil {
			if isExample && !examples {
				dl.diags = append(dl.diags, UnexpectedEntry(rel(), f.Type, "an example must be named <timestamp>.journal.example"))
				continue
			}
			dl.diags = append(dl.diags, diag.Diagnostic{Code: rules.FSBadFilename, Severity: diag.Error, Path: rel(),
				Message: fmt.Sprintf("file name %s: the stem is not a strict timestamp YYYYMMDDTHHMMSSZ: %s", safetext.Quote(fname), whyRejected(stem, err)),
				Help:    "name the file after its JOURNAL_VERSION, e.g. 20260110T080000Z.journal"})
			continue
		}
		if isExample && !examples {
			dl.skipped++ // examples are never runtime Journals ("Filesystem layout" in docs/journal-format.md)
			continue
		}
		dl.cands = append(dl.cands, candidate{stat: f.Stat})
		names = append(names, fname)
	}
	packPaths(dl.cands, name, names)
	sortCandidates(dl.cands)
	return dl
}

// packPaths sets the path of each candidate cs[i] of the artifact
// directory dir, named names[i]. The paths are slices of one string: a
// path is kept for every file of a tree, and one allocation per directory
// packs them densely instead of scattering small strings among the
// garbage of the walk.
func packPaths(cs []candidate, dir string, names []string) {
	n := 0
	for _, name := range names {
		n += len(dir) + 1 + len(name)
	}
	var b strings.Builder
	b.Grow(n)
	for _, name := range names {
		b.WriteString(dir)
		b.WriteByte('/')
		b.WriteString(name)
	}
	all, off := b.String(), 0
	for i, name := range names {
		rel := all[off : off+len(dir)+1+len(name)]
		off += len(rel)
		cs[i].rel = rel
	}
}

// sortCandidates sorts by directory and then chronologically by stem.
func sortCandidates(cs []candidate) { slices.SortFunc(cs, compareCandidates) }

// compareCandidates orders candidates by directory, then chronologically
// by stem, then by path. Every candidate's stem is a timestamp of 16 bytes
// (listDir), so within one directory the order of the stems is
// that of the paths.
func compareCandidates(a, b candidate) int {
	if c := strings.Compare(a.dir(), b.dir()); c != 0 {
		return c
	}
	return strings.Compare(a.rel, b.rel)
}

// diskSource is the tree on disk under root, the source of a load
// without Options.Source.
func diskSource(root string) source.Source { return &source.Disk{Root: root, Hook: readHook} }

// Overlay returns src, or the disk under root when src is nil, with
// buffers (by root-relative path, forward slashes) standing in for its
// files, such as an editor's unsaved buffers (source.Overlay): the load
// then reports what it would once they are saved. Nil or empty buffers
// return the source itself.
func Overlay(root string, src source.Source, buffers map[string][]byte) source.Source {
	if src == nil {
		src = diskSource(root)
	}
	if len(buffers) == 0 {
		return src
	}
	return source.NewOverlay(src, buffers)
}

// journalName splits a file name into its stem and kind.
func journalName(name string) (stem string, example, ok bool) {
	if s, found := strings.CutSuffix(name, ExampleSuffix); found {
		return s, true, true
	}
	if s, found := strings.CutSuffix(name, Suffix); found {
		return s, false, true
	}
	return "", false, false
}

// UnexpectedEntry returns the fs/unexpected-entry diagnostic of the
// root-relative entry rel of type mode, with why as the reason in its help
// (a symbolic link always gets "symbolic links are never followed").
func UnexpectedEntry(rel string, mode fs.FileMode, why string) diag.Diagnostic {
	kind := "file"
	switch {
	case mode&fs.ModeSymlink != 0:
		kind = "symbolic link"
		why = "symbolic links are never followed"
	case mode.IsDir():
		kind = "directory"
	case mode&fs.ModeNamedPipe != 0:
		kind = "named pipe"
	case mode&fs.ModeSocket != 0:
		kind = "socket"
	case mode&fs.ModeDevice != 0:
		kind = "device"
	}
	return diag.Diagnostic{Code: rules.FSUnexpectedEntry, Severity: diag.Error, Path: rel,
		Message: fmt.Sprintf("unexpected %s in the journal tree", kind),
		Help:    why + " (the layout is <root>/<coordinate>/<timestamp>.journal, see \"Filesystem layout\" in docs/journal-format.md)"}
}

// artifactRun is the progress of one artifact directory through a load:
// the candidates cands[lo:hi], how many of them are still being read, and
// its chain stage once ingested.
type artifactRun struct {
	lo, hi  int
	pending atomic.Int32
	cs      *chain.ChainStage // nil after the visit when documents are dropped
	// accepted counts the chain's revisions after ingestion.
	accepted int
	// deferred says that the artifact's files are read, hashed and kept
	// until all are in, and parsed only when Options.Memo has no record of
	// them (memoRead); key is its Key once known.
	deferred bool
	key      Key
}

// artifacts splits the sorted candidates into their artifact directories.
func artifacts(cands []candidate) []*artifactRun {
	var out []*artifactRun
	for lo := 0; lo < len(cands); {
		hi := lo + 1
		for hi < len(cands) && cands[hi].dir() == cands[lo].dir() {
			hi++
		}
		a := &artifactRun{lo: lo, hi: hi}
		a.pending.Store(int32(hi - lo))
		out = append(out, a)
		lo = hi
	}
	return out
}

// readAll reads and parses the candidates todo (indexes into cands) on
// opts.Workers goroutines (package par, which raises a worker's panic on
// the caller's), and finishes each artifact (ingestion and Options.Visit)
// on the worker that read its last file. A source that streams
// (source.Streamer) reads the files in todo's order on one goroutine of its
// own, handing each to the next free worker; one with a local copy
// (source.Local) streams only the files the workers did not find there.
// It reads nothing more once ctx is cancelled, and returns ctx's error, or
// the error of a source that failed while it streamed.
func readAll(ctx context.Context, cands []candidate, todo []int, files []*File, arts []*artifactRun, stage *chain.Stage, opts Options) error {
	owner := make([]int32, len(cands))
	for i, a := range arts {
		for j := a.lo; j < a.hi; j++ {
			owner[j] = int32(i)
		}
	}
	// The files read are one block: a tree's worth of small records
	// allocated one by one would scatter among the parser's short-lived
	// objects and keep their memory from being reused.
	block := make([]File, len(todo))
	var held []heldFile // by candidate, for the deferred artifacts
	for _, a := range arts {
		if a.deferred {
			held = make([]heldFile, len(cands))
			break
		}
	}
	done := func(k int, read source.File, err error) {
		i := todo[k]
		ai := int(owner[i])
		a := arts[ai]
		if a.deferred {
			held[i] = heldFile{read, err}
			if opts.Progress != nil {
				opts.Progress.Read(int64(len(read.Data)))
			}
		} else {
			files[i] = &block[k]
			readOne(files[i], cands[i], read, err)
			if opts.Progress != nil {
				opts.Progress.Read(files[i].size())
			}
		}
		if a.pending.Add(-1) == 0 {
			if a.deferred && memoRead(ai, len(arts), a, cands, held, files, opts) {
				return
			}
			finish(ai, len(arts), a, cands, files, stage, opts)
		}
	}
	st, streams := opts.Source.(source.Streamer)
	if !streams {
		par.For(len(todo), opts.Workers, func(k int) {
			if ctx.Err() == nil {
				read, err := opts.Source.ReadFile(cands[todo[k]].rel)
				done(k, read, err)
			}
		})
		return ctx.Err()
	}
	rest := func(lo int) error { // streams todo[lo:]
		ks := make([]int, len(todo)-lo)
		for j := range ks {
			ks[j] = lo + j
		}
		return streamAll(ctx, st, cands, todo, ks, opts, done)
	}
	local, ok := st.(source.Local)
	if !ok {
		return rest(0)
	}
	// The workers read a chunk of files from the local copy, and what it
	// did not give is streamed before the next chunk: an artifact with a
	// file streamed holds its documents for no longer than a chunk takes.
	// Once the copy gives nothing more, the rest is one stream.
	for lo := 0; lo < len(todo); lo += localChunk {
		if !local.HasLocal() {
			return rest(lo)
		}
		var mu sync.Mutex
		var ks []int // the indexes in todo to stream
		par.For(min(localChunk, len(todo)-lo), opts.Workers, func(j int) {
			if ctx.Err() != nil {
				return
			}
			k := lo + j
			rel := cands[todo[k]].rel
			if read, ok := local.ReadLocal(rel); ok {
				done(k, read, nil)
			} else {
				mu.Lock()
				ks = append(ks, k)
				mu.Unlock()
			}
		})
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(ks) > 0 {
			slices.Sort(ks)
			if err := streamAll(ctx, st, cands, todo, ks, opts, done); err != nil {
				return err
			}
		}
	}
	return ctx.Err()
}

// localChunk is the number of files a load reads from a local copy
// (source.Local) before it streams those the copy did not give; a test
// lowers it.
var localChunk = 4096

// streamAll reads the files todo[k] for k in ks (ascending) through st's
// stream on a goroutine of its own, handing each to done(k, ...) on the
// next free of opts.Workers workers. It
// returns ctx's error once ctx is cancelled, else the stream's error.
func streamAll(ctx context.Context, st source.Streamer, cands []candidate, todo, ks []int, opts Options, done func(k int, read source.File, err error)) error {
	type item struct {
		k    int
		read source.File
		err  error
	}
	items := make(chan item, max(opts.Workers, runtime.GOMAXPROCS(0)))
	stop := make(chan struct{})
	var streamErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(items)
		var rels []string
		var at []int // the index in todo of each of rels
		for _, k := range ks {
			rels, at = append(rels, cands[todo[k]].rel), append(at, k)
		}
		streamErr = st.Stream(ctx, rels, func(j int, read source.File, err error) bool {
			select {
			case items <- item{at[j], read, err}:
				return true
			case <-stop:
				return false
			}
		})
	}()
	// Once the workers are done, or one panicked, the stream stops.
	shutdown := sync.OnceFunc(func() {
		close(stop)
		wg.Wait()
	})
	defer shutdown()
	par.For(len(ks), opts.Workers, func(int) {
		if it, ok := <-items; ok {
			done(it.k, it.read, it.err)
		}
	})
	shutdown()
	if err := ctx.Err(); err != nil {
		return err
	}
	return streamErr
}

// size is the number of bytes of f that were read: 0 when it could not be.
func (f *File) size() int64 {
	if f.Doc == nil {
		return 0
	}
	return int64(len(f.Doc.Src))
}

// readOne parses the candidate c, read as read (or not, err), into f.
func readOne(f *File, c candidate, read source.File, err error) {
	*f = File{Path: c.rel}
	if err != nil {
		f.Diagnostics = diag.List{readDiagnostic(c.rel, err)}
		return
	}
	f.stat, f.recent = read.Stamp, read.Recent
	doc, ds := syntax.Parse(c.rel, read.Data)
	f.Doc = doc
	f.Summary = summarize(doc, c.dir())
	f.Diagnostics = append(ds, placement(doc, c)...)
}

// compactors are the model.Compactors of the artifacts being finished,
// reused so that each artifact does not grow its own maps.
var compactors = sync.Pool{New: func() any { return new(model.Compactor) }}

// finish ingests the files of the artifact a (all read) in chronological
// order into its own chain stage, visits it, and drops its documents when
// asked to. Files that are invalid, misplaced or rejected make a later
// revision naming them a bridged link (chain.Link.Bridge).
func finish(index, total int, a *artifactRun, cands []candidate, files []*File, stage *chain.Stage, opts Options) {
	fs := files[a.lo:a.hi]
	dir := cands[a.lo].dir()
	if c, err := vt.ParseCoordinate(dir); err == nil {
		a.cs = stage.Chain(c)
		// Room for its files up front, not for a hostile directory's
		// thousands, which grow as usual.
		a.cs.Reserve(min(len(fs), 64))
	}
	rejected := map[vt.Digest]string{} // digest → the rejected file's path
	bridge := func(d vt.Digest) (string, bool) { p, ok := rejected[d]; return p, ok }
	var compactor *model.Compactor // what the artifact's compacted revisions share
	for _, f := range fs {
		doc := f.Doc
		if doc == nil || a.cs == nil {
			continue
		}
		if f.Diagnostics.HasErrors() || !doc.RevisionOK {
			if doc.CoordinateOK && doc.Coordinate.String() == dir {
				rejected[doc.Digest] = f.Path
			}
			continue
		}
		if opts.Compact {
			if compactor == nil {
				compactor = compactors.Get().(*model.Compactor)
				defer func() { compactor.Reset(); compactors.Put(compactor) }()
			}
			doc.Revision = doc.Revision.Compact(compactor)
		}
		_, outcome, ds, p := a.cs.Ingest(doc, bridge)
		f.Outcome = outcome
		f.Diagnostics = append(f.Diagnostics, ds...)
		f.pending = p
		if outcome == chain.Rejected {
			rejected[doc.Digest] = f.Path
		}
	}
	if opts.Visit != nil {
		keepVouched(a, cands, fs, opts)
		art := &Artifact{Index: index, Of: total, Dir: dir, Files: fs, Prior: -1, Key: a.key}
		if a.cs != nil {
			art.Chain = a.cs.Entries()
		}
		opts.Visit(art)
	}
	if a.cs != nil {
		a.accepted = len(a.cs.Entries())
	}
	if opts.DropDocs {
		if !opts.KeepState {
			a.cs = nil
		}
		recycle := opts.Recycle != nil && opts.Recycle()
		for _, f := range fs {
			if recycle && f.Doc != nil {
				syntax.Recycle(f.Doc)
			}
			f.Doc = nil
		}
	}
}

// resolvePending gives every revision rejected for a PREDECESSOR outside
// its own chain its diagnostic, now that every file was read: the digest
// of an accepted revision of another artifact (of the base, or of an
// artifact directory that sorts before this one, as a one-by-one
// ingestion in directory order would have seen it) or of any other file
// of the tree makes chain/cross-artifact, else chain/missing-predecessor.
//
// A PREDECESSOR that names no revision of another artifact is explained by
// the files of its own artifact when one of them has the digest but is no
// revision to follow, or could not be read (a read failure, or an entry
// named like a Journal that is no regular file among the walk's
// diagnostics wd): see chain.Pending.Explain.
func resolvePending(files []*File, arts []*artifactRun, base *chain.State, wd diag.List) {
	type where struct {
		coordinate vt.Coordinate
		path       string
		artifact   int
	}
	var waiting []*File
	for _, f := range files {
		if f.pending != nil {
			waiting = append(waiting, f)
		}
	}
	if len(waiting) == 0 {
		return
	}
	// elsewhere holds the first file, in path order, of each digest whose
	// ARTIFACT parsed; accepted the artifact index of each revision
	// accepted by this load.
	elsewhere := make(map[vt.Digest]where, len(files))
	accepted := make(map[vt.Digest]where, len(files))
	for ai, a := range arts {
		for _, f := range files[a.lo:a.hi] {
			w := where{f.Summary.Coordinate, f.Path, ai}
			if f.Summary.CoordinateOK {
				if _, dup := elsewhere[f.Summary.Digest]; !dup {
					elsewhere[f.Summary.Digest] = w
				}
			}
			if f.Outcome == chain.Appended {
				accepted[f.Summary.Digest] = w
			}
		}
	}
	artOf := make(map[*File]int, len(waiting))
	for ai, a := range arts {
		for _, f := range files[a.lo:a.hi] {
			if f.pending != nil {
				artOf[f] = ai
			}
		}
	}
	var unread map[string][]*File // built on first use
	for _, f := range waiting {
		ai := artOf[f]
		owner := func(d vt.Digest) (vt.Coordinate, string, bool) {
			if e, ok := base.ByDigest(d); ok {
				return e.Revision.Coordinate(), e.Source, true
			}
			if w, ok := accepted[d]; ok && w.artifact < ai {
				return w.coordinate, w.path, true
			}
			if w, ok := elsewhere[d]; ok {
				return w.coordinate, w.path, true
			}
			return vt.Coordinate{}, "", false
		}
		f.own = int32(len(f.Diagnostics))
		if oc, _, ok := owner(f.pending.Predecessor()); !ok || oc == f.Summary.Coordinate {
			a := arts[ai]
			if unread == nil {
				unread = unreadEntries(wd)
			}
			if n, ok := namedFile(append(files[a.lo:a.hi:a.hi], unread[ArtifactDir(f.Path)]...), f); ok {
				f.Diagnostics = append(f.Diagnostics, f.pending.Explain(n)...)
				continue
			}
		}
		f.Diagnostics = append(f.Diagnostics, f.pending.Resolve(owner)...)
	}
}

// namedFile finds the file of f's own artifact (its files fs) that f's
// PREDECESSOR names although the chain did not know it as a revision to
// follow, and says why: it is invalid, not earlier than f, or rejected by
// the chain rules. Without a file of that digest, a file that could not be
// read may be the named one. It reports false when neither exists.
func namedFile(fs []*File, f *File) (chain.Named, bool) {
	pred := f.pending.Predecessor()
	var unread *File
	for _, g := range fs {
		if g == f {
			continue
		}
		if !g.Summary.Read {
			if unread == nil {
				unread = g
			}
			continue
		}
		if g.Summary.Digest != pred {
			continue
		}
		if first, ok := firstOwnError(g); ok || !g.Summary.RevisionOK {
			return chain.Named{Path: g.Path, Why: chain.Invalid, Detail: first}, true
		}
		if g.Summary.JournalVersionOK && f.Summary.JournalVersionOK && g.Summary.JournalVersion.Compare(f.Summary.JournalVersion) >= 0 {
			return chain.Named{Path: g.Path, Why: chain.NotEarlier, Detail: g.Summary.JournalVersion.String()}, true
		}
		if g.Outcome == chain.Rejected {
			return chain.Named{Path: g.Path, Why: chain.ChainRejected}, true
		}
	}
	if unread != nil {
		detail, _ := firstOwnError(unread)
		return chain.Named{Path: unread.Path, Why: chain.Unread, Detail: detail}, true
	}
	return chain.Named{}, false
}

// unreadEntries returns, by artifact directory, the entries named like a
// Journal that are no regular file (fs/unexpected-entry among wd), as
// files that were not read.
func unreadEntries(wd diag.List) map[string][]*File {
	out := map[string][]*File{}
	for _, d := range wd {
		if dir, name, ok := strings.Cut(d.Path, "/"); ok && d.Code == rules.FSUnexpectedEntry && strings.HasSuffix(name, Suffix) {
			out[dir] = append(out[dir], &File{Path: d.Path, Diagnostics: diag.List{d}})
		}
	}
	return out
}

// ArtifactDir returns the artifact directory of the root-relative path p
// of a Journal file: its first segment, which names the coordinate
// (<root>/<coordinate>/<timestamp>.journal, "Filesystem layout" in
// docs/journal-format.md); p itself when it has no slash.
func ArtifactDir(p string) string {
	dir, _, _ := strings.Cut(p, "/")
	return dir
}

// firstOwnError returns the first error of f that is not a chain
// diagnostic, as "message [code]", and whether there is one.
func firstOwnError(f *File) (string, bool) {
	for _, d := range f.Diagnostics {
		if d.Severity == diag.Error && rules.Category(d.Code) != "chain" {
			return d.Message + " [" + d.Code + "]", true
		}
	}
	return "", false
}

// readHook is a test seam, always nil outside tests: the disk source's
// Hook (source.Disk.Hook) when a load reads the disk.
var readHook func(point, abs string)

// readDiagnostic turns the error of reading the file rel from a source
// (source.Source.ReadFile) into its diagnostic.
func readDiagnostic(rel string, err error) diag.Diagnostic {
	fail := func(code, msg string) diag.Diagnostic {
		return diag.Diagnostic{Code: code, Severity: diag.Error, Path: rel, Message: msg}
	}
	var tl *readfile.TooLargeError
	switch {
	case errors.As(err, &tl) && !tl.Grew:
		return fail(rules.FSTooLarge, tooLargeMessage(tl.Size))
	case errors.As(err, &tl):
		return fail(rules.FSTooLarge, fmt.Sprintf("file grew past %d bytes (16 MiB) while being read", syntax.MaxSize))
	case errors.Is(err, readfile.ErrNotRegular):
		return fail(rules.FSUnexpectedEntry, "not a regular file (it changed while the tree was being loaded)")
	case errors.Is(err, readfile.ErrChanged):
		return fail(rules.FSChangedDuringRead, fmt.Sprintf("file changed while being read, %d times in a row; load again when writers are done", readfile.Attempts))
	case errors.Is(err, fs.ErrNotExist):
		return fail(rules.FSUnreadableFile, "file vanished while the tree was being loaded")
	}
	return fail(rules.FSUnreadableFile, fmt.Sprintf("cannot read file: %v", readfile.PathCause(err)))
}

// tooLargeMessage is the message of fs/too-large for a file of size bytes.
func tooLargeMessage(size int64) string {
	return fmt.Sprintf("file is %d bytes; a Journal may have at most %d (16 MiB)", size, syntax.MaxSize)
}

// placement checks the directory and file name against the parsed identity
// ("Filesystem layout" in docs/journal-format.md).
func placement(doc *syntax.Document, c candidate) diag.List {
	var ds diag.List
	if doc.CoordinateOK && doc.Coordinate.String() != c.dir() {
		help := fmt.Sprintf("move the file to %s/ (an accepted revision's text never changes)", doc.Coordinate)
		if _, err := vt.ParseCoordinate(c.dir()); err == nil {
			help = fmt.Sprintf("in a draft, correct ARTIFACT to %s; else %s", c.dir(), help)
		}
		ds = append(ds, diag.Diagnostic{Code: rules.FSDirectoryMismatch, Severity: diag.Error, Path: c.rel,
			Range:   doc.Header.Artifact.ArgsRange(),
			Message: fmt.Sprintf("ARTIFACT %s does not match its directory %s", doc.Coordinate, c.dir()),
			Help:    help})
	}
	if doc.JournalVersionOK && doc.JournalVersion.String() != c.stem() {
		ds = append(ds, diag.Diagnostic{Code: rules.FSFilenameMismatch, Severity: diag.Error, Path: c.rel,
			Range:   doc.Header.JournalVersion.ArgsRange(),
			Message: fmt.Sprintf("JOURNAL_VERSION %s does not match the file name stem %s", doc.JournalVersion, c.stem()),
			Help:    fmt.Sprintf("rename the file to %s%s or correct JOURNAL_VERSION", doc.JournalVersion, strings.TrimPrefix(c.rel[strings.LastIndex(c.rel, "/")+1:], c.stem()))})
	}
	return ds
}

// vanished reports every accepted revision of base whose file was not found.
func vanished(base *chain.State, seen map[string]bool) diag.List {
	var ds diag.List
	for e := range base.All() {
		if !seen[e.Source] {
			ds = append(ds, diag.Diagnostic{Code: rules.FSRevisionMissing, Severity: diag.Error, Path: e.Source,
				Message: fmt.Sprintf("accepted revision %s of %s has vanished", e.Revision.JournalVersion(), e.Revision.Coordinate()),
				Help:    "accepted revisions are immutable and must stay; restore the file with its exact bytes"})
		}
	}
	return ds
}
