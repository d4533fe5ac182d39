package check_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/render"
	"github.com/r35157/journal-lint/rules"
)

// TestStreamingWorkersEquivalent checks the streaming engine's promise that
// the result does not depend on how many workers read, ingest and lint the
// tree: on a generated tree with a fault of every expressible validity code
// and random byte-level mutations, the complete JSON and text output of a
// 1-worker run and of a 4-worker run are byte-identical.
func TestStreamingWorkersEquivalent(t *testing.T) {
	t.Parallel()
	root := faultedTree(t)
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	output := func(workers int) (string, string) {
		res, err := check.Run(context.Background(), check.Options{Root: root, Now: now, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		rep := render.Report{Root: root, Diagnostics: res.Diagnostics, Source: res.Source,
			Summary: render.Summary{Files: res.Files, Artifacts: res.Artifacts, Revisions: res.Revisions}}
		var js, txt bytes.Buffer
		if err := render.Write(&js, render.JSON, rep, render.Options{}); err != nil {
			t.Fatal(err)
		}
		if err := render.Write(&txt, render.Text, rep, render.Options{}); err != nil {
			t.Fatal(err)
		}
		return js.String(), txt.String()
	}
	js1, txt1 := output(1)
	js4, txt4 := output(4)
	if js1 != js4 {
		t.Errorf("JSON differs between 1 and 4 workers (-1 +4):\n%s", cmp.Diff(js1, js4))
	}
	if txt1 != txt4 {
		t.Errorf("text differs between 1 and 4 workers (-1 +4):\n%s", cmp.Diff(txt1, txt4))
	}
	if !bytes.Contains([]byte(js1), []byte(`"chain/`)) {
		t.Errorf("no chain diagnostic in the faulted tree:\n%.2000s", js1)
	}
}

// faultedTree writes a generated tree of 300 files (60 when tests run
// small: longtest.Small) with a fault of every expressible validity code
// (but a broken root) and 20 byte-level mutations, and returns its root.
func faultedTree(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "journals")
	injected, err := gen.WriteFaulted(root, gen.Options{Files: longtest.Size(300, 60), Seed: 11}, gen.FaultOptions{InjectSeed: 100, Mutations: 20, MutateSeed: 500})
	if err != nil {
		t.Fatal(err)
	}
	if injected < 10 {
		t.Fatalf("only %d faults injected", injected)
	}
	return root
}

// TestSubjectsAreTheCheckedText: every finding of a rule about one
// document or of the history diff carries the subject of its fingerprint
// (unless it is too long to keep: diag.Diagnostic.TakeSubject),
// taken while the check had the text (diag.Diagnostic.Subject), and every
// subject is what the file holds. The others (validity findings, rules on
// chain heads and the engine's own) may leave the renderer to read a file
// again.
func TestSubjectsAreTheCheckedText(t *testing.T) {
	t.Parallel()
	root := faultedTree(t)
	res, err := check.Run(context.Background(), check.Options{Root: root, Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	taken := 0
	for _, d := range res.Diagnostics {
		if d.Subject == "" {
			probe := d
			probe.TakeSubject(res.Source(d.Path))
			if k := rules.KindOf(d.Code); probe.Subject != "" && (k == rules.Document || k == rules.CrossRevision) {
				t.Errorf("%v: no subject", d)
			}
			continue
		}
		taken++
		fresh := d
		fresh.Subject = ""
		if want := string(fresh.Covered(res.Source(d.Path))); d.Subject != want {
			t.Errorf("%v: subject %q, the file holds %q", d, d.Subject, want)
		}
	}
	if taken == 0 {
		t.Error("no finding has a subject")
	}
}
