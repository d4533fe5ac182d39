package check_test

// The property of architecture.md "One validation path", on a mutation
// corpus of generated trees (issue 3): `check` reports no diagnostic with a
// validity code if and only if ServiceManager.Start succeeds on the same
// root, and an injected fault's code is among check's errors.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/journal/impl/ref"
	"github.com/r35157/journal-lint/journal/journalerr"
	"github.com/r35157/journal-lint/rules"
)

// corpusCase is one tree of the mutation corpus.
type corpusCase struct {
	name string
	// make writes the tree under root and returns the fault it injected
	// (zero Code for none); an error wrapping gen.ErrNotExpressible skips
	// the case.
	make func(root string) (gen.Fault, error)
}

// corpus returns the cases of the mutation corpus: valid trees, every
// validity code injected into a few trees each, and random mutations. When
// tests run small (longtest.Small) there are fewer of each, every code
// still injected into two trees.
func corpus() []corpusCase {
	var cs []corpusCase
	// Small trees (3 to 7 files) keep the corpus fast.
	base := func(seed uint64) gen.Options { return gen.Options{Files: 3 + int(seed%5), Seed: seed} }
	for seed := range uint64(longtest.Size(40, 10)) {
		cs = append(cs, corpusCase{fmt.Sprintf("valid/seed%d", seed), func(root string) (gen.Fault, error) {
			_, err := gen.Write(root, base(seed))
			return gen.Fault{}, err
		}})
	}
	for _, code := range gen.Codes() {
		for seed := range uint64(longtest.Size(4, 2)) {
			seed := seed + 100
			cs = append(cs, corpusCase{fmt.Sprintf("fault/%s/seed%d", code, seed), func(root string) (gen.Fault, error) {
				if _, err := gen.Write(root, base(seed)); err != nil {
					return gen.Fault{}, err
				}
				return gen.Inject(root, code, seed)
			}})
		}
	}
	for seed := range uint64(longtest.Size(70, 20)) {
		seed := seed + 1000
		cs = append(cs, corpusCase{fmt.Sprintf("mutation/seed%d", seed), func(root string) (gen.Fault, error) {
			if _, err := gen.Write(root, base(seed)); err != nil {
				return gen.Fault{}, err
			}
			_, err := gen.Mutate(root, seed)
			return gen.Fault{}, err
		}})
	}
	return cs
}

// outcome is what building and checking one corpus tree gave.
type outcome struct {
	fault              gen.Fault
	setupErr, checkErr error
	startErr           error
	res                *check.Result
}

