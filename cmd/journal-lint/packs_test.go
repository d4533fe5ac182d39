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
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/longtest"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/plugin/packtest"
)

// The tests of this file run journal-lint as a process, with rule packs:
// both are this test binary, started under their names (see TestMain).

// project writes a Journal tree and a .journal-lint.yaml that runs the
// pack name with the given config and timeout, and returns the
// project directory.
func project(t *testing.T, name, cfg, timeout string) string {
	t.Helper()
	dir := t.TempDir()
	j := filepath.Join(dir, "journals", "com.example.widget")
	if err := os.MkdirAll(j, 0o755); err != nil {
		t.Fatal(err)
	}
	// A trailing blank on the DESCRIPTION line: a built-in warning.
	text := strings.Replace(packtest.Widget, `DESCRIPTION "Fine"`, `DESCRIPTION "Fine" `, 1)
	if err := os.WriteFile(filepath.Join(j, "20260110T080000Z.journal"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	yaml := fmt.Sprintf("root: journals\nplugins:\n  - path: %s\n    sha256: %s\n    timeout: %s\n", packtest.Path(t, name), packtest.Digest(t), timeout)
	if cfg != "" {
		yaml += "    config:\n" + cfg
	}
	if err := os.WriteFile(filepath.Join(dir, ".journal-lint.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// journalLint runs journal-lint in dir and returns its stdout, stderr and
// exit code.
func journalLint(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := journalLintCmd(t, dir, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// journalLintCmd is the command that runs journal-lint with args in dir.
func journalLintCmd(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(packtest.Path(t, "journal-lint"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "GORACE="+raceOptions())
	return cmd
}

const policyConfig = "      denied: [GPL-3.0-only]\n"

func TestCLICheckWithPack(t *testing.T) {
	t.Parallel()
	dir := project(t, "license-policy", policyConfig, "10s")
	out, errOut, code := journalLint(t, dir, "check")
	for _, want := range []string{"[license-policy/denied-license]", "[license-policy/missing-description]", "[style/trailing-whitespace]"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if code != 1 || errOut != "" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if n := packtest.Running(t, packtest.Path(t, "license-policy")); n != 0 {
		t.Errorf("%d pack processes left after journal-lint exited", n)
	}

	// Severity overrides and ignores apply to pack codes as to built-in ones.
	cfg := filepath.Join(dir, ".journal-lint.yaml")
	b, _ := os.ReadFile(cfg)
	extra := "rules:\n  license-policy/missing-description: off\nignore:\n  - code: license-policy/*\n    path: journals/com.example.widget/**\n    reason: legacy artifact\n"
	if err := os.WriteFile(cfg, append(b, extra...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = journalLint(t, dir, "check")
	if strings.Contains(out, "license-policy/") || code != 0 {
		t.Errorf("exit %d, pack findings not suppressed:\n%s", code, out)
	}

	// A typo in a pack's rule code is a configuration error.
	typo := strings.Replace(string(b)+extra, "missing-description: off", "missing-descripton: off", 1)
	os.WriteFile(cfg, []byte(typo), 0o644)
	_, errOut, code = journalLint(t, dir, "check")
	if code != 2 || !strings.Contains(errOut, `did you mean "license-policy/missing-description"`) {
		t.Errorf("typo: exit %d, stderr %s", code, errOut)
	}
}

// TestCLICacheWithPurePack: a pack that declares its rules pure (the
// example pack) has its findings kept with each artifact's record of the
// cache, and a check that takes artifacts from the cache reports what one
// without a cache does, in every format, after a change too; the cache
// verifies. A long test: in the json format only when tests run small
// (longtest.Small), each check being two processes.
func TestCLICacheWithPurePack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "journals")
	if _, err := gen.Write(root, gen.Options{Files: 60, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	yaml := fmt.Sprintf("root: journals\nplugins:\n  - path: %s\n    sha256: %s\n    config:\n%s", packtest.Path(t, "license-policy"), packtest.Digest(t), policyConfig)
	if err := os.WriteFile(filepath.Join(dir, ".journal-lint.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	formats := []string{"json", "sarif", "text"}
	if longtest.Small() {
		formats = formats[:1]
	}
	same := func(what string) {
		t.Helper()
		for _, format := range formats {
			want, _, wantCode := journalLint(t, dir, "check", "--format", format, "--cache", "off")
			if !strings.Contains(want, "license-policy/") {
				t.Fatalf("%s: no pack finding: the test proves nothing", what)
			}
			for _, mode := range []string{"on", "on", "verify"} {
				got, errOut, code := journalLint(t, dir, "check", "--format", format, "--cache", mode)
				if got != want || code != wantCode || errOut != "" {
					t.Fatalf("%s, --format %s --cache %s: exit %d (want %d), stderr %q, output differs: %v", what, format, mode, code, wantCode, errOut, got != want)
				}
			}
		}
	}
	same("cold, then warm")
	// The checks with the cache on kept their verified copy of the pack.
	kept := filepath.Join(memo.PacksDir(os.Getenv(memo.EnvDir)), packtest.Digest(t), "license-policy")
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("no kept copy of the pack: %v", err)
	}
	if _, err := gen.Mutate(root, 3); err != nil {
		t.Fatal(err)
	}
	same("one file changed")
}

// TestCLIRelatedAcrossBatches: check streams the documents to a pack
// while it reads the tree, so a related location may name a document of
// a batch not read yet; it is resolved once the tree is read, from that
// document, as for a related location in the same batch. A long test: 400
// files, 200 when tests run small (longtest.Small).
func TestCLIRelatedAcrossBatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "journals")
	files := longtest.Size(400, 200) // batches of 128 documents
	if _, err := gen.Write(root, gen.Options{Files: files, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	var last string // the last file in path order: in the last batch
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			last = "journals/" + filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		}
		return err
	})
	yaml := fmt.Sprintf("root: journals\nplugins:\n  - path: %s\n    sha256: %s\n    config:\n      message: m\n      related: %s\n",
		packtest.Path(t, "echo"), packtest.Digest(t), strings.TrimPrefix(last, "journals/"))
	if err := os.WriteFile(filepath.Join(dir, ".journal-lint.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ := journalLint(t, dir, "check", "--format", "json")
	var report struct {
		Diagnostics []struct {
			Code, Path string
			Related    []struct{ Path string }
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v; stderr %s", err, errOut)
	}
	n := 0
	for _, d := range report.Diagnostics {
		if d.Code == "plugin/failed" {
			t.Fatalf("the pack failed: %+v", d)
		}
		if d.Code == "misbehave/mode" {
			n++
			if len(d.Related) != 1 || d.Related[0].Path != last {
				t.Errorf("%s: related %+v, want %s", d.Path, d.Related, last)
			}
		}
	}
	if n != files {
		t.Errorf("%d findings of the pack, want one on each of the %d files", n, files)
	}
}

func TestCLIPackFailureKeepsBuiltins(t *testing.T) {
	t.Parallel()
	dir := project(t, "crash", "", "10s")
	out, _, code := journalLint(t, dir, "check")
	if code != 1 || !strings.Contains(out, "[plugin/failed]") || !strings.Contains(out, "[style/trailing-whitespace]") ||
		!strings.Contains(out, "rule pack misbehave failed") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestCLIChecksumMismatch(t *testing.T) {
	t.Parallel()
	dir := project(t, "license-policy", "", "10s")
	cfg := filepath.Join(dir, ".journal-lint.yaml")
	b, _ := os.ReadFile(cfg)
	sum := packtest.Digest(t)
	b = bytes.Replace(b, []byte(sum), []byte(strings.Repeat("a", 64)), 1)
	// An ignore entry for the pack's codes must not hide the real problem
	// behind "matches no known rule code".
	b = append(b, "ignore:\n  - code: license-policy/*\n    reason: the mismatch must still be named\n"...)
	os.WriteFile(cfg, b, 0o644)
	for _, args := range [][]string{{"check"}, {"plugins", "list"}} {
		out, errOut, code := journalLint(t, dir, args...)
		if code != 2 || !strings.Contains(errOut, "checksum mismatch") || strings.Contains(out, "license-policy/") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func TestCLIPluginsListAndChecksum(t *testing.T) {
	t.Parallel()
	dir := project(t, "license-policy", policyConfig, "10s")
	out, errOut, code := journalLint(t, dir, "plugins", "list")
	if code != 0 || !strings.Contains(out, "license-policy 1.0.0") || !strings.Contains(out, "(verified)") ||
		!strings.Contains(out, "license-policy/denied-license") || !strings.Contains(out, "  pure:           yes\n") {
		t.Errorf("list: exit %d\n%s%s", code, out, errOut)
	}
	path := packtest.Path(t, "license-policy")
	// The path is shown relative, as every output path (here: to the
	// working directory, which is in no git work tree).
	rel, err := filepath.Rel(dir, path)
	if err != nil || !strings.Contains(out, "  path:           "+filepath.ToSlash(rel)+"\n") {
		t.Errorf("list: want the pack's path relative to %s (%s):\n%s", dir, rel, out)
	}
	// Pasted into .journal-lint.yaml, the checksum's path names the pack
	// from the configuration's directory.
	out, _, code = journalLint(t, dir, "plugins", "checksum", path)
	want := fmt.Sprintf("plugins:\n  - path: %s\n    sha256: %s\n", filepath.ToSlash(rel), packtest.Digest(t))
	if code != 0 || out != want {
		t.Errorf("checksum: exit %d\n%s\nwant\n%s", code, out, want)
	}

	// The list shows each rule's severity as the configuration sets it.
	cfg := filepath.Join(dir, ".journal-lint.yaml")
	b, _ := os.ReadFile(cfg)
	if err := os.WriteFile(cfg, append(b, "rules:\n  license-policy/denied-license: warning\n  license-policy/missing-description: off\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = journalLint(t, dir, "plugins", "list")
	for _, want := range []string{`license-policy/denied-license +warning \(default error\) `, `license-policy/unlisted-license +warning  `, `license-policy/missing-description +off \(default warning\) `} {
		if code != 0 || !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("list with severities set: exit %d, no %q in\n%s%s", code, want, out, errOut)
		}
	}
}

// TestCLINoLeakWhenHostDies kills journal-lint (SIGKILL, then SIGINT in a
// second run) while a pack hangs, and requires the pack to be gone soon
// after: the lifeline closes when the host dies.
func TestCLINoLeakWhenHostDies(t *testing.T) {
	t.Parallel()
	hang := packtest.Path(t, "hang")
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := project(t, "hang", "", "1m")
			cmd := journalLintCmd(t, dir, "check")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Wait for the pack to be busy in Check (its process is up).
			deadline := time.Now().Add(10 * time.Second)
			for len(packtest.PIDs(hang)) == 0 {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("the pack never started")
				}
				time.Sleep(10 * time.Millisecond)
			}
			time.Sleep(200 * time.Millisecond)
			before := len(packtest.PIDs(hang))
			cmd.Process.Signal(sig)
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("journal-lint did not exit on %v", sig)
			}
			if n := packtest.Running(t, hang); n != 0 {
				t.Errorf("%d of %d pack processes survived journal-lint's %v", n, before, sig)
			}
		})
	}
}

// TestCLIGrandchildDoesNotStallCheck runs journal-lint check with a pack
// whose grandchild keeps the pack's stdout and stderr open: check reports
// the timeout and exits soon after it, leaving nothing running.
func TestCLIGrandchildDoesNotStallCheck(t *testing.T) {
	t.Parallel()
	// 2s: the timeout bounds the copy of the pack for its verification
	// too, which a machine busy with the race detector's tests took over
	// 1s for once.
	dir := project(t, "holdpipes", "", "2s")
	start := time.Now()
	out, errOut, code := journalLint(t, dir, "check")
	if el := time.Since(start); el > 8*time.Second {
		t.Errorf("check took %v with a 2s pack timeout", el)
	}
	if code != 1 || !strings.Contains(out, "check timed out after 2s") || !strings.Contains(out, "[plugin/failed]") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if n := packtest.Running(t, packtest.Path(t, "holdpipes")); n != 0 {
		t.Errorf("%d pack processes left after journal-lint exited", n)
	}
}
