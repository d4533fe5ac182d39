package gitrepo

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// AttributeSources returns the SHA-256 of everything that decides, by the
// rules of gitattributes(5), the attributes git gives a file in the
// directories dirs (relative to the top level, with forward slashes, ""
// for the top level) and in no other directory, and how git converts its
// bytes: the .gitattributes of each of dirs and of every directory above
// them (those of the index when cached is set, as "git check-attr
// --cached" reads them, else of the work tree; the same files in both give
// the same sum), the repository's
// info/attributes, the user's attributes file (core.attributesFile, or
// its default place), the system-wide one, the configuration that git's
// conversions read (core.autocrlf, core.eol, attr.tree), the environment
// that changes them (GIT_ATTR_NOSYSTEM, GIT_ATTR_SOURCE), and git's
// version. Two equal sums mean that git answers the same for the same
// paths, so a caller may keep what git said about a path under it. Git
// failing is an error.
func (r *Repo) AttributeSources(ctx context.Context, dirs []string, cached bool) ([]byte, error) {
	state := r.workAttributes
	if cached {
		state = r.indexAttributes
	}
	return r.attributeSources(ctx, dirs, func(files []string) (map[string]string, error) { return state(ctx, files) })
}

// StagedAttributeSources is AttributeSources(ctx, []string{prefix}, true)
// made without reading the index: the .gitattributes of prefix and above
// as the commit rev holds them, with what the index changes there
// ([Repo.StagedAttributeChanges] lists them; the question is the one of
// [Repo.IndexDiff], asked once under a memo).
func (r *Repo) StagedAttributeSources(ctx context.Context, rev, prefix string) ([]byte, error) {
	commit, changes, err := r.stagedSince(ctx, rev, prefix)
	if err != nil {
		return nil, err
	}
	return r.attributeSourcesAt(ctx, commit, prefix, changes)
}

// stagedSince resolves rev to its commit and returns it with what the
// index changes since that commit (stagedDiff).
func (r *Repo) stagedSince(ctx context.Context, rev, prefix string) (string, []RawChange, error) {
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return "", nil, err
	}
	changes, err := r.stagedDiff(ctx, commit, prefix)
	return commit, changes, err
}

// AttributeSourcesAt is AttributeSources(ctx, []string{prefix}, true) of
// an index that holds what the commit rev holds: the .gitattributes of
// prefix and above as rev's trees hold them. It equals
// [Repo.StagedAttributeSources] when the index changes none of them.
func (r *Repo) AttributeSourcesAt(ctx context.Context, rev, prefix string) ([]byte, error) {
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	return r.attributeSourcesAt(ctx, commit, prefix, nil)
}

// attributeSourcesAt is the attribute sources of prefix from the trees of
// commit with changes applied.
func (r *Repo) attributeSourcesAt(ctx context.Context, commit, prefix string, changes []RawChange) ([]byte, error) {
	return r.attributeSources(ctx, []string{prefix}, func(files []string) (map[string]string, error) {
		entries, err := r.lsTree(ctx, append([]string{commit, "--"}, files...))
		if err != nil {
			return nil, err
		}
		state := fileStates(entries)
		for _, c := range changes {
			if c.Status == 'U' {
				return nil, fmt.Errorf("the index has an unmerged entry %q", c.Path)
			}
			if slices.Contains(files, c.OldPath) {
				delete(state, c.OldPath) // renamed away
			}
			if !slices.Contains(files, c.Path) {
				continue
			}
			if c.Status == 'D' {
				delete(state, c.Path)
			} else {
				state[c.Path] = gitKind(c.NewMode) + " " + c.NewObject
			}
		}
		return state, nil
	})
}

