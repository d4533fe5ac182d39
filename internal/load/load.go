// Package load is the one validation path of journal-lint (architecture
// "One validation path"): it walks a Journal root, checks placement, reads
// and parses every file, and ingests each artifact's revisions in
// chronological order into a chain stage. It always collects every
// diagnostic; the service manager publishes the result only when it has no
// validity diagnostic, and the linter reports all of them.
//
// It follows the filesystem layout of format spec §7 and the requirement
// "Filesystem-backed lifecycle loading". It never creates, writes or deletes
// anything: files are opened read-only and only regular files are opened.
package load

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// MaxSize is the largest Journal file in bytes (format spec §2: 16 MiB).
const MaxSize = 16 << 20

// Suffixes of runtime Journal files and of example files (format spec §7).
const (
	Suffix        = ".journal"
	ExampleSuffix = ".journal.example"
)

// Options tune a load. The zero value loads runtime files onto an empty state.
type Options struct {
	// Examples loads <timestamp>.journal.example files as Journals too.
	Examples bool
	// Base is the previously accepted state (refresh); nil means empty. An
	// accepted revision whose file is gone is reported as fs/revision-missing.
	Base *chain.State
	// Workers is the number of files read and parsed in parallel; 0 means
	// GOMAXPROCS.
	Workers int
	// Overlay maps root-relative paths (forward slashes) to bytes that stand
	// in for the file on disk, such as an editor's unsaved buffer: the file
	// is checked with these bytes, and a path that is not on disk is loaded
	// as if it were (when its placement is that of a Journal). Nil reads
	// only the disk.
	Overlay map[string][]byte
}

// File is one Journal file that was read.
type File struct {
	// Path is root-relative with forward slashes.
	Path string
	// Doc is the parsed document; nil when the file could not be read.
	Doc *syntax.Document
	// Outcome says whether the chain accepted it.
	Outcome chain.Outcome
	// Diagnostics are this file's own diagnostics (placement, parse, chain).
	Diagnostics diag.List
}

// Result is everything one load found.
type Result struct {
	// Root is the absolute root that was loaded.
	Root string
	// State holds every revision that was accepted, Base included. Publish
	// it only when [Result.Valid] is true.
	State *chain.State
	// Files lists every Journal file read, sorted by path.
	Files []*File
	// Diagnostics lists every diagnostic, sorted (diag.List.Sort).
	Diagnostics diag.List
	// SkippedExamples counts the <timestamp>.journal.example files that were
	// not loaded because Options.Examples was off.
	SkippedExamples int
}

// Valid reports whether the load found no validity diagnostic (format spec
// §8 categories) of severity error: exactly when the manager may publish.
func (r *Result) Valid() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error && diag.IsValidity(d.Code) {
			return false
		}
	}
	return true
}

// Load loads the tree under root (an absolute, clean path) as opts say. It
// returns an error only when ctx is cancelled; every problem with the data
// is a diagnostic in the result.
func Load(ctx context.Context, root string, opts Options) (*Result, error) {
	base := opts.Base
	if base == nil {
		base = chain.Empty()
	}
	res := &Result{Root: root, State: base, Files: []*File{}}
	var out diag.List
	if d, ok := checkRoot(root); !ok {
		res.Diagnostics = diag.List{d}
		return res, nil
	}
	cands, wd, skipped := walk(root, opts.Examples)
	res.SkippedExamples = skipped
	out = append(out, wd...)
	cands = addOverlay(cands, opts.Overlay, opts.Examples)

	files := make([]*File, len(cands))
	if err := readAll(ctx, root, cands, files, opts.Workers, opts.Overlay); err != nil {
		return nil, err
	}
	res.Files = files
	stage := chain.NewStage(base)
	ingest(files, stage)
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		seen[f.Path] = true
		out = append(out, f.Diagnostics...)
	}
	if opts.Base != nil {
		out = append(out, vanished(opts.Base, seen)...)
	}
	res.State = stage.Freeze()
	out.Sort()
	res.Diagnostics = out
	return res, nil
}

