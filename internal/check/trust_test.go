package check

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/rules"
)

// TestPluginsChanged covers the comparison of the work tree's plugins:
// with the base revision's: added, changed (and which keys), removed,
// unchanged in another order, unnamed entries matched by path, and the
// ranges on the entries.
func TestPluginsChanged(t *testing.T) {
	t.Parallel()
	src := "root: journals\nplugins:\n  - name: a\n    path: bin/a\n    sha256: 11\n  - path: bin/b  \n    sha256: 22\n  - name: c\n    path: bin/c\n    sha256: 33\n  - name: new\n    path: bin/new\n    sha256: 55\n"
	pos := func(line int) config.Position { return config.Position{Line: line, Column: 5} }
	base := []config.Plugin{
		{Name: "c", Path: "bin/c", SHA256: "33"},
		{Path: "bin/b", SHA256: "22", Timeout: time.Second},
		{Name: "a", Path: "bin/a", SHA256: "10", Config: map[string]any{"x": 1}},
		{Name: "gone", Path: "bin/gone", SHA256: "44"},
	}
	work := []config.Plugin{
		{Name: "a", Path: "bin/a", SHA256: "11", Pos: pos(3)},
		{Path: "bin/b", SHA256: "22", Pos: pos(6)},
		{Name: "c", Path: "bin/c", SHA256: "33", Pos: pos(8)},
		{Name: "new", Path: "bin/new", SHA256: "55", Pos: pos(11)},
	}
	cfg := config.Default()
	cfg.Source, cfg.Plugins, cfg.WorkTreePlugins = ".journal-lint.yaml", base, work
	cfg.Base = "0123456789abcdef0123"
	cfg.Pos["plugins"] = config.Position{Line: 2, Column: 1}
	var got []string
	for _, d := range pluginsChanged(cfg, []byte(src)) {
		got = append(got, d.String())
	}
	want := []string{
		".journal-lint.yaml:3:5: warning: rule pack a differs from its entry at the base revision 0123456789ab (sha256, config): this check runs the base revision's entry, the change takes effect after merge [config/plugins-changed]",
		".journal-lint.yaml:6:5: warning: rule pack bin/b differs from its entry at the base revision 0123456789ab (timeout): this check runs the base revision's entry, the change takes effect after merge [config/plugins-changed]",
		".journal-lint.yaml:11:5: warning: rule pack new is not in the configuration at the base revision 0123456789ab: this check does not run it, it takes effect after merge [config/plugins-changed]",
		".journal-lint.yaml:2:1: warning: rule pack gone of the base revision 0123456789ab is removed: this check still runs it, the removal takes effect after merge [config/plugins-changed]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ds := pluginsChanged(cfg, []byte(src))
	if r := ds[1].Range; r.Start.Offset != strings.Index(src, "path: bin/b") || r.End.Offset != strings.Index(src, "  \n    sha256: 22") {
		t.Errorf("range of the bin/b entry = %+v", r)
	}
	// Turned off in rules:, and nothing without a base.
	cfg.Rules[rules.ConfigPluginsChanged] = config.Rule{Code: rules.ConfigPluginsChanged, Level: config.LevelOff}
	if ds := pluginsChanged(cfg, []byte(src)); len(ds) != 0 {
		t.Errorf("off: %v", ds)
	}
	if ds := pluginsChanged(config.Default(), nil); len(ds) != 0 {
		t.Errorf("no base: %v", ds)
	}
}

// TestProtectSettings covers what a check against a revision takes from
// the base revision's configuration: the rules: of the gate's codes (a
// level the work tree added, one it removed), lint rules left to the work
// tree, an ignore: entry of the gate's codes that only the work tree has
// (not applied) and one it removed (still applied), an entry for lint
// codes left alone, and root:.
func TestProtectSettings(t *testing.T) {
	t.Parallel()
	pos := func(line int) config.Position { return config.Position{Line: line, Column: 3} }
	base := config.Default()
	base.Root = "journals"
	base.Rules[rules.HistoryRevisionRenamed] = config.Rule{Code: rules.HistoryRevisionRenamed, Level: config.LevelWarning}
	base.Ignore = []config.IgnoreEntry{{Code: rules.HistoryRevisionDeleted, Path: "journals/com.example.old/**", Reason: "retired"}}
	work := config.Default()
	work.Root = "shadow"
	work.Pos["root"] = pos(1)
	work.Rules[rules.HistoryRevisionModified] = config.Rule{Code: rules.HistoryRevisionModified, Level: config.LevelOff, Pos: pos(3)}
	work.Rules[rules.StyleCRLF] = config.Rule{Code: rules.StyleCRLF, Level: config.LevelOff, Pos: pos(4)}
	work.Ignore = []config.IgnoreEntry{
		{Code: "history/*", Reason: "rewrite", Pos: pos(6)},
		{Code: "style/*", Reason: "imported", Pos: pos(8)},
	}
	work.Pos["ignore"] = pos(5)
	work.TLog = config.TLog{VKey: "journals.example.org/registry+1788ca79+ASgmMCEOey/NdNKmURfuxNIb0CSxkgZrQ1yiirYb71mW", Origin: "journals.example.org/registry"}
	work.Pos["tlog"] = pos(9)
	out := *work
	out.Base = "0123456789abcdef0123"
	protectSettings(&out, work, base)

	if out.Root != "journals" {
		t.Errorf("root %q, want the base's", out.Root)
	}
	if _, on := out.Severity(rules.HistoryRevisionModified, 0); !on {
		t.Errorf("history/revision-modified is off: the work tree's rule applied")
	}
	if out.TLog.VKey != "" {
		t.Errorf("tlog: block %+v, want the base's (none)", out.TLog)
	}
	if r := out.Rules[rules.HistoryRevisionRenamed]; r.Level != config.LevelWarning {
		t.Errorf("history/revision-renamed %q, want the base's warning", r.Level)
	}
	if r := out.Rules[rules.StyleCRLF]; r.Level != config.LevelOff {
		t.Errorf("style/crlf %q, want the work tree's off", r.Level)
	}
	var ignores []string
	for _, e := range out.Ignore {
		ignores = append(ignores, e.Code+" "+e.Path)
	}
	if got, want := strings.Join(ignores, ", "), "style/* , history/revision-deleted journals/com.example.old/**"; got != want {
		t.Errorf("ignore entries %q, want %q", got, want)
	}
	var changes []string
	for _, c := range out.GateChanges {
		changes = append(changes, fmt.Sprintf("%d: %s", c.Pos.Line, c.Message))
	}
	want := []string{
		`1: root: is "shadow" here and "journals" at the base revision 0123456789ab: this check uses the base revision's root, the change takes effect after merge`,
		"9: tlog: differs from the block at the base revision 0123456789ab: this check verifies the log with the base revision's block, the change takes effect after merge",
		"3: rules: history/revision-modified is off here and unset at the base revision 0123456789ab: this check uses the base revision's setting, the change takes effect after merge",
		"0: rules: history/revision-renamed is unset here and warning at the base revision 0123456789ab: this check uses the base revision's setting, the change takes effect after merge",
		`6: ignore entry for code "history/*" and any path is not in the configuration at the base revision 0123456789ab: this check does not apply it to the gate's codes, the change takes effect after merge`,
		`5: ignore entry for code "history/revision-deleted" and path "journals/com.example.old/**" of the base revision 0123456789ab is removed: this check still applies it, the removal takes effect after merge`,
	}
	if strings.Join(changes, "\n") != strings.Join(want, "\n") {
		t.Errorf("changes\n%s\nwant\n%s", strings.Join(changes, "\n"), strings.Join(want, "\n"))
	}
}
