package ref

// One test per scenario of journal-management-requirements.md, named after
// the scenario. Boundary scenarios that inspect the API as source live in
// api_test.go.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/journal"
	"github.com/r35157/journal-lint/journal/journalerr"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

const widget = "com.example.widget"

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func coord(s string) vt.Coordinate  { return must(vt.ParseCoordinate(s)) }
func jv(s string) vt.JournalVersion { return must(vt.ParseJournalVersion(s)) }
func version(s string) vt.Version   { return must(vt.ParseVersion(s)) }

// chainTexts returns a genesis and two successors of widget.
func chainTexts() (g, s1, s2 []byte) {
	g = text(widget, "20260110T080000Z", nil, "1.0.0")
	s1 = text(widget, "20260201T080000Z", g, "1.0.0", "1.1.0")
	s2 = text(widget, "20260301T080000Z", s1, "1.0.0", "1.1.0", "1.2.0")
	return
}

// chainTree writes the first n texts of chainTexts (1 to 3) at their paths
// under widget into a new root, and returns the root.
func chainTree(t *testing.T, n int) string {
	t.Helper()
	g, s1, s2 := chainTexts()
	files := map[string][]byte{}
	for i, v := range []string{"20260110T080000Z", "20260201T080000Z", "20260301T080000Z"}[:n] {
		files[widget+"/"+v+".journal"] = [][]byte{g, s1, s2}[i]
	}
	return tree(t, files)
}

func started(t *testing.T, root string, opts ...Option) (journal.ServiceManager, journal.Service) {
	t.Helper()
	m, err := NewServiceManager(root, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	svc, err := m.Service()
	if err != nil {
		t.Fatal(err)
	}
	return m, svc
}

func newIngest(t *testing.T) (*chain.Store, journal.Service) {
	t.Helper()
	st := chain.NewStore()
	return st, &service{store: st}
}

func ingestOK(t *testing.T, st *chain.Store, src string, b []byte) {
	t.Helper()
	if _, _, err := st.Ingest(src, b); err != nil {
		t.Fatalf("ingest %s: %v", src, err)
	}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if !hasCode(err, code) {
		t.Fatalf("got error %v, want one carrying %s", err, code)
	}
}

// hasCode reports whether err carries a diagnostic with code: a
// *journalerr.InvalidError from the manager or a diag.List from ingestion.
func hasCode(err error, code string) bool {
	var ie *journalerr.InvalidError
	if errors.As(err, &ie) {
		return slices.ContainsFunc(ie.Diagnostics, func(d journalerr.Diagnostic) bool { return d.Code == code })
	}
	var ds diag.List
	if errors.As(err, &ds) {
		return slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Code == code })
	}
	return false
}

func TestChronologicalAndLatestQueries(t *testing.T) {
	t.Parallel()
	_, _, s2 := chainTexts()
	root := chainTree(t, 3)
	_, svc := started(t, root)
	revs := svc.Revisions(coord(widget))
	if len(revs) != 3 {
		t.Fatalf("got %d revisions, want 3", len(revs))
	}
	for i, want := range []string{"20260110T080000Z", "20260201T080000Z", "20260301T080000Z"} {
		if got := revs[i].JournalVersion().String(); got != want {
			t.Errorf("revision %d is %s, want %s", i, got, want)
		}
	}
	head, ok := svc.Latest(coord(widget))
	if !ok || head.Digest().String() != digest(s2) {
		t.Errorf("Latest = %v %v, want the head %s", head.Digest(), ok, digest(s2))
	}
	if got := len(head.Releases()); got != 3 {
		t.Errorf("head has %d releases, want the complete snapshot of 3", got)
	}
}

func TestExactAndAsOfHistoricalQueries(t *testing.T) {
	t.Parallel()
	g, s1, s2 := chainTexts()
	root := chainTree(t, 3)
	_, svc := started(t, root)
	c := coord(widget)
	r, ok := svc.Revision(c, jv("20260201T080000Z"))
	if !ok || r.Digest().String() != digest(s1) || len(r.Releases()) != 2 {
		t.Fatalf("exact revision: %v %v with %d releases", r.Digest(), ok, len(r.Releases()))
	}
	for _, tc := range []struct{ at, want string }{
		{"20260110T080000Z", digest(g)},
		{"20260115T000000Z", digest(g)},
		{"20260201T080000Z", digest(s1)},
		{"20260228T235959Z", digest(s1)},
		{"20991231T235959Z", digest(s2)},
	} {
		r, ok := svc.AsOf(c, jv(tc.at))
		if !ok || r.Digest().String() != tc.want {
			t.Errorf("AsOf(%s) = %v %v, want %s", tc.at, r.Digest(), ok, tc.want)
		}
	}
	// The worldview at a chain position is complete: release 1.0.0 is known
	// as of the genesis, 1.1.0 only from the first successor on, whatever
	// their publication times say.
	if r, _ := svc.AsOf(c, jv("20260115T000000Z")); len(r.Releases()) != 1 {
		t.Errorf("as-of genesis worldview has %d releases, want 1", len(r.Releases()))
	}
	if _, ok := svc.AsOf(c, jv("20260101T000000Z")); ok {
		t.Error("AsOf before the genesis found a revision")
	}
}

