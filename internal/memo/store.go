// Package memo is journal-lint's persistent cache (architecture "Reuse"):
// records of what a check found of each artifact, kept between runs in a
// directory of the user's cache and keyed by content, so that a run
// recomputes only what changed since one that left them.
//
// A [Store] is the directory, on the object store of
// rogpeppe/go-internal/cache (a copy of the Go build cache: objects named
// by the SHA-256 of their content, written whole before the index entry
// that names them, verified on every read, trimmed by age). A [Table] is
// one run's view of the records of one namespace, such as the artifact
// records of one rule configuration: records live in shards, a state
// object lists a tree's shards, and a pointer per scope (the Journal root)
// names the state the last run left there. A record is only ever given
// back for the exact key it was stored under, so a pointer that names an
// old state, another run's state or nothing at all costs work, never a
// wrong answer.
//
// Several runs may use one directory at once (a pre-commit hook, an
// editor and a manual check): objects are immutable and named by content,
// and the pointer is a small entry that the last writer wins. A network
// file system is not supported, as the Go build cache says of itself.
package memo

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/cache"

	"github.com/r35157/journal-lint/internal/atomicfile"
	"github.com/r35157/journal-lint/internal/readfile"
)

// Mode says how a run uses the cache (--cache).
type Mode int

// The modes of --cache.
const (
	// Off: no cache is opened, read or written.
	Off Mode = iota
	// On: records are read and written.
	On
	// Verify: every record is computed, compared with the cached one for
	// the same key, and a difference is an internal error; records are
	// written.
	Verify
	// ReadOnly: records are read, nothing is written (a pull-request job
	// that restores a cache it does not save).
	ReadOnly
)

// modes maps the values of --cache to their modes.
var modes = map[string]Mode{"off": Off, "on": On, "verify": Verify, "readonly": ReadOnly}

// ParseMode parses a value of --cache: off, on, verify or readonly.
func ParseMode(s string) (Mode, error) {
	if m, ok := modes[s]; ok {
		return m, nil
	}
	return Off, fmt.Errorf("--cache must be on, off, verify or readonly, not %q", s)
}

// String returns the flag value of m.
func (m Mode) String() string {
	for s, v := range modes {
		if v == m {
			return s
		}
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// EnvDir is the environment variable that names the cache directory; its
// value "off" turns the cache off.
const EnvDir = "JOURNAL_LINT_CACHE"

// readme is the README written into a new cache directory.
const readme = `This directory holds the cache of journal-lint: what checks of Journal
trees found, keyed by the content of the files, so that a later check
recomputes only what changed, and in packs/ the verified copies of the
rule packs it ran. Everything here can be deleted at any time:
"journal-lint cache clean" does, "journal-lint cache stats" tells its size.
Entries unused for five days are deleted as the tool runs.
`

// cachedirTag marks the directory as a cache for backup tools
// (https://bford.info/cachedir/).
const cachedirTag = "Signature: 8a477f597d28d172789f06886806bc55\n" +
	"# This file is a cache directory tag created by journal-lint.\n" +
	"# For information about cache directory tags, see https://bford.info/cachedir/\n"

// Dir returns the cache directory to use: $JOURNAL_LINT_CACHE when set
// ("" and false when it is "off"), else journal-lint under the user's cache
// directory (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux). It
// reports false when the cache is off. The directory may not exist yet.
func Dir() (string, bool, error) {
	if d := os.Getenv(EnvDir); d != "" {
		if d == "off" {
			return "", false, nil
		}
		if !filepath.IsAbs(d) {
			return "", false, fmt.Errorf("%s must be an absolute path or \"off\", not %q", EnvDir, d)
		}
		return d, true, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return fallbackDir(), true, nil
	}
	return filepath.Join(base, "journal-lint"), true, nil
}

// ownedPrivate returns an error when dir is the fallback under the
// temporary directory and not a directory (not a link) of this user's that
// no one else can read or write: the fallback lies in a directory that
// every user can write, where another user could have made it first and
// filled it with records that hide findings or rule packs' copies of their
// own. Any other directory is the user's choice.
func ownedPrivate(dir string) error {
	if dir != fallbackDir() {
		return nil
	}
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return err
	case !fi.IsDir() || !readfile.Mine(fi) || fi.Mode().Perm()&0o077 != 0:
		return errors.New("not a directory of this user's alone (another user may have made it): not used")
	}
	return nil
}

// fallbackDir is where the cache goes when the user's cache directory
// cannot be had or created (CI with HOME=/): journal-lint-<uid> under the
// temporary directory, as gopls does.
func fallbackDir() string {
	return filepath.Join(os.TempDir(), "journal-lint-"+strconv.Itoa(os.Getuid()))
}

// Store is an open cache directory. Its methods are safe for concurrent
// use.
type Store struct {
	dir  string
	c    *cache.Cache
	mode Mode

	warnOnce sync.Once
	// Warn, when set, is told once per Store of a cache object that was
	// corrupt (and counted as a miss) or could not be written.
	Warn func(msg string)
}

// Open opens the cache directory dir for mode (not Off), creating it with
// a README and a CACHEDIR.TAG unless mode is ReadOnly. When dir is the
// default (not named by $JOURNAL_LINT_CACHE) and cannot be created, the
// fallback under the temporary directory is used; the fallback only when
// it is this user's alone (made here with mode 0700), else Open fails. A
// ReadOnly store whose directory does not exist is an error wrapping
// fs.ErrNotExist: there is nothing to read.
func Open(dir string, mode Mode, fallback bool) (*Store, error) {
	if mode == Off {
		return nil, errors.New("memo.Open: the cache is off")
	}
	if mode != ReadOnly {
		var err error
		if dir, err = Prepare(dir, fallback); err != nil {
			return nil, err
		}
	} else if fi, err := os.Stat(dir); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: errors.New("not a directory")}
	} else if err := ownedPrivate(dir); err != nil {
		return nil, fmt.Errorf("cache directory %s: %w", dir, err)
	}
	c, err := cache.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("cache directory %s: %w", dir, err)
	}
	return &Store{dir: dir, c: c, mode: mode}, nil
}

