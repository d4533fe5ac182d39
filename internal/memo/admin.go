package memo

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
// $JOURNAL_LINT_CACHE_BUDGET or [DefaultBudget]; a value that does not
// parse is an error.
func Budget() (int64, error) {
	s := os.Getenv(EnvBudget)
	if s == "" {
		return DefaultBudget, nil
	}
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil || n < 0 || fmt.Sprint(n) != s {
		return 0, fmt.Errorf("%s must be a size in bytes such as 500M or 2G, not %q", EnvBudget, os.Getenv(EnvBudget))
	}
	return n * mult, nil
}

// Stats are the numbers of a cache directory.
type Stats struct {
	// Entries counts the index entries, Objects the stored objects.
	Entries, Objects int
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
}

// subdirs is the number of subdirectories of the object store: one per
// first byte of an object's name.
const subdirs = 256

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
	for _, e := range s.entries() {
		if strings.HasSuffix(e.path, "-a") {
			st.Entries++
		} else {
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
	es := s.entries()
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
		if err := os.Remove(e.path); err == nil || os.IsNotExist(err) {
			total -= e.size
		}
	}
	return nil
}

// Clean deletes every entry and object of the cache directory, leaving
// the directory with its README and CACHEDIR.TAG.
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
	return nil
}
