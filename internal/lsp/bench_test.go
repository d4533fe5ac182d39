package lsp_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/lsp"
	"github.com/r35157/journal-lint/internal/lsp/lsptest"
	"github.com/r35157/journal-lint/internal/syntax"
)

// bigBuffer returns a valid genesis of com.example.big with n release
// blocks (n = 1,900 gives about 1 MB) and the line of the last DESCRIPTION.
func bigBuffer(n int) ([]byte, uint32) {
	var b bytes.Buffer
	b.WriteString("JOURNAL_FORMAT 1\nARTIFACT com.example.big\nJOURNAL_VERSION 20260105T090000Z\nDESCRIPTION \"A large artifact\"\n")
	for i := range n {
		fmt.Fprintf(&b, `
RELEASE %d.%d.0
LICENSE MIT OR Apache-2.0
CONTENT big-%d.%d.0.jar sha256:4444444444444444444444444444444444444444444444444444444444444444
CONTENT big-%d.%d.0-sources.jar sha256:5555555555555555555555555555555555555555555555555555555555555555
DESCRIPTION "Release number %d: fixes and \"improvements\""
PUBLISHED 20260101T000000Z
POLICY deprecated "superseded"
DEPENDS org.example.core [1.2.0,1.3.0),[1.4.0,2.0.0) "runtime helpers"
EXCLUDES org.example.legacy-shim "pulled in by core, never used"
PREFERS org.example.core 1.4.2
`, i/100+1, i%100, i/100+1, i%100, i/100+1, i%100, i)
	}
	return b.Bytes(), uint32(bytes.Count(b.Bytes(), []byte("\n"))) - 6
}

// BenchmarkDiagnosticsLatency measures the time from a one-character edit
// of a 1 MB buffer to its published diagnostics: the whole round trip over
// JSON-RPC (incremental didChange, the check of the test tree with the
// buffer, publishDiagnostics), with no debounce delay. Each check takes
// over the unchanged artifacts of the one before (check.Options.Prior), so
// the cost should not depend on the rest of the tree: tree=small is
// testdata/tree with its configuration (five small files besides the
// buffer), tree=gen2000 the same with a generated tree of 2,000 revisions
// added, and tree=gen2000-git that tree committed in a git work tree, where
// a check also asks git about the files (repo/eol-conversion, committed
// revisions).
//
// Besides ns/op it reports cpu-ms/op, the CPU time (user + system, all
// threads of the process: server, client and garbage collector, and the
// git processes it ran) per change (on Unix, as the CPU metrics below).
// The machine may be shared and noisy, so right after the changes, as many
// times, it also times two yardsticks on the same buffer, a plain
// syntax.Parse and a SHA-256, which suffer about the same noise: parse-ms,
// parse-cpu-ms and sha256-ms are their averages, and x-parse, x-parse-cpu
// and x-sha256 the time per change as a multiple of them (wall, CPU,
// wall). The yardsticks do not run between the changes: the garbage of
// their parses would be collected while the next change is timed.
func BenchmarkDiagnosticsLatency(b *testing.B) {
	b.Run("tree=small", func(b *testing.B) {
		latency(b, filepath.Join(lsptest.CopyTree(b, filepath.Join("testdata", "tree")), "journals"))
	})
	gen2000 := func(b *testing.B) string {
		// The test tree's artifacts (which the buffer depends on) join the
		// generated ones.
		root := filepath.Join(lsptest.CopyTree(b, filepath.Join("testdata", "tree")), "journals")
		if _, err := gen.Write(root, gen.Options{Files: 2000, Seed: 3}); err != nil {
			b.Fatal(err)
		}
		return root
	}
	b.Run("tree=gen2000", func(b *testing.B) { latency(b, gen2000(b)) })
	b.Run("tree=gen2000-git", func(b *testing.B) {
		if _, err := exec.LookPath("git"); err != nil {
			b.Skip("git is not installed")
		}
		root := gen2000(b)
		commitAll(b, filepath.Dir(root))
		latency(b, root)
	})
}

