package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/r35157/journal-lint/cmd/journal-lint/internal/cli"
	"github.com/r35157/journal-lint/internal/safetext/safetexttest"
)

var updateHostile = flag.Bool("update-hostile", false, "rewrite the exit: and codes: lines of testdata/hostile")

// TestHostileCatalogue runs every input of testdata/hostile (trees, names,
// source lines, configurations, diffs, chosen by an attacker) through check
// in every format, or through diff in every diff format, and checks (issue
// "hostile input"):
//   - the exit status and the set of diagnostic codes in the case's exit:
//     and codes: lines;
//   - on stdout and stderr of every run, the invariants of package
//     safetext: no line starts a workflow command except journal-lint's own
//     annotations, no "##[", no ESC byte, control or bidi character.
//
// File names in an archive are written with Go escapes (\n, \u202e, \xff)
// and decoded; the header lines "symlink: PATH -> TARGET" and "fifo: PATH"
// make what an archive cannot hold.
func TestHostileCatalogue(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hostile", "*.txtar"))
	if len(files) < 100 {
		t.Fatalf("the catalogue holds %d inputs, want at least 100", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			head := map[string][]string{}
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if k, v, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(k, "#") {
					head[k] = append(head[k], v)
				}
			}
			for _, f := range ar.Files {
				name, err := strconv.Unquote(`"` + strings.ReplaceAll(f.Name, `"`, `\"`) + `"`)
				if err != nil {
					t.Fatalf("file name %q: %v", f.Name, err)
				}
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Skipf("this file system refuses the name: %v", err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Skipf("this file system refuses the name: %v", err)
				}
			}
			for _, s := range head["symlink"] {
				from, to, _ := strings.Cut(s, " -> ")
				p := filepath.Join(root, filepath.FromSlash(from))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.Symlink(to, p); err != nil {
					t.Skip(err)
				}
			}
			for _, s := range head["fifo"] {
				p := filepath.Join(root, filepath.FromSlash(s))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Skip(err)
				}
			}
			var base []string
			formats := []string{"json", "text", "sarif", "github"}
			if first(head["cmd"]) == "diff" {
				base = []string{"journal-lint", "diff", "--root", root, "--all", "com.example.w"}
				formats = []string{"json", "text", "markdown", "github"}
			} else {
				base = []string{"journal-lint", "check", root}
				if _, err := os.Stat(filepath.Join(root, ".journal-lint.yaml")); err == nil {
					base = append(base, "--config", filepath.Join(root, ".journal-lint.yaml"))
				}
			}
			exit, codes := -1, ""
			for _, format := range formats {
				var stdout, stderr bytes.Buffer
				code := cli.Main(append(slices.Clone(base), "--format", format), &stdout, &stderr)
				for name, out := range map[string][]byte{"stdout": stdout.Bytes(), "stderr": stderr.Bytes()} {
					if err := safetexttest.Check(out, format == "github" && name == "stdout", false); err != nil {
						t.Errorf("%s --format %s: %s: %v", base[1], format, name, err)
					}
				}
				if format == "json" {
					exit, codes = code, codesOf(stdout.Bytes())
				} else if code != exit {
					t.Errorf("--format %s exits %d, --format json %d", format, code, exit)
				}
			}
			if *updateHostile {
				rewriteHead(t, file, ar, exit, codes)
				return
			}
			if want := first(head["exit"]); want != strconv.Itoa(exit) {
				t.Errorf("exit status %d, want %s", exit, want)
			}
			if want := first(head["codes"]); want != codes {
				t.Errorf("codes %q, want %q", codes, want)
			}
		})
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// codesOf returns the distinct diagnostic (or change) codes of a JSON
// output of check or diff, sorted and joined by spaces; "none" for none.
func codesOf(out []byte) string {
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
	slices.Sort(codes)
	codes = slices.Compact(codes)
	if len(codes) == 0 {
		return "none"
	}
	return strings.Join(codes, " ")
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
