package check

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/gitrepo/gittest"
	"github.com/r35157/journal-lint/internal/source"
	"github.com/r35157/journal-lint/rules"
)

const gateGenesis = `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "Widget"

RELEASE 1.0.0
LICENSE NOASSERTION
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
DEPENDS org.example.core [1.0.0,2.0.0)
`

func TestIsLintCode(t *testing.T) {
	t.Parallel()
	for code, want := range map[string]bool{
		"license/noassertion":         true,
		"history/release-removed":     true,
		rules.HistoryRevisionModified: false,
		rules.RepoEOLConversion:       false,
		rules.ChainFork:               false,
		"config/unused-ignore":        false,
	} {
		if got := isLintCode(code); got != want {
			t.Errorf("isLintCode(%q) = %v, want %v", code, got, want)
		}
	}
}

func TestGateUsageErrors(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ctx := context.Background()
	if _, err := Run(ctx, Options{Root: root, NewOnly: true}); err == nil || !strings.Contains(err.Error(), "--new-only needs --against") {
		t.Errorf("--new-only alone: %v", err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, o := range []Options{{Root: root, Against: "HEAD"}, {Root: root, Staged: true}} {
		if _, err := Run(ctx, o); err == nil || !strings.Contains(err.Error(), "not inside a git work tree") {
			t.Errorf("%+v outside a repository: %v", o, err)
		}
	}
}

// gitEnv skips the test without git (TestMain sets git's environment).
func gitEnv(t *testing.T) { gittest.Need(t) }

// gitRepo makes a repository with the tree files (path → text) committed.
func gitRepo(t *testing.T, dir string, files map[string]string) { gittest.Repo(t, dir, files) }

// TestMain runs the tests with git's configuration of the machine out of
// the way and an author, for their git and the check's (gittest.Main).
func TestMain(m *testing.M) { gittest.Main(m) }

// The revision fingerprint depends on the revision and the value, not on
// where the repository lives or which run computed it.
func TestRevisionFingerprintStable(t *testing.T) {
	t.Parallel()
	gitEnv(t)
	files := map[string]string{
		".gitattributes": "*.journal -text\n",
		"j/com.example.widget/20260110T080000Z.journal": gateGenesis,
	}
	var fps []string
	for _, sub := range []string{"one", "two with space"} {
		dir := filepath.Join(t.TempDir(), sub)
		gitRepo(t, dir, files)
		for _, staged := range []bool{false, true} {
			res, err := Run(context.Background(), Options{Root: filepath.Join(dir, "j"), Against: "HEAD", Staged: staged})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for i, d := range res.Diagnostics {
				if d.Code == "license/noassertion" {
					found = true
					fps = append(fps, res.Fingerprints[i])
				}
			}
			if !found {
				t.Fatalf("no license/noassertion finding: %v", res.Diagnostics)
			}
		}
	}
	for _, fp := range fps {
		if len(fp) != 64 || fp != fps[0] {
			t.Fatalf("fingerprints differ: %q", fps)
		}
	}
	// --new-only drops the finding on the committed revision.
	dir := filepath.Join(t.TempDir(), "three")
	gitRepo(t, dir, files)
	res, err := Run(context.Background(), Options{Root: filepath.Join(dir, "j"), Against: "HEAD", NewOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 0 {
		t.Errorf("--new-only kept %v", res.Diagnostics)
	}
}

// A gate of --staged answers from the index it loads the tree from
// (gitfacts.Facts.StagedIndex) and lists the index no second time; a gate
// of the work tree has no such index and lists it itself.
func TestStagedGateUsesItsSource(t *testing.T) {
	t.Parallel()
	gitEnv(t)
	dir := t.TempDir()
	gitRepo(t, dir, map[string]string{
		".gitattributes": "*.journal -text\n",
		"j/com.example.widget/20260110T080000Z.journal": gateGenesis,
	})
	root := filepath.Join(dir, "j")
	ctx := context.Background()
	g, err := openGate(ctx, Options{Root: root, Staged: true}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	if g.StagedIndex == nil || source.Source(g.StagedIndex) != g.src {
		t.Errorf("--staged: StagedIndex %v, source %T", g.StagedIndex, g.src)
	}
	if g.Index() != nil {
		t.Error("--staged: the index was listed a second time")
	}
	if _, ok := g.AtBase("com.example.widget/20260110T080000Z.journal"); !ok {
		t.Error("--staged: the committed revision is not at the base")
	}
	w, err := openGate(ctx, Options{Root: root, Against: "HEAD"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if w.StagedIndex != nil || w.Index() == nil {
		t.Errorf("the work tree: StagedIndex %v, index listed %v", w.StagedIndex, w.Index() != nil)
	}
}
