package memo

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// open opens a store in dir for mode, failing the test on an error, and
// collects its warnings.
func open(t *testing.T, dir string, mode Mode) (*Store, *[]string) {
	t.Helper()
	s, err := Open(dir, mode, false)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	warnings := &[]string{}
	s.Warn = func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		*warnings = append(*warnings, msg)
	}
	return s, warnings
}

func key(s string) Key { return Key(sha256.Sum256([]byte(s))) }

// put fills a table with n records named and keyed by their index.
func put(tb *Table, n int, value string) {
	for i := range n {
		name := fmt.Sprintf("artifact-%d", i)
		tb.Put(name, key(name), []byte(value+name))
	}
}

// committed opens a store in a new directory and commits 600 records
// (put) to the table of namespace ns under the scope "/root".
func committed(t *testing.T) (dir string, s *Store, warnings *[]string, ns []byte) {
	t.Helper()
	dir = t.TempDir()
	s, warnings = open(t, dir, On)
	ns = []byte("namespace")
	tb := s.Table(ns, "/root")
	put(tb, 600, "v1:")
	tb.Commit()
	return dir, s, warnings, ns
}

func TestTableKeepsWhatARunUsedOrAdded(t *testing.T) {
	dir, _, warnings, ns := committed(t)

	// The next run finds every record under its key, and nothing under
	// another key or in another namespace or scope.
	s2, _ := open(t, dir, On)
	tb2 := s2.Table(ns, "/root")
	for i := range 600 {
		name := fmt.Sprintf("artifact-%d", i)
		got, ok := tb2.Get(name, key(name))
		if !ok || string(got) != "v1:"+name {
			t.Fatalf("Get(%s) = %q, %v; want the record of the last run", name, got, ok)
		}
	}
	if _, ok := tb2.Get("artifact-1", key("artifact-2")); ok {
		t.Error("a record was found under another record's key")
	}
	if _, ok := s2.Table([]byte("other"), "/root").Get("artifact-1", key("artifact-1")); ok {
		t.Error("a record was found in another namespace")
	}
	if _, ok := s2.Table(ns, "/elsewhere").Get("artifact-1", key("artifact-1")); ok {
		t.Error("a record was found under another scope")
	}
	// This run used half of them and replaced one: the next sees only those.
	tb3 := s2.Table(ns, "/root")
	for i := range 300 {
		name := fmt.Sprintf("artifact-%d", i)
		tb3.Get(name, key(name))
	}
	tb3.Put("artifact-0", key("new"), []byte("v2"))
	tb3.Commit()
	tb4 := s2.Table(ns, "/root")
	if _, ok := tb4.Get("artifact-400", key("artifact-400")); ok {
		t.Error("a record the last run did not use was kept")
	}
	if got, ok := tb4.Get("artifact-0", key("new")); !ok || string(got) != "v2" {
		t.Errorf("the record the last run added: %q, %v", got, ok)
	}
	if got, ok := tb4.Get("artifact-0", key("artifact-0")); !ok || string(got) != "v1:artifact-0" {
		t.Errorf("a record the last run used: %q, %v", got, ok)
	}
	if len(*warnings) > 0 {
		t.Errorf("warnings: %q", *warnings)
	}
}

func TestUnchangedTableWritesNothing(t *testing.T) {
	dir := t.TempDir()
	s, _ := open(t, dir, On)
	tb := s.Table([]byte("ns"), "/root")
	put(tb, 50, "v")
	tb.Commit()
	before := s.Stats()
	tb2 := s.Table([]byte("ns"), "/root")
	for i := range 50 {
		name := fmt.Sprintf("artifact-%d", i)
		tb2.Get(name, key(name))
		tb2.Put(name, key(name), []byte("v"+name)) // the same bytes again
	}
	tb2.Commit()
	if after := s.Stats(); after.Entries != before.Entries || after.Objects != before.Objects {
		t.Errorf("a run that changed nothing wrote: %+v, then %+v", before, after)
	}
}

