package check_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/render"
)

// TestPriorEqualsFresh checks the promise of Options.Prior: a run that takes
// over an earlier one gives exactly the output of a run from scratch. A
// generated tree goes through a random sequence of unsaved buffers
// (Overlay: edits, new successors, new artifacts, closed buffers, buffers
// that name another artifact's revision or drop a release that other
// artifacts depend on, buffers where no Journal belongs or in a directory
// that is a file or a link on disk), changes on disk (found with Rescan) and a new
// configuration (whose findings a prior run cannot give); after each
// step the JSON output, the counts and every chain head of the run with
// Prior equal those of a fresh run. In a git work tree (committed, without
// the attributes that keep git from converting Journals, so that
// repo/eol-conversion and the explanations of edited committed revisions
// come up) further steps commit the work tree, stage it, move HEAD back
// and add or remove a .gitattributes at the top or in an artifact
// directory (found with Rescan, which asks git again when the repository's
// stamp changed, or a .gitattributes in an artifact directory came or
// went). A long test: 80
// steps, 20 when tests run small (longtest.Small).
func TestPriorEqualsFresh(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("an equivalence test: go test without -short runs it")
	}
	t.Run("plain", func(t *testing.T) { priorEqualsFresh(t, false) })
	t.Run("git", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("git not installed")
		}
		priorEqualsFresh(t, true)
	})
}

