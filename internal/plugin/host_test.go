package plugin_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/examples/rulepack-license-policy/licensepolicy"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/plugin/packtest"
	"github.com/r35157/journal-lint/plugins/sdk"
	"github.com/r35157/journal-lint/rules"
)

// TestMain runs this test binary as a pack when it is started under a
// pack's name: the example pack (license-policy) or the misbehaving test
// pack under each of its mode names (packtest.Main); else it runs the
// tests.
func TestMain(m *testing.M) {
	packtest.Main(m, map[string]func(){"license-policy": func() { sdk.Serve(licensepolicy.Pack) }})
}

// The tests run in parallel, except those that count what any pack leaves
// behind: the processes of a pack that other tests run too
// (TestHappyPath), the private copies of packs in TMPDIR
// (TestOnlyPinnedBytesRun, TestCopyUnderTimeout), or the environment
// (TestIsolation). go test runs those alone, before the parallel ones.

// spec returns the spec of the pack name, pinned to its real digest.
func spec(t *testing.T, name string) plugin.Spec {
	t.Helper()
	path := packtest.Path(t, name)
	sum, err := plugin.Checksum(path)
	if err != nil {
		t.Fatal(err)
	}
	return plugin.Spec{Path: path, SHA256: sum, Timeout: 10 * time.Second}
}

// tree writes files (path → text) under a new root and returns the root.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, text := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var widgetTree = map[string]string{"com.example.widget/20260110T080000Z.journal": packtest.Widget}

// configOf returns a configuration that runs the packs of specs.
func configOf(specs ...plugin.Spec) *config.Config {
	cfg := config.Default()
	for _, s := range specs {
		cfg.Plugins = append(cfg.Plugins, config.Plugin{Name: s.Name, Path: s.Path, SHA256: s.SHA256, Config: s.Config, Timeout: s.Timeout})
	}
	return cfg
}

// run starts the pack of s, streams the tree at root to it as a check
// does, closes it, and then requires that no process of the pack's
// process group is left. The error is the start-up error (a pin that
// does not match); a pack that failed is a plugin/failed diagnostic.
func run(t *testing.T, s plugin.Spec, root string) (plugin.Info, diag.List, error) {
	t.Helper()
	ps, err := plugin.Start(context.Background(), configOf(s), "")
	if err != nil {
		return plugin.Info{}, nil, err
	}
	pgids := plugin.PIDs(ps)
	ds := checkTree(t, ps, root)
	ps.Close()
	for _, pgid := range pgids {
		if n := packtest.InGroup(t, pgid); n != 0 {
			t.Errorf("%d processes of the pack's group %d left after Close", n, pgid)
		}
	}
	var info plugin.Info
	if infos := ps.Infos(); len(infos) == 1 {
		info = infos[0]
	}
	return info, ds, nil
}

// checkTree streams the tree at root to the packs of ps as a check does
// and returns what they found.
func checkTree(t testing.TB, ps *plugin.Packs, root string) diag.List {
	t.Helper()
	ctx := context.Background()
	st, err := ps.Stream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lr, err := load.Load(ctx, root, load.Options{DropDocs: true, Visit: st.Visit, Recycle: st.Recyclable})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := st.Finish(ctx, lr)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestHappyPath(t *testing.T) {
	s := spec(t, "license-policy")
	s.Config = map[string]any{"denied": []any{"GPL-3.0-only"}}
	info, ds, err := run(t, s, tree(t, widgetTree))
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "license-policy" || info.Version != "1.0.0" || info.SDKVersion == "" || len(info.Rules) != 3 || !info.Pure {
		t.Errorf("info = %+v", info)
	}
	if r := info.Rules[0]; r.Code != "license-policy/denied-license" || r.DefaultSeverity != diag.Error {
		t.Errorf("denied-license rule = %+v", r)
	}
	want := []string{
		"com.example.widget/20260110T080000Z.journal:6:1: warning: release 1.0.0 has no DESCRIPTION [license-policy/missing-description]",
		"com.example.widget/20260110T080000Z.journal:7:9: error: release 1.0.0 uses the denied license GPL-3.0-only but its policy is allow [license-policy/denied-license]",
	}
	if got := strings.Split(list(ds), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", list(ds), strings.Join(want, "\n"))
	}
	if ds[1].Range.End.Column != 21 || ds[1].Range.End.Offset-ds[1].Range.Start.Offset != len("GPL-3.0-only") {
		t.Errorf("range = %+v", ds[1].Range)
	}
	// The subject of a fingerprint is taken while the text is at hand.
	if ds[1].Subject != "GPL-3.0-only" || ds[0].Subject != "RELEASE 1.0.0" {
		t.Errorf("subjects = %q, %q", ds[0].Subject, ds[1].Subject)
	}
	if n := packtest.Running(t, s.Path); n != 0 {
		t.Errorf("%d pack processes still running after Close", n)
	}
}

func list(ds diag.List) string {
	var b []string
	for _, d := range ds {
		b = append(b, d.String())
	}
	return strings.Join(b, "\n")
}

func TestConfigNameNamespaces(t *testing.T) {
	t.Parallel()
	s := spec(t, "behave")
	s.Name = "house"
	info, ds, err := run(t, s, tree(t, widgetTree))
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "house" || info.PackName != "misbehave" || info.Pure || len(ds) != 1 || ds[0].Code != "house/mode" || ds[0].Severity != diag.Warning {
		t.Errorf("info %+v, diagnostics:\n%s", info, list(ds))
	}
}

func TestChecksumMismatch(t *testing.T) {
	t.Parallel()
	s := spec(t, "license-policy")
	s.SHA256 = strings.Repeat("0", 64)
	_, _, err := run(t, s, tree(t, widgetTree))
	var ve *plugin.VerifyError
	if !errors.As(err, &ve) || ve.Got == "" || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("err = %v, want a checksum mismatch", err)
	}
	s.Path = filepath.Join(t.TempDir(), "no-such-pack")
	if _, _, err := run(t, s, ""); !errors.As(err, &ve) || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing pack: err = %v", err)
	}
}

