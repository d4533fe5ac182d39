package check

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/rules"
)

// maxBaseConfig bounds the size of the configuration file read from git.
const maxBaseConfig = 1 << 20

// BaseConfig returns the configuration for `check --against REV`: a copy
// of cfg whose rule packs and whose settings that protect accepted
// revisions come from the configuration file as it is at the base commit
// the git gate compares with (read from git, never from the work tree), as
// docs/ci.md ("Trust model") lists them:
//
//   - Plugins are the base's plugins: entries (paths, pins, config,
//     timeouts), and WorkTreePlugins cfg's own;
//   - Root and Examples are the base's;
//   - TLog, the transparency log's block (its key, witnesses and policy),
//     is the base's: a pull request cannot choose the key its base
//     checkpoint is verified with;
//   - the Rules entries of the protected codes ([protectedCode]) are the
//     base's;
//   - an Ignore entry whose code pattern matches a protected code applies
//     only when the base has it too (same code and path patterns), and the
//     base's such entries apply even when the work tree removed them.
//
// Base is set to that commit and GateChanges to every protected setting
// in which cfg differs. A pull request under check can then change these
// only by being merged; everything else of the configuration is the work
// tree's. A file that does not exist at the base commit is the default
// configuration there. When cfg has no file (none was found), the first of
// candidates (config.Candidates: where the search looked, nearest first)
// that the base commit holds is the base's file, deleted in the work tree.
// With staged (a check of the index), a merge under way compares as once
// committed (gitfacts.BaseCommit with gitrepo.Repo.MergeHeads), as the
// check's gate does. When against is "", or the file lies outside a git
// work tree (it is not part of the change), cfg is returned as it is.
// Errors are a revision that names no commit, git failing, and a base
// configuration that is too large or does not parse.
func BaseConfig(ctx context.Context, cfg *config.Config, against string, staged bool, candidates []string) (*config.Config, error) {
	if cfg == nil || against == "" {
		return cfg, nil
	}
	file := cfg.File
	if file == "" {
		if len(candidates) == 0 {
			return cfg, nil
		}
		file = candidates[0]
	}
	repo, err := gitrepo.Open(ctx, filepath.Dir(file))
	if errors.Is(err, gitrepo.ErrNotRepository) {
		return cfg, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--against: %w", err)
	}
	var merged []string // as openGate: a staged merge compares as once committed
	if staged {
		merged = repo.MergeHeads(ctx)
	}
	commit, err := gitfacts.BaseCommit(ctx, repo, against, merged...)
	if err != nil {
		return nil, fmt.Errorf("--against: %w", err)
	}
	if cfg.File != "" {
		candidates = []string{cfg.File}
	}
	for _, cand := range candidates {
		base, found, err := configAt(ctx, repo, commit, cand)
		if err != nil {
			return nil, err
		}
		if !found && cfg.File == "" {
			continue
		}
		if base == nil {
			base = config.Default()
		}
		out := *cfg
		if cfg.File == "" {
			// The work tree deleted the base's file: judged by it still.
			out.File, out.Source = base.File, base.Source
			out.GateChanges = []config.GateChange{{Message: fmt.Sprintf("%s is deleted here and exists at the base revision %s: "+
				"this check uses the base revision's rule packs and settings that protect accepted revisions, the deletion takes effect after merge",
				base.Source, gitfacts.ShortCommit(commit))}}
		}
		out.Plugins = base.Plugins
		out.Base = commit
		out.WorkTreePlugins = cfg.Plugins
		protectSettings(&out, cfg, base)
		return &out, nil
	}
	return cfg, nil
}

