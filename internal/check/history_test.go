package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// historyTree copies the previous and current revision of a diff fixture
// (internal/diff/testdata/<kind>) into a Journal tree and returns its root.
func historyTree(t *testing.T, kind string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "com.example.widget")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, side := range []string{"previous", "current"} {
		names, _ := filepath.Glob(filepath.Join("..", "diff", "testdata", kind, side, "*.journal"))
		if len(names) == 0 {
			t.Fatalf("no fixture files for %s/%s", kind, side)
		}
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(n)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func codesOf(l diag.List) map[string]diag.Diagnostic {
	m := map[string]diag.Diagnostic{}
	for _, d := range l {
		m[d.Code] = d
	}
	return m
}

func TestHistoryAnalyzer(t *testing.T) {
	t.Parallel()
	res, err := Run(context.Background(), Options{Root: historyTree(t, "release-content-changed")})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := codesOf(res.Diagnostics)["history/release-content-changed"]
	if !ok {
		t.Fatalf("no history/release-content-changed in %v", res.Diagnostics)
	}
	if d.Severity != diag.Error || d.Path != "com.example.widget/20260210T080000Z.journal" ||
		len(d.Related) != 1 || d.Related[0].Path != "com.example.widget/20260110T080000Z.journal" {
		t.Errorf("diagnostic %+v", d)
	}
}

func TestHistoryInfoKindsOffUnlessConfigured(t *testing.T) {
	t.Parallel()
	root := historyTree(t, "release-resurrected")
	res, err := Run(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	got := codesOf(res.Diagnostics)
	if _, ok := got["history/release-resurrected"]; !ok {
		t.Errorf("warning kind missing: %v", res.Diagnostics)
	}
	if _, ok := got["history/release-removed"]; !ok {
		t.Errorf("the chain removes 1.1.0 in its second revision: %v", res.Diagnostics)
	}
	if _, ok := got["history/no-semantic-change"]; ok {
		t.Errorf("info kind reported without configuration: %v", res.Diagnostics)
	}

	cfg := config.Default()
	cfg.Rules["history/release-removed"] = config.Rule{Code: "history/release-removed", Level: config.LevelOff}
	cfg.Rules["history/release-resurrected"] = config.Rule{Code: "history/release-resurrected", Level: config.LevelError}
	res, err = Run(context.Background(), Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	got = codesOf(res.Diagnostics)
	if _, ok := got["history/release-removed"]; ok {
		t.Errorf("rule set to off still reported: %v", res.Diagnostics)
	}
	if d, ok := got["history/release-resurrected"]; !ok || d.Severity != diag.Error {
		t.Errorf("override to error: %v", res.Diagnostics)
	}

	cfg = config.Default()
	cfg.Rules["history/release-added"] = config.Rule{Code: "history/release-added", Level: config.LevelInfo}
	res, err = Run(context.Background(), Options{Root: historyTree(t, "release-added"), Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := codesOf(res.Diagnostics)["history/release-added"]; !ok || d.Severity != diag.Info {
		t.Errorf("configured info kind: %v", res.Diagnostics)
	}
}

// TestHistoryNoSemanticChangeOnlyWhenConfigured: the costly message of a
// no-semantic-change is not made when the change is dropped, and is made,
// naming what differs, when the configuration names its code.
func TestHistoryNoSemanticChangeOnlyWhenConfigured(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "com.example.widget")
	genesis, err := os.ReadFile(filepath.Join("..", "diff", "testdata", "no-semantic-change", "previous", "20260110T080000Z.journal"))
	if err != nil {
		t.Fatal(err)
	}
	successor := strings.Replace(string(genesis), "JOURNAL_VERSION 20260110T080000Z\n",
		"JOURNAL_VERSION 20260210T080000Z\nPREDECESSOR "+vt.DigestOf(genesis).String()+"\n# only a comment is new\n", 1)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"20260110T080000Z.journal": string(genesis), "20260210T080000Z.journal": successor} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := codesOf(res.Diagnostics)["history/no-semantic-change"]; ok {
		t.Errorf("info kind reported without configuration: %v", d)
	}
	cfg := config.Default()
	cfg.Rules["history/no-semantic-change"] = config.Rule{Code: "history/no-semantic-change", Level: config.LevelWarning}
	res, err = Run(context.Background(), Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := codesOf(res.Diagnostics)["history/no-semantic-change"]
	if !ok || d.Severity != diag.Warning || !strings.Contains(d.Message, "the texts differ only in comments") {
		t.Errorf("configured no-semantic-change: %+v", d)
	}
}