func TestReleaseQueryFromSelectedWorldview(t *testing.T) {
	t.Parallel()
	root := chainTree(t, 2)
	_, svc := started(t, root)
	c := coord(widget)
	rel, ok := svc.Release(c, jv("20260201T080000Z"), version("1.1.0"))
	if !ok {
		t.Fatal("release 1.1.0 not found in the revision that knows it")
	}
	if rel.License().String() != "MIT" || len(rel.Contents()) != 1 || rel.EffectivePolicy().Verdict() != vt.Allow {
		t.Errorf("release context: license %s, %d contents, policy %s", rel.License(), len(rel.Contents()), rel.EffectivePolicy().Verdict())
	}
	if _, ok := svc.Release(c, jv("20260110T080000Z"), version("1.1.0")); ok {
		t.Error("the genesis does not know 1.1.0, but Release found it")
	}
}

func TestMissingQueryResult(t *testing.T) {
	t.Parallel()
	_, svc := started(t, chainTree(t, 1))
	unknown := coord("org.example.unknown")
	if got := svc.Revisions(unknown); got == nil || len(got) != 0 {
		t.Errorf("Revisions(unknown) = %#v, want an empty non-nil slice", got)
	}
	if _, ok := svc.Latest(unknown); ok {
		t.Error("Latest(unknown) found something")
	}
	if _, ok := svc.Revision(coord(widget), jv("20260111T000000Z")); ok {
		t.Error("Revision(unknown version) found something")
	}
	if _, ok := svc.AsOf(unknown, jv("20260111T000000Z")); ok {
		t.Error("AsOf(unknown) found something")
	}
	if _, ok := svc.Release(coord(widget), jv("20260110T080000Z"), version("9.9.9")); ok {
		t.Error("Release(unknown version) found something")
	}
	empty, _ := started(t, t.TempDir())
	es, _ := empty.Service()
	if got := es.Coordinates(); got == nil || len(got) != 0 {
		t.Errorf("Coordinates() of an empty root = %#v, want an empty non-nil slice", got)
	}
}

func TestValidInternalIngestion(t *testing.T) {
	t.Parallel()
	st, svc := newIngest(t)
	g, _, _ := chainTexts()
	ingestOK(t, st, "genesis", g)
	head, ok := svc.Latest(coord(widget))
	if !ok || head.Digest().String() != digest(g) {
		t.Fatalf("ingested genesis is not queryable under its coordinate: %v %v", head.Digest(), ok)
	}
	if got := svc.Coordinates(); len(got) != 1 || got[0].String() != widget {
		t.Errorf("Coordinates() = %v", got)
	}
}

func TestExactTextDigest(t *testing.T) {
	t.Parallel()
	st, svc := newIngest(t)
	g, _, _ := chainTexts()
	crlf := []byte(replaceAll(string(g), "\n", "\r\n") + "\r\n")
	ingestOK(t, st, "crlf", crlf)
	head, _ := svc.Latest(coord(widget))
	if head.Digest().String() != digest(crlf) {
		t.Errorf("digest %s, want SHA-256 of the exact bytes %s", head.Digest(), digest(crlf))
	}
	if digest(crlf) == digest(g) {
		t.Fatal("test texts must differ in line endings only")
	}
}

func replaceAll(s, old, new string) string {
	out := []byte{}
	for i := 0; i < len(s); {
		if len(s)-i >= len(old) && s[i:i+len(old)] == old {
			out = append(out, new...)
			i += len(old)
			continue
		}
		out = append(out, s[i])
		i++
	}
	return string(out)
}

