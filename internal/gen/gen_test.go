package gen

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/longtest"
)

func loadTree(t *testing.T, root string, examples bool) *load.Result {
	t.Helper()
	res, err := load.Load(context.Background(), root, load.Options{Examples: examples})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestGenerateIsDeterministic(t *testing.T) {
	t.Parallel()
	a, err := Generate(Options{Files: 40, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(Options{Files: 40, Seed: 9})
	c, _ := Generate(Options{Files: 40, Seed: 10})
	if len(a.Files) != 40 {
		t.Fatalf("got %d files, want 40", len(a.Files))
	}
	same := func(x, y *Tree) bool {
		return slices.EqualFunc(x.Files, y.Files, func(f, g File) bool { return f.Path == g.Path && bytes.Equal(f.Data, g.Data) })
	}
	if !same(a, b) {
		t.Error("equal options gave different trees")
	}
	if same(a, c) {
		t.Error("different seeds gave the same tree")
	}
	if _, err := Generate(Options{}); err == nil {
		t.Error("Files 0 accepted")
	}
}

// TestGeneratedTreesAreValidAndRealistic loads generated trees of many
// sizes through the one validation path. A long test (longtest.Whole): the
// generator runs on one goroutine, and the load's workers have tests of
// their own under the race detector.
func TestGeneratedTreesAreValidAndRealistic(t *testing.T) {
	longtest.Whole(t)
	t.Parallel()
	seen := map[string]bool{}
	for seed := range uint64(30) {
		files := 1 + int(seed%12)
		if seed == 29 {
			files = 300
		}
		root := t.TempDir()
		tr, err := Write(root, Options{Files: files, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		res := loadTree(t, root, false)
		if !res.Valid() {
			t.Fatalf("seed %d: generated tree is invalid: %v", seed, res.Diagnostics)
		}
		if got := res.State.RevisionCount(); got != files {
			t.Errorf("seed %d: %d revisions accepted, want %d", seed, got, files)
		}
		if res.State.Artifacts() != tr.Artifacts {
			t.Errorf("seed %d: %d artifacts, generator says %d", seed, res.State.Artifacts(), tr.Artifacts)
		}
		if files >= 3 && tr.Artifacts < 2 {
			t.Errorf("seed %d: %d files in one artifact; want two for cross-artifact faults", seed, files)
		}
		for _, f := range tr.Files {
			for _, kw := range []string{"PREDECESSOR ", "DEPENDS ", "EXCLUDES ", "PREFERS ", "POLICY ", "PUBLISHED ", "INFO ", ",[", " OR ", "\r\n"} {
				if bytes.Contains(f.Data, []byte(kw)) {
					seen[kw] = true
				}
			}
		}
	}
	for _, kw := range []string{"PREDECESSOR ", "DEPENDS ", "EXCLUDES ", "PREFERS ", "POLICY ", "PUBLISHED ", "INFO ", ",[", " OR "} {
		if !seen[kw] {
			t.Errorf("no generated tree uses %q", strings.TrimSpace(kw))
		}
	}
}

// TestInjectEveryCode injects each fault into small trees and checks that
// the loader reports its code as an error. A long test: 6 trees of each
// code, 2 when tests run small (longtest.Small).
func TestInjectEveryCode(t *testing.T) {
	t.Parallel()
	seeds := uint64(longtest.Size(6, 2))
	for _, code := range Codes() {
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			expressed := false
			for seed := range seeds {
				root := filepath.Join(t.TempDir(), "root")
				if _, err := Write(root, Options{Files: 3 + int(seed), Seed: seed}); err != nil {
					t.Fatal(err)
				}
				f, err := Inject(root, code, seed)
				if errors.Is(err, ErrNotExpressible) {
					t.Skip(err)
				}
				if err != nil {
					t.Fatal(err)
				}
				if f.Cleanup != nil {
					t.Cleanup(func() { f.Cleanup() })
				}
				expressed = true
				if f.Code != code {
					t.Fatalf("Inject(%s) says %s", code, f.Code)
				}
				res := loadTree(t, root, f.Examples)
				if !slices.ContainsFunc(res.Diagnostics, func(d diag.Diagnostic) bool {
					return d.Code == code && d.Severity == diag.Error && (f.Path == "" || d.Path == f.Path)
				}) {
					t.Errorf("seed %d: injected %s (%s at %q); the loader reported %v", seed, code, f.Note, f.Path, res.Diagnostics)
				}
			}
			if !expressed {
				t.Error("never expressed")
			}
		})
	}
}

func TestInjectUnknownCode(t *testing.T) {
	t.Parallel()
	if _, err := Inject(t.TempDir(), "chain/nonsense", 1); err == nil || errors.Is(err, ErrNotExpressible) {
		t.Errorf("got %v, want an unknown-code error", err)
	}
}

func TestMutateChangesOneFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr, err := Write(root, Options{Files: 5, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(20) {
		path, err := Mutate(root, seed)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(tr.Files, func(f File) bool { return f.Path == path }) {
			t.Errorf("Mutate named %q, not a file of the tree", path)
		}
	}
}

// TestWriteFaulted: equal arguments give equal trees, faults are injected,
// and none of them breaks the root (the tree still loads and lists files).
func TestWriteFaulted(t *testing.T) {
	t.Parallel()
	fo := FaultOptions{InjectSeed: 7, Mutations: 5, MutateSeed: 9}
	var trees [2]map[string][]byte
	for k := range trees {
		root := filepath.Join(t.TempDir(), "journals")
		injected, err := WriteFaulted(root, Options{Files: 60, Seed: 3}, fo)
		if err != nil {
			t.Fatal(err)
		}
		if injected < 10 {
			t.Errorf("only %d faults injected", injected)
		}
		lr, err := load.Load(context.Background(), root, load.Options{})
		if err != nil && lr == nil {
			t.Fatal(err)
		}
		trees[k] = map[string][]byte{}
		for _, f := range lr.Files {
			if f.Doc != nil {
				trees[k][f.Path] = f.Doc.Src
			}
		}
	}
	if len(trees[0]) == 0 || len(trees[0]) != len(trees[1]) {
		t.Fatalf("trees of %d and %d documents", len(trees[0]), len(trees[1]))
	}
	for p, src := range trees[0] {
		if !bytes.Equal(src, trees[1][p]) {
			t.Errorf("%s differs between two equal calls", p)
		}
	}
}