// runCorpus builds and checks every case with a few goroutines (most of the
// time goes to the filesystem and to subprocesses, not to the CPU).
func runCorpus(t *testing.T, cases []corpusCase) []outcome {
	dir := t.TempDir()
	outs := make([]outcome, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				root := filepath.Join(dir, fmt.Sprint(i), "journals")
				o := &outs[i]
				if o.fault, o.setupErr = cases[i].make(root); o.setupErr != nil {
					continue
				}
				o.res, o.checkErr = check.Run(context.Background(), check.Options{Root: root, Examples: o.fault.Examples})
				o.startErr = startErr(root, o.fault.Examples)
				if o.fault.Cleanup != nil {
					o.fault.Cleanup()
				}
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return outs
}

// startErr runs ServiceManager.Start on root and returns its error.
func startErr(root string, examples bool) error {
	var opts []ref.Option
	if examples {
		opts = append(opts, ref.WithExamples())
	}
	m, err := ref.NewServiceManager(root, opts...)
	if err != nil {
		return err
	}
	if err := m.Start(context.Background()); err != nil {
		return err
	}
	return m.Stop(context.Background())
}

func runCheck(t *testing.T, root string, examples bool) *check.Result {
	t.Helper()
	res, err := check.Run(context.Background(), check.Options{Root: root, Examples: examples})
	if err != nil {
		t.Fatalf("check.Run: %v", err)
	}
	return res
}

func validity(ds diag.List) diag.List {
	var out diag.List
	for _, d := range ds {
		if rules.IsValidity(d.Code) {
			out = append(out, d)
		}
	}
	return out
}

func TestCheckValidityIffStartSucceeds(t *testing.T) {
	t.Parallel()
	cases := corpus()
	outs := runCorpus(t, cases)
	ran, invalid, injected := 0, 0, map[string]bool{}
	for i, c := range cases {
		o := outs[i]
		t.Run(c.name, func(t *testing.T) {
			if errors.Is(o.setupErr, gen.ErrNotExpressible) {
				t.Skip(o.setupErr)
			}
			if o.setupErr != nil {
				t.Fatal(o.setupErr)
			}
			if o.checkErr != nil {
				t.Fatalf("check.Run: %v", o.checkErr)
			}
			ran++
			if o.startErr != nil {
				invalid++
			}
			f := o.fault
			if f.Code != "" {
				injected[f.Code] = true
			}
			vs := validity(o.res.Diagnostics)
			if (len(vs) == 0) != (o.startErr == nil) {
				t.Fatalf("property broken: check reports %d validity diagnostics %v, but Start returned %v", len(vs), vs, o.startErr)
			}
			for _, d := range vs {
				if d.Severity != diag.Error {
					t.Errorf("validity diagnostic %s has severity %v, want error", d.Code, d.Severity)
				}
			}
			var ie *journalerr.InvalidError
			if o.startErr != nil && !errors.As(o.startErr, &ie) {
				t.Errorf("Start failed without the diagnostics (no *journalerr.InvalidError): %v", o.startErr)
			}
			if strings.HasPrefix(c.name, "valid/") && len(vs) > 0 {
				t.Errorf("a generated tree is invalid: %v", vs)
			}
			if f.Code != "" && !slices.ContainsFunc(o.res.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == f.Code && d.Severity == diag.Error }) {
				t.Errorf("injected %s (%s at %q) but check reported %v", f.Code, f.Note, f.Path, o.res.Diagnostics)
			}
		})
	}
	if want := longtest.Size(200, 60); ran < want {
		t.Errorf("only %d trees checked, want at least %d", ran, want)
	}
	if invalid == 0 || invalid == ran {
		t.Errorf("%d of %d trees invalid: the corpus does not exercise both sides", invalid, ran)
	}
	// Every validity code that can be expressed in a tree by this user was
	// injected at least once.
	for _, code := range gen.Codes() {
		switch {
		case code == rules.ChainNonIncreasingVersion:
			continue // cannot occur in a single load (see gen)
		case (code == rules.FSUnreadableFile || code == rules.FSRootUnreadable) && os.Geteuid() == 0:
			continue
		}
		if !injected[code] {
			t.Errorf("no tree of the corpus had an injected %s", code)
		}
	}
	t.Logf("%d trees, %d invalid, %d codes injected", ran, invalid, len(injected))
}

// journal builds a small valid text of coordinate c at version v, with
// predecessor text pred (nil for a genesis) and extra lines in its release.
func journal(c, v string, pred []byte, extra ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "JOURNAL_FORMAT 1\nARTIFACT %s\nJOURNAL_VERSION %s\n", c, v)
	if pred != nil {
		fmt.Fprintf(&b, "PREDECESSOR %s\n", digest(pred))
	}
	fmt.Fprintf(&b, "DESCRIPTION \"%s\"\n\nRELEASE 1.0.0\nLICENSE MIT\nCONTENT a.tar.gz sha256:%064x\nPUBLISHED 20200101T000000Z\n", c, len(v))
	for _, e := range extra {
		b.WriteString(e + "\n")
	}
	return []byte(b.String())
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

func writeTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	root := t.TempDir()
	for rel, b := range files {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// find returns the diagnostic with code at path.
func find(ds diag.List, code, path string) (diag.Diagnostic, bool) {
	i := slices.IndexFunc(ds, func(d diag.Diagnostic) bool { return d.Code == code && d.Path == path })
	if i < 0 {
		return diag.Diagnostic{}, false
	}
	return ds[i], true
}

// TestCrossArtifactWhateverTheLoadOrder names a revision of an artifact
// that loads before, one that loads after, and one that was rejected.
func TestCrossArtifactWhateverTheLoadOrder(t *testing.T) {
	t.Parallel()
	const first, last = "aaa.example.first", "zzz.example.last"
	gFirst := journal(first, "20250101T000000Z", nil)
	gLast := journal(last, "20250101T000000Z", nil)
	badLast := journal(last, "20250101T000000Z", nil, "LICENSE Apache-2.0") // two LICENSE lines: rejected
	for _, tc := range []struct {
		name          string
		files         map[string][]byte
		path, related string
	}{
		{"named revision loads before", map[string][]byte{
			first + "/20250101T000000Z.journal": gFirst,
			last + "/20250101T000000Z.journal":  gLast,
			last + "/20250201T000000Z.journal":  journal(last, "20250201T000000Z", gFirst),
		}, last + "/20250201T000000Z.journal", first + "/20250101T000000Z.journal"},
		{"named revision loads after", map[string][]byte{
			first + "/20250101T000000Z.journal": gFirst,
			first + "/20250201T000000Z.journal": journal(first, "20250201T000000Z", gLast),
			last + "/20250101T000000Z.journal":  gLast,
		}, first + "/20250201T000000Z.journal", last + "/20250101T000000Z.journal"},
		{"named revision was rejected", map[string][]byte{
			first + "/20250101T000000Z.journal": gFirst,
			first + "/20250201T000000Z.journal": journal(first, "20250201T000000Z", badLast),
			last + "/20250101T000000Z.journal":  badLast,
		}, first + "/20250201T000000Z.journal", last + "/20250101T000000Z.journal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, tc.files)
			res := runCheck(t, root, false)
			d, ok := find(res.Diagnostics, rules.ChainCrossArtifact, tc.path)
			if !ok {
				t.Fatalf("no chain/cross-artifact at %s: %v", tc.path, res.Diagnostics)
			}
			if d.Severity != diag.Error || !slices.ContainsFunc(d.Related, func(r diag.Related) bool { return r.Path == tc.related }) {
				t.Errorf("chain/cross-artifact %+v: want an error related to %s", d, tc.related)
			}
			if _, missing := find(res.Diagnostics, rules.ChainMissingPredecessor, tc.path); missing {
				t.Errorf("also reported as chain/missing-predecessor: %v", res.Diagnostics)
			}
			if err := startErr(root, false); err == nil {
				t.Error("Start succeeded on a tree with a cross-artifact PREDECESSOR")
			}
		})
	}
}

// TestBrokenLinkIsBridged: files after a broken link are still checked
// against the last good head, and a check/bridged-link info says so.
func TestBrokenLinkIsBridged(t *testing.T) {
	t.Parallel()
	const c = "com.example.bridge"
	g := journal(c, "20250101T000000Z", nil)
	s1 := journal(c, "20250201T000000Z", g, "LICENSE Not-A-License-1.0") // rejected
	s2 := journal(c, "20250301T000000Z", s1)                             // names the rejected s1
	s3 := journal(c, "20250401T000000Z", g)                              // names g, no longer the head
	s4 := journal(c, "20250501T000000Z", s2, "EXCLUDES "+c)              // checked after the bridge
	p := func(v string) string { return c + "/" + v + ".journal" }
	root := writeTree(t, map[string][]byte{
		p("20250101T000000Z"): g, p("20250201T000000Z"): s1, p("20250301T000000Z"): s2,
		p("20250401T000000Z"): s3, p("20250501T000000Z"): s4,
	})
	res := runCheck(t, root, false)

	if _, ok := find(res.Diagnostics, rules.ValueLicense, p("20250201T000000Z")); !ok {
		t.Errorf("the broken link is not reported: %v", res.Diagnostics)
	}
	note, ok := find(res.Diagnostics, rules.CheckBridgedLink, p("20250301T000000Z"))
	if !ok {
		t.Fatalf("no %s note on the file after the broken link: %v", rules.CheckBridgedLink, res.Diagnostics)
	}
	if note.Severity != diag.Info || !slices.ContainsFunc(note.Related, func(r diag.Related) bool { return r.Path == p("20250101T000000Z") }) ||
		!strings.Contains(note.Message, "20250101T000000Z") {
		t.Errorf("bridged note %+v: want an info naming the last good head 20250101T000000Z", note)
	}
	if !slices.ContainsFunc(note.Related, func(r diag.Related) bool { return r.Path == p("20250201T000000Z") }) {
		t.Errorf("bridged note %+v: want the rejected revision 20250201T000000Z among its related places", note)
	}
	for _, d := range res.Diagnostics {
		if d.Path == p("20250301T000000Z") && d.Severity == diag.Error {
			t.Errorf("the bridged revision itself is valid, got %v", d)
		}
	}
	// The bridged revision became the head: a later file naming the genesis
	// forks, and one naming the bridged revision is checked in full.
	if _, ok := find(res.Diagnostics, rules.ChainFork, p("20250401T000000Z")); !ok {
		t.Errorf("a revision naming the old head after the bridge is not a fork: %v", res.Diagnostics)
	}
	if _, ok := find(res.Diagnostics, rules.SemanticSelfReference, p("20250501T000000Z")); !ok {
		t.Errorf("a file after the bridge was not checked: %v", res.Diagnostics)
	}
	if got := res.Revisions; got != 2 {
		t.Errorf("%d revisions accepted, want the genesis and the bridged one", got)
	}
	if err := startErr(root, false); err == nil {
		t.Error("Start succeeded on a tree with a broken link")
	}
}