func TestFailedIngestionIsAtomic(t *testing.T) {
	t.Parallel()
	g, s1, _ := chainTexts()
	bad := map[string][]byte{
		"null":                 nil,
		"empty":                {},
		"blank":                []byte(" \t\n\r\n  \n"),
		"structurally invalid": []byte("JOURNAL_FORMAT 1\nARTIFACT com.example.widget\n"),
		"semantically invalid": append(text(widget, "20260201T080000Z", g, "1.0.0"), []byte("\nRELEASE 1.0.0\nLICENSE MIT\nCONTENT a.jar sha256:0000000000000000000000000000000000000000000000000000000000000000\n")...),
		"chain-invalid":        text(widget, "20260201T080000Z", []byte("not accepted"), "1.0.0"),
	}
	for name, b := range bad {
		t.Run(name, func(t *testing.T) {
			st, svc := newIngest(t)
			ingestOK(t, st, "genesis", g)
			before := st.Snapshot()
			if _, _, err := st.Ingest(name, b); err == nil {
				t.Fatal("ingestion succeeded")
			}
			if st.Snapshot() != before {
				t.Error("a failed ingestion published a new state")
			}
			if revs := svc.Revisions(coord(widget)); len(revs) != 1 || revs[0].Digest().String() != digest(g) {
				t.Errorf("chain changed: %d revisions", len(revs))
			}
			ingestOK(t, st, "successor", s1) // and the chain still accepts its real successor
		})
	}
}

func TestValidSuccessor(t *testing.T) {
	t.Parallel()
	st, svc := newIngest(t)
	g, s1, _ := chainTexts()
	ingestOK(t, st, "g", g)
	ingestOK(t, st, "s1", s1)
	head, _ := svc.Latest(coord(widget))
	if head.Digest().String() != digest(s1) {
		t.Errorf("head is %s, want the successor", head.Digest())
	}
	if r, ok := svc.Revision(coord(widget), jv("20260110T080000Z")); !ok || r.Digest().String() != digest(g) {
		t.Error("the predecessor is no longer historically queryable")
	}
}

func ingestFails(t *testing.T, st *chain.Store, b []byte, code string) {
	t.Helper()
	before := st.Snapshot()
	_, _, err := st.Ingest("test", b)
	wantCode(t, err, code)
	if st.Snapshot() != before {
		t.Fatal("failed ingestion changed the state")
	}
}

func TestMissingOrCrossArtifactPredecessor(t *testing.T) {
	t.Parallel()
	st, svc := newIngest(t)
	g, _, _ := chainTexts()
	other := text("org.example.core", "20260105T090000Z", nil, "1.2.0")
	ingestOK(t, st, "g", g)
	ingestOK(t, st, "other", other)
	ingestFails(t, st, text(widget, "20260201T080000Z", []byte("unknown"), "1.0.0"), "chain/missing-predecessor")
	ingestFails(t, st, text(widget, "20260201T080000Z", other, "1.0.0"), "chain/cross-artifact")
	if n := len(svc.Revisions(coord(widget))) + len(svc.Revisions(coord("org.example.core"))); n != 2 {
		t.Errorf("chains changed: %d revisions", n)
	}
}

func TestForkOrStalePredecessor(t *testing.T) {
	t.Parallel()
	st, _ := newIngest(t)
	g, s1, _ := chainTexts()
	ingestOK(t, st, "g", g)
	ingestOK(t, st, "s1", s1)
	ingestFails(t, st, text(widget, "20260301T080000Z", g, "1.0.0"), "chain/fork")
	ingestFails(t, st, text(widget, "20260301T080000Z", nil, "1.0.0"), "chain/duplicate-genesis")
}

func TestNonIncreasingRevisionTime(t *testing.T) {
	t.Parallel()
	st, _ := newIngest(t)
	g, _, _ := chainTexts()
	ingestOK(t, st, "g", g)
	ingestFails(t, st, text(widget, "20260110T080000Z", g, "1.0.0"), "chain/conflict") // same version: a conflict first
	ingestFails(t, st, text(widget, "20260109T080000Z", g, "1.0.0"), "chain/non-increasing-version")
}

func TestRepeatedIdenticalText(t *testing.T) {
	t.Parallel()
	st, _ := newIngest(t)
	g, _, _ := chainTexts()
	first, _, err := st.Ingest("g", g)
	if err != nil {
		t.Fatal(err)
	}
	before := st.Snapshot()
	again, out, err := st.Ingest("g again", slices.Clone(g))
	if err != nil || out != chain.Unchanged {
		t.Fatalf("repeated ingestion: %v, outcome %v", err, out)
	}
	if again.Revision.Digest() != first.Revision.Digest() || st.Snapshot() != before {
		t.Error("repeated identical text changed the chain or returned another revision")
	}
}

func TestConflictingText(t *testing.T) {
	t.Parallel()
	st, _ := newIngest(t)
	g, _, _ := chainTexts()
	ingestOK(t, st, "g", g)
	// Semantically equal, different bytes: a comment.
	ingestFails(t, st, append([]byte("# same model\n"), g...), "chain/conflict")
}