func checkRoot(root string) (diag.Diagnostic, bool) {
	fi, err := os.Stat(root)
	switch {
	case err != nil && os.IsNotExist(err):
		return diag.Diagnostic{Code: diag.RootMissing, Severity: diag.Error, Message: fmt.Sprintf("journal root %s does not exist", root),
			Help: "point at an existing directory; the root is never created"}, false
	case err != nil:
		return diag.Diagnostic{Code: diag.RootUnreadable, Severity: diag.Error, Message: fmt.Sprintf("journal root %s cannot be read: %v", root, unwrapPath(err))}, false
	case !fi.IsDir():
		return diag.Diagnostic{Code: diag.RootNotDirectory, Severity: diag.Error, Message: fmt.Sprintf("journal root %s is not a directory", root)}, false
	}
	return diag.Diagnostic{}, true
}

// unwrapPath drops the path from *fs.PathError so messages name it once.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// candidate is a file that looks like a Journal by its placement.
type candidate struct {
	rel string // root-relative, forward slashes
	dir string // artifact directory name
	// stem is the file name without its suffix.
	stem string
}

// walk lists the root per format spec §7 and returns the candidate files
// sorted by directory and then chronologically by stem, a diagnostic for
// every unexpected entry, and how many examples it skipped.
func walk(root string, examples bool) (_ []candidate, _ diag.List, skipped int) {
	var ds diag.List
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, diag.List{{Code: diag.RootUnreadable, Severity: diag.Error, Message: fmt.Sprintf("journal root %s cannot be listed: %v", root, unwrapPath(err))}}, 0
	}
	var out []candidate
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsDir() {
			ds = append(ds, unexpected(name, e.Type(), "only artifact directories belong directly in the root"))
			continue
		}
		if _, err := vt.ParseCoordinate(name); err != nil {
			ds = append(ds, unexpected(name, e.Type(), "a directory in the root must be named after an artifact coordinate"))
			continue
		}
		sub, err := os.ReadDir(filepath.Join(root, name))
		if err != nil {
			ds = append(ds, diag.Diagnostic{Code: diag.UnreadableFile, Severity: diag.Error, Path: name,
				Message: fmt.Sprintf("artifact directory cannot be listed: %v", unwrapPath(err))})
			continue
		}
		for _, f := range sub {
			fname := f.Name()
			rel := name + "/" + fname
			stem, isExample, ok := journalName(fname)
			switch {
			case !ok:
				ds = append(ds, unexpected(rel, f.Type(), "an artifact directory holds only <timestamp>.journal files and <timestamp>.journal.example examples"))
				continue
			case !f.Type().IsRegular():
				ds = append(ds, unexpected(rel, f.Type(), "a Journal must be a regular file"))
				continue
			}
			if _, err := vt.ParseTimestamp(stem); err != nil {
				if isExample && !examples {
					ds = append(ds, unexpected(rel, f.Type(), "an example must be named <timestamp>.journal.example"))
					continue
				}
				ds = append(ds, diag.Diagnostic{Code: diag.BadFilename, Severity: diag.Error, Path: rel,
					Message: fmt.Sprintf("file name stem %q is not a strict timestamp YYYYMMDDTHHMMSSZ", stem),
					Help:    "name the file after its JOURNAL_VERSION, e.g. 20260110T080000Z.journal"})
				continue
			}
			if isExample && !examples {
				skipped++ // format spec §7: examples are never loaded as runtime Journals
				continue
			}
			out = append(out, candidate{rel: rel, dir: name, stem: stem})
		}
	}
	sortCandidates(out)
	return out, ds, skipped
}

// sortCandidates sorts by directory and then chronologically by stem.
func sortCandidates(cs []candidate) {
	slices.SortFunc(cs, func(a, b candidate) int {
		if c := strings.Compare(a.dir, b.dir); c != 0 {
			return c
		}
		if c := strings.Compare(a.stem, b.stem); c != 0 {
			return c
		}
		return strings.Compare(a.rel, b.rel)
	})
}

