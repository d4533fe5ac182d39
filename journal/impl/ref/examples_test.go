package ref

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/journal/journalerr"
)

var examplesRoot = filepath.Join(moduleRoot, "data", "nenjim", "journals")

var exampleName = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z\.journal\.example$`)

func TestExamplePlacement(t *testing.T) {
	t.Parallel()
	dirs, err := os.ReadDir(examplesRoot)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		if !d.IsDir() {
			t.Errorf("%s: only artifact directories belong in the example root", d.Name())
			continue
		}
		files, err := os.ReadDir(filepath.Join(examplesRoot, d.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if !exampleName.MatchString(f.Name()) {
				t.Errorf("%s/%s: examples are named <journal-version>.journal.example", d.Name(), f.Name())
			}
			n++
		}
	}
	if len(dirs) < 2 || n < 4 {
		t.Errorf("found %d artifacts and %d examples; want at least two artifacts and a chain of three", len(dirs), n)
	}
	// Without the examples option nothing is loaded; with it, every example
	// is valid and placed where its content says.
	_, svc := started(t, examplesRoot)
	if got := svc.Coordinates(); len(got) != 0 {
		t.Errorf("examples were loaded as runtime Journals: %v", got)
	}
	_, svc = started(t, examplesRoot, WithExamples())
	total := 0
	for _, c := range svc.Coordinates() {
		total += len(svc.Revisions(c))
	}
	if total != n {
		t.Errorf("loaded %d of %d examples", total, n)
	}
}

func TestExampleChainIntegrity(t *testing.T) {
	t.Parallel()
	_, svc := started(t, examplesRoot, WithExamples())
	longest := 0
	for _, c := range svc.Coordinates() {
		revs := svc.Revisions(c)
		longest = max(longest, len(revs))
		for i, r := range revs {
			file := filepath.Join(examplesRoot, c.String(), r.JournalVersion().String()+".journal.example")
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if r.Digest().String() != digest(data) {
				t.Errorf("%s: digest %s, file bytes hash to %s", file, r.Digest(), digest(data))
			}
			pred, ok := r.Predecessor()
			if i == 0 {
				if ok {
					t.Errorf("%s: the first revision has a PREDECESSOR", file)
				}
				continue
			}
			prev := filepath.Join(examplesRoot, c.String(), revs[i-1].JournalVersion().String()+".journal.example")
			pdata, err := os.ReadFile(prev)
			if err != nil {
				t.Fatal(err)
			}
			if !ok || pred.String() != digest(pdata) {
				t.Errorf("%s: PREDECESSOR %s, but %s hashes to %s", file, pred, prev, digest(pdata))
			}
		}
	}
	if longest < 3 {
		t.Errorf("the longest example chain has %d revisions, want at least 3", longest)
	}
}

// TestPublicVectors runs the manager over every public vector tree and
// compares with expected.json.
func TestPublicVectors(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(moduleRoot, "..", "shared", "spec", "vectors")
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Skipf("public vectors not available: %v", err)
	}
	var expected map[string]json.RawMessage
	if err := json.Unmarshal(raw, &expected); err != nil {
		t.Fatal(err)
	}
	for name, msg := range expected {
		if strings.HasPrefix(name, "_") {
			continue
		}
		var want struct {
			Valid     bool
			Artifacts *int
			Revisions *int
			Codes     []string
		}
		if err := json.Unmarshal(msg, &want); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			m, err := NewServiceManager(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			err = m.Start(context.Background())
			if !want.Valid {
				var ie *journalerr.InvalidError
				if !errors.As(err, &ie) {
					t.Fatalf("Start = %v, want an InvalidError", err)
				}
				var got []string
				for _, d := range ie.Diagnostics {
					got = append(got, d.Code)
				}
				for _, c := range want.Codes {
					if !slices.Contains(got, c) {
						t.Errorf("missing %s among %v", c, got)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			svc, _ := m.Service()
			revs := 0
			for _, c := range svc.Coordinates() {
				revs += len(svc.Revisions(c))
			}
			if want.Artifacts != nil && len(svc.Coordinates()) != *want.Artifacts {
				t.Errorf("%d artifacts, want %d", len(svc.Coordinates()), *want.Artifacts)
			}
			if want.Revisions != nil && revs != *want.Revisions {
				t.Errorf("%d revisions, want %d", revs, *want.Revisions)
			}
		})
	}
}
