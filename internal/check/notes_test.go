package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

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
