package packtest

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Running counts the live processes (zombies excluded) of the pack at
// path that run from a copy under the temporary directory that [Main]
// gave the test binary (journal-lint copies a pack there to run it, or
// keeps it in a cache directory the tests put there, and names the copy
// like path), and the grandchildren they started from
// themselves, waiting up to two seconds for the count to reach zero. It
// reads /proc and skips the test elsewhere.
func Running(t testing.TB, path string) int {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("counts processes through /proc")
	}
	return settle(func() int { return len(PIDs(path)) })
}

// InGroup counts the live processes of process group pgid, waiting up to
// two seconds for the count to reach zero. It reads /proc and skips the
// test elsewhere.
func InGroup(t testing.TB, pgid int) int {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("counts processes through /proc")
	}
	return settle(func() int {
		n := 0
		eachProcess(func(_ string, pgrp int) {
			if pgrp == pgid {
				n++
			}
		})
		return n
	})
}

// settle calls count until it returns 0, for up to two seconds, and
// returns its last result.
func settle(count func() int) int {
	deadline := time.Now().Add(2 * time.Second)
	for {
		n := count()
		if n == 0 || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// PIDs returns the live processes running a private copy of the pack at
// path (see [Running]).
func PIDs(path string) []string {
	tmp := os.TempDir()
	var out []string
	eachProcess(func(pid string, _ int) {
		exe, err := os.Readlink(filepath.Join("/proc", pid, "exe"))
		if err != nil {
			return
		}
		exe = strings.TrimSuffix(exe, " (deleted)")
		if filepath.Base(exe) == filepath.Base(path) && strings.HasPrefix(exe, tmp+string(filepath.Separator)) {
			out = append(out, pid)
		}
	})
	return out
}

// eachProcess calls f with the id and process group of every live process
// (zombies excluded: they have exited; only their parent's wait is missing).
func eachProcess(f func(pid string, pgrp int)) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 3 || fields[0] == "Z" {
			continue
		}
		pgrp, err := strconv.Atoi(fields[2])
		if err != nil {
			continue
		}
		f(e.Name(), pgrp)
	}
}
