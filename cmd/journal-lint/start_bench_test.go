package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// BenchmarkStart starts a journal-lint built with go build as a process:
// `journal-lint version`, the start-up every command pays, which `tlog
// verify-proof` is mostly made of (docs/performance.md, "Start-up"). It
// reports what this module's packages allocate while they initialise
// (GODEBUG=inittrace=1) as own-init-B: a table or regexp built at
// package level shows there; what third-party packages allocate does not
// count.
func BenchmarkStart(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "journal-lint")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var trace bytes.Buffer
	cmd.Stderr = &trace
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
	own := 0
	for _, m := range regexp.MustCompile(`(?m)^init github\.com/r35157/journal-lint/\S+ @\S+ ms, \S+ ms clock, (\d+) bytes`).FindAllSubmatch(trace.Bytes(), -1) {
		n, _ := strconv.Atoi(string(m[1]))
		own += n
	}
	for b.Loop() {
		if err := exec.Command(bin, "version").Run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(own), "own-init-B")
}
