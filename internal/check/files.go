package check

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	// Names, when set, is how the report names the files: Name gives the
	// path of each file of Paths (as given) relative to the absolute
	// directory Base, with forward slashes, and of the configuration file
	// (its absolute path), so that the command line follows the rule of
	// package outpath; the configuration's ignore entries match those
	// paths. Nil names each file as given, relative to the working
	// directory, and matches that.
	Names *Names
	// Config is the effective configuration; nil means config.Default().
	Config *config.Config
	// Now is the current time for time rules; zero means time.Now().
	Now time.Time
	// Overlay maps paths of Paths, as given, to texts that stand in for
	// the files on disk (an editor's unsaved buffer).
	Overlay map[string][]byte
}

// Names names the drafts of [RunFiles] (FilesOptions.Names).
type Names struct {
	// Base is the absolute directory the names are relative to, its
	// symbolic links resolved.
	Base string
	// Name returns the name of the file at p.
	Name func(p string) string
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
	for _, p := range opts.Paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		shown := filepath.ToSlash(filepath.Clean(p))
		if opts.Names != nil {
			shown = opts.Names.Name(p)
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
	// The drafts' paths are relative to the names' base, else as given,
	// relative to the working directory.
	var rootRel string
	if opts.Names != nil {
		rootRel = resolvedRootRel(cfg, opts.Names.Base)
	} else {
		wd, _ := os.Getwd()
		rootRel = cfg.RootRel(wd)
	}
	out, unused := config.Apply(cfg, rootRel, all)
	unusedDiags := config.UnusedIgnoreDiagnostics(cfg, rootRel, unused)
	if opts.Names != nil {
		for i := range unusedDiags {
			unusedDiags[i].Path = opts.Names.Name(unusedDiags[i].Path)
		}
	}
	out = append(out, unusedDiags...)
	out.Sort()
	return &Result{Diagnostics: out, Files: len(docs), run: &run{sources: sources}}, nil
}

// resolvedRootRel is cfg.RootRel of the directory base, whose symbolic
// links are resolved, from the configuration file's directory with its
// links resolved too: the file may have been found through a link.
func resolvedRootRel(cfg *config.Config, base string) string {
	if cfg == nil || cfg.File == "" {
		return ""
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(cfg.File))
	if err != nil {
		return cfg.RootRel(base)
	}
	rel, err := filepath.Rel(dir, base)
	if err != nil {
		return cfg.RootRel(base)
	}
	if rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
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