// failure runs the pack name and returns its one plugin/failed
// diagnostic, which it requires.
func failure(t *testing.T, name string, timeout time.Duration) diag.Diagnostic {
	t.Helper()
	s := spec(t, name)
	if timeout > 0 {
		s.Timeout = timeout
	}
	_, ds, err := run(t, s, tree(t, widgetTree))
	if err != nil || len(ds) != 1 || ds[0].Code != rules.PluginFailed {
		t.Fatalf("err = %v, diagnostics:\n%s\nwant one pack failure", err, list(ds))
	}
	d := ds[0]
	if d.Severity != diag.Error || !strings.Contains(d.Message, "rule pack misbehave failed") && !strings.Contains(d.Message, "rule pack "+s.Path) {
		t.Errorf("failure diagnostic = %+v", d)
	}
	if n := packtest.Running(t, s.Path); n != 0 {
		t.Errorf("%d processes of %s still running", n, name)
	}
	return d
}

func TestCrash(t *testing.T) {
	t.Parallel()
	d := failure(t, "crash", 0)
	if !strings.Contains(d.Message, "process died") || !strings.Contains(d.Message, `stderr: "panic: pack crashed on purpose"`) ||
		!strings.Contains(d.Help, "goroutine") {
		t.Errorf("crash: %s\n%s", d.Message, d.Help)
	}
}

func TestPanic(t *testing.T) {
	t.Parallel()
	d := failure(t, "panic", 0)
	if !strings.Contains(d.Message, "rule mode panicked on com.example.widget/20260110T080000Z.journal: rule panicked on purpose") {
		t.Errorf("panic: %s", d.Message)
	}
}

func TestHang(t *testing.T) {
	t.Parallel()
	start := time.Now()
	// The timeout covers the copy and hash of the pack's executable too:
	// 2 s, since the race-built test pack (60 MB) took over 500 ms to
	// copy on a busy machine.
	d := failure(t, "hang", 2*time.Second)
	if !strings.Contains(d.Message, "check timed out after 2s") || !strings.Contains(d.Message, "still working on") {
		t.Errorf("hang: %s", d.Message)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("a hung pack took %v to be given up", el)
	}
}

func TestGarbageStdout(t *testing.T) {
	t.Parallel()
	d := failure(t, "garbage", 0)
	if !strings.Contains(d.Message, "bad handshake") || !strings.Contains(d.Message, "hello from a careless pack") {
		t.Errorf("garbage: %s", d.Message)
	}
}

func TestMalformedDiagnostic(t *testing.T) {
	t.Parallel()
	d := failure(t, "malformed", 0)
	if !strings.Contains(d.Message, "malformed diagnostic: rule mode: range [0, ") {
		t.Errorf("malformed: %s", d.Message)
	}
}

// TestIsolation checks that a pack gets no stdin and a minimal environment.
func TestIsolation(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	t.Setenv("JOURNAL_LINT_SECRET", "do-not-leak")
	_, ds, err := run(t, spec(t, "introspect"), tree(t, widgetTree))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 {
		t.Fatalf("diagnostics:\n%s", list(ds))
	}
	msg := ds[0].Message
	if !strings.Contains(msg, "stdin=/dev/null ") {
		t.Errorf("stdin is not /dev/null: %s", msg)
	}
	_, env, _ := strings.Cut(msg, "env=")
	for _, name := range strings.Split(env, ",") {
		if !strings.HasPrefix(name, "PLUGIN_") && name != "JOURNAL_LINT_RULE_PACK" {
			t.Errorf("pack environment has %s: %s", name, env)
		}
	}
}

// TestLargeJournal sends a 16 MiB Journal through the real host and pack.
func TestLargeJournal(t *testing.T) {
	t.Parallel()
	// Mostly comment lines: the size is what matters here, not the parse.
	var b strings.Builder
	b.WriteString(packtest.Widget)
	line := "# " + strings.Repeat("padding ", 120) + "\n"
	for b.Len()+len(line) < 16<<20 {
		b.WriteString(line)
	}
	text := b.String()
	text += "#" + strings.Repeat("x", 16<<20-len(text)-2) + "\n"
	if len(text) != 16<<20 {
		t.Fatalf("built %d bytes", len(text))
	}
	s := spec(t, "license-policy")
	s.Config = map[string]any{"denied": []any{"GPL-3.0-only"}}
	s.Timeout = time.Minute
	_, ds, err := run(t, s, tree(t, map[string]string{"com.example.widget/20260110T080000Z.journal": text}))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 {
		t.Errorf("diagnostics:\n%s", list(ds))
	}
}