// latency is BenchmarkDiagnosticsLatency on the tree under root.
func latency(b *testing.B, root string) {
	src, line := bigBuffer(1900)
	c := lsptest.Start(b, lsp.Options{})
	u := c.Open(filepath.Join(root, "com.example.big", "20260105T090000Z.journal"), src)
	if ds := c.Diagnostics(u, 1); len(ds) != 0 {
		b.Fatalf("the buffer should be clean, got %v", codes(ds))
	}
	b.SetBytes(int64(len(src)))
	// The garbage of setting up (writing the tree, its first check) is
	// collected now, not during the first changes.
	runtime.GC()
	var changeWall, changeCPU, parseWall, parseCPU, hashWall time.Duration
	version := int32(1)
	for b.Loop() {
		version++
		// Toggle one letter of the last DESCRIPTION ("Release" ↔ "release").
		letter := "r"
		if version%2 == 1 {
			letter = "R"
		}
		w, cpu := time.Now(), cpuTime()
		c.Edit(u, version, protocol.Range{Start: protocol.Position{Line: line, Character: 13}, End: protocol.Position{Line: line, Character: 14}}, letter)
		c.Diagnostics(u, version)
		changeWall += time.Since(w)
		changeCPU += cpuTime() - cpu
	}
	runtime.GC() // so that the yardsticks do not collect the changes' garbage
	for range version - 1 {
		w, cpu := time.Now(), cpuTime()
		syntax.Parse("com.example.big/20260105T090000Z.journal", src)
		parseWall += time.Since(w)
		parseCPU += cpuTime() - cpu
		w = time.Now()
		sha256.Sum256(src)
		hashWall += time.Since(w)
	}
	n := float64(version - 1)
	ms := func(d time.Duration) float64 { return float64(d) / n / 1e6 }
	b.ReportMetric(ms(parseWall), "parse-ms")
	b.ReportMetric(ms(hashWall), "sha256-ms")
	b.ReportMetric(float64(changeWall)/float64(parseWall), "x-parse")
	b.ReportMetric(float64(changeWall)/float64(hashWall), "x-sha256")
	b.ReportMetric(float64(len(src))/1e6, "MB-buffer")
	if cpuKnown {
		b.ReportMetric(ms(changeCPU), "cpu-ms/op")
		b.ReportMetric(ms(parseCPU), "parse-cpu-ms")
		b.ReportMetric(float64(changeCPU)/float64(parseCPU), "x-parse-cpu")
	}
}

// BenchmarkEditLatency measures what an author waits for: the time from a
// didChange to the publishDiagnostics of that version, whatever delay
// the server adds included, with the debounce journal-lint lsp runs with
// by default (DefaultDebounce), on a generated tree of 10,000 revisions
// (2,838 artifacts, 21 MB), editing the head of its first artifact (one
// letter of its DESCRIPTION, back and forth). It reports the median and
// the largest time of the edits, wall and (on Unix) CPU (the process's,
// all threads: a busy machine stretches the wall time, not the CPU
// time); the target is a median of at most 50 ms and a largest of at most
// 150 ms over 20 edits:
//
//	go test ./internal/lsp -run '^$' -bench EditLatency -benchtime 20x
//
// The tree is written once, before the first timing (it takes seconds).
func BenchmarkEditLatency(b *testing.B) {
	root := filepath.Join(b.TempDir(), "journals")
	tr, err := gen.Write(root, gen.Options{Files: 10000, Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	coord, _, _ := strings.Cut(tr.Files[0].Path, "/")
	var head gen.File
	for _, f := range tr.Files {
		if strings.HasPrefix(f.Path, coord+"/") {
			head = f // the files are sorted: the last is the head
		}
	}
	c := lsptest.Start(b, lsp.Options{Debounce: lsp.DefaultDebounce})
	u := c.Open(filepath.Join(root, filepath.FromSlash(head.Path)), head.Data)
	c.Diagnostics(u, 1)
	runtime.GC()
	// Line 5 is `DESCRIPTION "<name>: ..."`; character 13 is the name's
	// first letter.
	first := string(head.Data[bytes.Index(head.Data, []byte("DESCRIPTION \""))+13])
	var times, cpus []time.Duration
	version := int32(1)
	for b.Loop() {
		version++
		letter := strings.ToUpper(first)
		if version%2 == 1 {
			letter = first
		}
		start, cpu := time.Now(), cpuTime()
		c.Edit(u, version, protocol.Range{Start: protocol.Position{Line: 4, Character: 13}, End: protocol.Position{Line: 4, Character: 14}}, letter)
		c.Diagnostics(u, version)
		times = append(times, time.Since(start))
		cpus = append(cpus, cpuTime()-cpu)
	}
	slices.Sort(times)
	slices.Sort(cpus)
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	b.ReportMetric(ms(times[len(times)/2]), "median-ms")
	b.ReportMetric(ms(times[len(times)-1]), "max-ms")
	if cpuKnown {
		b.ReportMetric(ms(cpus[len(cpus)/2]), "median-cpu-ms")
		b.ReportMetric(ms(cpus[len(cpus)-1]), "max-cpu-ms")
	}
	b.ReportMetric(0, "ns/op")
}
