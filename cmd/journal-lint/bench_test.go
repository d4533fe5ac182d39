package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/cmd/journal-lint/internal/cli"
)

// BenchmarkDiffFormatsAgainstJSON is the bound on the word diff of
// descriptions (issue 26: the Markdown diff of two 1.28 MB revisions took
// 107 s, and here 80 s, their text diff 27 s, their json 0.5 s): `diff
// --all` of two revisions of 330 releases whose descriptions hold the
// numbers 0 to 999, in reverse order in the newer one (1.3 MB each), in
// each diff format, journal-lint in-process. It reports each format's
// fastest run over the json format's as <format>-x and fails when one is
// over 2 (run it with -benchtime 5x or more: the rounds rotate which
// format runs first, and the machine's other work only adds time).
func BenchmarkDiffFormatsAgainstJSON(b *testing.B) {
	const releases, words = 330, 1000
	root := b.TempDir()
	dir := filepath.Join(root, "com.example.w")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	write := func(version, predecessor string, reverse bool) []byte {
		var sb strings.Builder
		fmt.Fprintf(&sb, "JOURNAL_FORMAT 1\nARTIFACT com.example.w\nJOURNAL_VERSION %s\n%sDESCRIPTION \"w\"\n", version, predecessor)
		ws := make([]string, words)
		for i := range ws {
			ws[i] = fmt.Sprint(i)
			if reverse {
				ws[i] = fmt.Sprint(words - 1 - i)
			}
		}
		for r := range releases {
			fmt.Fprintf(&sb, "\nRELEASE 1.0.%d\nLICENSE MIT\nCONTENT w.jar sha256:%s\nDESCRIPTION \"%s\"\n", r, strings.Repeat("1", 64), strings.Join(ws, " "))
		}
		text := []byte(sb.String())
		if err := os.WriteFile(filepath.Join(dir, version+".journal"), text, 0o644); err != nil {
			b.Fatal(err)
		}
		return text
	}
	old := write("20260101T000000Z", "", false)
	write("20260201T000000Z", fmt.Sprintf("PREDECESSOR sha256:%x\n", sha256.Sum256(old)), true)
	formats := []string{"json", "text", "markdown", "github"}
	best := make([]time.Duration, len(formats))
	round := 0
	for b.Loop() {
		for k := range formats {
			i := (round + k) % len(formats)
			var stderr strings.Builder
			start := time.Now()
			code := cli.Main([]string{"journal-lint", "diff", "--root", root, "--all", "--format", formats[i], "com.example.w"}, io.Discard, &stderr)
			d := time.Since(start)
			if code != 0 {
				b.Fatalf("diff --format %s: exit %d\n%s", formats[i], code, stderr.String())
			}
			if best[i] == 0 || d < best[i] {
				best[i] = d
			}
		}
		round++
	}
	for i, f := range formats[1:] {
		x := float64(best[i+1]) / float64(best[0])
		b.ReportMetric(x, f+"-x")
		if x > 2 {
			b.Errorf("diff --format %s takes %.1f times as long as --format json (%v, %v), want at most 2", f, x, best[i+1], best[0])
		}
	}
}
