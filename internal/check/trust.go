package check

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/rules"
)

// maxBaseConfig bounds the size of the configuration file read from git.
const maxBaseConfig = 1 << 20

// BasePlugins returns the configuration for `check --against REV`: a copy
// of cfg whose Plugins are the plugins: entries (paths, pins, config,
// timeouts) of the configuration file as it is at the base commit the git
// gate compares with (read from git, never from the work tree), with
// PluginsBase set to that commit and WorkTreePlugins to cfg's own entries.
// A pull request under check can then change which rule packs run only by
// being merged. The tlog: block (config.TLog, the log's key) comes from the
// base commit too: a pull request cannot choose the key its base
// checkpoint is verified with. Everything else of the configuration is the
// work tree's.
// A file that does not exist at the base commit has no packs there. When
// against is "", cfg has no file, or the file lies outside a git work tree
// (it is not part of the change), cfg is returned as it is. Errors are a
// revision that names no commit, git failing, and a base configuration
// that is too large or does not parse.
func BasePlugins(ctx context.Context, cfg *config.Config, against string) (*config.Config, error) {
	if cfg == nil || cfg.File == "" || against == "" {
		return cfg, nil
	}
	repo, err := gitrepo.Open(ctx, filepath.Dir(cfg.File))
	if errors.Is(err, gitrepo.ErrNotRepository) {
		return cfg, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--against: %w", err)
	}
	rel, err := repo.Rel(cfg.File)
	if err != nil {
		return cfg, nil
	}
	commit, err := baseCommit(ctx, repo, against)
	if err != nil {
		return nil, fmt.Errorf("--against: %w", err)
	}
	entries, err := repo.Tree(ctx, commit, rel)
	if err != nil {
		return nil, fmt.Errorf("--against: %w", err)
	}
	var base []config.Plugin
	var baseLog config.TLog
	for _, e := range entries {
		if e.Path != rel || !e.IsRegular() {
			continue
		}
		contents, tooLarge, err := repo.ReadBlobs(ctx, []string{e.Object}, maxBaseConfig)
		if err != nil {
			return nil, fmt.Errorf("--against: %w", err)
		}
		if len(tooLarge) > 0 {
			return nil, fmt.Errorf("%s at the base revision %s is larger than %d bytes", rel, shortCommit(commit), maxBaseConfig)
		}
		bc, err := config.Parse(cfg.File, contents[e.Object])
		if err != nil {
			return nil, fmt.Errorf("%s at the base revision %s (where --against takes the rule packs from): %w", rel, shortCommit(commit), err)
		}
		base, baseLog = bc.Plugins, bc.TLog
	}
	out := *cfg
	out.Plugins = base
	out.PluginsBase = commit
	out.WorkTreePlugins = cfg.Plugins
	out.TLog = baseLog
	return &out, nil
}

// shortCommit returns the first 12 hex digits of a commit name.
func shortCommit(c string) string { return c[:min(len(c), 12)] }

// pluginsChanged returns one config/plugins-changed diagnostic (warning by
// default; the configuration's rules: may change it) per plugins: entry
// that a check against a revision does not run as the work tree writes it:
// an entry the base revision lacks, one that differs from the base
// revision's entry of the same pack (by name, else by path), and one the
// work tree removed (reported on its plugins: key). src is the work tree's
// configuration text, for the ranges; Path is cfg.Source.
func pluginsChanged(cfg *config.Config, src []byte) diag.List {
	if cfg == nil || cfg.PluginsBase == "" {
		return nil
	}
	sev, on := cfg.Severity(rules.ConfigPluginsChanged, diag.Warning)
	if !on {
		return nil
	}
	base := shortCommit(cfg.PluginsBase)
	lines := diag.NewLineIndex(src)
	report := func(pos config.Position, msg string) diag.Diagnostic {
		return diag.Diagnostic{Code: rules.ConfigPluginsChanged, Severity: sev, Message: msg, Path: cfg.Source, Range: lineRange(lines, src, pos),
			Help: "rule packs are code that CI runs: a reviewer must look at this change before it is merged (see docs/ci.md)"}
	}
	var out diag.List
	matched := make([]bool, len(cfg.Plugins))
	for _, w := range cfg.WorkTreePlugins {
		i := samePack(cfg.Plugins, w)
		if i < 0 {
			out = append(out, report(w.Pos, fmt.Sprintf("rule pack %s is not in the configuration at the base revision %s: "+
				"this check does not run it, it takes effect after merge", label(w), base)))
			continue
		}
		matched[i] = true
		if diff := pluginDiff(cfg.Plugins[i], w); diff != "" {
			out = append(out, report(w.Pos, fmt.Sprintf("rule pack %s differs from its entry at the base revision %s (%s): "+
				"this check runs the base revision's entry, the change takes effect after merge", label(w), base, diff)))
		}
	}
	for i, b := range cfg.Plugins {
		if !matched[i] {
			out = append(out, report(cfg.Pos["plugins"], fmt.Sprintf("rule pack %s of the base revision %s is removed: "+
				"this check still runs it, the removal takes effect after merge", label(b), base)))
		}
	}
	return out
}

// samePack returns the index of the entry of list that is the same pack
// as p (config.Plugin.SamePack), or -1.
func samePack(list []config.Plugin, p config.Plugin) int {
	return slices.IndexFunc(list, p.SamePack)
}

// pluginDiff names the keys in which two entries of one pack differ, or "".
func pluginDiff(a, b config.Plugin) string {
	var keys []string
	if a.Path != b.Path {
		keys = append(keys, "path")
	}
	if a.SHA256 != b.SHA256 {
		keys = append(keys, "sha256")
	}
	if !reflect.DeepEqual(a.Config, b.Config) {
		keys = append(keys, "config")
	}
	if a.Timeout != b.Timeout {
		keys = append(keys, "timeout")
	}
	if a.NoCache != b.NoCache {
		keys = append(keys, "cache")
	}
	return strings.Join(keys, ", ")
}

// label names a plugins: entry in messages: its name, else its path.
func label(p config.Plugin) string {
	if p.Name != "" {
		return p.Name
	}
	return p.Path
}

// lineRange returns the range from pos to the end of its line (without
// trailing blanks) in src; the start of the file when pos is unknown.
func lineRange(lines *diag.LineIndex, src []byte, pos config.Position) diag.Range {
	if !pos.IsValid() {
		return diag.Range{}
	}
	start := 0
	for line := 1; line < pos.Line && start < len(src); start++ {
		if src[start] == '\n' {
			line++
		}
	}
	for col := 1; col < pos.Column && start < len(src) && src[start] != '\n'; col++ {
		_, n := utf8.DecodeRune(src[start:])
		start += n
	}
	end := start
	for end < len(src) && src[end] != '\n' {
		end++
	}
	for end > start && (src[end-1] == ' ' || src[end-1] == '\t' || src[end-1] == '\r') {
		end--
	}
	return lines.Range(start, end)
}
