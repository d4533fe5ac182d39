package check

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/rules"

	"github.com/r35157/journal-lint/internal/readfile"
)

// FilesOptions configure [RunFiles].
type FilesOptions struct {
	// Paths are the files to check, as given (absolute, or relative to
	// the working directory; a path that Overlay holds, such as "-" for
	// standard input, need not exist).
	Paths []string
	// Locate, when set, gives the absolute path of the file at p (a path
	// of Paths as given), its directory's symbolic links resolved, and
	// whether it could: not for standard input ("", named as given), nor
	// for a path through a directory that does not exist (the path made
	// absolute as written, named as written from Base when under it);
	// the report then names each file relative to Base, with forward
	// slashes, and the configuration's ignore entries match the files'
	// paths relative to its directory. Nil names each file as given,
	// relative to the working directory, and matches that.
	Locate func(p string) (string, bool)
	// Base is the absolute directory, its symbolic links resolved, that
	// the report names the files from, with Locate: the command line
	// follows the rule of package outpath.
	Base string
	// Config is the effective configuration; nil means config.Default().
	Config *config.Config
	// Now is the current time for time rules; zero means time.Now().
	Now time.Time
	// Overlay maps paths of Paths, as given, to texts that stand in for
	// the files on disk (an editor's unsaved buffer).
	Overlay map[string][]byte
}

// RunFiles checks Journal texts on their own, outside a tree (drafts): the
// validity of each text (syntax, values, semantic rules) and the lint rules
// that look at one document. What needs the tree is skipped: placement
// (file and directory names), chain rules (PREDECESSOR, order, forks), the
// deps/ rules, history, the git gate and rule packs. Configuration applies
// as in [Run]. A file that cannot be read, or is larger than 16 MiB, is a
// diagnostic; only a cancelled ctx is an error.
func RunFiles(ctx context.Context, opts FilesOptions) (*Result, error) {
	cfg := opts.Config
	if cfg == nil {
		cfg = config.Default()
	}
	var all diag.List
	var docs []*syntax.Document
	sources := map[string][]byte{}
	names := newDraftNames(cfg, opts)
	for _, p := range opts.Paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		shown := filepath.ToSlash(filepath.Clean(p))
		if opts.Locate != nil {
			shown = names.match(p)
		}
		src, d, ok := readDraft(p, shown, opts.Overlay)
		if !ok {
			all = append(all, d)
			continue
		}
		doc, ds := syntax.Parse(shown, src)
		all = append(all, ds...)
		docs = append(docs, doc)
		sources[shown] = src
	}
	enabled := func(code string) bool {
		_, on := cfg.Severity(code, diag.Warning)
		return on && !headOnly(code)
	}
	rc := lint.RunConfig{Now: opts.Now, Enabled: enabled, Options: ruleOptions(cfg)}
	if err := rc.Validate(); err != nil {
		return nil, fmt.Errorf("rule options: %w", err)
	}
	all = append(all, lint.Run(docs, lint.TreeOf(nil), rc)...)
	// The drafts' paths are relative to the configuration's directory,
	// else as given, relative to the working directory.
	rootRel := ""
	if opts.Locate == nil {
		wd, _ := os.Getwd()
		rootRel = cfg.RootRel(wd)
	}
	out, unused := config.Apply(cfg, rootRel, all)
	unusedDiags := config.UnusedIgnoreDiagnostics(cfg, rootRel, unused)
	if opts.Locate != nil {
		out, sources = names.shown(out, sources)
		for i := range unusedDiags {
			unusedDiags[i].Path = names.cfgShown
		}
	}
	out = append(out, unusedDiags...)
	out.Sort()
	return &Result{Diagnostics: out, Files: len(docs), run: &run{sources: sources}}, nil
}

// draftNames are the two names of each draft of a RunFiles with Locate:
// the one its findings are matched by, relative to the configuration's
// directory (the base without a configuration file), and the one the
// report shows, relative to the base.
type draftNames struct {
	opts   FilesOptions
	cfgDir string
	// show maps match names to the names shown; cfgShown is the name
	// shown of the configuration file.
	show     map[string]string
	cfgShown string
}