// addOverlay adds the overlay paths that the walk did not find on disk and
// that are placed like a Journal (<coordinate>/<timestamp>.journal, or
// .journal.example when examples load), keeping cands sorted.
func addOverlay(cands []candidate, overlay map[string][]byte, examples bool) []candidate {
	if len(overlay) == 0 {
		return cands
	}
	found := make(map[string]bool, len(cands))
	for _, c := range cands {
		found[c.rel] = true
	}
	added := false
	for rel := range overlay {
		dir, name, ok := strings.Cut(rel, "/")
		if found[rel] || !ok || strings.Contains(name, "/") {
			continue
		}
		stem, isExample, ok := journalName(name)
		if !ok || (isExample && !examples) {
			continue
		}
		if _, err := vt.ParseCoordinate(dir); err != nil {
			continue
		}
		if _, err := vt.ParseTimestamp(stem); err != nil {
			continue
		}
		cands = append(cands, candidate{rel: rel, dir: dir, stem: stem})
		added = true
	}
	if added {
		sortCandidates(cands)
	}
	return cands
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

func unexpected(rel string, mode fs.FileMode, why string) diag.Diagnostic {
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
	return diag.Diagnostic{Code: diag.UnexpectedEntry, Severity: diag.Error, Path: rel,
		Message: fmt.Sprintf("unexpected %s in the journal tree", kind),
		Help:    why + " (format spec §7: <root>/<coordinate>/<timestamp>.journal)"}
}

// readAll reads and parses every candidate with a pool of workers.
func readAll(ctx context.Context, root string, cands []candidate, files []*File, workers int, overlay map[string][]byte) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				files[i] = readOne(root, cands[i], overlay)
			}
		}()
	}
	var err error
	for i := range cands {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return err
}

func readOne(root string, c candidate, overlay map[string][]byte) *File {
	f := &File{Path: c.rel}
	var data []byte
	var d diag.Diagnostic
	ok := true
	if buf, over := overlay[c.rel]; over {
		data = buf
		if len(buf) > MaxSize {
			d, ok = diag.Diagnostic{Code: diag.TooLarge, Severity: diag.Error, Path: c.rel,
				Message: tooLargeMessage(int64(len(buf)))}, false
		}
	} else {
		data, d, ok = readFile(filepath.Join(root, filepath.FromSlash(c.rel)), c.rel)
	}
	if !ok {
		f.Diagnostics = diag.List{d}
		return f
	}
	doc, ds := syntax.Parse(c.rel, data)
	f.Doc = doc
	f.Diagnostics = append(ds, placement(doc, c)...)
	return f
}

// readHook is a test seam, always nil outside tests: when set, it runs at
// the named point of readFile ("open": before the file is opened; "read":
// after its bytes were read, before they are checked against the file), so
// a test can make a file vanish or change at exactly that moment.
var readHook func(point, abs string)

// readFile reads one regular file completely, refusing more than MaxSize
// bytes, and reports a file that changed or vanished while it was read.
func readFile(abs, rel string) ([]byte, diag.Diagnostic, bool) {
	fail := func(code, msg string) ([]byte, diag.Diagnostic, bool) {
		return nil, diag.Diagnostic{Code: code, Severity: diag.Error, Path: rel, Message: msg}, false
	}
	if readHook != nil {
		readHook("open", abs)
	}
	fh, err := openReadOnly(abs)
	if err != nil {
		if os.IsNotExist(err) {
			return fail(diag.UnreadableFile, "file vanished while the tree was being loaded")
		}
		return fail(diag.UnreadableFile, fmt.Sprintf("cannot open file: %v", unwrapPath(err)))
	}
	defer fh.Close()
	before, err := fh.Stat()
	if err != nil {
		return fail(diag.UnreadableFile, fmt.Sprintf("cannot stat file: %v", unwrapPath(err)))
	}
	if !before.Mode().IsRegular() {
		return fail(diag.UnexpectedEntry, "not a regular file (it changed while the tree was being loaded)")
	}
	if before.Size() > MaxSize {
		return fail(diag.TooLarge, tooLargeMessage(before.Size()))
	}
	data, err := readSized(io.LimitReader(fh, MaxSize+1), before.Size())
	if err != nil {
		return fail(diag.UnreadableFile, fmt.Sprintf("cannot read file: %v", unwrapPath(err)))
	}
	if readHook != nil {
		readHook("read", abs)
	}
	if len(data) > MaxSize {
		return fail(diag.TooLarge, fmt.Sprintf("file grew past %d bytes (16 MiB) while being read", MaxSize))
	}
	after, err := os.Lstat(abs)
	if err != nil || !os.SameFile(before, after) || after.Size() != int64(len(data)) || !after.ModTime().Equal(before.ModTime()) {
		return fail(diag.UnreadableFile, "file changed or vanished while being read; load again when writers are done")
	}
	return data, diag.Diagnostic{}, true
}

