package gitrepo

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/r35157/journal-lint/internal/readfile"
)

var stampSeed = maphash.MakeSeed()

// Stamp returns a stamp of what decides git's answers about the files in
// the work-tree directories dirs (absolute paths): a hash of the stat
// stamps ([readfile.Stamp]) of the repository's index, HEAD, the ref HEAD
// names, its packed refs, configuration and info/attributes, of the user's
// git configuration and attributes at their usual places, and of the
// .gitattributes of every directory from the top level down to each of
// dirs. git writes each of these files anew (a rename over it), so a
// commit, a checkout, a reset, staging a file or editing attributes
// changes the stamp. While it stays the same, git lists the same files at
// HEAD and in the index, with the same blobs and attributes, except for
// what the stamp does not look at: .gitattributes files below dirs, a
// system-wide attributes file or one that core.attributesFile names
// elsewhere. It is 0, which no stamp equals, when one of the files changed
// so recently that a write right after could keep its stamp
// ([readfile.Recent]), and for a Repo not made by [Open].
func (r *Repo) Stamp(dirs ...string) uint64 {
	if r.head == "" {
		return 0
	}
	var h maphash.Hash
	h.SetSeed(stampSeed)
	now := time.Now()
	recent := false
	seen := map[string]bool{}
	add := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		h.WriteString(p)
		var sum uint64 // 0 for a missing file
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			sum = readfile.Stamp(fi)
			recent = recent || readfile.Recent(fi, now)
		} else if err == nil {
			// Not a regular file, such as /dev/null for no configuration,
			// whose times move with every write to it.
			sum = uint64(fi.Mode().Type()) | 1<<63
		}
		h.Write(binary.LittleEndian.AppendUint64(nil, sum))
	}
	for _, p := range r.stateFiles {
		add(p)
	}
	// HEAD names a branch ("ref: refs/heads/main"), whose file lives in
	// the common directory of the repository (a linked work tree has its
	// own HEAD), unless only the packed refs hold it.
	if b, err := os.ReadFile(r.head); err == nil {
		h.Write(b)
		if ref, ok := bytes.CutPrefix(bytes.TrimSpace(b), []byte("ref: ")); ok && !bytes.Contains(ref, []byte("..")) {
			add(filepath.Join(filepath.Dir(r.head), filepath.FromSlash(string(ref))))
			add(filepath.Join(r.common, filepath.FromSlash(string(ref))))
		}
	}
	for _, p := range userFiles() {
		add(p)
	}
	for _, d := range dirs {
		rel, err := r.Rel(d)
		if err != nil {
			continue
		}
		dir := r.top
		add(filepath.Join(dir, ".gitattributes"))
		for part := range strings.SplitSeq(rel, "/") {
			if part == "" {
				continue
			}
			dir = filepath.Join(dir, part)
			add(filepath.Join(dir, ".gitattributes"))
		}
	}
	if recent {
		return 0
	}
	return max(h.Sum64(), 1)
}

// userFiles are the user's git configuration and attributes files at the
// places git looks for them by default.
func userFiles() []string {
	var out []string
	if p := os.Getenv("GIT_CONFIG_GLOBAL"); p != "" {
		out = append(out, p)
	}
	home, _ := os.UserHomeDir()
	if home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"))
	}
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		out = append(out, filepath.Join(xdg, "git", "config"), filepath.Join(xdg, "git", "attributes"))
	}
	return out
}