// StagedAttributeChanges returns the .gitattributes under prefix or in a
// directory above it (relative to the top level) whose index entry
// differs from the commit rev's: those that decide the attributes of the
// files under prefix. It asks git what [Repo.IndexDiff] asks.
func (r *Repo) StagedAttributeChanges(ctx context.Context, rev, prefix string) ([]string, error) {
	_, changes, err := r.stagedSince(ctx, rev, prefix)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range changes {
		for _, p := range []string{c.OldPath, c.Path} {
			if path.Base(p) == ".gitattributes" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// indexAttributes returns the kind and object id of each of files (top
// level paths) in the index ("" for none).
func (r *Repo) indexAttributes(ctx context.Context, files []string) (map[string]string, error) {
	out, err := r.output(ctx, "", nil, append([]string{"ls-files", "--stage", "-z", "--full-name", "--"}, files...)...)
	if err != nil {
		return nil, err
	}
	var entries []Entry
	for _, rec := range splitNUL(out) {
		e, ok := parseEntry(rec, false)
		if !ok {
			return nil, fmt.Errorf("git ls-files: malformed entry %q", rec)
		}
		entries = append(entries, e)
	}
	return fileStates(entries), nil
}

// fileStates returns the kind and object id of each of entries, by path,
// as AttributeSources sums them.
func fileStates(entries []Entry) map[string]string {
	state := make(map[string]string, len(entries))
	for _, e := range entries {
		state[e.Path] = gitKind(e.Mode) + " " + e.Object
	}
	return state
}

// workAttributes returns the kind and object id of each of files (top
// level paths) in the work tree, as git would read it.
func (r *Repo) workAttributes(_ context.Context, files []string) (map[string]string, error) {
	state := map[string]string{}
	for _, f := range files {
		abs := filepath.Join(r.top, filepath.FromSlash(f))
		fi, err := os.Lstat(abs)
		switch {
		case err != nil:
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(abs)
			state[f] = "symlink " + BlobID(r.format, []byte(target))
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(abs)
			if err != nil {
				return nil, err
			}
			state[f] = "regular " + BlobID(r.format, b)
		default:
			state[f] = "other"
		}
	}
	return state, nil
}

// attributeSources is AttributeSources with the state of the
// .gitattributes files as state gives it.
func (r *Repo) attributeSources(ctx context.Context, dirs []string, state func(files []string) (map[string]string, error)) ([]byte, error) {
	h := sha256.New()
	field := func(name string, value []byte) {
		h.Write([]byte(name))
		h.Write(binary.LittleEndian.AppendUint64([]byte{0}, uint64(len(value))))
		h.Write(value)
	}
	file := func(name, p string) {
		b, err := os.ReadFile(p)
		if err != nil {
			b = []byte("\x00missing")
		}
		field(name+" "+p, b)
	}
	version, err := r.output(ctx, "", nil, "version")
	if err != nil {
		return nil, err
	}
	field("version", version)
	for _, env := range []string{"GIT_ATTR_NOSYSTEM", "GIT_ATTR_SOURCE"} {
		if v, set := os.LookupEnv(env); set {
			field("env "+env, []byte(v))
		}
	}
	// The configuration: the records of every key that matters, in order.
	recs, err := r.configRecords(ctx)
	if err != nil {
		return nil, err
	}
	var cfg []byte
	userFile := ""
	for _, rec := range recs {
		k, v, hasValue := configKey(rec)
		switch k {
		case "core.attributesfile":
			if hasValue {
				userFile = v
			}
		case "core.autocrlf", "core.eol", "attr.tree":
		default:
			continue
		}
		cfg = append(append(cfg, rec...), 0)
	}
	field("config", cfg)
	switch {
	case userFile == "":
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if home, _ := os.UserHomeDir(); xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			userFile = filepath.Join(xdg, "git", "attributes")
		}
	case strings.HasPrefix(userFile, "~/"):
		home, _ := os.UserHomeDir()
		userFile = filepath.Join(home, userFile[2:])
	case !filepath.IsAbs(userFile):
		userFile = filepath.Join(r.top, userFile)
	}
	if userFile != "" {
		file("user", userFile)
	}
	// The system-wide file lies under git's own prefix; git 2.42 and
	// later say where.
	if sys, err := r.output(ctx, "", nil, "var", "GIT_ATTR_SYSTEM"); err == nil {
		file("system", strings.TrimSpace(string(sys)))
	} else {
		for _, p := range []string{"/etc/gitattributes", "/usr/local/etc/gitattributes"} {
			file("system", p)
		}
	}
	for _, p := range r.stateFiles {
		if strings.HasSuffix(filepath.ToSlash(p), "info/attributes") {
			file("info", p)
		}
	}
	// The .gitattributes of each directory and those above it.
	seen := map[string]bool{}
	var files []string
	for _, d := range dirs {
		for {
			f := path.Join(d, ".gitattributes")
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
			if d == "" || d == "." {
				break
			}
			if d = path.Dir(d); d == "." {
				d = ""
			}
		}
	}
	// Each file as git would read it: whether it is a regular file, a
	// symbolic link (which git does not follow) or missing, and its
	// blob's object id, so that the index and a work tree that hold the
	// same .gitattributes give the same sum.
	got, err := state(files)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		field("gitattributes "+f, []byte(got[f]))
	}
	return h.Sum(nil), nil
}

// gitKind names the kind of file of a git mode, as AttributeSources does.
func gitKind(mode string) string {
	switch mode {
	case "100644", "100755":
		return "regular"
	case "120000":
		return "symlink"
	}
	return "other"
}

// BlobID returns the object id git gives a blob of data in the object
// format (a repository's ObjectFormat: "sha256", else SHA-1): the hash of
// "blob", the size in decimal, a NUL byte and the bytes, in lowercase hex.
func BlobID(format string, data []byte) string {
	return hex.EncodeToString(objectID(format, "blob", data))
}

// objectID returns the raw object id git gives an object of type kind
// ("blob", "tree") with contents data in the object format: the hash
// (SHA-256 for "sha256", else SHA-1) of the type, a space, the size in
// decimal, a NUL byte and the contents.
func objectID(format, kind string, data []byte) []byte {
	var h hash.Hash = sha1.New()
	if format == "sha256" {
		h = sha256.New()
	}
	h.Write([]byte(kind + " " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return h.Sum(nil)
}

// exitCode returns the exit code of the failed command, or -1.
func (e *CommandError) exitCode() int {
	var ee interface{ ExitCode() int }
	if errors.As(e.Err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// DirtyFiles returns the paths under prefix (relative to the top level)
// whose work-tree copy git does not know to hold the index's bytes ("git
// diff-files --name-only": changed, deleted, or with stat data that
// differs from the index's, such as a touched file; git compares the
// bytes of an entry whose stat data it cannot trust). A path it does not
// list is clean: after git's conversions for that path, the work-tree
// copy hashes to the index's blob. Untracked files are not listed.
func (r *Repo) DirtyFiles(ctx context.Context, prefix string) (map[string]bool, error) {
	return r.diffFiles(ctx, prefix)
}

// IntentToAdd returns the paths under prefix (relative to the top level)
// whose index entry was added with "git add --intent-to-add" (-N): an
// entry with the empty blob that git write-tree and git commit leave out,
// and that git diff-files reports as added. Git failing is an error.
func (r *Repo) IntentToAdd(ctx context.Context, prefix string) (map[string]bool, error) {
	return r.diffFiles(ctx, prefix, "--diff-filter=A")
}

// diffFiles returns the paths under prefix that "git diff-files
// --name-only" lists with the options opts.
func (r *Repo) diffFiles(ctx context.Context, prefix string, opts ...string) (map[string]bool, error) {
	args := append(append([]string{"diff-files", "--name-only", "-z", "--ignore-submodules=none"}, opts...), pathspec(prefix)...)
	out, err := r.output(ctx, "", nil, args...)
	if err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	for rec := range bytes.SplitSeq(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		if len(rec) > 0 {
			listed[string(rec)] = true
		}
	}
	return listed, nil
}

// RawChange is one entry of [Repo.IndexDiff] (a path whose index entry
// differs from the commit's) or of [Repo.TreeDiff] (an entry that
// differs between two trees), with both sides.
type RawChange struct {
	// Status is git's status letter: 'A' added, 'D' deleted, 'M'
	// modified, 'T' type changed, 'U' unmerged.
	Status byte
	// OldMode and OldObject are the first side (the commit's, or tree
	// a's; "000000" and zeros for an added path); NewMode and NewObject
	// the second (the index's, or tree b's).
	OldMode, OldObject, NewMode, NewObject string
	// Path is relative to the top level (IndexDiff) or to the compared
	// trees (TreeDiff), with forward slashes.
	Path string
	// OldPath and Score are, for 'R' (renamed, only where renames are
	// detected), the path before and the similarity in percent.
	OldPath string
	Score   int
}

// BetweenDirs reports whether each side of c is a directory or nothing
// (mode 040000 or 000000): of [Repo.TreeDiff], a change inside an
// entry that is a directory wherever it is at all.
func (c RawChange) BetweenDirs() bool {
	isDir := func(mode string) bool { return mode == "040000" || mode == "000000" }
	return isDir(c.OldMode) && isDir(c.NewMode)
}

// IndexDiff lists the paths under prefix whose index entry differs from
// the commit rev's ("git diff --cached --raw --no-renames"): what a check
// of rev's files can learn from the index listing and this short answer
// instead of listing rev's whole tree. An entry only intended to be added
// (git add -N) is listed as an empty file added, as the index lists it
// (--ita-visible-in-index).
func (r *Repo) IndexDiff(ctx context.Context, rev, prefix string) ([]RawChange, error) {
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	staged, err := r.stagedDiff(ctx, commit, prefix)
	if err != nil {
		return nil, err
	}
	// A rename is the deletion of its old path and the addition of its
	// new one, as "--no-renames" would list them, in path order.
	changes := make([]RawChange, 0, len(staged))
	for _, c := range staged {
		if c.Status != 'R' {
			if underPrefix(c.Path, prefix) {
				changes = append(changes, c)
			}
			continue
		}
		zero := strings.Repeat("0", len(c.OldObject))
		if underPrefix(c.OldPath, prefix) {
			changes = append(changes, RawChange{Status: 'D', OldMode: c.OldMode, NewMode: "000000", OldObject: c.OldObject, NewObject: zero, Path: c.OldPath})
		}
		if underPrefix(c.Path, prefix) {
			changes = append(changes, RawChange{Status: 'A', OldMode: "000000", NewMode: c.NewMode, OldObject: zero, NewObject: c.NewObject, Path: c.Path})
		}
	}
	slices.SortStableFunc(changes, func(a, b RawChange) int { return strings.Compare(a.Path, b.Path) })
	return changes, nil
}

// stagedDiff is "git diff --cached --raw -M" of commit against the index
// under prefix and of the .gitattributes above it, with the entries only
// intended to be added: the one question to git behind [Repo.IndexDiff],
// [Repo.Diff] of the index and [Repo.StagedAttributeChanges], each of
// which would read the whole index (0.3 s of git's CPU at 1,000,000
// entries), asked once under a memo. Callers keep what lies under prefix.
func (r *Repo) stagedDiff(ctx context.Context, commit, prefix string) ([]RawChange, error) {
	args := append([]string{"diff", "--cached", "--raw", "--no-abbrev", "-z", "-M", "--ita-visible-in-index", "--no-ext-diff", "--ignore-submodules=none", commit}, pathspec(prefix)...)
	out, err := r.output(ctx, "", nil, append(args, attributesAbove(prefix)...)...)
	if err != nil {
		return nil, err
	}
	return parseRaw(out)
}

// attributesAbove returns the .gitattributes of each directory above
// prefix (relative to the top level), which decide the attributes of the
// files under it with its own; none for the top level.
func attributesAbove(prefix string) []string {
	var out []string
	for d := path.Dir(prefix); prefix != "" && d != prefix; prefix, d = d, path.Dir(d) {
		if d == "." {
			d = ""
		}
		out = append(out, path.Join(d, ".gitattributes"))
		if d == "" {
			break
		}
	}
	return out
}

// underPrefix reports whether the top-level path p is prefix or lies
// under it, as the pathspec prefix matches.
func underPrefix(p, prefix string) bool {
	return prefix == "" || p == prefix || strings.HasPrefix(p, prefix+"/")
}

// parseRaw parses the output of "diff --raw --no-abbrev -z": a rename or
// a copy ('R', 'C', with its score) names the old path, then the new.
func parseRaw(out []byte) ([]RawChange, error) {
	recs := splitNUL(out)
	var changes []RawChange
	for i := 0; i < len(recs); {
		meta := strings.Fields(strings.TrimPrefix(recs[i], ":"))
		if len(meta) != 5 || meta[4] == "" {
			return nil, fmt.Errorf("git diff --raw: malformed entry %q", recs[i])
		}
		c := RawChange{Status: meta[4][0], OldMode: meta[0], NewMode: meta[1], OldObject: meta[2], NewObject: meta[3]}
		paths := 1
		if c.Status == 'R' || c.Status == 'C' {
			paths = 2
			c.Score, _ = strconv.Atoi(meta[4][1:])
		}
		if i+paths >= len(recs) {
			return nil, fmt.Errorf("git diff --raw: truncated output")
		}
		if paths == 2 {
			c.OldPath = recs[i+1]
		}
		c.Path = recs[i+paths]
		changes = append(changes, c)
		i += 1 + paths
	}
	return changes, nil
}