// Prepare makes the cache directory that [Open] with mode On and fallback
// opens, and returns it: dir with its README and CACHEDIR.TAG, or the
// fallback under the temporary directory when fallback is set and dir
// cannot be made, and that only when it is this user's alone. The errors
// name the directory.
func Prepare(dir string, fallback bool) (string, error) {
	err := create(dir)
	if err != nil && fallback {
		dir = fallbackDir()
		err = create(dir)
	}
	if err == nil {
		err = ownedPrivate(dir)
	}
	if err != nil {
		return "", fmt.Errorf("cache directory %s: %w", dir, err)
	}
	return dir, nil
}

// Locate returns, without making anything, the cache directory that
// exists of those [Open] with mode On and fallback may open: dir when it
// is a cache directory (isCache), else the fallback under the temporary
// directory when fallback is set and it is a cache directory of this
// user's alone; and whether the one returned exists. When neither exists
// it returns dir and false, and a check may make and use either (Open
// tries dir first).
func Locate(dir string, fallback bool) (string, bool) {
	if isCache(dir) {
		return dir, true
	}
	if fallback && isCache(fallbackDir()) && ownedPrivate(fallbackDir()) == nil {
		return fallbackDir(), true
	}
	return dir, false
}

// isCache reports whether dir is a directory that journal-lint made its
// cache: it holds the README or the CACHEDIR.TAG that [Prepare] writes
// (which keeps a tag another tool wrote first). A directory with neither
// (an empty one named by $JOURNAL_LINT_CACHE before any check used it,
// or one named by mistake) is no cache that the cache commands may read,
// fill or clean.
func isCache(dir string) bool {
	// (Their first words, which another version of the tool writes too.)
	mine := func(name, text string) bool {
		got, err := os.ReadFile(filepath.Join(dir, name))
		return err == nil && bytes.Contains(got, []byte(text))
	}
	return mine("README", "the cache of journal-lint") || mine("CACHEDIR.TAG", "created by journal-lint")
}

