package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/r35157/journal-lint/cmd/journal-lint/internal/cli"
	"github.com/r35157/journal-lint/examples/rulepack-license-policy/licensepolicy"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/plugin/packtest"
	"github.com/r35157/journal-lint/internal/tlog/tlogtest"
	"github.com/r35157/journal-lint/plugins/sdk"
)

// TestMain runs this test binary as journal-lint, as the example rule
// pack (license-policy) or as the misbehaving test pack when it is started
// under one of their names (packtest.Main), as the scripts and the tests
// of packs_test.go start them; else it runs the tests (withCache).
func TestMain(m *testing.M) {
	packtest.Main(withCache{m}, map[string]func(){
		"journal-lint":   func() { os.Exit(cli.Main(os.Args, os.Stdout, os.Stderr)) },
		"license-policy": func() { sdk.Serve(licensepolicy.Pack) },
	})
}

// withCache runs the tests with the cache of journal-lint
// (JOURNAL_LINT_CACHE) in the temporary directory, not the user's, unless
// it is set.
type withCache struct{ m *testing.M }

func (w withCache) Run() int {
	if os.Getenv("JOURNAL_LINT_CACHE") == "" {
		os.Setenv("JOURNAL_LINT_CACHE", filepath.Join(os.TempDir(), "journal-lint-cache"))
	}
	return w.m.Run()
}

// TestScripts runs the txtar scripts in testdata/script. Set
// JOURNAL_UPDATE=1 to rewrite their expected output files. The scripts
// spend most of their time starting git and journal-lint processes: those
// that drive git skip under -short ([short] skip), the inner loop, where
// the packages below (check, gitrepo) test the same paths in-process, and
// all of them skip under the race detector (a long test,
// longtest.NoRace), where TestHostileCatalogue and the LSP tests run the
// CLI in-process.
func TestScripts(t *testing.T) {
	t.Parallel()
	longtest.NoRace(t)
	testscript.Run(t, scriptParams(filepath.Join("testdata", "script")))
}

// TestActionScript runs the GitHub Action end to end (the scripts of
// testdata/action: a pull request, and each event the action documents),
// whose build step builds journal-lint with go: seconds of linking that
// gain nothing from the race detector. A long test (longtest.Whole).
func TestActionScript(t *testing.T) {
	t.Parallel()
	longtest.Whole(t)
	testscript.Run(t, scriptParams(filepath.Join("testdata", "action")))
}

// scriptParams returns the parameters of the txtar scripts in dir.
//
// Scripts see $SHARED, the shared specification folder (vectors and corpus),
// and skip what needs it with `[!shared] skip`; $EXAMPLES is the
// repository's example tree, $HOOKS its .pre-commit-hooks.yaml, $ACTION the
// top of the repository (where action.yml is). Go's caches (GOCACHE,
// GOMODCACHE, GOPATH) are this machine's, with GOPROXY=off, so that a
// script can build journal-lint as the GitHub Action does, offline.
func scriptParams(dir string) testscript.Params {
	shared, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared"))
	examples, _ := filepath.Abs(filepath.Join("..", "..", "data", "nenjim", "journals"))
	hooks, _ := filepath.Abs(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	action, _ := filepath.Abs(filepath.Join("..", ".."))
	goEnv := goCaches()
	gorace := raceOptions()
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("JOURNAL_UPDATE") != "",
		Condition: func(cond string) (bool, error) {
			if cond == "shared" {
				_, err := os.Stat(shared)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"lspframe":    lspFrame,
			"tlogwitness": tlogWitness,
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("SHARED", shared)
			env.Setenv("EXAMPLES", examples)
			env.Setenv("HOOKS", hooks)
			env.Setenv("ACTION", action)
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			env.Setenv("NO_COLOR", "1")
			env.Setenv("GORACE", gorace)
			// Each script has a cache of its own, outside $WORK (whose
			// listing and git status scripts compare), that its second
			// check of a tree finds warm.
			cache, err := scriptCaches.get()
			if err != nil {
				return err
			}
			env.Defer(func() { scriptCaches.put(cache) })
			env.Setenv("JOURNAL_LINT_CACHE", cache)
			return nil
		},
	}
}

// scriptCaches lends each script an empty cache directory of its own.
var scriptCaches cacheDirs

// cacheDirs lends empty cache directories. A cache keeps 256
// subdirectories, which some file systems take a millisecond of CPU each
// to make and as much to remove, so a directory given back is emptied of
// its files and lent again.
type cacheDirs struct {
	mu   sync.Mutex
	free []string
}

// get returns an empty cache directory: one given back, or a new one.
func (c *cacheDirs) get() (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.free); n > 0 {
		dir := c.free[n-1]
		c.free = c.free[:n-1]
		return dir, nil
	}
	return os.MkdirTemp("", "journal-lint-cache-")
}