// corrupt rewrites every file of the store whose name ends in suffix
// ("-d" for objects, "-a" for index entries) with f applied.
func corrupt(t *testing.T, dir, suffix string, f func([]byte) []byte) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"+suffix))
	if len(files) == 0 {
		t.Fatalf("no *%s files to corrupt", suffix)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCorruptObjectsAreMissesWithOneWarning(t *testing.T) {
	for name, f := range map[string]func([]byte) []byte{
		"flipped":   func(b []byte) []byte { b = bytes.Clone(b); b[len(b)/2] ^= 1; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)/2] },
		"empty":     func([]byte) []byte { return nil },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s, _ := open(t, dir, On)
			tb := s.Table([]byte("ns"), "/root")
			put(tb, 20, "v")
			tb.Commit()
			corrupt(t, dir, "-d", f)
			s2, warnings := open(t, dir, On)
			tb2 := s2.Table([]byte("ns"), "/root")
			if _, ok := tb2.Get("artifact-3", key("artifact-3")); ok {
				t.Error("a record of a corrupt object was given")
			}
			if len(*warnings) != 1 {
				t.Errorf("warnings: %q, want exactly one", *warnings)
			}
			// The run recomputes and writes again; the next run is whole.
			put(tb2, 20, "v")
			tb2.Commit()
			tb3 := s2.Table([]byte("ns"), "/root")
			if _, ok := tb3.Get("artifact-3", key("artifact-3")); !ok {
				t.Error("a record written after the corruption was not found")
			}
		})
	}
}

// TestCorruptEntryWarningNamesTheCause: an index entry that does not parse
// is a miss with one warning that gives the cause, not the Go cache's
// "cache entry not found", which contradicts "corrupt".
func TestCorruptEntryWarningNamesTheCause(t *testing.T) {
	dir := t.TempDir()
	s, _ := open(t, dir, On)
	tb := s.Table([]byte("ns"), "/root")
	put(tb, 5, "v")
	tb.Commit()
	corrupt(t, dir, "-a", func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(" "), []byte("!")) })
	s2, warnings := open(t, dir, On)
	if _, ok := s2.Table([]byte("ns"), "/root").Get("artifact-3", key("artifact-3")); ok {
		t.Error("a record under a corrupt entry was given")
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "is corrupt (") || strings.Contains((*warnings)[0], "not found") {
		t.Errorf("warnings: %q, want one that says the entry is corrupt, and why", *warnings)
	}
}

func TestConcurrentRunsLeaveAValidState(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(dir, On, false)
			if err != nil {
				t.Error(err)
				return
			}
			for range 5 {
				tb := s.Table([]byte("ns"), "/root")
				put(tb, 100, fmt.Sprintf("writer%d:", w))
				tb.Commit()
			}
		}()
	}
	wg.Wait()
	s, warnings := open(t, dir, On)
	tb := s.Table([]byte("ns"), "/root")
	// The last writer won: every record is one writer's, whole.
	got, ok := tb.Get("artifact-7", key("artifact-7"))
	if !ok || !strings.HasPrefix(string(got), "writer") || !strings.HasSuffix(string(got), ":artifact-7") {
		t.Errorf("after concurrent runs: %q, %v", got, ok)
	}
	if len(*warnings) > 0 {
		t.Errorf("warnings: %q", *warnings)
	}
}

func TestReadOnlyWritesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	if _, err := Open(dir, ReadOnly, false); !os.IsNotExist(err) {
		t.Errorf("a read-only cache that does not exist: %v, want not-exist", err)
	}
	s, _ := open(t, dir, On)
	tb := s.Table([]byte("ns"), "/root")
	put(tb, 10, "v")
	tb.Commit()
	before := s.Stats()
	ro, _ := open(t, dir, ReadOnly)
	tb2 := ro.Table([]byte("ns"), "/root")
	if _, ok := tb2.Get("artifact-1", key("artifact-1")); !ok {
		t.Error("a read-only run does not read")
	}
	put(tb2, 30, "other")
	tb2.Commit()
	if err := ro.Trim(true, 0); err != nil {
		t.Fatal(err)
	}
	if after := s.Stats(); after != before {
		t.Errorf("a read-only run wrote: %+v, then %+v", before, after)
	}
}

