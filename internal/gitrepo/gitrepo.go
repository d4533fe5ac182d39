// Package gitrepo is a small, read-only wrapper over the git executable, for
// the repository workflows of journal-lint: which Journal files changed since
// a revision, what their bytes were, which attributes git applies to them,
// and what the index (the staged content) holds.
//
// Every command is run as an explicit argument list (no shell) with
// "-c core.quotepath=off", "--literal-pathspecs" and "--no-optional-locks",
// and every listing is read in its NUL-separated (-z) form, so that paths
// with spaces, quotes, newlines or non-ASCII characters come back byte for
// byte and nothing in the repository is written (not even the index's stat
// cache). The environment is inherited, so GIT_DIR, GIT_INDEX_FILE and the
// like that a hook runs with are honoured.
//
// # Paths
//
// Paths given to and returned by a [Repo] are relative to the top level of
// the work tree, with forward slashes, exactly as git spells them; [Repo.Rel]
// turns an absolute path into that form.
//
// # Errors
//
// A missing git executable is [ErrGitNotFound]; a directory outside any work
// tree is [ErrNotRepository]; a revision that does not name a commit is a
// [*RevisionError]; any other failure of git is a [*CommandError] with its
// standard error.
package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"iter"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/r35157/journal-lint/internal/hashpos"
)

// ErrGitNotFound reports that no git executable is on PATH.
var ErrGitNotFound = errors.New("the git executable was not found in PATH")

// ErrNotRepository reports a directory that is not inside a git work tree.
var ErrNotRepository = errors.New("not inside a git work tree")

// RevisionError reports a revision that git cannot resolve to a commit.
type RevisionError struct {
	// Rev is the revision as given.
	Rev string
	// Detail is git's own explanation, or empty.
	Detail string
}

// Error returns a message that names the revision. For a branch of a remote
// ("origin/main"), it adds the usual cause and cure: a shallow or
// single-branch clone (such as the default of actions/checkout) lacks it.
func (e *RevisionError) Error() string {
	msg := fmt.Sprintf("git revision %q does not name a commit", e.Rev)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if remote, branch, ok := strings.Cut(e.Rev, "/"); ok && e.Detail == "" && remote != "" && branch != "" {
		msg += fmt.Sprintf(" (a shallow or single-branch clone lacks it: git fetch %s %s, or fetch-depth: 0 with actions/checkout)", remote, branch)
	}
	return msg
}

// CommandError reports a git command that failed.
type CommandError struct {
	// Args are the arguments after "git" and the global options.
	Args []string
	// Stderr is git's standard error, trimmed.
	Stderr string
	// Err is the error of the process (usually an *exec.ExitError).
	Err error
}

// Error returns the command, the process's error (such as the exit
// status) and git's standard error. Of a long command it shows the first
// 12 arguments, each cut after 200 bytes, and counts the others: a list
// of paths must not bury the message.
func (e *CommandError) Error() string {
	var b strings.Builder
	b.WriteString("git")
	for i, a := range e.Args {
		if i == maxShownArgs {
			fmt.Fprintf(&b, " … (%d more arguments)", len(e.Args)-i)
			break
		}
		if len(a) > maxShownArg {
			a = strings.ToValidUTF8(a[:maxShownArg], "") + "…"
		}
		b.WriteString(" " + a)
	}
	msg := b.String() + ": " + e.Err.Error()
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

// Unwrap returns the process error.
func (e *CommandError) Unwrap() error { return e.Err }

// maxShownArgs and maxShownArg bound what [CommandError.Error] shows of a
// command's arguments: how many, and the bytes of each.
const (
	maxShownArgs = 12
	maxShownArg  = 200
)

// Repo is one git work tree. It holds no open resources; the zero value is
// not usable, get one from [Open].
type Repo struct {
	git string // absolute path of the executable
	top string // absolute top level of the work tree, symlinks resolved
	// stateFiles are the absolute paths of the repository's files that
	// [Repo.Stamp] looks at, as git resolves them (--git-path); head is
	// HEAD, index the index file and common the repository's common
	// directory (that of the packed refs), which linked work trees share.
	stateFiles          []string
	head, index, common string
	// format is the repository's object format: "sha1" or "sha256".
	format string
	// env is added to git's environment, and opts to the options before
	// each command (AttributesAt's own index).
	env, opts []string
	// config is the configuration, read once (configRecords).
	config *configList
}

// stateFiles are the files of a repository, as --git-path names them, whose
// change can change what git reports about the work tree's files: the
// index, HEAD and the refs it may name, the configuration and the
// repository's own attributes.
var stateFiles = []string{"index", "HEAD", "packed-refs", "reftable/tables.list", "config", "config.worktree", "info/attributes"}

// globalArgs come before every subcommand. Two keep git's answers about
// what git commit records and what the work tree holds:
//
//   - --no-replace-objects: objects are read as stored, not as a
//     replacement under refs/replace/ names them (git-replace(1)), which
//     git commit, the hashes of the index and a clone without those refs
//     ignore;
//   - core.fsmonitor empty: the work tree's files are compared with the
//     index by their stat data, never taken as unchanged on a file system
//     monitor's word (a monitor that misses an event made the cache vouch
//     for bytes the file no longer held). An empty value turns the monitor
//     off in git's releases that take a hook's path and in those that take
//     a boolean.
var globalArgs = []string{"-c", "core.quotepath=off", "-c", "core.fsmonitor=", "--literal-pathspecs", "--no-optional-locks", "--no-replace-objects"}

// Open finds the work tree that contains dir and returns it; a dir that
// does not exist (yet) is looked up from its nearest existing ancestor. It returns [ErrGitNotFound] when git is not installed,
// [ErrNotRepository] when dir is outside a work tree (including inside a
// bare repository or a .git directory) and an [*UnsafeRepositoryError]
// when git refuses the repository's owner. The Repo reads the
// repository's configuration once, at its first question about it
// ([Repo.Config]): a configuration changed since needs another Open.
func Open(ctx context.Context, dir string) (*Repo, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, ErrGitNotFound
	}
	if !filepath.IsAbs(git) {
		if git, err = filepath.Abs(git); err != nil {
			return nil, ErrGitNotFound
		}
	}
	r := &Repo{git: git, config: &configList{}}
	var args []string
	for _, f := range stateFiles {
		args = append(args, "--git-path", f)
	}
	// The top level comes last, so that a newline in its name does not
	// shift the lines before it.
	args = append(append([]string{"rev-parse"}, args...), "--show-object-format", "--show-toplevel")
	runDir := existingDir(dir)
	out, err := r.output(ctx, runDir, nil, args...)
	if err != nil {
		var ce *CommandError
		if errors.As(err, &ce) && strings.Contains(ce.Stderr, "not a git repository") {
			return nil, ErrNotRepository
		}
		if errors.As(err, &ce) && strings.Contains(ce.Stderr, "must be run in a work tree") {
			return nil, ErrNotRepository
		}
		if errors.As(err, &ce) {
			if unsafe := unsafeRepository(ce.Stderr); unsafe != nil {
				return nil, unsafe
			}
		}
		return nil, err
	}
	lines := strings.SplitN(strings.TrimSuffix(string(out), "\n"), "\n", len(stateFiles)+2)
	if len(lines) != len(stateFiles)+2 || lines[len(stateFiles)+1] == "" {
		return nil, ErrNotRepository
	}
	r.format = lines[len(stateFiles)]
	top := lines[len(stateFiles)+1]
	for _, p := range lines[:len(stateFiles)] {
		// git names them relative to the directory it ran in.
		if !filepath.IsAbs(p) {
			p = filepath.Join(runDir, p)
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
		}
		r.stateFiles = append(r.stateFiles, filepath.Clean(p))
	}
	r.head = r.stateFiles[slices.Index(stateFiles, "HEAD")]
	r.index = r.stateFiles[slices.Index(stateFiles, "index")]
	r.common = filepath.Dir(r.stateFiles[slices.Index(stateFiles, "packed-refs")])
	if resolved, err := filepath.EvalSymlinks(top); err == nil {
		top = resolved
	}
	r.top = filepath.Clean(top)
	return r, nil
}

