package check

import (
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
