package plugin_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// running counts the live processes (zombies excluded) whose executable is
// path, waiting up to two seconds for the count to reach zero. It reads
// /proc and skips the test elsewhere.
func running(t *testing.T, path string) int {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("counts processes through /proc")
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		n := len(pids(path))
		if n == 0 || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pids returns the live processes running path.
func pids(path string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || strings.TrimSuffix(exe, " (deleted)") != path {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			continue // a zombie has exited; only its parent's wait is missing
		}
		out = append(out, e.Name())
	}
	return out
}
