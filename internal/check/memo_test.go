package check_test

// The persistent cache (memo.go) must be invisible: a check that takes
// artifacts from records of earlier runs reports exactly what a check
// without a cache reports, in every format. These tests drive a Journal
// repository through random changes and the classic bugs of other
// linters' caches, and compare each check with one run without a cache.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/render"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// repo is a git repository with a Journal root at journals/, its
// configuration and the clock its checks run at.
type repo struct {
	t         *testing.T
	dir, root string
	cfgText   string
	now       time.Time
	// summaries counts the checks that took the tree from a summary.
	summaries int
}

// newRepo generates a tree of files revisions (seed) in a new repository
// and commits it.
func newRepo(t *testing.T, files int, seed uint64) *repo {
	t.Helper()
	dir := t.TempDir()
	r := &repo{t: t, dir: dir, root: filepath.Join(dir, "journals"), now: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	if _, err := gen.Write(r.root, gen.Options{Files: files, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	r.write(".gitattributes", "*.journal -text\n")
	r.git("init", "-q", "-b", "main")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "tree")
	return r
}

// git runs git in the repository and returns its output.
func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=test", "GIT_COMMITTER_NAME=test", "GIT_AUTHOR_EMAIL=test@example.org", "GIT_COMMITTER_EMAIL=test@example.org")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// write writes text to the file at path, relative to the repository.
func (r *repo) write(path, text string) {
	r.t.Helper()
	abs := filepath.Join(r.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// files returns the root-relative paths of the Journal files, sorted.
func (r *repo) files() []string {
	r.t.Helper()
	var out []string
	filepath.WalkDir(r.root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".journal") {
			rel, _ := filepath.Rel(r.root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// head returns the newest file of the artifact directory of path.
func (r *repo) head(path string) string {
	dir, _, _ := strings.Cut(path, "/")
	var last string
	for _, f := range r.files() {
		if strings.HasPrefix(f, dir+"/") {
			last = f
		}
	}
	return last
}

// read returns the bytes of the root-relative path.
func (r *repo) read(path string) []byte {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(path)))
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

// config returns the parsed configuration of r.cfgText.
func (r *repo) config() *config.Config {
	r.t.Helper()
	if r.cfgText == "" {
		return config.Default()
	}
	cfg, err := config.Parse(filepath.Join(r.dir, ".journal-lint.yaml"), []byte(r.cfgText))
	if err != nil {
		r.t.Fatal(err)
	}
	return cfg
}

// reported is everything a check reports, in every format.
type reported struct {
	Err          string
	Diagnostics  string
	Fingerprints map[int]string
	Counts       [3]int
	Reports      map[string]string
}

// check runs a check of r's root as opts say (Root, Config and Now are
// filled in) with the cache st (nil for none) and returns what it
// reported.
func (r *repo) check(opts check.Options, st *memo.Store) reported {
	o, _ := r.checkCounting(opts, st)
	return o
}

// checkCounting is check, and returns how many artifacts the check took
// from the cache too.
func (r *repo) checkCounting(opts check.Options, st *memo.Store) (reported, int) {
	r.t.Helper()
	opts.Root, opts.Config, opts.Now, opts.Cache = r.root, r.config(), r.now, st
	// As a command of journal-lint runs it: git is asked each question once.
	res, err := check.Run(gitrepo.WithMemo(context.Background()), opts)
	if err != nil {
		return reported{Err: err.Error()}, 0
	}
	o := reported{Fingerprints: res.Fingerprints, Counts: [3]int{res.Files, res.Artifacts, res.Revisions}, Reports: map[string]string{}}
	var ds strings.Builder
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&ds, "%#v\n", d)
	}
	o.Diagnostics = ds.String()
	report := render.Report{Root: r.root, Diagnostics: res.Diagnostics, Source: res.Source, Fingerprints: res.Fingerprints,
		Summary: render.Summary{Files: res.Files, Artifacts: res.Artifacts, Revisions: res.Revisions},
		Tool:    render.ToolInfo{Name: "journal-lint", Version: "0.0.0"}}
	if b := res.Baseline; b != nil {
		report.Baseline = &render.Baseline{Rev: b.Rev, Commit: b.Commit, MergeBase: b.MergeBase, Head: b.Head}
	}
	for _, f := range []render.Format{render.Text, render.JSON, render.SARIF, render.GitHub} {
		var out bytes.Buffer
		if err := render.Write(&out, f, report, render.Options{PathPrefix: "journals"}); err != nil {
			r.t.Fatal(err)
		}
		o.Reports[fmt.Sprint(f)] = out.String()
	}
	if res.FromSummary > 0 {
		r.summaries++
	}
	return o, res.Reused + res.FromSummary
}

// same checks r as opts say with the cache st and without one, fails the
// test when they report differently, and returns how many artifacts the
// check with the cache took from it.
func (r *repo) same(what string, opts check.Options, st *memo.Store) int {
	r.t.Helper()
	with, reused := r.checkCounting(opts, st)
	without := r.check(opts, nil)
	if d := cmp.Diff(without, with); d != "" {
		r.t.Fatalf("%s: the check with the cache reports otherwise (-without +with):\n%s", what, d)
	}
	return reused
}

// openStore opens a cache in dir for mode.
func openStore(t *testing.T, dir string, mode memo.Mode) *memo.Store {
	t.Helper()
	st, err := memo.Open(dir, mode, false)
	if err != nil {
		t.Fatal(err)
	}
	st.Warn = func(msg string) { t.Errorf("cache warning: %s", msg) }
	return st
}

// change is one random change of a repository; it returns what it did.
type change func(r *repo, rnd *rand.Rand) string

func pick[T any](rnd *rand.Rand, xs []T) T { return xs[rnd.IntN(len(xs))] }

var changes = []change{
	func(r *repo, rnd *rand.Rand) string { // a new revision
		head := r.head(pick(rnd, r.files()))
		dir, name, _ := strings.Cut(head, "/")
		rel, data := gen.Successor(dir, strings.TrimSuffix(name, ".journal"), r.read(head))
		r.write("journals/"+rel, string(data))
		return "add " + rel
	},
	func(r *repo, rnd *rand.Rand) string { // an edit in place (may break anything)
		p, err := gen.Mutate(r.root, rnd.Uint64())
		if err != nil {
			r.t.Fatal(err)
		}
		return "mutate " + p
	},
	func(r *repo, rnd *rand.Rand) string { // a revision deleted
		fs := r.files()
		if len(fs) < 3 {
			return "nothing"
		}
		p := pick(rnd, fs)
		os.Remove(filepath.Join(r.root, p))
		return "delete " + p
	},
	func(r *repo, rnd *rand.Rand) string { // a revision renamed
		p := pick(rnd, r.files())
		q := strings.Replace(p, ".journal", "", 1)[:len(p)-len(".journal")-2] + "59.journal"
		os.Rename(filepath.Join(r.root, p), filepath.Join(r.root, q))
		return "rename " + p + " to " + q
	},
	func(r *repo, rnd *rand.Rand) string { // a DEPENDS target gains a release
		head := r.head(pick(rnd, r.files()))
		dir, name, _ := strings.Cut(head, "/")
		rel, data := gen.Successor(dir, strings.TrimSuffix(name, ".journal"), r.read(head))
		r.write("journals/"+rel, string(data)+"\nRELEASE 99.0.0\nLICENSE MIT\nCONTENT x-99.0.0.jar sha256:"+strings.Repeat("ab", 32)+"\n")
		return "release 99.0.0 in " + rel
	},
	func(r *repo, rnd *rand.Rand) string { // the configuration
		r.cfgText = pick(rnd, []string{"",
			"rules:\n  license/noassertion: off\n",
			"rules:\n  license/noassertion: error\n  style/crlf: info\n",
			"rules:\n  history/no-semantic-change: warning\n",
			"rules:\n  deps/unsatisfiable: off\n",
			"options:\n  time/future-version:\n    skew: 1h\n",
		})
		return "config " + strings.ReplaceAll(r.cfgText, "\n", " ")
	},
	func(r *repo, rnd *rand.Rand) string { // CRLF line endings
		p := pick(rnd, r.files())
		crlf := bytes.ReplaceAll(bytes.ReplaceAll(r.read(p), []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		r.write("journals/"+p, string(crlf))
		return "crlf " + p
	},
	func(r *repo, rnd *rand.Rand) string { // the attributes
		text := pick(rnd, []string{"*.journal -text\n", "*.journal text=auto\n", ""})
		r.write(".gitattributes", text)
		return "gitattributes " + strings.TrimSpace(text)
	},
	func(r *repo, rnd *rand.Rand) string { // an artifact directory's own attributes, untracked until staged
		dir, _, _ := strings.Cut(pick(rnd, r.files()), "/")
		text := pick(rnd, []string{"*.journal text eol=crlf\n", "*.journal -text\n", ""})
		if text == "" {
			os.Remove(filepath.Join(r.root, dir, ".gitattributes"))
			return "no gitattributes in " + dir
		}
		r.write("journals/"+dir+"/.gitattributes", text)
		return "gitattributes in " + dir + ": " + strings.TrimSpace(text)
	},
	func(r *repo, rnd *rand.Rand) string { // the clock, across time/future-version's boundary
		head := r.head(pick(rnd, r.files()))
		dir, name, _ := strings.Cut(head, "/")
		rel, data := gen.Successor(dir, strings.TrimSuffix(name, ".journal"), r.read(head))
		future := gen.Stamp(r.now.Add(30 * time.Hour))
		stem := strings.TrimSuffix(rel[len(dir)+1:], ".journal")
		text := strings.Replace(string(data), "JOURNAL_VERSION "+stem, "JOURNAL_VERSION "+future, 1)
		r.write("journals/"+dir+"/"+future+".journal", text)
		r.now = r.now.Add(time.Duration(rnd.IntN(48)) * time.Hour)
		return "future revision " + future + ", clock " + r.now.Format(time.RFC3339)
	},
	func(r *repo, rnd *rand.Rand) string { // stage
		r.git("add", "-A")
		return "git add"
	},
	func(r *repo, rnd *rand.Rand) string { // commit
		r.git("add", "-A")
		r.git("commit", "-q", "--allow-empty", "-m", "step")
		return "git commit"
	},
	func(r *repo, rnd *rand.Rand) string { // switch branch
		r.git("add", "-A")
		r.git("commit", "-q", "--allow-empty", "-m", "before switch")
		branch := pick(rnd, []string{"main", "other"})
		if !strings.Contains(r.git("branch", "--list", branch), branch) {
			r.git("branch", branch, "HEAD~1")
		}
		r.git("checkout", "-q", branch)
		return "git checkout " + branch
	},
}

// TestCacheIsInvisible is the differential property test of the cache:
// random sequences of changes (new, edited, deleted and renamed
// revisions, a DEPENDS target's releases, the configuration, CRLF, the
// attributes, the clock across a time rule's boundary, staging,
// committing, switching branches), and after each a check of the work
// tree, of the index (--staged, with and without --new-only) and against
// HEAD~1, each with the cache kept across the sequence and without a
// cache: everything they report is the same. Every few steps the cache is
// verified (--cache=verify), which must find no difference either.
func TestCacheIsInvisible(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("an equivalence test: go test without -short runs it")
	}
	sequences, steps := longtest.Size(4, 2), longtest.Size(10, 6)
	for seq := range sequences {
		t.Run(fmt.Sprint("seq", seq), func(t *testing.T) {
			t.Parallel()
			seed := uint64(seq + 1)
			r := newRepo(t, 12+seq*3, seed)
			rnd := rand.New(rand.NewPCG(seed, 99))
			dir := t.TempDir()
			st := openStore(t, dir, memo.On)
			var did []string
			reused := 0
			for step := range steps {
				did = append(did, pick(rnd, changes)(r, rnd))
				what := fmt.Sprintf("after %s", strings.Join(did, "; "))
				reused += r.same(what+" (work tree)", check.Options{}, st)
				reused += r.same(what+" (--staged)", check.Options{Staged: true}, st)
				reused += r.same(what+" (--staged --new-only)", check.Options{Staged: true, NewOnly: rnd.IntN(2) == 0}, st)
				if strings.Count(r.git("log", "--oneline"), "\n") > 1 {
					reused += r.same(what+" (--against HEAD~1)", check.Options{Against: "HEAD~1"}, st)
				}
				if step%4 == 3 {
					if o := r.check(check.Options{}, openStore(t, dir, memo.Verify)); o.Err != "" {
						t.Fatalf("%s: --cache=verify: %s", what, o.Err)
					}
				}
			}
			if reused == 0 {
				t.Fatal("no check took an artifact from the cache: the test proves nothing")
			}
			t.Logf("%d artifacts taken from the cache, %d checks from a tree summary", reused, r.summaries)
		})
	}
}

// TestCacheRecordsHoldNoAbsolutePath: what a check keeps in the cache
// names files by their root-relative paths only, so that a check of the
// same tree at another place (a CI runner's path, a worktree) gets its
// own paths (other linters replayed findings with the paths of a deleted
// worktree).
func TestCacheRecordsHoldNoAbsolutePath(t *testing.T) {
	t.Parallel()
	r := newRepo(t, 20, 7)
	r.write("journals/"+r.files()[0], "not a journal\r\n")
	dir := t.TempDir()
	st := openStore(t, dir, memo.On)
	r.same("first check", check.Options{}, st)
	objects, _ := filepath.Glob(filepath.Join(dir, "*", "*-d"))
	for _, p := range objects {
		data, _ := os.ReadFile(p)
		if bytes.Contains(data, []byte(r.dir)) {
			t.Errorf("cache object %s holds the repository's absolute path %s", p, r.dir)
		}
	}
	// The same tree elsewhere reports its own paths, from the records.
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(r.dir, moved); err != nil {
		t.Fatal(err)
	}
	r.dir, r.root = moved, filepath.Join(moved, "journals")
	r.same("the tree moved", check.Options{}, st)
}

// TestCacheKeysNameEveryInput covers the classic stale-cache bugs one by
// one: a changed configuration, a rule option, a DEPENDS target whose
// releases change (a cross-artifact rule), a file rewritten with the
// same size and time (a clone or checkout makes times meaningless), the
// clock, and a record that does not decode.
func TestCacheKeysNameEveryInput(t *testing.T) {
	t.Parallel()
	r := newRepo(t, 30, 11)
	dir := t.TempDir()
	st := openStore(t, dir, memo.On)
	r.same("cold", check.Options{}, st)

	r.cfgText = "rules:\n  license/noassertion: off\n"
	r.same("a rule turned off", check.Options{}, st)
	// Records made with a rule off are not the findings with it on.
	fresh := openStore(t, t.TempDir(), memo.On)
	r.same("a rule off, cold", check.Options{}, fresh)
	r.cfgText = "rules:\n  license/noassertion: warning\n"
	r.same("the rule on again", check.Options{}, fresh)
	r.cfgText = "options:\n  time/future-version:\n    skew: 1s\n"
	r.same("a rule option", check.Options{}, st)
	r.cfgText = ""

	// A cross-artifact rule: some head DEPENDS on another artifact; that
	// artifact loses every release its dependents accept.
	target, rel, succ := r.emptyDependsTarget()
	with := r.check(check.Options{}, st)
	without := r.check(check.Options{}, nil)
	if d := cmp.Diff(without, with); d != "" {
		t.Fatalf("a DEPENDS target changed (-without +with):\n%s", d)
	}
	if !strings.Contains(without.Diagnostics, rules.DepsUnsatisfiable) {
		t.Fatal("the dependents of the emptied artifact were not reported on: the test proves nothing")
	}
	// It gains a release that satisfies none of them: the findings stay,
	// their help names the release.
	rel2, succ2 := gen.Successor(target, strings.TrimSuffix(strings.TrimPrefix(rel, target+"/"), ".journal"), succ)
	r.write("journals/"+rel2, string(succ2)+"\nRELEASE 99.0.0\nLICENSE MIT\nCONTENT x-99.0.0.jar sha256:"+strings.Repeat("ab", 32)+"\n")
	r.same("a DEPENDS target gained a release", check.Options{}, st)
	if o := r.check(check.Options{}, nil); !strings.Contains(o.Diagnostics, "known releases: 99.0.0") {
		t.Fatalf("the help of deps/unsatisfiable does not name the new release: the test proves nothing\n%s", o.Diagnostics)
	}

	// Same size, same modification time, other bytes.
	p := r.files()[3]
	fi, _ := os.Stat(filepath.Join(r.root, p))
	b := r.read(p)
	i := bytes.Index(b, []byte("DESCRIPTION \"")) + len("DESCRIPTION \"")
	b[i] ^= 0x20 // a letter's case
	r.write("journals/"+p, string(b))
	os.Chtimes(filepath.Join(r.root, p), fi.ModTime(), fi.ModTime())
	r.same("a file rewritten with its size and time", check.Options{}, st)

	// The clock: a revision in the future is reported until it is not.
	head := r.head(r.files()[5])
	dir5, name, _ := strings.Cut(head, "/")
	rel, succ = gen.Successor(dir5, strings.TrimSuffix(name, ".journal"), r.read(head))
	stem := strings.TrimSuffix(rel[len(dir5)+1:], ".journal")
	future := gen.Stamp(r.now.Add(26 * time.Hour))
	r.write("journals/"+dir5+"/"+future+".journal", strings.Replace(string(succ), "JOURNAL_VERSION "+stem, "JOURNAL_VERSION "+future, 1))
	r.same("a revision in the future", check.Options{}, st)
	r.now = r.now.Add(time.Second)
	r.same("a second later", check.Options{}, st)
	r.now = r.now.Add(3 * time.Hour)
	r.same("past the boundary", check.Options{}, st)

	// Every object of the cache corrupt: one warning, the same report.
	objects, _ := filepath.Glob(filepath.Join(dir, "*", "*-d"))
	for _, o := range objects {
		os.WriteFile(o, []byte("garbage"), 0o644)
	}
	warned := 0
	bad, err := memo.Open(dir, memo.On, false)
	if err != nil {
		t.Fatal(err)
	}
	bad.Warn = func(string) { warned++ }
	r.same("a corrupt cache", check.Options{}, bad)
	if warned != 1 {
		t.Errorf("a corrupt cache gave %d warnings, want 1", warned)
	}
}

// emptyDependsTarget writes, in the work tree, a successor without
// releases of an artifact that some head DEPENDS on (a cross-artifact
// rule then reports on that head), and returns the artifact, the
// successor's root-relative path and its text.
func (r *repo) emptyDependsTarget() (target, rel string, text []byte) {
	r.t.Helper()
	for _, p := range r.files() {
		text := string(r.read(p))
		if i := strings.Index(text, "\nDEPENDS "); i >= 0 {
			target = strings.Fields(text[i+1:])[1]
			break
		}
	}
	if target == "" {
		r.t.Fatal("no DEPENDS in the generated tree")
	}
	head := r.head(target + "/x")
	rel, text = gen.Successor(target, strings.TrimSuffix(strings.TrimPrefix(head, target+"/"), ".journal"), r.read(head))
	text = text[:bytes.Index(text, []byte("\nRELEASE "))+1]
	r.write("journals/"+rel, string(text))
	return target, rel, text
}

// TestCacheHeadRecordsFollowTheTree: the head records a check keeps stand
// in its tree, and the next check looks up only the coordinates whose
// views changed since (the tree record). Checks that alternate between
// the work tree, where a DEPENDS target lost its releases, and the
// index, where it has them, on one cache report what checks without a
// cache report, and so does a check after a run that found a head record
// no longer standing in a tree two runs back.
func TestCacheHeadRecordsFollowTheTree(t *testing.T) {
	t.Parallel()
	r := newRepo(t, 30, 11)
	dir := t.TempDir()
	st := openStore(t, dir, memo.On)
	r.same("cold", check.Options{}, st)
	r.emptyDependsTarget()
	for i := range 2 {
		r.same(fmt.Sprint("the work tree, whose target has no release, ", i), check.Options{}, st)
		r.same(fmt.Sprint("the index, whose target has its releases, ", i), check.Options{Staged: true}, st)
	}
	if o := r.check(check.Options{}, nil); !strings.Contains(o.Diagnostics, rules.DepsUnsatisfiable) {
		t.Fatal("the dependents of the emptied artifact were not reported on: the test proves nothing")
	}
	if o := r.check(check.Options{Staged: true}, nil); strings.Contains(o.Diagnostics, rules.DepsUnsatisfiable) {
		t.Fatal("the dependents were reported on in the index too: the test proves nothing")
	}
	r.git("add", "-A")
	r.same("the target staged", check.Options{Staged: true}, st)
	r.same("the work tree again", check.Options{}, st)
	if o := r.check(check.Options{}, openStore(t, dir, memo.Verify)); o.Err != "" {
		t.Fatalf("--cache=verify: %s", o.Err)
	}
}

// TestCacheConcurrentChecks runs checks of two trees on one cache at
// once (a pre-commit hook, an editor and a manual check on one machine):
// each reports what a check without a cache does, and the cache stays
// whole for the next.
func TestCacheConcurrentChecks(t *testing.T) {
	t.Parallel()
	a, b := newRepo(t, 15, 21), newRepo(t, 15, 22)
	dir := t.TempDir()
	want := map[*repo]reported{a: a.check(check.Options{}, nil), b: b.check(check.Options{}, nil)}
	errs := make(chan string, 8)
	done := make(chan bool)
	for i := range 8 {
		r := a
		if i%2 == 1 {
			r = b
		}
		go func() {
			defer func() { done <- true }()
			st, err := memo.Open(dir, memo.On, false)
			if err != nil {
				errs <- err.Error()
				return
			}
			if d := cmp.Diff(want[r], r.check(check.Options{}, st)); d != "" {
				errs <- d
			}
		}()
	}
	for range 8 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	st := openStore(t, dir, memo.Verify)
	for _, r := range []*repo{a, b} {
		if o := r.check(check.Options{}, st); o.Err != "" || !slices.Equal([]string{o.Diagnostics}, []string{want[r].Diagnostics}) {
			t.Errorf("after concurrent checks: %s", o.Err)
		}
	}
}

// TestCacheTrustsGitOnlyWhereGitLooks: a work-tree file is taken by its
// index blob's address only where git compares it with the index and
// converts nothing; a file git does not look at (assume-unchanged,
// skip-worktree) or converts (core.autocrlf, a text or filter attribute)
// is read, so a change git does not report is still found.
func TestCacheTrustsGitOnlyWhereGitLooks(t *testing.T) {
	t.Parallel()
	r := newRepo(t, 20, 31)
	st := openStore(t, t.TempDir(), memo.On)
	r.same("cold", check.Options{}, st)
	fs := r.files()
	edit := func(p string) {
		b := r.read(p)
		i := bytes.Index(b, []byte("DESCRIPTION \"")) + len("DESCRIPTION \"")
		b[i] ^= 0x20
		r.write("journals/"+p, string(b))
	}
	r.git("update-index", "--assume-unchanged", "journals/"+fs[1])
	edit(fs[1])
	r.same("an assume-unchanged file edited", check.Options{}, st)
	r.git("update-index", "--skip-worktree", "journals/"+fs[2])
	edit(fs[2])
	r.same("a skip-worktree file edited", check.Options{}, st)

	// A configuration under which git compares neither the change time
	// nor the inode: an edit in place that keeps the size and puts the
	// modification time back looks clean to git.
	for i, cfg := range [][2]string{{"core.trustctime", "false"}, {"core.checkStat", "minimal"}} {
		r.git("config", cfg[0], cfg[1])
		p := fs[5+i]
		abs := filepath.Join(r.root, p)
		// An hour old in the index, so that git compares by stat alone
		// (the file is not racily clean).
		old := time.Now().Add(-time.Hour)
		os.Chtimes(abs, old, old)
		r.git("update-index", "--refresh")
		before := r.check(check.Options{}, nil)
		orig := r.read(p)
		if err := os.WriteFile(abs, bytes.Replace(orig, []byte("LICENSE "), []byte("LICENSX "), 1), 0o644); err != nil { // in place
			t.Fatal(err)
		}
		os.Chtimes(abs, old, old)
		if out := r.git("status", "--porcelain"); out != "" {
			t.Fatalf("%s=%s: git reports the edit (%q): the test proves nothing", cfg[0], cfg[1], out)
		}
		if r.check(check.Options{}, nil).Diagnostics == before.Diagnostics {
			t.Fatal("the edit changed no finding: the test proves nothing")
		}
		r.same(cfg[0]+"="+cfg[1]+", a file edited behind git's back", check.Options{}, st)
		r.git("config", "--unset", cfg[0])
		r.write("journals/"+p, string(orig))
	}

	// Committed with LF, checked out with CRLF: git reports the file
	// clean, its bytes are not the blob's.
	r.write(".gitattributes", "")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "no attributes")
	r.git("config", "core.autocrlf", "true")
	p := fs[4]
	os.Remove(filepath.Join(r.root, p))
	r.git("checkout", "--", "journals/"+p)
	if !bytes.Contains(r.read(p), []byte("\r\n")) {
		t.Fatal("git did not convert the checkout: the test proves nothing")
	}
	r.same("core.autocrlf=true", check.Options{}, st)
	r.git("config", "core.autocrlf", "false")
	r.write(".gitattributes", "*.journal filter=upper\n")
	r.git("config", "filter.upper.clean", "cat")
	r.git("config", "filter.upper.smudge", "cat")
	r.same("a filter attribute", check.Options{}, st)
}

// TestCacheConfirmsConvertedCheckouts: git reports a file clean when its
// stat is as at checkout, whatever the attributes did then. Checked out
// with CRLF under eol=crlf, the files stay clean to git once the attributes
// say -text, yet their bytes are not their LF blobs', which a staged check
// kept records of: the work tree's check must not take those records.
func TestCacheConfirmsConvertedCheckouts(t *testing.T) {
	t.Parallel()
	r := newRepo(t, 20, 41)
	st := openStore(t, t.TempDir(), memo.On)
	r.write(".gitattributes", "*.journal text eol=crlf\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "eol=crlf")
	r.same("staged, records of the LF blobs", check.Options{Staged: true}, st)
	for _, p := range r.files() {
		os.Remove(filepath.Join(r.root, p))
	}
	r.git("checkout", "--", "journals")
	if !bytes.Contains(r.read(r.files()[0]), []byte("\r\n")) {
		t.Fatal("git did not convert the checkout: the test proves nothing")
	}
	// An hour old in the index, so that git compares by stat alone (the
	// files are not racily clean), as a checkout of long ago would be.
	old := time.Now().Add(-time.Hour)
	for _, p := range r.files() {
		os.Chtimes(filepath.Join(r.root, p), old, old)
	}
	r.git("update-index", "-q", "--refresh")
	r.write(".gitattributes", "*.journal -text\n")
	if out := r.git("status", "--porcelain", "journals"); out != "" {
		t.Fatalf("git reports the converted files (%q): the test proves nothing", out)
	}
	r.same("the attributes turned -text after a converting checkout", check.Options{}, st)
}

// TestCacheSeesUntrackedArtifactAttributes: git reads a .gitattributes in
// an artifact directory that it does not track, and so must the cache: the
// attributes it keeps for the directory's files, and which files git
// vouches for, cannot come from the index alone.
func TestCacheSeesUntrackedArtifactAttributes(t *testing.T) {
	t.Parallel()
	r := newRepo(t, 20, 37)
	st := openStore(t, t.TempDir(), memo.On)
	r.same("cold", check.Options{}, st)
	dir, _, _ := strings.Cut(r.files()[0], "/")
	r.write("journals/"+dir+"/.gitattributes", "*.journal text eol=crlf\n")
	if !strings.Contains(r.git("status", "--porcelain"), "?? journals/"+dir+"/.gitattributes") {
		t.Fatal("the attributes file is not untracked: the test proves nothing")
	}
	r.same("an untracked .gitattributes in an artifact directory", check.Options{}, st)
	// git checks the directory's files out again under it, with CRLF, and
	// reports them clean.
	for _, p := range r.files() {
		if strings.HasPrefix(p, dir+"/") {
			os.Remove(filepath.Join(r.root, p))
		}
	}
	r.git("checkout", "--", "journals/"+dir)
	if !bytes.Contains(r.read(r.files()[0]), []byte("\r\n")) {
		t.Fatal("git did not convert the checkout: the test proves nothing")
	}
	r.same("checked out again under it", check.Options{}, st)
	r.same("against HEAD", check.Options{Against: "HEAD"}, st)
	// Gone again: what was kept while it stood must not outlive it.
	os.Remove(filepath.Join(r.root, dir, ".gitattributes"))
	r.same("the untracked .gitattributes removed", check.Options{}, st)
}

// TestRecordsLoadAsALoadDoes: a load that takes artifacts from a check's
// records (check.Records, for `new` and `diff --staged`) finds what a
// load that reads every file finds (the diagnostics that say whether the
// tree is valid, the files' summaries and outcomes), and reads the
// artifacts it is asked to read, with their chains.
func TestRecordsLoadAsALoadDoes(t *testing.T) {
	t.Parallel()
	r := newRepo(t, 30, 41)
	fs := r.files()
	p, _ := gen.Mutate(r.root, 5) // something invalid too
	head := r.head(fs[0])
	dir, name, _ := strings.Cut(head, "/")
	rel, data := gen.Successor(dir, strings.TrimSuffix(name, ".journal"), r.read(head))
	r.write("journals/"+rel, string(data))
	r.git("add", "-A")
	st := openStore(t, t.TempDir(), memo.On)
	for _, staged := range []bool{false, true} {
		r.check(check.Options{Staged: staged}, st)
	}
	type found struct {
		Diagnostics string
		Files       []string
		Chain       []string
		// State is the fresh artifact's accepted state and the counts,
		// for a load that keeps its state (log, show).
		State             []string
		Chains, Revisions int
	}
	load1 := func(recs *check.Records, src func() load.Options) (found, int) {
		t.Helper()
		var chain []string
		var mu sync.Mutex
		reused := 0
		lo := src()
		lo.DropDocs = true
		lo.Visit = func(a *load.Artifact) {
			mu.Lock()
			defer mu.Unlock()
			if a.Record != nil {
				reused++
			}
			if a.Dir == dir {
				for _, e := range a.Chain {
					chain = append(chain, e.Source)
				}
			}
		}
		lr, err := load.Load(context.Background(), r.root, recs.Options(lo))
		if err != nil {
			t.Fatal(err)
		}
		var f found
		for _, d := range lr.Diagnostics {
			f.Diagnostics += fmt.Sprintf("%#v\n", d)
		}
		for _, file := range lr.Files {
			f.Files = append(f.Files, fmt.Sprintf("%s %+v %d", file.Path, file.Summary, file.Outcome))
		}
		f.Chain = chain
		f.Chains, f.Revisions = lr.Chains, lr.Revisions
		if lr.State != nil {
			co, _ := vt.ParseCoordinate(dir)
			for _, e := range lr.State.Entries(co) {
				f.State = append(f.State, e.Source+" "+e.Revision.Digest().String())
			}
		}
		return f, reused
	}
	fresh := func(d string, _ []string) bool { return d == dir }
	recs, err := check.OpenRecords(context.Background(), check.RecordsOptions{Root: r.root, Cache: st, Fresh: fresh})
	if err != nil {
		t.Fatal(err)
	}
	defer recs.Close()
	plain := func() load.Options { return load.Options{} }
	with, reused := load1(recs, plain)
	without, _ := load1(nil, plain)
	if d := cmp.Diff(without, with); d != "" {
		t.Errorf("work tree (%s mutated): the load with records finds otherwise (-without +with):\n%s", p, d)
	}
	if reused == 0 || len(with.Chain) < 2 {
		t.Errorf("%d artifacts from records, chain %v: the test proves nothing", reused, with.Chain)
	}
	state := func() load.Options { return load.Options{KeepState: true, Compact: true} }
	with, _ = load1(recs, state)
	without, _ = load1(nil, state)
	if d := cmp.Diff(without, with); d != "" || len(with.State) < 2 {
		t.Errorf("a load that keeps its state: with records (-without +with):\n%s", d)
	}

	added, err := check.OpenAdded(context.Background(), check.AddedOptions{Root: r.root, Staged: true})
	if err != nil {
		t.Fatal(err)
	}
	defer added.Close()
	srecs, err := check.OpenRecords(context.Background(), check.RecordsOptions{Root: r.root, Cache: st, Added: added,
		Fresh: func(_ string, paths []string) bool { return slices.ContainsFunc(paths, added.IsNew) }})
	if err != nil {
		t.Fatal(err)
	}
	staged := func() load.Options { return load.Options{Source: added.Source()} }
	with, reused = load1(srecs, staged)
	without, _ = load1(nil, staged)
	if d := cmp.Diff(without, with); d != "" {
		t.Errorf("index: the load with records finds otherwise (-without +with):\n%s", d)
	}
	if reused == 0 || len(with.Chain) < 2 {
		t.Errorf("index: %d artifacts from records, chain %v: the test proves nothing", reused, with.Chain)
	}
}

// TestGateTrustsTheCacheOnlyForWhatThePullRequestLeft: a check against a
// revision (the pull-request gate, whose cache CI restores from runs that
// anyone can influence) takes from the cache only artifacts that the
// change under check left as they are at the merge base, and nothing when
// the change edits the configuration.
func TestGateTrustsTheCacheOnlyForWhatThePullRequestLeft(t *testing.T) {
	t.Parallel()
	r := newRepo(t, 30, 51)
	r.git("checkout", "-q", "-b", "pr")
	head := r.head(r.files()[0])
	dir, name, _ := strings.Cut(head, "/")
	rel, data := gen.Successor(dir, strings.TrimSuffix(name, ".journal"), r.read(head))
	r.write("journals/"+rel, string(data))
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "a revision")
	st := openStore(t, t.TempDir(), memo.On)
	r.same("the pull request's tree", check.Options{}, st) // every artifact in the cache
	opts := check.Options{Root: r.root, Config: r.config(), Now: r.now, Cache: st, Against: "main"}
	res, err := check.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Computed != 1 || res.Reused != res.Artifacts-1 {
		t.Errorf("the gate computed %d and took %d of %d artifacts from the cache, want 1 (%s, which the pull request changed) and the others",
			res.Computed, res.Reused, res.Artifacts, dir)
	}
	r.same("the gate", check.Options{Against: "main"}, st)

	r.cfgText = "rules:\n  style/crlf: error\n"
	r.write(".journal-lint.yaml", r.cfgText)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "config")
	r.same("the pull request's tree with its configuration", check.Options{}, st)
	opts.Config = r.config()
	if res, err = check.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if res.Reused != 0 {
		t.Errorf("the pull request changed the configuration, and the gate took %d artifacts from the cache", res.Reused)
	}
}