// tooLargeMessage is the message of fs/too-large for a file of size bytes.
func tooLargeMessage(size int64) string {
	return fmt.Sprintf("file is %d bytes; a Journal may have at most %d (16 MiB)", size, MaxSize)
}

// readSized reads r to EOF like io.ReadAll, into a buffer allocated for size
// bytes plus one (so that reaching EOF needs no growth): the Document keeps
// these bytes, so they should not carry io.ReadAll's growth slack. It grows
// as needed when r holds more than size bytes.
func readSized(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, max(size, 0)+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				return b, nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// placement checks the directory and file name against the parsed identity
// (format spec §7).
func placement(doc *syntax.Document, c candidate) diag.List {
	var ds diag.List
	if doc.CoordinateOK && doc.Coordinate.String() != c.dir {
		ds = append(ds, diag.Diagnostic{Code: diag.DirectoryMismatch, Severity: diag.Error, Path: c.rel,
			Range:   argRange(doc.Header.Artifact),
			Message: fmt.Sprintf("ARTIFACT %s does not match its directory %s", doc.Coordinate, c.dir),
			Help:    fmt.Sprintf("move the file to %s/ or correct ARTIFACT", doc.Coordinate)})
	}
	if doc.JournalVersionOK && doc.JournalVersion.String() != c.stem {
		ds = append(ds, diag.Diagnostic{Code: diag.FilenameMismatch, Severity: diag.Error, Path: c.rel,
			Range:   argRange(doc.Header.JournalVersion),
			Message: fmt.Sprintf("JOURNAL_VERSION %s does not match the file name stem %s", doc.JournalVersion, c.stem),
			Help:    fmt.Sprintf("rename the file to %s%s or correct JOURNAL_VERSION", doc.JournalVersion, strings.TrimPrefix(c.rel[strings.LastIndex(c.rel, "/")+1:], c.stem))})
	}
	return ds
}

func argRange(d *syntax.Directive) diag.Range {
	if d == nil {
		return diag.Range{}
	}
	if len(d.Args) > 0 {
		return diag.Range{Start: d.Args[0].Range.Start, End: d.Args[len(d.Args)-1].Range.End}
	}
	return d.Range
}

// ingest feeds every valid, well-placed file to the stage, artifact by
// artifact in chronological order (files are already sorted that way).
func ingest(files []*File, stage *chain.Stage) {
	type where struct {
		coordinate vt.Coordinate
		path       string
	}
	tree := make(map[vt.Digest]where, len(files))
	for _, f := range files {
		if f.Doc != nil && f.Doc.CoordinateOK {
			if _, dup := tree[f.Doc.Digest]; !dup {
				tree[f.Doc.Digest] = where{f.Doc.Coordinate, f.Path}
			}
		}
	}
	rejected := map[vt.Digest]vt.Coordinate{}
	link := chain.Link{
		Elsewhere: func(d vt.Digest) (vt.Coordinate, string, bool) {
			w, ok := tree[d]
			return w.coordinate, w.path, ok
		},
	}
	for _, f := range files {
		if f.Doc == nil {
			continue
		}
		if f.Diagnostics.HasErrors() || !f.Doc.RevisionOK {
			if f.Doc.CoordinateOK {
				rejected[f.Doc.Digest] = f.Doc.Coordinate
			}
			continue
		}
		c := f.Doc.Coordinate
		link.Bridge = func(d vt.Digest) bool { rc, ok := rejected[d]; return ok && rc == c }
		_, outcome, ds := stage.Ingest(f.Doc, link)
		f.Outcome = outcome
		f.Diagnostics = append(f.Diagnostics, ds...)
		if outcome == chain.Rejected {
			rejected[f.Doc.Digest] = c
		}
	}
}

// vanished reports every accepted revision of base whose file was not found.
func vanished(base *chain.State, seen map[string]bool) diag.List {
	var ds diag.List
	for _, c := range base.Coordinates() {
		for _, e := range base.Entries(c) {
			if !seen[e.Source] {
				ds = append(ds, diag.Diagnostic{Code: diag.RevisionMissing, Severity: diag.Error, Path: e.Source,
					Message: fmt.Sprintf("accepted revision %s of %s has vanished", e.Revision.JournalVersion(), c),
					Help:    "accepted revisions are immutable and must stay; restore the file with its exact bytes"})
			}
		}
	}
	return ds
}
