package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

func TestApplyNotesCopiesWhatItAmends(t *testing.T) {
	t.Parallel()
	related := make([]diag.Related, 1, 4) // room an append would write into
	related[0] = diag.Related{Path: "a", Message: "first"}
	l := diag.List{
		{Code: "chain/x", Path: "p", Message: "broken", Help: "h0", Related: related, Fixes: []diag.Fix{{Title: "f"}}},
		{Code: "chain/y", Path: "q", Message: "other"},
	}
	before := diag.List{l[0], l[1]}
	before[0].Related = append([]diag.Related(nil), related...)
	got := applyNotes(l, []note{
		{at: 0, message: ": one", help: "h1", related: []diag.Related{{Path: "b", Message: "second"}}},
		{at: 0, message: "; two", help: "h2", dropFixes: true},
	})
	if diff := cmp.Diff(before, l); diff != "" {
		t.Errorf("the list given changed (-before +after):\n%s", diff)
	}
	if got := related[:2][1]; got != (diag.Related{}) {
		t.Errorf("the related array given was written: %v", got)
	}
	want := diag.List{
		{Code: "chain/x", Path: "p", Message: "broken: one; two", Help: "h2",
			Related: []diag.Related{{Path: "a", Message: "first"}, {Path: "b", Message: "second"}}},
		l[1],
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("applyNotes (-want +got):\n%s", diff)
	}
	if got := applyNotes(l, nil); &got[0] != &l[0] {
		t.Error("no note: the list was copied")
	}
}

// The gate explains a broken chain by what git knows without editing the
// load's diagnostics, which a later run may take over (Options.Prior).
func TestGateExplainsWithoutEditingTheLoad(t *testing.T) {
	t.Parallel()
	gitEnv(t)
	successor := strings.Replace(gateGenesis, "JOURNAL_VERSION 20260110T080000Z\n",
		"JOURNAL_VERSION 20260111T080000Z\nPREDECESSOR "+vt.DigestOf([]byte(gateGenesis)).String()+"\n", 1)
	dir := t.TempDir()
	gitRepo(t, dir, map[string]string{
		".gitattributes": "*.journal -text\n",
		"j/com.example.widget/20260110T080000Z.journal": gateGenesis,
		"j/com.example.widget/20260111T080000Z.journal": successor,
	})
	edited := strings.Replace(gateGenesis, `"Widget"`, `"Widget, edited"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "j/com.example.widget/20260110T080000Z.journal"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{Root: filepath.Join(dir, "j"), KeepState: true})
	if err != nil {
		t.Fatal(err)
	}
	const explained = "which was modified in the work tree"
	pick := func(l diag.List) *diag.Diagnostic {
		for i := range l {
			if l[i].Code == rules.ChainMissingPredecessor {
				return &l[i]
			}
		}
		t.Fatalf("no %s in %v", rules.ChainMissingPredecessor, l)
		return nil
	}
	if d := pick(res.Diagnostics); !strings.Contains(d.Message, explained) {
		t.Errorf("the report does not explain the break: %q", d.Message)
	}
	if d := pick(res.Load.Diagnostics); strings.Contains(d.Message, explained) || len(d.Related) > 1 {
		t.Errorf("the load's diagnostic was edited: %q, related %v", d.Message, d.Related)
	}
}
