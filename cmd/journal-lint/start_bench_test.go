package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkStart starts a journal-lint built with go build as a process:
// `journal-lint version`, the start-up every command pays (docs/performance.md,
// "Start-up"). It reports what this module's packages allocate while they
// initialise (GODEBUG=inittrace=1) as own-init-B: a table or regexp built
// at package level shows there; what third-party packages allocate does not
// count.
func BenchmarkStart(b *testing.B) {
	bin := buildJournalLint(b)
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

// BenchmarkVerifyProof is the client's check of a downloaded revision as
// a process, start-up included (the target of docs/tlog.md, "Cost"):
// `journal-lint tlog verify-proof --policy P --state DIR FILE PROOF` of a
// revision of a log made with tlog init, append --sign and prove, each run
// followed or preceded (in turn) by a hello-world Go program built by the
// same toolchain, the yardstick of what starting any Go process costs on
// the machine at the time. It reports the medians of wall time and of CPU
// time (user and system) of both, in ms, and journal-lint's over the
// yardstick's as verify-x and verify-cpu-x: compare those across machines
// and loads, not the milliseconds. It fails when verify-cpu-x is over
// maxVerifyCPUx. Run it with -benchtime 200x or more.
func BenchmarkVerifyProof(b *testing.B) {
	bin := buildJournalLint(b)
	hello := buildHello(b)
	dir := b.TempDir()
	file, proof, policy := proveOne(b, bin, dir)
	verify := []string{bin, "tlog", "verify-proof", "--policy", policy, "--state", filepath.Join(dir, "state"), file, proof}
	cmds := [][]string{verify, {hello}}
	var wall, cpu [2][]time.Duration
	i := 0
	for b.Loop() {
		for k := range cmds {
			j := (i + k) % len(cmds) // alternate which runs first
			w, c := runTimed(b, cmds[j])
			wall[j], cpu[j] = append(wall[j], w), append(cpu[j], c)
		}
		i++
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	vw, vc, hw, hc := median(wall[0]), median(cpu[0]), median(wall[1]), median(cpu[1])
	b.ReportMetric(ms(vw), "verify-ms")
	b.ReportMetric(ms(vc), "verify-cpu-ms")
	b.ReportMetric(ms(hw), "hello-ms")
	b.ReportMetric(ms(hc), "hello-cpu-ms")
	b.ReportMetric(float64(vw)/float64(hw), "verify-x")
	b.ReportMetric(float64(vc)/float64(hc), "verify-cpu-x")
	if x := float64(vc) / float64(hc); x > maxVerifyCPUx {
		b.Errorf("verify-proof takes %.1f times the CPU of a hello world (%v, %v), want at most %v", x, vc, hc, maxVerifyCPUx)
	}
}

// maxVerifyCPUx bounds the CPU time of verify-proof over the hello
// world's: 5 to 6.4 at loads 2 to 9 on two cores (docs/performance.md,
// "Start-up"); a git process (2 to 5 ms) or another heavy dependency
// would cross it.
const maxVerifyCPUx = 8

// buildJournalLint builds this command with go build, as a user's go
// install does, and returns the executable's path; JOURNAL_LINT_BIN names
// one built otherwise instead (such as make build's bin/journal-lint).
func buildJournalLint(b *testing.B) string {
	b.Helper()
	if bin := os.Getenv("JOURNAL_LINT_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(b.TempDir(), "journal-lint")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// buildHello builds a Go program that writes one line and exits, and
// returns the executable's path.
func buildHello(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	src := "package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"hello\\n\") }\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", "hello", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build hello: %v\n%s", err, out)
	}
	return filepath.Join(dir, "hello")
}

// proveOne makes a log of a tree of two revisions in dir with the command
// bin, as an operator does (docs/tlog.md), and returns the newer revision's
// file, its proof and the policy that trusts the log.
func proveOne(b *testing.B, bin, dir string) (file, proof, policy string) {
	b.Helper()
	art := filepath.Join(dir, "journals", "com.example.w")
	if err := os.MkdirAll(art, 0o755); err != nil {
		b.Fatal(err)
	}
	genesis := []byte("JOURNAL_FORMAT 1\nARTIFACT com.example.w\nJOURNAL_VERSION 20260101T000000Z\nDESCRIPTION \"w\"\n\n" +
		"RELEASE 1.0.0\nLICENSE MIT\nCONTENT w.jar sha256:" + fmt.Sprintf("%064d", 1) + "\n")
	next := fmt.Appendf(nil, "JOURNAL_FORMAT 1\nARTIFACT com.example.w\nJOURNAL_VERSION 20260201T000000Z\nPREDECESSOR sha256:%x\nDESCRIPTION \"w\"\n\n"+
		"RELEASE 1.0.1\nLICENSE MIT\nCONTENT w.jar sha256:%064d\n", sha256.Sum256(genesis), 2)
	file = filepath.Join(art, "20260201T000000Z.journal")
	if err := os.WriteFile(filepath.Join(art, "20260101T000000Z.journal"), genesis, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(file, next, 0o644); err != nil {
		b.Fatal(err)
	}
	run := func(args ...string) []byte {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("journal-lint %v: %v\n%s", args, err, stderr.Bytes())
		}
		return out
	}
	key := filepath.Join(b.TempDir(), "key")
	block := run("tlog", "init", "--origin", "journals.example.org/registry", "--key-file", key)
	policy = filepath.Join(dir, "policy.yaml")
	for _, name := range []string{policy, filepath.Join(dir, ".journal-lint.yaml")} {
		if err := os.WriteFile(name, block, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	run("tlog", "append", "--sign", "--key-file", key)
	proof = filepath.Join(dir, "w.tlog-proof")
	run("tlog", "prove", "--out", proof, file)
	return file, proof, policy
}

// runTimed runs args as a process with its output discarded and returns
// its wall time and its CPU time (user and system).
func runTimed(b *testing.B, args []string) (wall, cpu time.Duration) {
	b.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v\n%s", args, err, stderr.Bytes())
	}
	wall = time.Since(start)
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// median returns the median of ds (sorting ds).
func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}
