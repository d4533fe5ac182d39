package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/r35157/journal-lint/cmd/journal-lint/internal/cli"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/plugin/packtest"
	"github.com/r35157/journal-lint/internal/safetext/safetexttest"
)

var updateHostile = flag.Bool("update-hostile", false, "rewrite the exit: and codes: lines of testdata/hostile")

// TestHostileCatalogue runs every input of testdata/hostile (trees, names,
// source lines, configurations, diffs, rule-pack behaviours and git
// situations, chosen by an attacker) through check in every format, or
// through diff in every diff format, and checks (issue "hostile input"):
//   - the exit status and the set of diagnostic codes in the case's exit:
//     and codes: lines, the number of diagnostics or changes in count:, and
//     that the text output holds every says: line;
//   - on stdout and stderr of every run, the invariants of package
//     safetext: no line starts a workflow command except journal-lint's own
//     annotations, no "##[", no ESC byte, control or bidi character; for the
//     check cases also over log (text, json, --graph) and show (text, json)
//     of every directory in the root and digest (plain and --check) of
//     every file, whose exit status must not be 3 (journal-lint failed).
//
// The cases run as parallel subtests, journal-lint in-process. A long
// test: when tests run small (longtest.Small), each case runs in the json
// format only, and in text too when it has says: lines (what its exit:,
// codes:, count: and says: lines need), and not through log, show and
// digest. Under the race detector only the cases that start a pack or git
// run (raced): those add goroutines and processes to a check; the others
// take the load's and the rules' paths, which the tests of package check
// race on trees of every kind. The header lines of a case:
//   - cmd: check or diff, then arguments that replace the defaults (check
//     ROOT; diff --root ROOT --all com.example.w);
//   - root: the Journal root below the case's directory (default: itself);
//   - symlink: PATH -> TARGET and fifo: PATH make what an archive cannot hold;
//   - git: ARGS runs git in the case's directory (isolated from the user's
//     configuration), and step: next writes the archive's files under next/
//     (a file whose text is "DELETE" removes the path), in header order;
//   - pack: MODE runs the misbehaving test pack of internal/plugin/packtest in MODE
//     (echo reports its config: message, help, related, stderr, count,
//     panic), pinned to its digest (pack-pin: wrong pins another), with the
//     pack-config: lines as its config and pack-timeout: (default 10s).
//
// File names in an archive are written with Go escapes (\n, \u202e, \xff)
// and decoded.
func TestHostileCatalogue(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hostile", "*.txtar"))
	if len(files) < 100 {
		t.Fatalf("the catalogue holds %d inputs, want at least 100", len(files))
	}
	whole := !longtest.Small()
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			c, err := readCase(file)
			if err != nil {
				t.Fatal(err)
			}
			if longtest.Race && !c.raced() {
				t.Skip("starts neither a pack nor git: run without the race detector (make test does)")
			}
			c.run(t, whole)
		})
	}
}

// hostileCase is one archive of the catalogue with its header lines, by
// key and in order.
type hostileCase struct {
	file  string
	ar    *txtar.Archive
	head  map[string][]string
	lines [][2]string
}

func readCase(file string) (*hostileCase, error) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	c := &hostileCase{file: file, ar: ar, head: map[string][]string{}}
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(k, "#") {
			c.head[k] = append(c.head[k], v)
			c.lines = append(c.lines, [2]string{k, v})
		}
	}
	return c, nil
}

// raced reports whether the case runs under the race detector: whether
// it starts a pack (pack:) or git (git:).
func (c *hostileCase) raced() bool {
	return len(c.head["pack"]) > 0 || len(c.head["git"]) > 0
}

