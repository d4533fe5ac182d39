package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/plugin/packtest"
)

// TestCLIStartsPackOnce runs journal-lint with one configured pack (the
// pidlog pack, which logs each start) and requires that every run started
// the pack exactly once, however it ended, and closed it: check reuses the
// pack that configuration validation started. The pack ignores the
// lifeline, so a path that forgets to close it leaves it running.
func TestCLIStartsPackOnce(t *testing.T) {
	t.Parallel()
	path := packtest.Path(t, "pidlog")
	for _, c := range []struct {
		name  string
		extra string // appended to .journal-lint.yaml
		args  []string
		code  int
		out   string // in stdout, or in stderr when code is 2
	}{
		{name: "check", args: []string{"check"}, code: 0, out: "checked com.example.widget/20260110T080000Z.journal [misbehave/mode]"},
		{name: "check with a pack finding as error", extra: "rules:\n  misbehave/mode: error\n", args: []string{"check"}, code: 1, out: "[misbehave/mode]"},
		{name: "print-config", args: []string{"check", "--print-config"}, code: 0, out: "plugins:"},
		{name: "plugins list", args: []string{"plugins", "list"}, code: 0, out: "misbehave/mode"},
		{name: "unknown pack rule in the configuration", extra: "rules:\n  misbehave/no-such-rule: off\n", args: []string{"check"}, code: 2, out: "misbehave/no-such-rule"},
		{name: "usage error after the configuration", args: []string{"check", "--format", "bogus"}, code: 2, out: "bogus"},
		{name: "new-only without against", args: []string{"check", "--new-only"}, code: 2, out: "--new-only needs --against"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := project(t, "pidlog", "", "10s")
			pidFile := filepath.Join(dir, "pidlog.pids")
			if c.extra != "" {
				cfg := filepath.Join(dir, ".journal-lint.yaml")
				b, err := os.ReadFile(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(cfg, append(b, c.extra...), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Remove(pidFile); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			out, errOut, code := journalLint(t, dir, c.args...)
			where := out
			if c.code == 2 {
				where = errOut
			}
			if code != c.code || !strings.Contains(where, c.out) {
				t.Errorf("exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", code, c.code, c.out, out, errOut)
			}
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatalf("the pack never started: %v", err)
			}
			if starts := strings.Fields(string(b)); len(starts) != 1 {
				t.Errorf("the pack started %d times (pids %v), want once", len(starts), starts)
			}
			// The pack ignores the lifeline: only journal-lint closing it ends it.
			if n := packtest.Running(t, path); n != 0 {
				t.Errorf("%d pack processes left after journal-lint exited: it did not close them", n)
				for _, pid := range packtest.PIDs(path) {
					if n, err := strconv.Atoi(pid); err == nil {
						if p, err := os.FindProcess(n); err == nil {
							p.Kill()
						}
					}
				}
			}
		})
	}
}
