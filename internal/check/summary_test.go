package check_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/memo"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// hook runs the pre-commit hook's check (--staged --new-only) with the
// cache st and without one, fails when they report otherwise, and
// returns how many artifact directories the check with the cache took
// from the summary of HEAD's tree.
func (r *repo) hook(what string, st *memo.Store) int {
	r.t.Helper()
	n, _ := r.hookAgainst(what, "", st)
	return n
}

// hookAgainst is hook comparing with the revision against, as the hook
// compares with origin/HEAD in a clone that has it; it returns the
// diagnostics of the check with the cache too.
func (r *repo) hookAgainst(what, against string, st *memo.Store) (int, diag.List) {
	r.t.Helper()
	opts := check.Options{Staged: true, NewOnly: true, Against: against}
	r.same(what, opts, st)
	opts.Root, opts.Config, opts.Now, opts.Cache = r.root, r.config(), r.now, st
	res, err := check.Run(gitrepo.WithMemo(context.Background()), opts)
	if err != nil {
		r.t.Fatalf("%s: %v", what, err)
	}
	return res.FromSummary, res.Diagnostics
}

// oneEach returns one revision of each artifact of r, in directory order.
func (r *repo) oneEach() []string {
	var files []string
	for _, f := range r.files() {
		if dir, _, _ := strings.Cut(f, "/"); len(files) == 0 || !strings.HasPrefix(files[len(files)-1], dir+"/") {
			files = append(files, f)
		}
	}
	return files
}

// successor drafts and writes the next revision of the artifact of path,
// with extra appended to its text, and returns its path.
func (r *repo) successor(path, extra string) string {
	r.t.Helper()
	head := r.head(path)
	dir, name, _ := strings.Cut(head, "/")
	rel, data := gen.Successor(dir, strings.TrimSuffix(name, ".journal"), r.read(head))
	r.write("journals/"+rel, string(data)+extra)
	return rel
}

// TestHookTakesTheTreeFromTheSummary: a staged check keeps a summary of
// the tree it checked, and the hook of the next change reads only the
// directories the index changes since HEAD, reporting exactly what a check
// without the cache reports; where the summary cannot speak for the rest
// of the tree, the check reads all of it, with the same report.
func TestHookTakesTheTreeFromTheSummary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("an equivalence test: go test without -short runs it")
	}
	r := newRepo(t, 24, 5)
	st := openStore(t, t.TempDir(), memo.On)
	files := r.oneEach()
	if len(files) < 6 {
		t.Fatalf("the tree has %d artifacts; the test needs 6", len(files))
	}
	r.same("the committed tree", check.Options{Staged: true}, st) // keeps the summary of HEAD's tree

	// hit runs the hook on what is staged, expects it to take the tree
	// from the summary or not, and unstages and removes the change.
	hit := func(what string, want bool) {
		t.Helper()
		n := r.hook(what, st)
		if got := n > 0; got != want {
			t.Errorf("%s: took %d directories from the summary; want a summary used: %v", what, n, want)
		}
		r.git("reset", "-q", "--hard")
		r.git("clean", "-q", "-fdx")
	}

	r.successor(files[0], "")
	r.git("add", "-A")
	hit("a new revision", true)

	// A DEPENDS target gains a release: the head-only rules of the changed
	// head look the other artifacts up in the summary's tree.
	r.successor(files[len(files)-1], "\nRELEASE 99.0.0\nLICENSE MIT\nCONTENT x-99.0.0.jar sha256:"+strings.Repeat("ab", 32)+"\n")
	r.git("add", "-A")
	hit("a release added", true)

	r.git("rm", "-q", "-r", "journals/"+strings.Split(files[0], "/")[0])
	hit("an artifact deleted", true)

	// An entry only intended to be added (git add -N) is the empty file
	// the index lists, in a directory the index changes.
	r.write("journals/org.example.later/20260101T000000Z.journal", "later\n")
	r.git("add", "-N", "journals/org.example.later/20260101T000000Z.journal")
	hit("an entry intended to add", true)

	r.write("journals/README", "not a Journal\n")
	r.git("add", "-A")
	hit("an entry directly under the root", false)

	// The index's .gitattributes differs from HEAD's: the summary of a
	// check of that index may not stand for the unchanged directories, as
	// repo/eol-conversion-enabled speaks of every file git would convert.
	r.write(".gitattributes", "*.journal text=auto\n")
	r.git("add", "-A")
	r.same("the attributes staged", check.Options{Staged: true}, st)
	r.successor(files[0], "")
	r.git("add", "-A")
	hit("the attributes changed", false)

	// A changed revision whose PREDECESSOR names a revision of another
	// artifact: the whole tree decides between chain/cross-artifact and
	// chain/missing-predecessor.
	other := r.read(files[len(files)-1])
	rel := r.successor(files[0], "")
	text := string(r.read(rel))
	first := strings.Index(text, "PREDECESSOR ")
	if first < 0 {
		t.Fatal("the successor has no PREDECESSOR")
	}
	end := first + strings.Index(text[first:], "\n")
	r.write("journals/"+rel, text[:first]+"PREDECESSOR "+vt.DigestOf(other).String()+text[end:])
	r.git("add", "-A")
	hit("a PREDECESSOR in another artifact", false)

	r.cfgText = "ignore:\n  - code: license/noassertion\n    reason: accepted\n"
	r.successor(files[0], "")
	r.git("add", "-A")
	hit("ignore entries", false)
	r.cfgText = ""

	// After commits that no hook saw (a pull, a commit with --no-verify),
	// HEAD holds a tree without a summary: the summary of a tree an
	// earlier staged check kept serves, and the directories in which the
	// two trees differ are read too.
	r.successor(files[1], "")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "next")
	r.git("rm", "-q", "-r", "journals/"+strings.Split(files[0], "/")[0])
	r.successor(files[len(files)-1], "")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "pulled")
	r.successor(files[1], "")
	r.git("add", "-A")
	hit("a tree no check kept a summary of", true)
	// An entry directly under the root changed since: no summary serves.
	r.write("journals/.gitkeep", "")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "keep")
	r.successor(files[1], "")
	r.git("add", "-A")
	hit("an entry directly under the root committed", false)
	r.same("the committed tree again", check.Options{Staged: true}, st)
	r.successor(files[1], "")
	r.git("add", "-A")
	hit("after a staged check of the new HEAD", true)

	// Commit after commit, each hook keeps the summary of the tree it
	// checked, which the next commit's HEAD holds: the summary a hook
	// kept beside its changed directories stands too.
	for i := range 3 {
		r.successor(files[2+i], "")
		r.git("add", "-A")
		if n := r.hook(fmt.Sprintf("commit %d", i), st); n == 0 {
			t.Errorf("commit %d: the hook read the whole tree", i)
		}
		r.git("commit", "-q", "-m", fmt.Sprint("commit ", i))
	}
	r.git("rm", "-q", "journals/"+r.head(files[3])) // a head: the chain stays whole
	if n := r.hook("a head deleted", st); n == 0 {
		t.Error("a head deleted: the hook read the whole tree")
	}

	if o := r.check(check.Options{Staged: true}, openStore(t, st.Path(), memo.Verify)); o.Err != "" {
		t.Fatalf("--cache=verify: %s", o.Err)
	}
}

