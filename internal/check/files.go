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
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/rules"

	"github.com/r35157/journal-lint/internal/readfile"
)

// FilesOptions configure [RunFiles].
type FilesOptions struct {
	// Paths are the files to check, as given (absolute, or relative to
	// the working directory).
	Paths []string
	// Base, when set, is the absolute directory that diagnostics name the
	// files relative to, with forward slashes (outpath.Rel): the command
	// line passes outpath.Base of the working directory, so that paths
	// are repository-relative inside a work tree. "" names each file as
	// given, and so is a path that Overlay holds (such as "-", standard
	// input).
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
	for _, p := range opts.Paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		shown := filepath.ToSlash(filepath.Clean(p))
		if _, over := opts.Overlay[p]; !over && opts.Base != "" {
			if abs, err := filepath.Abs(p); err == nil {
				shown = outpath.Rel(opts.Base, abs)
			}
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
	// The drafts' paths are relative to Base, or as given, relative to
	// the working directory.
	base := opts.Base
	if base == "" {
		base, _ = os.Getwd()
	}
	rootRel := cfg.RootRel(base)
	out, unused := config.Apply(cfg, rootRel, all)
	out = append(out, config.UnusedIgnoreDiagnostics(cfg, rootRel, unused)...)
	out.Sort()
	return &Result{Diagnostics: out, Files: len(docs), run: &run{sources: sources}}, nil
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
