package memo

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// EnvBudget is the environment variable that sets the size the cache is
// trimmed to, in bytes with an optional K, M or G suffix (powers of 1024).
const EnvBudget = "JOURNAL_LINT_CACHE_BUDGET"

// DefaultBudget is the size the cache is trimmed to without
// $JOURNAL_LINT_CACHE_BUDGET: 2 GiB.
const DefaultBudget = 2 << 30

// Budget returns the size the cache is trimmed to, from
// $JOURNAL_LINT_CACHE_BUDGET or [DefaultBudget]: a count of bytes, or of
// KiB, MiB, GiB or TiB with the suffix K, M, G or T (KiB, KB … accepted
// too); 0 keeps nothing. A value that does not parse is an error.
func Budget() (int64, error) {
	s := os.Getenv(EnvBudget)
	if s == "" {
		return DefaultBudget, nil
	}
	num, mult := s, int64(1)
unit:
	for i, u := range []string{"K", "M", "G", "T"} {
		for _, form := range []string{u + "iB", u + "B", u} {
			if rest, ok := strings.CutSuffix(s, form); ok {
				num, mult = rest, 1<<(10*(i+1))
				break unit
			}
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult || num != strconv.FormatInt(n, 10) {
		return 0, fmt.Errorf("%s must be a size in bytes such as 500M or 2G (K, M, G and T are powers of 1024, and may be followed by B or iB), not %q", EnvBudget, s)
	}
	return n * mult, nil
}

// PacksDir returns the directory under the cache directory dir where the
// verified copies of rule packs' executables are kept from one command to
// the next (the keep directory of package plugin, one subdirectory per
// pinned sha256, whose modification time is its last use). Stats counts
// it, Trim deletes copies unused for five days, Clean all of them.
func PacksDir(dir string) string { return filepath.Join(dir, "packs") }

// Stats are the numbers of a cache directory.
type Stats struct {
	// Entries counts the index entries, Objects the stored objects, Packs
	// the kept copies of rule packs ([PacksDir]).
	Entries, Objects, Packs int
	// Bytes is the size of every file of the cache.
	Bytes int64
	// Oldest and Newest are the times of the least and most recently used
	// file (zero for an empty cache).
	Oldest, Newest time.Time
}

// entry is one file of the object store.
type entry struct {
	path string
	size int64
	used time.Time
	dir  bool // a directory of PacksDir
}

// subdirs is the number of subdirectories of the object store: one per
// first byte of an object's name.
const subdirs = 256

// packUnused is how long a directory of [PacksDir] (a kept copy, or the
// unfinished copy of a command that was killed) stays unused before Trim
// deletes it: as the entries of the object store (the Go cache's rule).
const packUnused = 5 * 24 * time.Hour

// packEntries lists the kept copies of rule packs, each directory of
// [PacksDir] as one entry (dir set): its size is that of its files.
func (s *Store) packEntries() []entry {
	root := PacksDir(s.dir)
	des, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []entry
	for _, de := range des {
		fi, err := de.Info()
		if err != nil || !fi.IsDir() {
			continue
		}
		e := entry{path: filepath.Join(root, de.Name()), used: fi.ModTime(), dir: true}
		files, _ := os.ReadDir(e.path)
		for _, f := range files {
			if ffi, err := f.Info(); err == nil && ffi.Mode().IsRegular() {
				e.size += ffi.Size()
			}
		}
		out = append(out, e)
	}
	return out
}

// entries lists the files of the object store (the index entries "-a" and
// objects "-d" in its 256 subdirectories).
func (s *Store) entries() []entry {
	var out []entry
	for i := range subdirs {
		sub := filepath.Join(s.dir, fmt.Sprintf("%02x", i))
		des, err := os.ReadDir(sub)
		if err != nil {
			continue
		}
		for _, de := range des {
			name := de.Name()
			if !strings.HasSuffix(name, "-a") && !strings.HasSuffix(name, "-d") {
				continue
			}
			if fi, err := de.Info(); err == nil && fi.Mode().IsRegular() {
				out = append(out, entry{path: filepath.Join(sub, name), size: fi.Size(), used: fi.ModTime()})
			}
		}
	}
	return out
}

// Stats counts the entries and objects of the cache and their size.
func (s *Store) Stats() Stats {
	var st Stats
	for _, e := range append(s.entries(), s.packEntries()...) {
		switch {
		case e.dir:
			st.Packs++
		case strings.HasSuffix(e.path, "-a"):
			st.Entries++
		default:
			st.Objects++
		}
		st.Bytes += e.size
		if st.Oldest.IsZero() || e.used.Before(st.Oldest) {
			st.Oldest = e.used
		}
		if e.used.After(st.Newest) {
			st.Newest = e.used
		}
	}
	return st
}

// Trim deletes what the cache's own rules say is unlikely to be used
// again: entries unused for five days, checked at most once a day unless
// force is set (the Go build cache's rules), then the least recently used
// files until the cache is within budget bytes. A read-only store trims
// nothing.
func (s *Store) Trim(force bool, budget int64) error {
	if s.mode == ReadOnly {
		return nil
	}
	trimFile := filepath.Join(s.dir, "trim.txt")
	if force {
		os.Remove(trimFile)
	}
	before, _ := os.ReadFile(trimFile)
	if err := s.c.Trim(); err != nil {
		return err
	}
	after, _ := os.ReadFile(trimFile)
	if !force && string(before) == string(after) {
		return nil // trimmed less than a day ago: the size is checked then too
	}
	now := time.Now()
	var packs []entry
	for _, e := range s.packEntries() {
		if now.Sub(e.used) < packUnused || os.RemoveAll(e.path) != nil {
			packs = append(packs, e)
		}
	}
	es := append(s.entries(), packs...)
	var total int64
	for _, e := range es {
		total += e.size
	}
	if total <= budget {
		return nil
	}
	slices.SortFunc(es, func(a, b entry) int { return cmp.Compare(a.used.UnixNano(), b.used.UnixNano()) })
	for _, e := range es {
		if total <= budget {
			break
		}
		remove := os.Remove
		if e.dir {
			remove = os.RemoveAll
		}
		if err := remove(e.path); err == nil || os.IsNotExist(err) {
			total -= e.size
		}
	}
	return nil
}

// Clean deletes every entry and object of the cache directory and the kept
// copies of rule packs, leaving the directory with its README and
// CACHEDIR.TAG.
func (s *Store) Clean() error {
	for i := range subdirs {
		sub := filepath.Join(s.dir, fmt.Sprintf("%02x", i))
		des, err := os.ReadDir(sub)
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		for _, de := range des {
			if err := os.Remove(filepath.Join(sub, de.Name())); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
	}
	if err := os.Remove(filepath.Join(s.dir, "trim.txt")); err != nil && !os.IsNotExist(err) {
		return err
	}
	return os.RemoveAll(PacksDir(s.dir))
}