// TestHookAgainstThePushedBranch: in a clone with origin/HEAD the hook
// compares with its merge base with HEAD (here a branch standing for it),
// so a revision committed but not pushed is still new. Beside the summary
// of HEAD's tree, its directory, which the index does not change, is read
// too, and its lint findings are reported as without the cache.
func TestHookAgainstThePushedBranch(t *testing.T) {
	t.Parallel()
	r := newRepo(t, 24, 7)
	st := openStore(t, t.TempDir(), memo.On)
	files := r.oneEach()
	r.git("branch", "pushed")
	r.same("the committed tree", check.Options{Staged: true, NewOnly: true, Against: "pushed"}, st)
	rel := r.successor(files[0], "\nRELEASE 98.0.0\nLICENSE NOASSERTION\nCONTENT x-98.0.0.jar sha256:"+strings.Repeat("ab", 32)+"\n")
	r.git("add", "-A")
	if n, _ := r.hookAgainst("a revision with a finding", "pushed", st); n == 0 {
		t.Error("a revision with a finding: the hook read the whole tree")
	}
	r.git("commit", "-q", "-m", "not pushed")
	r.successor(files[1], "")
	r.git("add", "-A")
	n, ds := r.hookAgainst("the next commit", "pushed", st)
	if n == 0 {
		t.Error("the next commit: the hook read the whole tree")
	}
	if !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Path == rel && d.Code == rules.LicenseNoassertion }) {
		t.Errorf("the next commit: no %s on %s, the revision committed but not pushed", rules.LicenseNoassertion, rel)
	}
	// That hook kept the summary of the tree it read, though HEAD is not
	// the commit it compared with.
	r.git("commit", "-q", "-m", "not pushed either")
	r.successor(files[2], "")
	r.git("add", "-A")
	if n, _ := r.hookAgainst("a third commit", "pushed", st); n == 0 {
		t.Error("a third commit: the hook read the whole tree")
	}
}