// configAt returns the configuration file at path (absolute, inside repo's
// work tree) as it is at commit, and whether the commit holds it as a
// regular file; nil and false for a path outside the work tree or missing
// at the commit. The file is named as written, not where a symbolic link
// in its place leads: a pull request that turns the configuration into a
// link to a file the base does not hold is judged by the base's file
// still.
func configAt(ctx context.Context, repo *gitrepo.Repo, commit, path string) (*config.Config, bool, error) {
	dir, err := repo.Rel(filepath.Dir(path))
	if err != nil {
		return nil, false, nil
	}
	rel := filepath.ToSlash(filepath.Join(filepath.FromSlash(dir), filepath.Base(path)))
	entries, err := repo.Tree(ctx, commit, rel)
	if err != nil {
		return nil, false, fmt.Errorf("--against: %w", err)
	}
	for _, e := range entries {
		if e.Path != rel || !e.IsRegular() {
			continue
		}
		contents, tooLarge, err := repo.ReadBlobs(ctx, []string{e.Object}, maxBaseConfig)
		if err != nil {
			return nil, false, fmt.Errorf("--against: %w", err)
		}
		if len(tooLarge) > 0 {
			return nil, false, fmt.Errorf("%s at the base revision %s is larger than %d bytes", rel, gitfacts.ShortCommit(commit), maxBaseConfig)
		}
		bc, err := config.Parse(path, contents[e.Object])
		if err != nil {
			return nil, false, fmt.Errorf("%s at the base revision %s (where --against takes the rule packs and the gate's settings from): %w", rel, gitfacts.ShortCommit(commit), err)
		}
		bc.Source = rel
		return bc, true, nil
	}
	return nil, false, nil
}

// protectedCode reports whether the severity and the suppressions of code
// come from the base revision's configuration under `check --against`:
// the codes of the append-only gate (rules.Repository: history/revision-*,
// repo/eol-*) and of the configuration itself (rules.Config), which would
// otherwise let a pull request hide its own changes to the others.
func protectedCode(code string) bool {
	k := rules.KindOf(code)
	return k == rules.Repository || k == rules.Config
}

// protectedCodes lists the registered codes for which protectedCode holds.
func protectedCodes() []string {
	var out []string
	for _, r := range rules.All() {
		if protectedCode(r.Code) {
			out = append(out, r.Code)
		}
	}
	return out
}

// protectSettings makes out (a copy of work, the work tree's
// configuration) use base's settings that protect accepted revisions, as
// BaseConfig describes, and appends a GateChange to out for each in which
// work differs.
func protectSettings(out, work, base *config.Config) {
	at := "the base revision " + gitfacts.ShortCommit(out.Base)
	change := func(pos config.Position, format string, args ...any) {
		out.GateChanges = append(out.GateChanges, config.GateChange{Pos: pos,
			Message: fmt.Sprintf(format, args...)})
	}
	if filepath.ToSlash(filepath.Clean(work.Root+"/.")) != filepath.ToSlash(filepath.Clean(base.Root+"/.")) {
		change(work.Pos["root"], "root: is %s here and %s at %s: this check uses the base revision's root, the change takes effect after merge",
			quotedOrUnset(work.Root), quotedOrUnset(base.Root), at)
		out.Root = base.Root
	}
	if work.Examples != base.Examples {
		change(work.Pos["examples"], "examples: is %t here and %t at %s: this check uses the base revision's setting, the change takes effect after merge",
			work.Examples, base.Examples, at)
		out.Examples = base.Examples
	}
	if !sameTLog(work.TLog, base.TLog) {
		change(work.Pos["tlog"], "tlog: differs from the block at %s: this check verifies the log with the base revision's block, the change takes effect after merge", at)
		out.TLog = base.TLog
	}
	out.Rules = maps.Clone(work.Rules)
	codes := slices.Collect(maps.Keys(work.Rules))
	for code := range base.Rules {
		if _, ok := work.Rules[code]; !ok {
			codes = append(codes, code)
		}
	}
	slices.Sort(codes)
	for _, code := range codes {
		w, inWork := work.Rules[code]
		b, inBase := base.Rules[code]
		if !protectedCode(code) || (inWork == inBase && w.Level == b.Level) {
			continue
		}
		pos := w.Pos
		if !inWork {
			pos = work.Pos["rules"]
		}
		change(pos, "rules: %s is %s here and %s at %s: this check uses the base revision's setting, the change takes effect after merge",
			code, levelOrUnset(w, inWork), levelOrUnset(b, inBase), at)
		if inBase {
			out.Rules[code] = config.Rule{Code: code, Level: b.Level, Pos: w.Pos}
		} else {
			delete(out.Rules, code)
		}
	}
	protected := protectedCodes()
	guards := func(e config.IgnoreEntry) bool {
		return slices.ContainsFunc(protected, e.MatchesCode)
	}
	type key struct{ code, path string }
	inBase, inWork := map[key]bool{}, map[key]bool{}
	for _, e := range base.Ignore {
		inBase[key{e.Code, e.Path}] = true
	}
	for _, e := range work.Ignore {
		inWork[key{e.Code, e.Path}] = true
	}
	out.Ignore = nil
	for _, e := range work.Ignore {
		if guards(e) && !inBase[key{e.Code, e.Path}] {
			change(e.Pos, "ignore entry for code %q and %s is not in the configuration at %s: "+
				"this check does not apply it to the gate's codes, the change takes effect after merge", e.Code, pathOrAny(e.Path), at)
			continue
		}
		out.Ignore = append(out.Ignore, e)
	}
	for _, e := range base.Ignore {
		if guards(e) && !inWork[key{e.Code, e.Path}] {
			change(work.Pos["ignore"], "ignore entry for code %q and %s of %s is removed: "+
				"this check still applies it, the removal takes effect after merge", e.Code, pathOrAny(e.Path), at)
			e.Pos, e.CodePos, e.PathPos = config.Position{}, config.Position{}, config.Position{}
			out.Ignore = append(out.Ignore, e)
		}
	}
}