func TestDirAndFallback(t *testing.T) {
	t.Setenv(EnvDir, "off")
	if _, on, err := Dir(); on || err != nil {
		t.Errorf("%s=off: on %v, err %v", EnvDir, on, err)
	}
	t.Setenv(EnvDir, "relative/dir")
	if _, _, err := Dir(); err == nil {
		t.Error("a relative directory is accepted")
	}
	// CI with HOME=/ or a cache home that is a file: the default cannot
	// be created, and the cache falls back to the temporary directory.
	t.Setenv(EnvDir, "")
	home := t.TempDir()
	notDir := filepath.Join(home, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", notDir)
	t.Setenv("HOME", notDir)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir, on, err := Dir()
	if err != nil || !on {
		t.Fatalf("Dir: %q, %v, %v", dir, on, err)
	}
	s, err := Open(dir, On, true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.Path(), tmp) {
		t.Errorf("the cache went to %s, want the fallback under %s", s.Path(), tmp)
	}
	for _, name := range []string{"README", "CACHEDIR.TAG"} {
		if _, err := os.Stat(filepath.Join(s.Path(), name)); err != nil {
			t.Error(err)
		}
	}
	if _, err := Open(dir, On, false); err == nil {
		t.Error("a directory named by the user that cannot be created is not an error")
	}
	// The fallback as another user could have left it in a shared
	// temporary directory, open to all: not used.
	if err := os.Chmod(s.Path(), 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, On, true); err == nil {
		t.Error("a fallback directory that others can write to is used")
	}
}

func TestTrimToBudgetAndClean(t *testing.T) {
	dir := t.TempDir()
	s, _ := open(t, dir, On)
	for i := range 5 {
		tb := s.Table([]byte(fmt.Sprint("ns", i)), "/root")
		put(tb, 100, strings.Repeat("x", 1000))
		tb.Commit()
	}
	// Make the first namespace's files the least recently used.
	old := time.Now().Add(-time.Hour)
	for _, e := range s.entries()[:10] {
		os.Chtimes(e.path, old, old)
	}
	total := s.Stats().Bytes
	if err := s.Trim(true, total/2); err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().Bytes; got > total/2 || got == 0 {
		t.Errorf("trimmed to %d bytes of %d, want at most half and not nothing", got, total)
	}
	if err := s.Clean(); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Entries != 0 || st.Objects != 0 {
		t.Errorf("after Clean: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "CACHEDIR.TAG")); err != nil {
		t.Error("Clean removed CACHEDIR.TAG")
	}
}

// TestBudget: the sizes $JOURNAL_LINT_CACHE_BUDGET takes, and those it
// refuses.
func TestBudget(t *testing.T) {
	for in, want := range map[string]int64{"": DefaultBudget, "0": 0, "1000": 1000, "3M": 3 << 20, "3MB": 3 << 20, "3MiB": 3 << 20,
		"2G": 2 << 30, "2GiB": 2 << 30, "512K": 512 << 10, "1T": 1 << 40} {
		t.Setenv(EnvBudget, in)
		if b, err := Budget(); b != want || err != nil {
			t.Errorf("Budget of %q: %d, %v; want %d", in, b, err, want)
		}
	}
	for _, in := range []string{"lots", "1.5G", "-1", "G", "2 G", "2g", "2Gi", "2iB", "+2", "02", "9999999999T"} {
		t.Setenv(EnvBudget, in)
		if b, err := Budget(); err == nil {
			t.Errorf("Budget of %q: %d, want an error", in, b)
		}
	}
}

// TestKeptPacksAreTrimmedAndCleaned: the kept copies of rule packs
// (PacksDir) count in Stats, a copy unused for five days goes at the next
// trim, a used one stays, and Clean removes them all.
func TestKeptPacksAreTrimmedAndCleaned(t *testing.T) {
	dir := t.TempDir()
	s, _ := open(t, dir, On)
	for _, pin := range []string{"old", "used"} {
		p := filepath.Join(PacksDir(dir), pin)
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "pack"), []byte(strings.Repeat("x", 1000)), 0o500); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-6 * 24 * time.Hour)
	if err := os.Chtimes(filepath.Join(PacksDir(dir), "old"), old, old); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Packs != 2 || st.Bytes < 2000 {
		t.Errorf("Stats with two kept packs: %+v", st)
	}
	if err := s.Trim(true, 1<<30); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(PacksDir(dir), "old")); !os.IsNotExist(err) {
		t.Errorf("a pack unused for six days is still kept: %v", err)
	}
	if st := s.Stats(); st.Packs != 1 {
		t.Errorf("after Trim: %+v, want the used pack", st)
	}
	if err := s.Clean(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(PacksDir(dir)); !os.IsNotExist(err) {
		t.Errorf("Clean left the kept packs: %v", err)
	}
}

