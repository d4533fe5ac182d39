package check_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/diag"
)

// junkRootEnv makes the test binary run one check on the root it names and
// exit, so that BenchmarkCheckJunkPeakRSS can measure that run's peak
// memory alone.
const junkRootEnv = "JOURNAL_LINT_JUNK_ROOT"

func init() {
	root := os.Getenv(junkRootEnv)
	if root == "" {
		return
	}
	res, err := check.Run(context.Background(), check.Options{Root: root})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	fmt.Println(len(res.Diagnostics))
	os.Exit(0)
}

// writeJunk writes n files of 16 MiB under root: a valid header, then
// one-letter junk lines up to the size limit (issue "hostile input" §3).
func writeJunk(tb testing.TB, root string, n int) {
	tb.Helper()
	for i := 0; i < n; i++ {
		co := fmt.Sprintf("com.example.junk%d", i)
		head := "JOURNAL_FORMAT 1\nARTIFACT " + co + "\nJOURNAL_VERSION 20260101T000000Z\nDESCRIPTION \"x\"\n"
		body := bytes.Repeat([]byte("x\n"), (16<<20-len(head))/2)
		dir := filepath.Join(root, co)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "20260101T000000Z.journal"), append([]byte(head), body...), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkCheckJunkPeakRSS runs check in a child process on one and on
// four 16 MiB files of a valid header and 8.4 million junk lines each, and
// reports the child's peak resident memory as peak-MB (on Linux; elsewhere
// it only checks the diagnostics kept). Targets: ≤ 200 MB for one file,
// ≤ 400 MB for four (before the per-file cap of diagnostics and the sparse
// line index: 2.0 GB and 7-8 GB).
func BenchmarkCheckJunkPeakRSS(b *testing.B) {
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			root := b.TempDir()
			writeJunk(b, root, n)
			var peak int64
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), junkRootEnv+"="+root)
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				kept, _ := strconv.Atoi(string(bytes.TrimSpace(out)))
				// One capped code per file: the first MaxPerFileCode and one
				// "and K more".
				if want := n * (diag.MaxPerFileCode + 1); kept != want {
					b.Fatalf("%d diagnostics kept, want %d", kept, want)
				}
				peak = max(peak, peakRSS(cmd.ProcessState))
			}
			if peak > 0 {
				b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
			}
		})
	}
}