func TestSuccessfulInitialStart(t *testing.T) {
	t.Parallel()
	g, s1, _ := chainTexts()
	root := tree(t, map[string][]byte{
		widget + "/20260110T080000Z.journal":        g,
		widget + "/20260201T080000Z.journal":        s1,
		"org.example.core/20260105T090000Z.journal": text("org.example.core", "20260105T090000Z", nil, "1.2.0"),
	})
	m, svc := started(t, root)
	if got := svc.Coordinates(); len(got) != 2 {
		t.Errorf("Coordinates() = %v, want both artifacts loaded before Start returned", got)
	}
	if len(svc.Revisions(coord(widget))) != 2 {
		t.Error("the chain was not loaded completely")
	}
	if m.Root() != filepath.Clean(root) {
		t.Errorf("Root() = %s", m.Root())
	}
}

func TestFailedInitialStart(t *testing.T) {
	t.Parallel()
	g, s1, _ := chainTexts()
	cases := map[string]map[string][]byte{
		"placement": {"org.example.other/20260110T080000Z.journal": g},
		"filename":  {widget + "/20260110T080001Z.journal": g},
		"text":      {widget + "/20260110T080000Z.journal": []byte("JOURNAL_FORMAT 2\n")},
		"chain":     {widget + "/20260201T080000Z.journal": s1},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			m, err := NewServiceManager(tree(t, files))
			if err != nil {
				t.Fatal(err)
			}
			err = m.Start(context.Background())
			var ie *journalerr.InvalidError
			if !errors.As(err, &ie) || len(ie.Diagnostics) == 0 || ie.Diagnostics[0].Path == "" {
				t.Fatalf("Start = %v, want an InvalidError with located diagnostics", err)
			}
			if _, err := m.Service(); !errors.Is(err, journalerr.ErrUnavailable) {
				t.Errorf("after a failed start Service() = %v, want ErrUnavailable", err)
			}
		})
	}
	t.Run("root", func(t *testing.T) {
		m, _ := NewServiceManager(filepath.Join(t.TempDir(), "missing"))
		if err := m.Start(context.Background()); !errors.Is(err, journalerr.ErrInvalidRoot) {
			t.Fatalf("Start = %v, want ErrInvalidRoot", err)
		}
		// An empty root names no directory: refused at once, saying so.
		if _, err := NewServiceManager(""); !errors.Is(err, journalerr.ErrInvalidRoot) || !strings.Contains(err.Error(), "the root is empty") {
			t.Errorf(`NewServiceManager("") = %v, want ErrInvalidRoot saying the root is empty`, err)
		}
	})
}

func TestServiceAccessFollowsLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, err := NewServiceManager(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Service(); !errors.Is(err, journalerr.ErrUnavailable) {
		t.Errorf("Service() before Start = %v", err)
	}
	if err := m.Refresh(ctx); !errors.Is(err, journalerr.ErrUnavailable) {
		t.Errorf("Refresh() before Start = %v", err)
	}
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Service(); err != nil {
		t.Errorf("Service() while started = %v", err)
	}
	if err := m.Start(ctx); !errors.Is(err, journalerr.ErrUnavailable) {
		t.Errorf("second Start = %v, want ErrUnavailable", err)
	}
	if err := m.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Service(); !errors.Is(err, journalerr.ErrUnavailable) {
		t.Errorf("Service() after Stop = %v", err)
	}
	if err := m.Refresh(ctx); !errors.Is(err, journalerr.ErrUnavailable) {
		t.Errorf("Refresh() after Stop = %v", err)
	}
}

func TestStopIsNonDestructive(t *testing.T) {
	t.Parallel()
	g, s1, _ := chainTexts()
	root := tree(t, map[string][]byte{
		widget + "/20260110T080000Z.journal":         g,
		widget + "/20260201T080000Z.journal":         s1,
		widget + "/20260201T080000Z.journal.example": s1,
	})
	readOnly(t, root)
	before := fingerprintTree(t, root)
	m, _ := started(t, root)
	ctx := context.Background()
	if err := m.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := m.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if after := fingerprintTree(t, root); after != before {
		t.Errorf("the tree changed:\nbefore %s\nafter  %s", before, after)
	}
}

func TestValidFilesystemLoad(t *testing.T) {
	t.Parallel()
	g, s1, _ := chainTexts()
	_, svc := started(t, chainTree(t, 2))
	revs := svc.Revisions(coord(widget))
	if len(revs) != 2 || revs[0].Digest().String() != digest(g) || revs[1].Digest().String() != digest(s1) {
		t.Fatalf("loaded %d revisions", len(revs))
	}
}