// InfoAttributes returns the absolute path of the repository's
// info/attributes file (gitattributes(5): its lines win over every
// .gitattributes), which may not exist.
func (r *Repo) InfoAttributes() string {
	return r.stateFiles[slices.Index(stateFiles, "info/attributes")]
}

// Merging reports whether git is merging: MERGE_HEAD is in the work
// tree's git directory, beside HEAD (a merge that stopped, and the git
// commit that finishes it: git status and git commit look there too), or
// git merge runs its pre-merge-commit hook, which comes before git writes
// MERGE_HEAD (githooks(5)) and sees git merge, or git pull through it,
// named in GIT_REFLOG_ACTION ("merge BRANCH", "pull ..."). It asks git
// nothing.
func (r *Repo) Merging() bool {
	return r.mergeHeadFile() != "" || mergeAction()
}

// mergeHeadFile returns the path of MERGE_HEAD when it is a file, else "".
func (r *Repo) mergeHeadFile() string {
	if r.head == "" {
		return ""
	}
	p := filepath.Join(filepath.Dir(r.head), "MERGE_HEAD")
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return p
}

// mergeAction reports whether GIT_REFLOG_ACTION names git merge or git
// pull, as both do for the hooks they run.
func mergeAction() bool {
	action := os.Getenv("GIT_REFLOG_ACTION")
	return strings.HasPrefix(action, "merge") || strings.HasPrefix(action, "pull")
}

// MergeHeads returns the commits that a merge under way merges into HEAD,
// as full object names: the lines of MERGE_HEAD while git waits for the
// merge to be finished, or in the pre-merge-commit hook, which runs
// before git writes MERGE_HEAD, the commits git merge names in the
// environment it gives its strategies and hooks (GITHEAD_<object name>,
// one per merged commit; taken only beside its GIT_REFLOG_ACTION, see
// [Repo.Merging], and only when they name a commit of this repository:
// git passes them on to whatever the hooks of a merge start, in other
// repositories too), in name order. It returns nil when git is not
// merging.
func (r *Repo) MergeHeads(ctx context.Context) []string {
	valid := func(s string) bool {
		_, err := hex.DecodeString(s)
		return err == nil && (len(s) == 40 || len(s) == 64)
	}
	var heads []string
	if p := r.mergeHeadFile(); p != "" {
		if data, err := os.ReadFile(p); err == nil {
			for _, line := range strings.Fields(string(data)) {
				if valid(line) {
					heads = append(heads, strings.ToLower(line))
				}
			}
			return heads
		}
	}
	if !mergeAction() {
		return nil
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if h, ok := strings.CutPrefix(name, "GITHEAD_"); ok && valid(h) {
			if c, err := r.ResolveCommit(ctx, h); err == nil {
				heads = append(heads, c)
			}
		}
	}
	slices.Sort(heads)
	return heads
}