// create makes the cache directory dir with its README and CACHEDIR.TAG;
// the fallback under the temporary directory for this user alone.
func create(dir string) error {
	perm := os.FileMode(0o777)
	if dir == fallbackDir() {
		perm = 0o700
	}
	if err := os.MkdirAll(dir, perm); err != nil {
		return err
	}
	for name, text := range map[string]string{"README": readme, "CACHEDIR.TAG": cachedirTag} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			continue
		}
		if err := atomicfile.Write(p, []byte(text)); err != nil {
			return err
		}
	}
	return nil
}

// Path returns the store's directory.
func (s *Store) Path() string { return s.dir }

// Mode returns the mode the store was opened for.
func (s *Store) Mode() Mode { return s.mode }

// Warnf tells Warn, once per Store, that something of the cache could not
// be used (a record that does not decode) and was recomputed.
func (s *Store) Warnf(format string, args ...any) { s.warn(format, args...) }

// warn tells Warn once.
func (s *Store) warn(format string, args ...any) {
	s.warnOnce.Do(func() {
		if s.Warn != nil {
			s.Warn(fmt.Sprintf(format, args...))
		}
	})
}

// ID names an object of the store: the SHA-256 of its key.
type ID [sha256.Size]byte

// idOf returns the ID of the key made of parts, each length-prefixed so
// that no two lists of parts give the same key.
func idOf(parts ...[]byte) ID {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p))))
		h.Write([]byte{':'})
		h.Write(p)
	}
	var id ID
	h.Sum(id[:0])
	return id
}

// get returns the object named id, verified against the SHA-256 that its
// index entry records; a missing object is (nil, false) and a corrupt one
// too, with a warning.
func (s *Store) get(id ID) ([]byte, bool) {
	e, err := s.c.Get(cache.ActionID(id))
	if err != nil {
		// A missing entry is a miss; so is every entry under
		// GODEBUG=gocacheverify=1, which the Go cache obeys.
		if !errors.Is(err, fs.ErrNotExist) && !strings.Contains(err.Error(), "gocacheverify") {
			// The Go cache calls every failure "cache entry not found:
			// CAUSE"; the cause is what is said.
			if cause := errors.Unwrap(err); cause != nil {
				err = cause
			}
			if errors.Is(err, fs.ErrPermission) {
				s.warn("cache entry %x cannot be read (%v); it was recomputed", id[:4], err)
			} else {
				s.warn("cache entry %x is corrupt (%v); it was recomputed", id[:4], err)
			}
		}
		return nil, false
	}
	data, err := os.ReadFile(s.c.OutputFile(e.OutputID))
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return nil, false // trimmed under the index entry
	case err != nil:
		s.warn("cache object %x cannot be read: %v; it was recomputed", e.OutputID[:4], err)
		return nil, false
	case int64(len(data)) != e.Size || sha256.Sum256(data) != e.OutputID:
		s.warn("cache object %x is corrupt (its content does not match its name); it was recomputed", e.OutputID[:4])
		return nil, false
	}
	return data, true
}

// put stores data as the object named id, unless the store is read-only.
// A failure to write is a warning, not an error: the run goes on without
// keeping it.
func (s *Store) put(id ID, data []byte) {
	if s.mode == ReadOnly {
		return
	}
	// Not Put: under GODEBUG=gocacheverify=1 the Go cache's Put panics
	// when an entry changes, as a pointer does on every run.
	if _, _, err := s.c.PutNoVerify(cache.ActionID(id), bytes.NewReader(data)); err != nil {
		hint := ""
		if errors.Is(err, fs.ErrPermission) {
			hint = " (--cache readonly uses a cache without writing to it)"
		}
		s.warn("cannot write to the cache: %v%s", err, hint)
	}
}

// Object returns the object a run stored under the key made of parts
// (PutObject), verified against its recorded SHA-256: false when it is
// missing, and when it is corrupt, with a warning. A key's first part
// names what stores under it, so that no two users share keys.
func (s *Store) Object(parts ...[]byte) ([]byte, bool) { return s.get(idOf(parts...)) }

// PutObject stores data under the key made of parts (see Object), written
// atomically, unless the store is read-only; a failure to write is a
// warning.
func (s *Store) PutObject(data []byte, parts ...[]byte) { s.put(idOf(parts...), data) }
