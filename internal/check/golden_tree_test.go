package check_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/render"
)

var updateTreeDigest = flag.Bool("update-tree-digest", false, "rewrite testdata/generated-10k.sha256")

// TestGeneratedTreeJSONDigest checks the JSON report of the generated
// 10,000-file tree (journal-gen -files 10000 -seed 1) against the SHA-256
// kept in testdata/generated-10k.sha256, with its paths under
// "journals/" as check prints them from a repository whose Journal root
// is journals/. It holds about 1,400 findings of several rules, with their
// ranges, order and fingerprints: a change to the engine (streaming,
// workers, memory) must leave it byte-identical. A change that is meant to
// alter findings updates the digest with -update-tree-digest, and says so
// in its commit. Under the race detector the 10,000 files cost tens of
// seconds of CPU and find nothing TestStreamingWorkersEquivalent (the same
// engine, with 1 and 4 workers) does not, so this test runs without it
// (a long test: make test runs it in its plain pass).
func TestGeneratedTreeJSONDigest(t *testing.T) {
	longtest.Whole(t)
	t.Parallel()
	root := filepath.Join(t.TempDir(), "journals")
	if _, err := gen.Write(root, gen.Options{Files: 10_000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	res, err := check.Run(context.Background(), check.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	report := render.Report{Root: root, Diagnostics: res.Diagnostics, Source: res.Source,
		Summary: render.Summary{Files: res.Files, Artifacts: res.Artifacts, Revisions: res.Revisions},
		Tool:    render.ToolInfo{Name: "journal-lint", Version: "0.0.0"}}
	if err := render.Write(&out, render.JSON, report, render.Options{PathPrefix: "journals"}); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(out.Bytes())
	got := hex.EncodeToString(sum[:])
	file := filepath.Join("testdata", "generated-10k.sha256")
	if *updateTreeDigest {
		if err := os.WriteFile(file, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.TrimSpace(string(want)); got != w {
		t.Errorf("JSON report of the generated tree: SHA-256 %s, want %s (%d findings, %d bytes); "+
			"if the change is intended, run go test ./internal/check -run TestGeneratedTreeJSONDigest -update-tree-digest",
			got, w, len(res.Diagnostics), out.Len())
	}
}