// existingDir returns dir or its nearest existing ancestor directory.
func existingDir(dir string) string {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// ObjectFormat returns the hash that names the repository's objects:
// "sha1" or "sha256" (git rev-parse --show-object-format).
func (r *Repo) ObjectFormat() string { return r.format }

// Top returns the absolute top level of the work tree, symbolic links
// resolved.
func (r *Repo) Top() string { return r.top }

// Rel returns path (absolute or relative to the working directory; it need
// not exist, but its deepest existing ancestor is resolved for symbolic
// links) relative to the top level with forward slashes: "" for the top
// level itself. It fails when path lies outside the work tree.
func (r *Repo) Rel(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	abs = ResolveExisting(abs)
	rel, err := filepath.Rel(r.top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the git work tree %s", path, r.top)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

// StoredTop returns the nearest of the absolute path root and its parents,
// as written (the symbolic links of root's path are not followed to find
// it), that holds a .git entry, and root's path below it with forward
// slashes ("" for itself); ok is false when there is none. The part of a
// path below the top is what git stores: a Journal root that a pull
// request turned into a link to another directory, or to another
// repository, is still judged by (check's gate), and its output paths
// name (package outpath), the repository that holds its path. A directory
// on the path that is a link to a repository's top is the top only when
// no parent's work tree holds the link's target too: a link to a
// submodule, or to a nested repository, is a link inside the parent.
func StoredTop(root string) (top, rel string, ok bool) {
	linked := "" // the nearest link to a repository's top met so far
	for dir := root; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			fi, err := os.Lstat(dir)
			switch {
			case err == nil && fi.Mode()&fs.ModeSymlink != 0 && linked == "":
				linked = dir
			case linked != "" && !within(ResolveExisting(linked), ResolveExisting(dir)):
				return storedRel(linked, root)
			default:
				return storedRel(dir, root)
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			if linked != "" {
				return storedRel(linked, root)
			}
			return "", "", false
		}
		dir = parent
	}
}

// storedRel returns top and root's path below it with forward slashes
// ("" for top itself), as StoredTop does.
func storedRel(top, root string) (string, string, bool) {
	rel, err := filepath.Rel(top, root)
	if err != nil {
		return "", "", false
	}
	if rel == "." {
		rel = ""
	}
	return top, filepath.ToSlash(rel), true
}

// within reports whether the clean absolute path p is dir or lies below it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// ResolveExisting resolves symbolic links in the longest existing prefix of
// the clean absolute path abs and appends the rest unchanged.
func ResolveExisting(abs string) string {
	rest := ""
	p := abs
	for {
		if resolved, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(resolved, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// command builds a git command run in dir with the global options.
func (r *Repo) command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, r.git, slices.Concat(globalArgs, r.opts, args)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"), r.env...)
	return cmd
}

// output runs git in dir (the top level when empty) with stdin and returns
// its standard output; under a context from [WithMemo] and without stdin,
// once per question.
func (r *Repo) output(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	return r.outputSized(ctx, dir, stdin, 0, args...)
}

// outputSized is output with room made for size bytes of the answer
// before git writes any (runSized).
func (r *Repo) outputSized(ctx context.Context, dir string, stdin []byte, size int, args ...string) ([]byte, error) {
	if dir == "" {
		dir = r.top
	}
	if stdin != nil {
		return r.runSized(ctx, dir, stdin, size, args...)
	}
	return remembered(ctx, r.key(dir, args), func() ([]byte, error) { return r.runSized(ctx, dir, nil, size, args...) })
}

// key is what [Repo.output] remembers the answer to args, asked in dir
// (the top level when empty), under.
func (r *Repo) key(dir string, args []string) []string {
	if dir == "" {
		dir = r.top
	}
	return append([]string{r.git, dir}, args...)
}

// run runs git in dir with stdin and returns its standard output.
func (r *Repo) run(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	return r.runSized(ctx, dir, stdin, 0, args...)
}

// runSized is run with room made for size bytes of output before git
// writes any: an answer of about that size (the index's listing, some
// megabytes) is read without growing and copying the buffer a dozen
// times.
func (r *Repo) runSized(ctx context.Context, dir string, stdin []byte, size int, args ...string) ([]byte, error) {
	cmd := r.command(ctx, dir, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	stdout.Grow(size)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &CommandError{Args: args, Stderr: strings.TrimSpace(stderr.String()), Err: err}
	}
	return stdout.Bytes(), nil
}

// pathspec returns the arguments that restrict a command to prefix: none
// for the whole work tree.
func pathspec(prefix string) []string {
	if prefix == "" {
		return []string{"--"}
	}
	return []string{"--", prefix}
}

// ResolveCommit returns the full object name of the commit rev names. A rev
// that is empty, starts with "-" or names no commit is a [*RevisionError].
func (r *Repo) ResolveCommit(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n") {
		return "", &RevisionError{Rev: rev, Detail: "not a revision name"}
	}
	out, err := r.output(ctx, "", nil, resolveArgs(rev)...)
	if err != nil {
		var ce *CommandError
		if errors.As(err, &ce) {
			return "", &RevisionError{Rev: rev, Detail: ce.Stderr}
		}
		return "", err
	}
	// The commit's own name resolves to itself: under a memo, a caller
	// that resolves what it was given (or asks for its merge base with
	// itself) does not ask git again.
	commit := strings.TrimSpace(string(out))
	remember(ctx, r.key("", resolveArgs(commit)), out)
	return commit, nil
}

// resolveArgs are the arguments of git that resolve rev to a commit.
func resolveArgs(rev string) []string {
	return []string{"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"}
}

// resolved reports whether name is the full object name of a commit that
// [Repo.ResolveCommit] returned under ctx's memo.
func (r *Repo) resolved(ctx context.Context, name string) bool {
	out, ok := recall(ctx, r.key("", resolveArgs(name)))
	return ok && strings.TrimSpace(string(out)) == name
}

// ErrNoMergeBase reports two commits without a common ancestor in the
// repository as it is: unrelated histories, or a shallow clone that does
// not hold the merge base (see [Repo.IsShallow]).
var ErrNoMergeBase = errors.New("no merge base")

// MergeBasesError reports two commits with more than one best common
// ancestor: a criss-cross history, where each side merged the other at a
// different point. No one of them holds all that both sides share.
type MergeBasesError struct {
	// Bases are the best common ancestors' full object names, as git
	// lists them.
	Bases []string
}

func (e *MergeBasesError) Error() string {
	return fmt.Sprintf("%d merge bases", len(e.Bases))
}

// MergeBase returns the full object name of the best common ancestor of
// the commits a and b ("git merge-base --all a b"), what "a...b" and
// pull-request diffs compare with; with several b, of a and a merge of
// them all (what a compares with once they are merged). Commits without
// one give [ErrNoMergeBase]; with several, a [*MergeBasesError].
func (r *Repo) MergeBase(ctx context.Context, a string, b ...string) (string, error) {
	if len(b) == 1 && a == b[0] && r.resolved(ctx, a) {
		return a, nil // a commit is its own best common ancestor
	}
	out, err := r.output(ctx, "", nil, append([]string{"merge-base", "--all", "--end-of-options", a}, b...)...)
	if err != nil {
		var ce *CommandError
		var ee *exec.ExitError
		if errors.As(err, &ce) && errors.As(ce.Err, &ee) && ee.ExitCode() == 1 && ce.Stderr == "" {
			return "", ErrNoMergeBase
		}
		return "", err
	}
	bases := strings.Fields(string(out))
	switch len(bases) {
	case 0:
		return "", ErrNoMergeBase
	case 1:
		return bases[0], nil
	}
	return "", &MergeBasesError{Bases: bases}
}

// LastChange returns the full object name of the newest commit reachable
// from commit that changed path ("git log -1 --format=%H commit -- path"),
// or "" when none did. In a shallow clone the oldest commit it holds counts
// as changing every path it has.
func (r *Repo) LastChange(ctx context.Context, commit, path string) (string, error) {
	out, err := r.output(ctx, "", nil, append([]string{"log", "-1", "--format=%H", "--end-of-options", commit}, pathspec(path)...)...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// RemoteHolds reports whether a remote-tracking branch (refs/remotes/)
// or a tag holds commit (a full object name) in its history: the commit
// was pushed, fetched from a remote, or released.
func (r *Repo) RemoteHolds(ctx context.Context, commit string) (bool, error) {
	out, err := r.output(ctx, "", nil, "for-each-ref", "--count=1", "--format=%(refname)", "--contains", commit, "refs/remotes/", "refs/tags/")
	if err != nil {
		return false, err
	}
	return len(bytes.TrimSpace(out)) > 0, nil
}

// HeadBranch returns the branch HEAD names ("refs/heads/main"), or ""
// when HEAD is detached. Git failing is an error.
func (r *Repo) HeadBranch(ctx context.Context) (string, error) {
	out, err := r.output(ctx, "", nil, "symbolic-ref", "-q", "HEAD")
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 1 {
			return "", nil // detached
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Parents returns the full object names of the parents of commit (a full
// object name) as its object records them, in order: none for a root
// commit, two or more for a merge. In a shallow clone a commit at the
// boundary keeps its parents' names, whose objects are missing.
func (r *Repo) Parents(ctx context.Context, commit string) ([]string, error) {
	out, err := r.output(ctx, "", nil, "cat-file", "commit", commit)
	if err != nil {
		return nil, err
	}
	header, _, _ := bytes.Cut(out, []byte("\n\n"))
	var parents []string
	for line := range bytes.SplitSeq(header, []byte("\n")) {
		if p, ok := bytes.CutPrefix(line, []byte("parent ")); ok {
			parents = append(parents, string(p))
		}
	}
	return parents, nil
}

// IsShallow reports whether the repository is a shallow clone (its history
// is cut off, as actions/checkout leaves it by default).
func (r *Repo) IsShallow(ctx context.Context) (bool, error) {
	out, err := r.output(ctx, "", nil, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(string(out)) == "true", nil
}

// RemoteURI returns the URL of the remote name as an absolute network URI
// without user information ("https://github.com/o/r.git"; the scp-like
// "git@host:o/r.git" becomes "ssh://host/o/r.git"), or "" when the remote
// does not exist or is a local path, which must not leave the machine.
func (r *Repo) RemoteURI(ctx context.Context, name string) string {
	raw, err := r.Config(ctx, "remote."+name+".url")
	if err != nil {
		return ""
	}
	raw = strings.TrimSpace(raw)
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		switch u.Scheme {
		case "https", "http", "ssh", "git":
			u.User = nil
			return u.String()
		}
		return ""
	}
	// scp-like syntax: [user@]host:path
	if at, path, ok := strings.Cut(raw, ":"); ok && !strings.Contains(at, "/") && path != "" && !strings.HasPrefix(path, "//") {
		host := at
		if _, h, ok := strings.Cut(at, "@"); ok {
			host = h
		}
		if host != "" && len(host) > 1 { // "C:" is a Windows drive
			return (&url.URL{Scheme: "ssh", Host: host, Path: "/" + strings.TrimPrefix(path, "/")}).String()
		}
	}
	return ""
}

// Change is one entry of [Repo.Diff].
type Change struct {
	// Status is git's status letter: 'A' added, 'C' copied, 'D' deleted,
	// 'M' modified (content or mode), 'R' renamed, 'T' type changed,
	// 'U' unmerged, 'X' unknown.
	Status byte
	// Score is the similarity in percent (0–100) for 'R' and 'C', else 0.
	Score int
	// Path is the path after the change (for 'D': the deleted path).
	Path string
	// OldPath is the path before a rename or copy, else empty.
	OldPath string
}

// Diff lists what changed under prefix between the commit rev and the work
// tree, or the index when staged is true, with rename detection
// ("diff --name-status -z -M"), sorted by path. Untracked files are not
// listed; for the index, entries only intended to be added are (as
// [Repo.IndexDiff] lists them, from the same answer of git).
//
// Against the work tree it first asks git in two steps, commit to index
// and index to work tree (the whole tree's, workChanges), which git
// answers from its index and one lstat per file (0.2 s for 100,000
// files); comparing a commit's tree with the work tree in one step takes
// git seconds of CPU on a large tree whatever changed (git 2.39: 6 s for
// 100,000 files). Only when a file was deleted on the way, so that
// git's rename detection may pair it with another, does it ask the one
// step, and so it does for a file that changed in both steps, which the
// work tree may have changed back (through git's conversions, such as
// core.autocrlf, which only the one step applies to that comparison).
func (r *Repo) Diff(ctx context.Context, rev string, staged bool, prefix string) ([]Change, error) {
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	if staged {
		raw, err := r.stagedDiff(ctx, commit, prefix)
		if err != nil {
			return nil, err
		}
		changes := make([]Change, 0, len(raw))
		for _, c := range raw {
			old, now := c.OldPath != "" && underPrefix(c.OldPath, prefix), underPrefix(c.Path, prefix)
			switch {
			case c.Status == 'R' && old && !now: // renamed out of prefix: deleted there
				changes = append(changes, Change{Status: 'D', Path: c.OldPath})
			case c.Status == 'R' && !old && now: // renamed into prefix: added there
				changes = append(changes, Change{Status: 'A', Path: c.Path})
			case now:
				changes = append(changes, Change{Status: c.Status, Score: c.Score, Path: c.Path, OldPath: c.OldPath})
			}
		}
		return changes, nil
	}
	changes, ok, err := r.diffInTwo(ctx, commit, prefix)
	if err != nil || ok {
		return changes, err
	}
	return r.diff(ctx, prefix, "-M", commit)
}

// diff runs "git diff --name-status -z" with args before the pathspec of
// prefix.
func (r *Repo) diff(ctx context.Context, prefix string, args ...string) ([]Change, error) {
	all := append([]string{"diff", "--name-status", "-z", "--no-ext-diff", "--no-textconv", "--ignore-submodules=none"}, args...)
	out, err := r.output(ctx, "", nil, append(all, pathspec(prefix)...)...)
	if err != nil {
		return nil, err
	}
	return parseNameStatus(out)
}

// diffInTwo is [Repo.Diff] of the work tree as the changes from commit to
// the index and from the index to the work tree, merged by path; ok is
// false when either step deleted a file (or met anything but an addition,
// a modification or a change of type), which only the one step can pair
// into a rename, or when a file changed in both steps.
func (r *Repo) diffInTwo(ctx context.Context, commit, prefix string) (changes []Change, ok bool, err error) {
	toIndex, err := r.diff(ctx, prefix, "--no-renames", "--cached", commit)
	if err != nil {
		return nil, false, err
	}
	work, err := r.workChanges(ctx)
	if err != nil {
		return nil, false, err
	}
	var toWork []Change
	for _, c := range work {
		if prefix == "" || c.Path == prefix || strings.HasPrefix(c.Path, prefix+"/") {
			toWork = append(toWork, c)
		}
	}
	status := map[string]byte{}
	for _, c := range slices.Concat(toIndex, toWork) {
		switch c.Status {
		case 'A', 'M', 'T':
		default:
			return nil, false, nil
		}
		if _, seen := status[c.Path]; seen {
			return nil, false, nil
		}
		status[c.Path] = c.Status
	}
	for p, st := range status {
		changes = append(changes, Change{Status: st, Path: p})
	}
	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return changes, true, nil
}

// workChanges lists what changed from the index to the work tree in the
// whole work tree, without rename detection. Git looks at every tracked
// file for it (100,000 files: 0.2 s), so it is one question for every
// prefix and for [Repo.ChangedAttributeFiles], which a context from
// [WithMemo] asks once.
func (r *Repo) workChanges(ctx context.Context) ([]Change, error) {
	return r.diff(ctx, "", "--no-renames")
}

// parseNameStatus parses the output of "diff --name-status -z".
func parseNameStatus(out []byte) ([]Change, error) {
	fields := splitNUL(out)
	var changes []Change
	for i := 0; i < len(fields); {
		st := fields[i]
		i++
		if st == "" {
			return nil, fmt.Errorf("git diff: empty status field")
		}
		c := Change{Status: st[0]}
		if len(st) > 1 {
			c.Score, _ = strconv.Atoi(st[1:])
		}
		need := 1
		if c.Status == 'R' || c.Status == 'C' {
			need = 2
		}
		if i+need > len(fields) {
			return nil, fmt.Errorf("git diff: truncated entry for status %q", st)
		}
		if need == 2 {
			c.OldPath, c.Path = fields[i], fields[i+1]
		} else {
			c.Path = fields[i]
		}
		i += need
		changes = append(changes, c)
	}
	return changes, nil
}

// splitNUL splits NUL-terminated records; a missing final NUL is tolerated.
func splitNUL(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

// readAttributes reads git check-attr -z's answer for paths (relative to
// dir) from r, as Attributes returns it: each path in turn, one record
// "path NUL name NUL value NUL" per name in the order of names.
func readAttributes(r io.Reader, dir string, paths, names []string) ([][]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), math.MaxInt)
	sc.Split(splitAtNUL)
	field := func() ([]byte, error) {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return nil, fmt.Errorf("git check-attr: %w", err)
			}
			return nil, fmt.Errorf("git check-attr: malformed output")
		}
		return sc.Bytes(), nil
	}
	out := make([][]string, len(paths))
	lists := map[string][]string{} // each list of values once, by its values NUL-terminated
	var key []byte
	for i, p := range paths {
		key = key[:0]
		for _, name := range names {
			gotPath, err := field()
			if err != nil {
				return nil, err
			}
			samePath := isPath(gotPath, dir, p)
			gotName, err := field()
			if err != nil {
				return nil, err
			}
			if !samePath || string(gotName) != name {
				return nil, fmt.Errorf("git check-attr: answered %q for %q of %q", gotName, name, p)
			}
			b, err := field()
			if err != nil {
				return nil, err
			}
			key = append(append(key, b...), 0) // a value holds no NUL: -z ends it with one
		}
		l, ok := lists[string(key)]
		if !ok {
			l = strings.Split(string(key[:len(key)-1]), "\x00")
			lists[string(key)] = l
		}
		out[i] = l
	}
	if sc.Scan() {
		return nil, fmt.Errorf("git check-attr: malformed output")
	}
	return out, nil
}

// pathInput is the input "DIR/PATH NUL" of each of paths in turn ("PATH
// NUL" when dir is ""), made as git reads it rather than kept whole.
type pathInput struct {
	dir     string
	paths   []string
	line    []byte // the line being read
	pending []byte // what git has not read of it
}

func (in *pathInput) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(in.pending) == 0 {
			if len(in.paths) == 0 {
				break
			}
			in.line = in.line[:0]
			if in.dir != "" {
				in.line = append(append(in.line, in.dir...), '/')
			}
			in.line = append(append(in.line, in.paths[0]...), 0)
			in.pending, in.paths = in.line, in.paths[1:]
		}
		c := copy(p[n:], in.pending)
		n, in.pending = n+c, in.pending[c:]
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// isPath reports whether b is the path dir + "/" + p, or p when dir is "".
func isPath(b []byte, dir, p string) bool {
	if dir != "" {
		if len(b) <= len(dir) || string(b[:len(dir)]) != dir || b[len(dir)] != '/' {
			return false
		}
		b = b[len(dir)+1:]
	}
	return string(b) == p
}

// splitAtNUL is a [bufio.SplitFunc] for NUL-terminated fields; data that
// ends without a NUL is an error.
func splitAtNUL(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return 0, nil, errors.New("output does not end with NUL")
	}
	return 0, nil, nil
}

// Entry is one file of a tree or of the index.
type Entry struct {
	// Mode is git's octal mode: "100644", "100755", "120000" (symbolic
	// link), "160000" (submodule), or "040000" for a tree.
	Mode string
	// Object is the object name of the blob (or commit, for a submodule).
	Object string
	// Stage is the merge stage of an index entry (0 when merged); always 0
	// for a tree.
	Stage int
	// Path is relative to the top level, with forward slashes.
	Path string
	// Tag is the tag "git ls-files -v" gives an index entry: 'H' for an
	// ordinary one, 'h' when it is marked assume-unchanged, 'S' (or 's')
	// skip-worktree, 'M' unmerged; 0 for a tree's.
	Tag byte
}

// IsRegular reports whether e is a regular file (executable or not).
func (e Entry) IsRegular() bool { return e.Mode == "100644" || e.Mode == "100755" }

// Watched reports whether git compares the work-tree copy of the index
// entry e with it: an ordinary entry ('H'), neither assume-unchanged nor
// skip-worktree, whose copy git never looks at.
func (e Entry) Watched() bool { return e.Tag == 'H' }

// SkipWorktree reports whether the index entry e is marked skip-worktree
// (a sparse checkout leaves its copy out of the work tree).
func (e Entry) SkipWorktree() bool { return e.Tag == 'S' || e.Tag == 's' }

// IsSymlink reports whether e is a symbolic link.
func (e Entry) IsSymlink() bool { return e.Mode == "120000" }

// modes are the modes git writes, shared by every entry that has one.
var modes = map[string]string{"100644": "100644", "100755": "100755", "120000": "120000", "160000": "160000", "040000": "040000"}

// parseEntry parses one record of "ls-tree -r -z" or "ls-files --stage -z"
// (after its tag): "<mode> <object> <stage or type>\t<path>". The strings
// are substrings of rec, the mode one shared string.
func parseEntry(rec string, tree bool) (Entry, bool) {
	meta, path, ok := strings.Cut(rec, "\t")
	mode, rest, ok1 := strings.Cut(meta, " ")
	a, b, ok2 := strings.Cut(rest, " ")
	if !ok || !ok1 || !ok2 || strings.Contains(b, " ") {
		return Entry{}, false
	}
	if m, known := modes[mode]; known {
		mode = m
	}
	if tree { // "<mode> <type> <object>"
		return Entry{Mode: mode, Object: b, Path: path}, true
	}
	stage, err := strconv.Atoi(b)
	if err != nil {
		return Entry{}, false
	}
	return Entry{Mode: mode, Object: a, Stage: stage, Path: path}, true
}

// Tree lists the files of the commit rev under prefix, recursively.
func (r *Repo) Tree(ctx context.Context, rev, prefix string) ([]Entry, error) {
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	return r.lsTree(ctx, append([]string{"-r", commit}, pathspec(prefix)...))
}

// lsTree runs "git ls-tree -z --full-tree" with args and parses what it
// lists.
func (r *Repo) lsTree(ctx context.Context, args []string) ([]Entry, error) {
	out, err := r.output(ctx, "", nil, append([]string{"ls-tree", "-z", "--full-tree"}, args...)...)
	if err != nil {
		return nil, err
	}
	recs := splitNUL(out)
	entries := make([]Entry, 0, len(recs))
	for _, rec := range recs {
		e, ok := parseEntry(rec, true)
		if !ok {
			return nil, fmt.Errorf("git ls-tree: malformed entry %q", rec)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// Index lists the entries of the index under prefix, every merge stage
// included, with their tags (Entry.Tag).
func (r *Repo) Index(ctx context.Context, prefix string) (*IndexList, error) {
	args := append([]string{"ls-files", "--stage", "-v", "-z", "--full-name"}, pathspec(prefix)...)
	// The listing of the whole index takes about the index file's size,
	// a little less: an entry's object name is written in hex there, but
	// its stat data are not. A root that is a small part of a large
	// index lists much less, so the room made is bounded.
	size := 0
	if fi, err := os.Stat(r.index); err == nil {
		size = int(min(fi.Size(), maxIndexHint))
	}
	out, err := r.outputSized(ctx, "", nil, size, args...)
	if err != nil {
		return nil, err
	}
	return parseIndex(out)
}

// maxIndexHint bounds the room [Repo.Index] makes for git's answer before
// it comes, in bytes: the listing of about 600,000 entries.
const maxIndexHint = 64 << 20

// IndexList is what [Repo.Index] lists, in path order and, for one path,
// merge stage order (the index's own order). It keeps its entries in one
// string the garbage collector need not scan, each as its tag, mode,
// stage, binary object name and path (about 80 bytes an entry at 100,000
// Journals, where git's answer takes 110 and a map of Entry values by
// path twice as much, all of it pointers), and where each ends. An
// Entry's path shares that string's memory; its object name is written
// in hex anew.
type IndexList struct {
	recs string
	ends []uint32 // entry i lies in recs[ends[i-1]:ends[i]] (from 0 for i = 0)
	// modes are the distinct modes the entries name, by their mode byte;
	// oidLen is the length of an object name in bytes (20 for SHA-1).
	modes  []string
	oidLen int
	// byPath finds the first entry of each path by its hash (Position).
	byPath *hashpos.Table
	// sparse counts the entries marked skip-worktree, links the
	// symbolic links.
	sparse, links int
}

// An entry of an IndexList's recs: the tag, the mode's number in modes,
// the stage, then the object name and the path.
const (
	recTag = iota
	recMode
	recStage
	recOID
)

// parseIndex parses the output of "ls-files --stage -v -z" and checks
// every entry, so that Entry never meets a malformed one.
func parseIndex(out []byte) (*IndexList, error) {
	if len(out) > math.MaxUint32 {
		return nil, errors.New("git ls-files: the answer is larger than 4 GiB")
	}
	text := unsafe.String(unsafe.SliceData(out), len(out)) // out is not kept
	var spans []uint32                                     // start and end of each record
	sorted, prev, size := true, "", 0
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], 0)
		if end < 0 {
			end = len(text) - start // a missing final NUL is tolerated
		}
		end += start
		e, ok := parseIndexEntry(text[start:end])
		if !ok {
			return nil, fmt.Errorf("git ls-files: malformed entry %q", text[start:end])
		}
		if e.Path < prev {
			sorted = false
		}
		prev = e.Path
		size += recOID + len(e.Object)/2 + len(e.Path)
		spans = append(spans, uint32(start), uint32(end))
		start = end + 1
	}
	if !sorted {
		pathOf := func(i int) string {
			e, _ := parseIndexEntry(text[spans[2*i]:spans[2*i+1]])
			return e.Path
		}
		sort.Stable(indexOrder{spans, pathOf})
	}
	l := &IndexList{ends: make([]uint32, 0, len(spans)/2)}
	var b strings.Builder
	b.Grow(size) // exactly: the string keeps what is made here
	var oid []byte
	for i := 0; i < len(spans); i += 2 {
		rec := text[spans[i]:spans[i+1]]
		e, _ := parseIndexEntry(rec)
		if l.oidLen == 0 {
			l.oidLen = len(e.Object) / 2
		}
		var err error
		if oid, err = hex.AppendDecode(oid[:0], readOnly(e.Object)); err != nil || len(oid) != l.oidLen || l.oidLen == 0 || e.Stage < 0 || e.Stage > 3 {
			return nil, fmt.Errorf("git ls-files: malformed entry %q", rec)
		}
		mode := slices.Index(l.modes, e.Mode)
		if mode < 0 {
			if mode = len(l.modes); mode > math.MaxUint8 {
				return nil, errors.New("git ls-files: the answer names more than 256 modes")
			}
			l.modes = append(l.modes, strings.Clone(e.Mode)) // not a view of out
		}
		b.WriteByte(e.Tag)
		b.WriteByte(byte(mode))
		b.WriteByte(byte(e.Stage))
		b.Write(oid)
		b.WriteString(e.Path)
		l.ends = append(l.ends, uint32(b.Len()))
		if e.SkipWorktree() {
			l.sparse++
		}
		if e.IsSymlink() {
			l.links++
		}
	}
	l.recs = b.String() // shorter than out: its length fits in 32 bits
	l.hashPaths()
	return l, nil
}

// hashPaths fills l.byPath.
func (l *IndexList) hashPaths() {
	l.byPath = hashpos.New(l.Len(), func(i int) (string, bool) {
		p := l.path(i)
		return p, i == 0 || p != l.path(i-1) // a later merge stage of the same path: left out
	})
}

// pathHash hashes the path dir + "/" + name, or name when dir is "",
// without joining them.
func pathHash(seed maphash.Seed, dir, name string) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	if dir != "" {
		h.WriteString(dir)
		h.WriteByte('/')
	}
	h.WriteString(name)
	return h.Sum64()
}

// readOnly returns the bytes of s, for a caller that only reads them.
func readOnly(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// parseIndexEntry parses one record "TAG MODE OBJECT STAGE<TAB>PATH" of
// "ls-files --stage -v -z".
func parseIndexEntry(rec string) (Entry, bool) {
	if len(rec) < 2 || rec[1] != ' ' {
		return Entry{}, false
	}
	e, ok := parseEntry(rec[2:], false)
	e.Tag = rec[0]
	return e, ok
}

// indexOrder sorts the records of git's answer (spans, start and end of
// each) by path, for an answer that is not in the index's order already.
type indexOrder struct {
	spans []uint32
	path  func(i int) string
}

func (o indexOrder) Len() int           { return len(o.spans) / 2 }
func (o indexOrder) Less(i, j int) bool { return o.path(i) < o.path(j) }
func (o indexOrder) Swap(i, j int) {
	p := o.spans
	p[2*i], p[2*i+1], p[2*j], p[2*j+1] = p[2*j], p[2*j+1], p[2*i], p[2*i+1]
}

// Len returns the number of entries.
func (l *IndexList) Len() int { return len(l.ends) }

// SkipWorktree returns the number of entries marked skip-worktree
// ([Entry.SkipWorktree]): when it is 0, a caller looking for them need
// not visit the entries.
func (l *IndexList) SkipWorktree() int { return l.sparse }

// Symlinks returns the number of entries that are symbolic links
// ([Entry.IsSymlink]), for the same use.
func (l *IndexList) Symlinks() int { return l.links }

// rec returns the record of entry i.
func (l *IndexList) rec(i int) string {
	start := uint32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.recs[start:l.ends[i]]
}

// path returns the path of entry i.
func (l *IndexList) path(i int) string { return l.rec(i)[recOID+l.oidLen:] }

// Entry returns entry i, 0 <= i < Len().
func (l *IndexList) Entry(i int) Entry {
	rec := l.rec(i)
	oid := make([]byte, 2*l.oidLen)
	hex.Encode(oid, readOnly(rec[recOID:recOID+l.oidLen]))
	return Entry{Tag: rec[recTag], Mode: l.modes[rec[recMode]], Stage: int(rec[recStage]),
		Object: unsafe.String(unsafe.SliceData(oid), len(oid)), Path: rec[recOID+l.oidLen:]}
}

// All returns the entries in order, with their positions.
func (l *IndexList) All() iter.Seq2[int, Entry] {
	return func(yield func(int, Entry) bool) {
		for i := range l.Len() {
			if !yield(i, l.Entry(i)) {
				return
			}
		}
	}
}

// Find returns the first entry (the lowest merge stage) of the path
// dir + "/" + name, or name when dir is "" (both relative to the top
// level, with forward slashes), found by Position.
func (l *IndexList) Find(dir, name string) (Entry, bool) {
	if i, ok := l.Position(dir, name); ok {
		return l.Entry(i), true
	}
	return Entry{}, false
}

// Position returns the position of the first entry (the lowest merge
// stage) of the path dir + "/" + name, or name when dir is "", and
// whether there is one: found by the path's hash, without joining them.
func (l *IndexList) Position(dir, name string) (int, bool) {
	if l.Len() == 0 {
		return 0, false
	}
	return l.byPath.Find(pathHash(l.byPath.Seed(), dir, name), func(i int) bool { return isPath(readOnly(l.path(i)), dir, name) })
}

// TreeDirs lists, like [Repo.Tree], the files of the commit rev under the
// directories dirs (relative to the top level, with forward slashes; each
// names a directory, never a file) and nothing else, from rev's tree
// objects: a check that knows which directories changed reads only
// theirs. Many dirs take several commands. No dirs lists nothing,
// without asking git.
func (r *Repo) TreeDirs(ctx context.Context, rev string, dirs []string) ([]Entry, error) {
	if len(dirs) == 0 {
		return nil, nil
	}
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	// The pathspecs are literal (command), and sorted, so that the
	// listings of the batches follow one another in git's order; each
	// command line stays within maxArgBytes.
	specs := make([]string, len(dirs))
	for i, d := range dirs {
		specs[i] = d + "/"
	}
	slices.Sort(specs)
	var out []Entry
	for len(specs) > 0 {
		n, size := 0, 0
		for n < len(specs) && (n == 0 || size+len(specs[n])+1 <= maxArgBytes) {
			size += len(specs[n]) + 1
			n++
		}
		entries, err := r.lsTree(ctx, append([]string{"-r", commit, "--"}, specs[:n]...))
		if err != nil {
			return nil, err
		}
		out = append(out, entries...)
		specs = specs[n:]
	}
	return out, nil
}

// maxArgBytes bounds the paths a command puts on one command line, in
// bytes: Windows allows 32,767 characters in all, and Linux 128 KiB in
// one argument list at the least.
const maxArgBytes = 16 << 10

// Blobs calls fn with the size and contents of each object in objects, in
// order, reading them all through one "git cat-file --batch". fn may read
// any part of the contents; the rest is skipped. An object that does not
// exist is an error.
func (r *Repo) Blobs(ctx context.Context, objects []string, fn func(object string, size int64, contents io.Reader) error) error {
	if len(objects) == 0 {
		return nil
	}
	var in bytes.Buffer
	for _, o := range objects {
		if o == "" || strings.ContainsAny(o, " \t\n\x00") {
			return fmt.Errorf("git cat-file: bad object name %q", o)
		}
		in.WriteString(o)
		in.WriteByte('\n')
	}
	// Every name is written before any answer is read, so git may buffer
	// its answers (--buffer, git 2.6) instead of writing each object
	// with a system call of its own.
	readErr, gitErr := r.stream(ctx, &in, func(out io.Reader) error {
		return readBatch(bufio.NewReader(out), objects, fn)
	}, "cat-file", "--batch", "--buffer")
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case readErr != nil:
		return readErr
	}
	return gitErr
}

// stream runs git in the top level with args and stdin, and hands its
// standard output to read as git writes it, draining whatever read leaves.
// It returns read's error and git's (a [*CommandError]), each nil when
// there was none: which of them explains a failure better is the caller's
// to say.
func (r *Repo) stream(ctx context.Context, stdin io.Reader, read func(io.Reader) error, args ...string) (readErr, gitErr error) {
	cmd := r.command(ctx, r.top, args...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, &CommandError{Args: args, Err: err}
	}
	if readErr = read(pipe); readErr != nil {
		_, _ = io.Copy(io.Discard, pipe)
	}
	if err := cmd.Wait(); err != nil {
		gitErr = &CommandError{Args: args, Stderr: strings.TrimSpace(stderr.String()), Err: err}
	}
	return readErr, gitErr
}

// readBatch reads the "cat-file --batch" answers for objects.
func readBatch(br *bufio.Reader, objects []string, fn func(string, int64, io.Reader) error) error {
	for _, o := range objects {
		_, size, err := readBatchHeader(br, o)
		if err != nil {
			return err
		}
		body := io.LimitReader(br, size)
		if err := fn(o, size, body); err != nil {
			return err
		}
		if err := readBatchBody(br, o, body); err != nil {
			return err
		}
	}
	return nil
}

// readBatchHeader reads the header line of the "cat-file --batch" answer
// for object and returns the object's type ("blob", "tree", ...) and the
// size of the contents that follow it.
func readBatchHeader(br *bufio.Reader, object string) (string, int64, error) {
	header, err := br.ReadString('\n')
	if err != nil {
		return "", 0, fmt.Errorf("git cat-file: reading the header of %s: %w", object, err)
	}
	f := strings.Fields(header)
	if len(f) == 2 && f[1] == "missing" {
		return "", 0, &missingError{object}
	}
	if len(f) != 3 {
		return "", 0, fmt.Errorf("git cat-file: malformed header %q", strings.TrimSpace(header))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return "", 0, fmt.Errorf("git cat-file: malformed size in %q", strings.TrimSpace(header))
	}
	return f[1], size, nil
}

// missingError is the error for an object that git does not have; after
// it, "cat-file --batch" goes on answering.
type missingError struct{ object string }

func (e *missingError) Error() string {
	return fmt.Sprintf("git cat-file: object %s is missing", e.object)
}

// readBatchBody skips what fn left of the contents of object (body) and
// the newline that ends them.
func readBatchBody(br *bufio.Reader, object string, body io.Reader) error {
	if _, err := io.Copy(io.Discard, body); err != nil {
		return fmt.Errorf("git cat-file: reading %s: %w", object, err)
	}
	if b, err := br.ReadByte(); err != nil || b != '\n' {
		return fmt.Errorf("git cat-file: missing terminator after %s", object)
	}
	return nil
}

// ReadBlobs returns the contents of each object, refusing any larger than
// max bytes (then its entry is absent and tooLarge lists it).
func (r *Repo) ReadBlobs(ctx context.Context, objects []string, max int64) (contents map[string][]byte, tooLarge []string, err error) {
	contents = make(map[string][]byte, len(objects))
	err = r.Blobs(ctx, objects, func(o string, size int64, body io.Reader) error {
		if size > max {
			tooLarge = append(tooLarge, o)
			return nil
		}
		b := make([]byte, size)
		if _, err := io.ReadFull(body, b); err != nil {
			return fmt.Errorf("git cat-file: reading %s: %w", o, err)
		}
		contents[o] = b
		return nil
	})
	return contents, tooLarge, err
}

// Attributes returns, for each of paths in order, the values of the
// named attributes in the order of names, as "git check-attr -z" reports
// them: "set", "unset", "unspecified" or a value. The paths are relative
// to dir, itself relative to the top level ("" for the top level), with
// forward slashes. Equal lists of values share one slice, so that the
// answer for a whole tree holds a slice header per path and no copy of
// git's output. With cached, the .gitattributes files of the index are
// used instead of the work tree's.
func (r *Repo) Attributes(ctx context.Context, cached bool, dir string, paths []string, names ...string) ([][]string, error) {
	if len(paths) == 0 || len(names) == 0 {
		return make([][]string, len(paths)), nil
	}
	args := []string{"check-attr", "-z", "--stdin"}
	if cached {
		args = append(args, "--cached")
	}
	args = append(args, names...)
	// The answer is read as git writes it, not kept whole: for a tree of
	// 100,000 files it is 38 MB.
	var out [][]string
	readErr, gitErr := r.stream(ctx, &pathInput{dir: dir, paths: paths}, func(answer io.Reader) (err error) {
		out, err = readAttributes(answer, dir, paths, names)
		return err
	}, args...)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case gitErr != nil: // a malformed answer is what a failing git leaves
		return nil, gitErr
	case readErr != nil:
		return nil, readErr
	}
	return out, nil
}