func newDraftNames(cfg *config.Config, opts FilesOptions) *draftNames {
	n := &draftNames{opts: opts, cfgDir: opts.Base, show: map[string]string{}}
	if cfg != nil && cfg.File != "" {
		n.cfgDir = filepath.Dir(cfg.File)
		if dir, err := filepath.EvalSymlinks(n.cfgDir); err == nil {
			n.cfgDir = dir
		}
		n.cfgShown = relName(opts.Base, filepath.Join(n.cfgDir, filepath.Base(cfg.File)))
	}
	return n
}

// match returns the name the draft at p is matched by, and records the
// name it is shown by. A file Locate cannot place (standard input, a
// missing directory) has one name for both: as written.
func (n *draftNames) match(p string) string {
	loc, ok := n.opts.Locate(p)
	if !ok {
		name := filepath.ToSlash(p)
		if rest, under := strings.CutPrefix(loc, n.opts.Base+string(filepath.Separator)); under {
			name = filepath.ToSlash(rest) // from the base, as written
		}
		if name == "" {
			name = "."
		}
		n.show[name] = name
		return name
	}
	m := relName(n.cfgDir, loc)
	n.show[m] = relName(n.opts.Base, loc)
	return m
}

// relName is the path of the file at the absolute path loc relative to
// dir, with forward slashes; a file named "-" there is "./-", which
// standard input is not.
func relName(dir, loc string) string {
	rel, err := filepath.Rel(dir, loc)
	if err != nil {
		return filepath.ToSlash(loc)
	}
	if rel = filepath.ToSlash(rel); rel == "-" {
		return "./-"
	}
	return rel
}

// shown returns l with the names shown instead of the match names, in a
// copy of the related locations, and sources by the names shown.
func (n *draftNames) shown(l diag.List, sources map[string][]byte) (diag.List, map[string][]byte) {
	rename := func(p string) string {
		if s, ok := n.show[p]; ok {
			return s
		}
		return p
	}
	for i := range l {
		l[i].Path = rename(l[i].Path)
		if len(l[i].Related) > 0 {
			l[i].Related = slices.Clone(l[i].Related)
			for j := range l[i].Related {
				l[i].Related[j].Path = rename(l[i].Related[j].Path)
			}
		}
	}
	out := make(map[string][]byte, len(sources))
	for p, src := range sources {
		out[rename(p)] = src
	}
	return l, out
}

// readDraft reads the file at p for RunFiles (its text in overlay, if
// any), or returns the diagnostic that says why it cannot be checked.
func readDraft(p, shown string, overlay map[string][]byte) ([]byte, diag.Diagnostic, bool) {
	fail := func(code, msg string) ([]byte, diag.Diagnostic, bool) {
		return nil, diag.Diagnostic{Code: code, Severity: diag.Error, Path: shown, Message: msg}, false
	}
	tooLarge := func(size int64) ([]byte, diag.Diagnostic, bool) {
		return fail(rules.FSTooLarge, fmt.Sprintf("file is %d bytes; a Journal may have at most %d (16 MiB)", size, syntax.MaxSize))
	}
	if src, ok := overlay[p]; ok {
		if len(src) > syntax.MaxSize {
			return tooLarge(int64(len(src)))
		}
		return src, diag.Diagnostic{}, true
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fail(rules.FSUnreadableFile, "no such file")
	case err != nil:
		return fail(rules.FSUnreadableFile, "cannot read the file: "+strings.TrimPrefix(err.Error(), p+": "))
	case fi.IsDir():
		return fail(rules.FSUnreadableFile, "a directory, not a Journal file (check a tree with journal-lint check DIR)")
	case fi.Size() > syntax.MaxSize:
		return tooLarge(fi.Size())
	}
	src, err := readfile.Read(p, readfile.Options{Max: syntax.MaxSize})
	if err != nil {
		return fail(rules.FSUnreadableFile, "cannot read the file: "+err.Error())
	}
	return src, diag.Diagnostic{}, true
}