func priorEqualsFresh(t *testing.T, inGit bool) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "journals")
	tr, err := gen.Write(root, gen.Options{Files: 40, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.org"}, args...)...)
		cmd.Dir = filepath.Dir(root)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// Two names of artifact directories hold something else on disk: a
	// regular file, and a link to a directory outside the root that holds
	// a Journal, which the walk must never read.
	blocked := []string{"org.blocked.file", "org.blocked.link"}
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, tr.Files[0].Path[strings.LastIndex(tr.Files[0].Path, "/")+1:]), tr.Files[0].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, blocked[0]), []byte("a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, blocked[1])); err != nil {
		t.Fatal(err)
	}
	kindsOf := []string{"edit", "edit", "successor", "close", "cross", "drop-release", "new-artifact", "disk", "same", "config"}
	if inGit {
		git("init", "-q")
		git("add", "-A")
		git("commit", "-q", "-m", "tree")
		kindsOf = append(kindsOf, "commit", "stage", "attributes", "dir-attributes", "reset")
	}
	commits := 1
	var gitFindings []string // what only git can tell, which the steps must meet
	if inGit {
		gitFindings = []string{"repo/eol-conversion", "differs from its committed bytes at HEAD"}
	}
	seen := map[string]bool{}
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	cfg := config.Default()
	run := func(overlay map[string][]byte, prior *check.Result, rescan bool) (*check.Result, string) {
		t.Helper()
		res, err := check.Run(context.Background(), check.Options{Root: root, Now: now, Config: cfg, Overlay: overlay, KeepState: true, Prior: prior, Rescan: rescan})
		if err != nil {
			t.Fatal(err)
		}
		rep := render.Report{Root: root, Diagnostics: res.Diagnostics, Source: res.Source,
			Summary: render.Summary{Files: res.Files, Artifacts: res.Artifacts, Revisions: res.Revisions}}
		var js bytes.Buffer
		if err := render.Write(&js, render.JSON, rep, render.Options{}); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&js, "\nfiles %d artifacts %d revisions %d\n", res.Files, res.Artifacts, res.Revisions)
		st := res.Load.State
		for _, c := range st.Coordinates() {
			h, _ := st.Head(c)
			fmt.Fprintf(&js, "head %s %s %s\n", c, h.Source, h.Revision.Digest())
		}
		return res, js.String()
	}

	paths := make([]string, len(tr.Files))
	for i, f := range tr.Files {
		paths[i] = f.Path
	}
	rng := rand.New(rand.NewPCG(5, 6))
	blockedRng := rand.New(rand.NewPCG(7, 8)) // its own, so that the other steps stay as they were
	overlay := map[string][]byte{}
	text := func(p string) []byte {
		if b, ok := overlay[p]; ok {
			return b
		}
		b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		return b
	}
	lines := func(b []byte) []string { return strings.SplitAfter(string(b), "\n") }
	digestOf := func(p string) string { return gen.Digest(text(p)) }
	jv := regexp.MustCompile(`(?m)^JOURNAL_VERSION \S+`)
	pred := regexp.MustCompile(`(?m)^PREDECESSOR \S+`)
	art := regexp.MustCompile(`(?m)^ARTIFACT \S+`)
	later := func(p string, n int) string { // a timestamp n minutes after the head of p's directory
		dir := filepath.Dir(filepath.FromSlash(p))
		var last string
		for _, q := range paths {
			if filepath.Dir(filepath.FromSlash(q)) == dir {
				last = q
			}
		}
		stem := strings.TrimSuffix(filepath.Base(last), ".journal")
		ts, _ := time.Parse("20060102T150405Z", stem)
		return gen.Stamp(ts.Add(time.Duration(n) * time.Minute))
	}

	prior, _ := run(overlay, nil, false)
	kinds := map[string]int{}
	for step := range longtest.Size(80, 20) {
		rescan := false
		p := paths[rng.IntN(len(paths))]
		kind := kindsOf[rng.IntN(len(kindsOf))]
		kinds[kind]++
		if step%7 == 3 { // besides: a buffer where no Journal belongs, or in a directory that is a file or a link on disk
			q := paths[blockedRng.IntN(len(paths))]
			name := filepath.Base(q)
			switch blockedRng.IntN(4) {
			case 0: // directly in the root
				overlay[name] = text(q)
			case 1: // in a directory named as no coordinate
				overlay["Widget/"+name] = text(q)
			case 2: // in a directory inside an artifact's
				overlay[filepath.ToSlash(filepath.Dir(q))+"/old/"+name] = text(q)
			default:
				co := blocked[blockedRng.IntN(len(blocked))]
				overlay[co+"/"+name] = art.ReplaceAll(text(q), []byte("ARTIFACT "+co))
			}
			kinds["blocked"]++
		}
		switch kind {
		case "edit": // delete, duplicate or change one line
			ls := lines(text(p))
			i := rng.IntN(len(ls))
			switch rng.IntN(3) {
			case 0:
				ls = slices.Delete(ls, i, i+1)
			case 1:
				ls = slices.Insert(ls, i, ls[i])
			case 2:
				ls[i] = strings.Replace(ls[i], "1", "2", 1)
			}
			overlay[p] = []byte(strings.Join(ls, ""))
		case "successor": // a draft successor of the directory's head
			n := fmt.Sprintf("%s/%s.journal", filepath.ToSlash(filepath.Dir(p)), later(p, 1+rng.IntN(3)))
			head := paths[slices.IndexFunc(paths, func(q string) bool { return strings.HasPrefix(n, filepath.ToSlash(filepath.Dir(q))+"/") })]
			for _, q := range paths {
				if filepath.Dir(q) == filepath.Dir(head) {
					head = q
				}
			}
			b := text(head)
			b = jv.ReplaceAll(b, []byte("JOURNAL_VERSION "+strings.TrimSuffix(filepath.Base(n), ".journal")))
			if pred.Match(b) {
				b = pred.ReplaceAll(b, []byte("PREDECESSOR "+digestOf(head)))
			}
			overlay[n] = b
		case "close":
			for q := range overlay {
				delete(overlay, q)
				break
			}
		case "cross": // PREDECESSOR names a revision of another artifact
			q := paths[rng.IntN(len(paths))]
			overlay[p] = pred.ReplaceAll(text(p), []byte("PREDECESSOR "+digestOf(q)))
		case "drop-release": // the last release goes (dependents may lose what they need)
			b := text(p)
			if i := bytes.LastIndex(b, []byte("\nRELEASE ")); i >= 0 {
				overlay[p] = b[:i+1]
			}
		case "new-artifact":
			co := fmt.Sprintf("org.new.a%d", rng.IntN(3))
			b := art.ReplaceAll(text(p), []byte("ARTIFACT "+co))
			overlay[co+"/"+strings.TrimSuffix(filepath.Base(p), ".journal")+".journal"] = b
		case "disk": // a file changes on disk; the run rescans
			abs := filepath.Join(root, filepath.FromSlash(p))
			b, _ := os.ReadFile(abs)
			if err := os.WriteFile(abs, append(b, "# changed on disk\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			rescan = true
		case "commit": // the work tree (with the disk changes) is committed; the run rescans
			git("commit", "-q", "-a", "--allow-empty", "-m", fmt.Sprintf("step %d", step))
			commits++
			rescan = true
		case "stage": // the disk changes are staged, HEAD stays; the run rescans
			git("add", "-A")
			rescan = true
		case "reset": // HEAD moves back, the index stays; the run rescans
			if commits > 1 {
				git("reset", "-q", "--soft", "HEAD~1")
				commits--
			}
			rescan = true
		case "attributes": // a .gitattributes at the top keeps git from converting Journals, or goes; the run rescans
			attrs := filepath.Join(filepath.Dir(root), ".gitattributes")
			if err := os.Remove(attrs); os.IsNotExist(err) {
				err = os.WriteFile(attrs, []byte("*.journal -text\n"), 0o644)
			}
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			rescan = true
		case "dir-attributes": // an untracked .gitattributes in p's artifact directory comes or goes; the run rescans
			attrs := filepath.Join(root, filepath.Dir(filepath.FromSlash(p)), ".gitattributes")
			if err := os.Remove(attrs); os.IsNotExist(err) {
				err = os.WriteFile(attrs, []byte("*.journal -text\n"), 0o644)
			}
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			rescan = true
		case "config": // another configuration: no findings can be copied, no artifact taken over
			cfg = config.Default()
		case "same": // a buffer equal to the disk
			b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			overlay[p] = b
		}
		_, want := run(overlay, nil, false)
		res, got := run(overlay, prior, rescan)
		if got != want {
			t.Fatalf("step %d (%s %s): with Prior (+) differs from a fresh run (-):\n%s", step, kind, p, cmp.Diff(want, got))
		}
		prior = res
		for _, g := range gitFindings {
			seen[g] = seen[g] || strings.Contains(want, g)
		}
	}
	t.Logf("steps: %v", kinds)
	for _, g := range gitFindings {
		if !seen[g] {
			t.Errorf("no step found %q: the git side went untested", g)
		}
	}
}

// TestPriorSeesArtifactAttributesRemoved: an untracked .gitattributes in an
// artifact directory, which the repository's stamp does not cover, is
// removed between two runs that take over git's answers by that stamp. The
// second run must not keep the attributes asked while the file was there
// (it counted 2 files that git may convert where a fresh run counts 6).
func TestPriorSeesArtifactAttributesRemoved(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	top := t.TempDir()
	root := filepath.Join(top, "journals")
	tr, err := gen.Write(root, gen.Options{Files: 6, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "tree"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.org"}, args...)...)
		cmd.Dir = top
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	attrs := filepath.Join(root, filepath.Dir(filepath.FromSlash(tr.Files[0].Path)), ".gitattributes")
	if err := os.WriteFile(attrs, []byte("*.journal -text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	cfg := config.Default()
	run := func(prior *check.Result) *check.Result {
		t.Helper()
		res, err := check.Run(context.Background(), check.Options{Root: root, Config: cfg, Now: now, KeepState: true, Prior: prior, Rescan: true})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	prior := run(nil)
	// Past the window in which a recent file under .git keeps the
	// repository's stamp from being taken (gitrepo.Repo.Stamp), then a
	// run that asks git again (the first run's git rewrote the index)
	// and takes a stamp, with the file still there.
	time.Sleep(50 * time.Millisecond)
	prior = run(prior)
	if err := os.Remove(attrs); err != nil {
		t.Fatal(err)
	}
	want, got := run(nil), run(prior)
	if d := cmp.Diff(want.Diagnostics, got.Diagnostics); d != "" {
		t.Errorf("with Prior (+) differs from a fresh run (-):\n%s", d)
	}
}