func (c *hostileCase) first(key string) string {
	if v := c.head[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// run runs the case: in every format and through the read commands when
// whole, else in the formats its header lines need.
func (c *hostileCase) run(t *testing.T, whole bool) {
	dir := t.TempDir()
	for _, f := range c.ar.Files {
		if !strings.HasPrefix(f.Name, "next/") {
			writeArchived(t, dir, f.Name, f.Data)
		}
	}
	for _, s := range c.head["symlink"] {
		from, to, _ := strings.Cut(s, " -> ")
		p := filepath.Join(dir, filepath.FromSlash(from))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(to, p); err != nil {
			t.Skip(err)
		}
	}
	for _, s := range c.head["fifo"] {
		p := filepath.Join(dir, filepath.FromSlash(s))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := mkfifo(p); err != nil {
			t.Skip(err)
		}
	}
	if mode := c.first("pack"); mode != "" {
		c.writePackConfig(t, dir, mode)
	}
	for _, l := range c.lines {
		switch l[0] {
		case "git":
			runGit(t, dir, unquoteFields(t, l[1])...)
		case "step":
			for _, f := range c.ar.Files {
				if name, ok := strings.CutPrefix(f.Name, l[1]+"/"); ok {
					if string(f.Data) == "DELETE\n" {
						os.Remove(filepath.Join(dir, filepath.FromSlash(name)))
						continue
					}
					writeArchived(t, dir, name, f.Data)
				}
			}
		}
	}
	root := dir
	if r := c.first("root"); r != "" {
		root = filepath.Join(dir, r)
	}
	var cfg []string
	if _, err := os.Stat(filepath.Join(dir, ".journal-lint.yaml")); err == nil {
		cfg = []string{"--config", filepath.Join(dir, ".journal-lint.yaml")}
	}
	cmd := unquoteFields(t, c.first("cmd"))
	if len(cmd) == 0 {
		cmd = []string{"check"}
	}
	var base, formats []string
	if cmd[0] == "diff" {
		base = []string{"journal-lint", "diff", "--root", root}
		if len(cmd) == 1 {
			cmd = append(cmd, "--all", "com.example.w")
		}
		formats = []string{"json", "text", "markdown", "github"}
	} else {
		base = []string{"journal-lint", "check", root}
		formats = []string{"json", "text", "sarif", "github"}
	}
	switch {
	case whole:
	case len(c.head["says"]) > 0:
		formats = formats[:2] // json and text
	default:
		formats = formats[:1] // json
	}
	base = append(append(base, cfg...), cmd[1:]...)
	exit, codes, count := -1, "", -1
	for _, format := range formats {
		stdout, _, code := runCLI(t, format == "github", append(slices.Clone(base), "--format", format)...)
		switch format {
		case "json":
			exit = code
			codes, count = codesOf(stdout)
		case "text":
			for _, want := range c.head["says"] {
				if !bytes.Contains(stdout, []byte(want)) {
					t.Errorf("the text output does not say %q:\n%s", want, stdout)
				}
			}
		}
		if code != exit {
			t.Errorf("--format %s exits %d, --format json %d", format, code, exit)
		}
	}
	if whole && cmd[0] == "check" && c.first("pack") == "" {
		readCommands(t, root, cfg)
	}
	if *updateHostile {
		rewriteHead(t, c.file, c.ar, exit, codes)
		return
	}
	if want := c.first("exit"); want != strconv.Itoa(exit) {
		t.Errorf("exit status %d, want %s", exit, want)
	}
	if want := c.first("codes"); want != codes {
		t.Errorf("codes %q, want %q", codes, want)
	}
	if want := c.first("count"); want != "" && want != strconv.Itoa(count) {
		t.Errorf("%d diagnostics or changes, want %s", count, want)
	}
}

// readCommands runs log and show over every directory of root and digest
// over every file under it, and checks the invariants of their output.
func readCommands(t *testing.T, root string, cfg []string) {
	entries, _ := os.ReadDir(root)
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	var runs [][]string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c := e.Name()
		for _, args := range [][]string{{"log", "--format", "text"}, {"log", "--format", "json"}, {"log", "--graph", "--color", "never"},
			{"show", "--format", "text"}, {"show", "--format", "json"}} {
			runs = append(runs, append(append(append([]string{"journal-lint"}, args...), append([]string{"--root", root}, cfg...)...), "--", c))
		}
	}
	if len(files) > 0 {
		runs = append(runs, append([]string{"journal-lint", "digest", "--"}, files...),
			append([]string{"journal-lint", "digest", "--check", "sha256:" + strings.Repeat("0", 64), "--"}, files...))
	}
	for _, args := range runs {
		if _, _, code := runCLI(t, false, args...); code == 3 {
			t.Errorf("%s: exit 3 (journal-lint failed)", args[1])
		}
	}
}

// runCLI runs journal-lint in-process with args and checks the invariants
// of package safetext on its stdout (github: annotations allowed) and
// stderr.
func runCLI(t *testing.T, github bool, args ...string) ([]byte, []byte, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Main(args, &stdout, &stderr)
	for name, out := range map[string][]byte{"stdout": stdout.Bytes(), "stderr": stderr.Bytes()} {
		if err := safetexttest.Check(out, github && name == "stdout", false); err != nil {
			t.Errorf("%s: %s: %v", strings.Join(args[1:min(len(args), 4)], " "), name, err)
		}
	}
	return stdout.Bytes(), stderr.Bytes(), code
}

// unquoteFields splits s at spaces and decodes the Go escapes of every
// field (\u202e, \n), so that a header line can name what it cannot hold.
func unquoteFields(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	for _, f := range strings.Fields(s) {
		u, err := strconv.Unquote(`"` + strings.ReplaceAll(f, `"`, `\"`) + `"`)
		if err != nil {
			t.Fatalf("header field %q: %v", f, err)
		}
		out = append(out, u)
	}
	return out
}

// writeArchived writes data at the Go-escaped archive name under dir, and
// skips the test when the file system refuses the name.
func writeArchived(t *testing.T, dir, archived string, data []byte) {
	t.Helper()
	name, err := strconv.Unquote(`"` + strings.ReplaceAll(archived, `"`, `\"`) + `"`)
	if err != nil {
		t.Fatalf("file name %q: %v", archived, err)
	}
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
}

// runGit runs git with args in dir, with no system or global configuration.
func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.org", "GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.org")
	if out, err := cmd.CombinedOutput(); err != nil {
		if _, lookErr := exec.LookPath("git"); lookErr != nil {
			t.Skip("git is not installed")
		}
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// writePackConfig writes (or extends) the case's .journal-lint.yaml with a
// plugins: entry that runs the test pack in mode.
func (c *hostileCase) writePackConfig(t *testing.T, dir, mode string) {
	t.Helper()
	path := packtest.Path(t, mode)
	pin := packtest.Digest(t)
	if c.first("pack-pin") == "wrong" {
		pin = strings.Repeat("ab", 32)
	}
	timeout := c.first("pack-timeout")
	if timeout == "" {
		timeout = "10s"
	}
	yaml := "plugins:\n  - path: " + strconv.Quote(path) + "\n    sha256: " + pin + "\n    timeout: " + timeout + "\n"
	if cfg := c.head["pack-config"]; len(cfg) > 0 {
		yaml += "    config:\n      " + strings.Join(cfg, "\n      ") + "\n"
	}
	p := filepath.Join(dir, ".journal-lint.yaml")
	old, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(old, yaml...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// codesOf returns the distinct diagnostic (or change) codes of a JSON
// output of check or diff, sorted and joined by spaces ("none" for none),
// and how many diagnostics or changes there are.
func codesOf(out []byte) (string, int) {
	var doc struct {
		Diagnostics []struct{ Code string }
		Comparisons []struct{ Changes []struct{ Code string } }
	}
	json.Unmarshal(out, &doc)
	var codes []string
	for _, d := range doc.Diagnostics {
		codes = append(codes, d.Code)
	}
	for _, c := range doc.Comparisons {
		for _, ch := range c.Changes {
			codes = append(codes, ch.Code)
		}
	}
	n := len(codes)
	slices.Sort(codes)
	codes = slices.Compact(codes)
	if len(codes) == 0 {
		return "none", n
	}
	return strings.Join(codes, " "), n
}

// rewriteHead writes the exit: and codes: lines of file.
func rewriteHead(t *testing.T, file string, ar *txtar.Archive, exit int, codes string) {
	var lines []string
	for _, line := range strings.Split(strings.TrimRight(string(ar.Comment), "\n"), "\n") {
		if !strings.HasPrefix(line, "exit: ") && !strings.HasPrefix(line, "codes: ") {
			lines = append(lines, line)
		}
	}
	lines = append(lines, "exit: "+strconv.Itoa(exit), "codes: "+codes)
	ar.Comment = []byte(strings.Join(lines, "\n") + "\n")
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}