func TestExampleFilesAreIgnored(t *testing.T) {
	t.Parallel()
	g, _, _ := chainTexts()
	root := tree(t, map[string][]byte{widget + "/20260110T080000Z.journal.example": g})
	_, svc := started(t, root)
	if got := svc.Coordinates(); len(got) != 0 {
		t.Errorf("an example was ingested: %v", got)
	}
	_, svc = started(t, root, WithExamples())
	if got := svc.Coordinates(); len(got) != 1 {
		t.Errorf("WithExamples did not load the example: %v", got)
	}
}

func startFails(t *testing.T, root, code string) {
	t.Helper()
	m, err := NewServiceManager(root)
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, m.Start(context.Background()), code)
	if _, err := m.Service(); err == nil {
		t.Error("a failed start exposed a service")
	}
}

func TestInvalidDirectoryPlacement(t *testing.T) {
	t.Parallel()
	g, _, _ := chainTexts()
	startFails(t, tree(t, map[string][]byte{"com.example.gadget/20260110T080000Z.journal": g}), "fs/directory-mismatch")
}

func TestInvalidFilenamePlacement(t *testing.T) {
	t.Parallel()
	g, _, _ := chainTexts()
	startFails(t, tree(t, map[string][]byte{widget + "/20260110T080001Z.journal": g}), "fs/filename-mismatch")
	startFails(t, tree(t, map[string][]byte{widget + "/2026-01-10T08:00:00Z.journal": g}), "fs/bad-filename")
	startFails(t, tree(t, map[string][]byte{widget + "/20260110t080000z.journal": g}), "fs/bad-filename")
}

func TestInvalidRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	startFails(t, missing, "fs/root-missing")
	if _, err := os.Lstat(missing); !os.IsNotExist(err) {
		t.Error("start created the missing root")
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	startFails(t, file, "fs/root-not-directory")
	if os.Geteuid() != 0 {
		locked := filepath.Join(dir, "locked")
		if err := os.Mkdir(locked, 0o000); err != nil {
			t.Fatal(err)
		}
		startFails(t, locked, "fs/root-unreadable")
	}
	// Refresh fails clearly too when the root goes away.
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	m, _ := started(t, root)
	if err := os.Remove(root); err != nil {
		t.Fatal(err)
	}
	wantCode(t, m.Refresh(context.Background()), "fs/root-missing")
	if _, err := os.Lstat(root); !os.IsNotExist(err) {
		t.Error("refresh created the missing root")
	}
}

func TestUnexpectedFilesystemEntry(t *testing.T) {
	t.Parallel()
	g, _, _ := chainTexts()
	cases := map[string]func(root string){
		"file in root":     func(root string) { write(t, root, "README.md", []byte("x")) },
		"nested directory": func(root string) { write(t, root, widget+"/old/20260110T080000Z.journal", g) },
		"other file name":  func(root string) { write(t, root, widget+"/notes.txt", []byte("x")) },
		"symlink": func(root string) {
			write(t, root, "elsewhere/20260110T080000Z.journal", g)
			must(0, os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(root, "com.example.linked")))
		},
		"symlinked file": func(root string) {
			write(t, root, "x", g)
			must(0, os.MkdirAll(filepath.Join(root, widget), 0o755))
			must(0, os.Symlink(filepath.Join(root, "x"), filepath.Join(root, widget, "20260110T080000Z.journal")))
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			setup(root)
			startFails(t, root, "fs/unexpected-entry")
		})
	}
}

func TestUnchangedRefresh(t *testing.T) {
	t.Parallel()
	m, svc := started(t, chainTree(t, 2))
	ctx := context.Background()
	before := svc.Revisions(coord(widget))
	for i := range 2 {
		if err := m.Refresh(ctx); err != nil {
			t.Fatalf("refresh %d: %v", i+1, err)
		}
	}
	after := svc.Revisions(coord(widget))
	if len(after) != len(before) || after[1].Digest() != before[1].Digest() {
		t.Error("an unchanged refresh changed the chain")
	}
}

func TestNewRevisionDiscovered(t *testing.T) {
	t.Parallel()
	_, s1, s2 := chainTexts()
	root := chainTree(t, 1)
	m, svc := started(t, root)
	ctx := context.Background()
	write(t, root, widget+"/20260201T080000Z.journal", s1)
	if err := m.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	write(t, root, widget+"/20260301T080000Z.journal", s2)
	if err := m.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	head, _ := svc.Latest(coord(widget))
	if head.Digest().String() != digest(s2) || len(svc.Revisions(coord(widget))) != 3 {
		t.Errorf("head %s after refresh, want the new successor", head.Digest())
	}
}