// sameTLog reports whether two tlog: blocks say the same, wherever they
// are written.
func sameTLog(a, b config.TLog) bool {
	return a.VKey == b.VKey && a.Origin == b.Origin && slices.Equal(a.Witnesses, b.Witnesses) &&
		a.Quorum == b.Quorum && a.MaxAge == b.MaxAge
}

// quotedOrUnset renders a root: value for GateChange messages.
func quotedOrUnset(s string) string {
	if s == "" {
		return "unset"
	}
	return strconv.Quote(s)
}

// levelOrUnset renders a rules: entry for GateChange messages.
func levelOrUnset(r config.Rule, ok bool) string {
	if !ok {
		return "unset"
	}
	return string(r.Level)
}

// pathOrAny renders an ignore entry's path pattern as
// config/unused-ignore does.
func pathOrAny(p string) string {
	if p == "" {
		return "any path"
	}
	return fmt.Sprintf("path %q", p)
}

// pluginsChanged returns one config/plugins-changed diagnostic (warning by
// default; the configuration's rules: may change it) per plugins: entry
// that a check against a revision does not run as the work tree writes it:
// an entry the base revision lacks, one that differs from the base
// revision's entry of the same pack (by name, else by path), and one the
// work tree removed (reported on its plugins: key). src is the work tree's
// configuration text, for the ranges; Path is cfg.Source.
func pluginsChanged(cfg *config.Config, src []byte) diag.List {
	if cfg == nil || cfg.Base == "" {
		return nil
	}
	sev, on := cfg.Severity(rules.ConfigPluginsChanged, diag.Warning)
	if !on {
		return nil
	}
	base := gitfacts.ShortCommit(cfg.Base)
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

// gateChanged returns one config/gate-changed diagnostic (warning by
// default; the base revision's rules: may change it) per entry of
// cfg.GateChanges, with its range in src, the work tree's configuration
// text (the start of the file for a change without a position); Path is
// cfg.Source.
func gateChanged(cfg *config.Config, src []byte) diag.List {
	if cfg == nil || len(cfg.GateChanges) == 0 {
		return nil
	}
	sev, on := cfg.Severity(rules.ConfigGateChanged, diag.Warning)
	if !on {
		return nil
	}
	lines := diag.NewLineIndex(src)
	out := make(diag.List, 0, len(cfg.GateChanges))
	for _, c := range cfg.GateChanges {
		out = append(out, diag.Diagnostic{Code: rules.ConfigGateChanged, Severity: sev, Message: c.Message, Path: cfg.Source,
			Range: lineRange(lines, src, c.Pos),
			Help:  "the settings that protect accepted revisions are the base branch's: a reviewer must look at this change before it is merged (see docs/ci.md)"})
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