// put empties dir, keeping its subdirectories but not what they hold, and
// lends it again; a directory that cannot be emptied is removed.
func (c *cacheDirs) put(dir string) {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !d.IsDir():
			return os.Remove(p)
		case p != dir && filepath.Dir(p) != dir:
			if err := os.RemoveAll(p); err != nil {
				return err
			}
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		os.RemoveAll(dir)
		return
	}
	c.mu.Lock()
	c.free = append(c.free, dir)
	c.mu.Unlock()
}

// goCaches returns GOCACHE, GOMODCACHE and GOPATH as `go env` reports them
// here, with GOPROXY=off and GOTOOLCHAIN=local; nil when go cannot be run.
func goCaches() map[string]string {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		return nil
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(v) != 3 {
		return nil
	}
	return map[string]string{"GOCACHE": v[0], "GOMODCACHE": v[1], "GOPATH": v[2], "GOPROXY": "off", "GOTOOLCHAIN": "local"}
}

// raceOptions returns GORACE for the journal-lint runs of the scripts: the
// caller's, with atexit_sleep_ms=0 unless it sets that itself. Each run
// is this test binary, and under -race it would otherwise sleep a second
// before it exits (the detector's default, for goroutines still running
// to report), which made the scripts' several hundred runs a matter of
// minutes; journal-lint has finished its work when it exits.
func raceOptions() string {
	opts := os.Getenv("GORACE")
	if !strings.Contains(opts, "atexit_sleep_ms") {
		opts = strings.TrimSpace(opts + " atexit_sleep_ms=0")
	}
	return opts
}

// lspFrame is the script command "lspframe IN OUT": it reads IN, one JSON-RPC
// message per line (blank lines and lines starting with # are skipped),
// expands $VARS in it, replaces each JSON string "@file:NAME" by the
// contents of the file NAME as a JSON string, and writes the messages to
// OUT with LSP's Content-Length framing, for a script to pipe into
// `journal-lint lsp`. A line "RAW text" is framed without the JSON check,
// after expanding $VARS and \xHH escapes into raw bytes (for malformed
// messages and invalid UTF-8).
func lspFrame(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: lspframe IN OUT")
	}
	fileRef := regexp.MustCompile(`"@file:([^"]+)"`)
	rawByte := regexp.MustCompile(`\\x[0-9a-fA-F]{2}`)
	var out bytes.Buffer
	for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if raw, ok := strings.CutPrefix(line, "RAW "); ok {
			raw = rawByte.ReplaceAllStringFunc(os.Expand(raw, ts.Getenv), func(m string) string {
				b, _ := strconv.ParseUint(m[2:], 16, 8)
				return string([]byte{byte(b)})
			})
			fmt.Fprintf(&out, "Content-Length: %d\r\n\r\n%s", len(raw), raw)
			continue
		}
		line = os.Expand(line, ts.Getenv)
		line = fileRef.ReplaceAllStringFunc(line, func(m string) string {
			data, err := json.Marshal(ts.ReadFile(fileRef.FindStringSubmatch(m)[1]))
			ts.Check(err)
			return string(data)
		})
		if !json.Valid([]byte(line)) {
			ts.Fatalf("not JSON: %s", line)
		}
		fmt.Fprintf(&out, "Content-Length: %d\r\n\r\n%s", len(line), line)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), out.Bytes(), 0o644))
}

// tlogWitness starts a C2SP witness on 127.0.0.1 (tlogtest) named NAME
// that trusts the log of the tlog: block that ends CONFIG, for the rest of
// the script, and appends it to that block with quorum 1 and max-age 1h.
func tlogWitness(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tlogwitness NAME CONFIG")
	}
	var vkey string
	for _, line := range strings.Split(ts.ReadFile(args[1]), "\n") {
		if k, ok := strings.CutPrefix(strings.TrimSpace(line), "vkey: "); ok && vkey == "" {
			vkey = k
		}
	}
	w := tlogtest.Start(args[0], vkey)
	ts.Defer(w.Close)
	f, err := os.OpenFile(ts.MkAbs(args[1]), os.O_WRONLY|os.O_APPEND, 0)
	ts.Check(err)
	_, err = fmt.Fprintf(f, "  witnesses:\n    - vkey: %s\n      url: %s\n  quorum: 1\n  max-age: 1h\n", w.VKey, w.URL)
	ts.Check(err)
	ts.Check(f.Close())
}