func TestToolIDIsStable(t *testing.T) {
	a, err := ToolID()
	if err != nil || len(a) == 0 {
		t.Fatalf("ToolID: %q, %v", a, err)
	}
	exe, _ := os.Executable()
	if id := buildID(exe); id == nil {
		t.Error("the test binary's Go build ID was not found")
	}
}

// TestPutReplacesWhatGetFound: a record that a run found and then
// replaced under the same key (a head record that no longer stands) is the
// new one for the next run.
func TestPutReplacesWhatGetFound(t *testing.T) {
	dir := t.TempDir()
	s, _ := open(t, dir, On)
	tb := s.Table([]byte("ns"), "/root")
	tb.Put("a", key("a"), []byte("old"))
	tb.Commit()
	tb2 := s.Table([]byte("ns"), "/root")
	if got, ok := tb2.Get("a", key("a")); !ok || string(got) != "old" {
		t.Fatalf("Get: %q, %v", got, ok)
	}
	tb2.Put("a", key("a"), []byte("new"))
	tb2.Commit()
	if got, ok := s.Table([]byte("ns"), "/root").Get("a", key("a")); !ok || string(got) != "new" {
		t.Errorf("after replacing a record it found, the next run gets %q, %v", got, ok)
	}
}

// TestForgetUndoesGetAndPut: a record a run got and then forgot, and one
// it put and then forgot, are not kept for the next run; the others are.
func TestForgetUndoesGetAndPut(t *testing.T) {
	dir := t.TempDir()
	s, _ := open(t, dir, On)
	tb := s.Table([]byte("ns"), "/root")
	put(tb, 3, "v1:")
	tb.Commit()
	tb2 := s.Table([]byte("ns"), "/root")
	for i := range 3 {
		name := fmt.Sprintf("artifact-%d", i)
		tb2.Get(name, key(name))
	}
	tb2.Forget("artifact-1", key("artifact-1"))
	tb2.Put("artifact-2", key("added"), []byte("v2"))
	tb2.Forget("artifact-2", key("added"))
	tb2.Commit()
	tb3 := s.Table([]byte("ns"), "/root")
	if _, ok := tb3.Get("artifact-0", key("artifact-0")); !ok {
		t.Error("a record got and not forgotten was dropped")
	}
	if _, ok := tb3.Get("artifact-1", key("artifact-1")); ok {
		t.Error("a record got and then forgotten was kept")
	}
	if _, ok := tb3.Get("artifact-2", key("added")); ok {
		t.Error("a record put and then forgotten was kept")
	}
}

// TestKeepWritesOneRecordAndDropsNone: a run that reads some records
// without committing them keeps one more with Keep; the next run finds it
// and every record the table held, used or not. A read-only store keeps
// nothing.
func TestKeepWritesOneRecordAndDropsNone(t *testing.T) {
	dir, s, warnings, ns := committed(t)

	tb2 := s.Table(ns, "/root")
	for i := range 10 { // used by this run, as a command uses a few
		name := fmt.Sprintf("artifact-%d", i)
		tb2.Get(name, key(name))
	}
	tb2.Keep("", key("fact"), []byte("kept"))
	tb2.Keep("", key("fact"), []byte("kept again")) // replaced, not doubled

	tb3 := s.Table(ns, "/root")
	if got, ok := tb3.Get("", key("fact")); !ok || string(got) != "kept again" {
		t.Errorf("the kept record: %q, %v", got, ok)
	}
	for i := range 600 {
		name := fmt.Sprintf("artifact-%d", i)
		if got, ok := tb3.Get(name, key(name)); !ok || string(got) != "v1:"+name {
			t.Fatalf("Get(%s) = %q, %v after Keep; want the record as committed", name, got, ok)
		}
	}
	if len(*warnings) > 0 {
		t.Errorf("warnings: %q", *warnings)
	}

	ro, _ := open(t, dir, ReadOnly)
	ro.Table(ns, "/root").Keep("", key("other"), []byte("x"))
	if _, ok := s.Table(ns, "/root").Get("", key("other")); ok {
		t.Error("a read-only store kept a record")
	}
}
