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
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/render"
	"github.com/r35157/journal-lint/rules"
)

// repo is a git repository with a Journal root at journals/, its
// configuration and the clock its checks run at.
type repo struct {
	t         *testing.T
	dir, root string
	cfgText   string
	now       time.Time
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
	res, err := check.Run(context.Background(), opts)
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
	return o, res.Reused
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
	sequences, steps := 4, 10
	if longtest.Small() {
		sequences, steps = 2, 6
	}
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
			t.Logf("%d artifacts taken from the cache", reused)
		})
	}
}

// TestCacheRecordsHoldNoAbsolutePath: what a check keeps in the cache
// names files by their root-relative paths only, so that a check of the
// same tree at another place (a CI runner's path, a worktree) gets its
// own paths (other linters replayed findings with the paths of a deleted
// worktree).
func TestCacheRecordsHoldNoAbsolutePath(t *testing.T) {
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
	var target string
	for _, p := range r.files() {
		text := string(r.read(p))
		if i := strings.Index(text, "\nDEPENDS "); i >= 0 {
			target = strings.Fields(text[i+1:])[1]
			break
		}
	}
	if target == "" {
		t.Fatal("no DEPENDS in the generated tree")
	}
	head := r.head(target + "/x")
	rel, succ := gen.Successor(target, strings.TrimSuffix(strings.TrimPrefix(head, target+"/"), ".journal"), r.read(head))
	succ = succ[:bytes.Index(succ, []byte("\nRELEASE "))+1]
	r.write("journals/"+rel, string(succ))
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
	head = r.head(r.files()[5])
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

// TestCacheConcurrentChecks runs checks of two trees on one cache at
// once (a pre-commit hook, an editor and a manual check on one machine):
// each reports what a check without a cache does, and the cache stays
// whole for the next.
func TestCacheConcurrentChecks(t *testing.T) {
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
