package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/r35157/journal-lint/cmd/journal-lint/internal/cli"
)

// TestMain lets the scripts run journal-lint as a command in-process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"journal-lint": func() { os.Exit(cli.Main(os.Args, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the txtar scripts in testdata/script. Set
// JOURNAL_UPDATE=1 to rewrite their expected output files.
//
// Scripts see $SHARED, the shared specification folder (vectors and corpus),
// and skip what needs it with `[!shared] skip`; $EXAMPLES is the
// repository's example tree.
func TestScripts(t *testing.T) {
	shared, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared"))
	examples, _ := filepath.Abs(filepath.Join("..", "..", "data", "nenjim", "journals"))
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("JOURNAL_UPDATE") != "",
		Condition: func(cond string) (bool, error) {
			if cond == "shared" {
				_, err := os.Stat(shared)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("SHARED", shared)
			env.Setenv("EXAMPLES", examples)
			env.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}
