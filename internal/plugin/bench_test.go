package plugin_test

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/plugin/packtest"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
	"github.com/r35157/journal-lint/plugins/sdk"
)

// BenchmarkCheckWithPacks is the rule packs' budget (docs/performance.md):
// what a pack adds to `journal-lint check --format json --cache off` of a
// generated tree of 10,000 files (journal-gen -files 10000 -seed 2),
// measured against the same check without packs, as a user runs it: the
// built journal-lint, each configuration in turn, in rounds that rotate
// which runs first. It reports the medians, as percent over the check
// without packs, of the wall time and (on Unix) of the CPU time of
// journal-lint and its packs:
//
//   - nothing-*-%: the test pack in its echo mode, configured to report
//     nothing; it declares no needs, so it gets every part of every
//     document (the protocol's whole cost);
//   - chain-only-*-%: the same pack declaring that it reads only the
//     chain context (its needless mode), the least a pack can ask for
//     (what any pack costs);
//   - example-*-%: the example pack, which reports 22,499 findings.
//
// Then the same with the persistent cache warm and one document changed
// (chain-only-warm-*-% and example-warm-*-%, against none-warm-wall-s):
// before each run the cache is put back as a check of the unchanged tree
// left it, with that configuration, but for the kept copies of the packs
// (packs/), which stay as the runs before left them, as in a user's cache;
// and the head of the first artifact gets another DESCRIPTION, so that the
// run checks one document and takes the others from the cache (both packs
// declare their rules pure).
//
// journal-lint is built from this checkout with go build; the packs are
// this test binary under their names (packtest.Main). JOURNAL_BENCH_ROUNDS
// sets the rounds per iteration (default 5).
func BenchmarkCheckWithPacks(b *testing.B) {
	dir := b.TempDir()
	root := filepath.Join(dir, "journals")
	if _, err := gen.Write(root, gen.Options{Files: 10_000, Seed: 2}); err != nil {
		b.Fatal(err)
	}
	write := func(name, plugins string) string {
		p := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(p, []byte("root: "+root+"\n"+plugins), 0o644); err != nil {
			b.Fatal(err)
		}
		return p
	}
	jl := buildJournalLint(b)
	entry := func(path, config string) string {
		sum, err := plugin.Checksum(path)
		if err != nil {
			b.Fatal(err)
		}
		return fmt.Sprintf("plugins:\n  - path: %s\n    sha256: %s\n    config:\n%s", path, sum, config)
	}
	configs := []struct{ name, file string }{
		{"none", write("none", "")},
		{"nothing", write("nothing", entry(packtest.Path(b, "echo"), "      count: 0\n"))},
		{"chain-only", write("chain-only", entry(packtest.Path(b, "needless"), "      count: 0\n"))},
		{"example", write("example", entry(packtest.Path(b, "license-policy"), "      denied: [GPL-3.0-only, AGPL-3.0-only]\n      allowed: [MIT, Apache-2.0, BSD-3-Clause]\n"))},
	}
	rounds := 5
	if s := os.Getenv("JOURNAL_BENCH_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("JOURNAL_BENCH_ROUNDS=%q is not a positive number", s)
		}
		rounds = n
	}
	warm := []struct{ name, file, snapshot string }{{name: "none", file: configs[0].file}, {name: "chain-only", file: configs[2].file}, {name: "example", file: configs[3].file}}
	changed, original := changedDocument(b, root)
	for i := range warm {
		// The cache as a check of the unchanged tree leaves it.
		warm[i].snapshot = filepath.Join(dir, "cache-"+warm[i].name)
		timeCheck(b, jl, warm[i].file, warm[i].snapshot)
	}
	cache := filepath.Join(dir, "cache")
	wall := make([][]float64, len(configs))
	cpu := make([][]float64, len(configs))
	warmWall := make([][]float64, len(warm))
	warmCPU := make([][]float64, len(warm))
	for b.Loop() {
		for r := range rounds {
			for k := range configs {
				i := (r + k) % len(configs)
				w, c := timeCheck(b, jl, configs[i].file, "")
				wall[i], cpu[i] = append(wall[i], w), append(cpu[i], c)
			}
		}
		for r := range rounds {
			for k := range warm {
				i := (r + k) % len(warm)
				restoreCache(b, cache, warm[i].snapshot)
				text := strings.Replace(string(original), `DESCRIPTION "`, fmt.Sprintf(`DESCRIPTION "round %d: `, r), 1)
				if err := os.WriteFile(changed, []byte(text), 0o644); err != nil {
					b.Fatal(err)
				}
				w, c := timeCheck(b, jl, warm[i].file, cache)
				warmWall[i], warmCPU[i] = append(warmWall[i], w), append(warmCPU[i], c)
			}
		}
		if err := os.WriteFile(changed, original, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	base, baseCPU := median(wall[0]), median(cpu[0])
	b.ReportMetric(base, "none-wall-s")
	for i, c := range configs[1:] {
		b.ReportMetric(100*(median(wall[i+1])/base-1), c.name+"-wall-%")
		if cpuKnown {
			b.ReportMetric(100*(median(cpu[i+1])/baseCPU-1), c.name+"-cpu-%")
		}
	}
	base, baseCPU = median(warmWall[0]), median(warmCPU[0])
	b.ReportMetric(base, "none-warm-wall-s")
	for i, c := range warm[1:] {
		b.ReportMetric(100*(median(warmWall[i+1])/base-1), c.name+"-warm-wall-%")
		if cpuKnown {
			b.ReportMetric(100*(median(warmCPU[i+1])/baseCPU-1), c.name+"-warm-cpu-%")
		}
	}
}

// restoreCache makes the cache directory cache what the directory
// snapshot holds, but for the kept copies of rule packs (memo.PacksDir),
// which stay as they are: a copy's record holds its inode and change
// time, which a copy of the snapshot would not keep.
func restoreCache(b *testing.B, cache, snapshot string) {
	b.Helper()
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		p := filepath.Join(cache, e.Name())
		if p == memo.PacksDir(cache) {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			b.Fatal(err)
		}
	}
	err := filepath.WalkDir(snapshot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(snapshot, p)
		dst := filepath.Join(cache, rel)
		switch {
		case p == memo.PacksDir(snapshot):
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
}

// changedDocument returns the path and text of the head of the first
// artifact under root that has a DESCRIPTION: a document that a changed
// DESCRIPTION leaves a valid head.
func changedDocument(b *testing.B, root string) (string, []byte) {
	b.Helper()
	dirs, err := os.ReadDir(root)
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range dirs {
		files, err := filepath.Glob(filepath.Join(root, d.Name(), "*.journal"))
		if err != nil || len(files) == 0 {
			continue
		}
		head := files[len(files)-1] // the newest Journal version: names sort by it
		text, err := os.ReadFile(head)
		if err != nil {
			b.Fatal(err)
		}
		if strings.Contains(string(text), "\nDESCRIPTION \"") {
			return head, text
		}
	}
	b.Fatal("no head with a DESCRIPTION")
	return "", nil
}

// buildJournalLint builds journal-lint into a temporary directory, as a
// user runs it, and returns its path.
func buildJournalLint(b *testing.B) string {
	b.Helper()
	exe := filepath.Join(b.TempDir(), "journal-lint")
	if out, err := exec.Command("go", "build", "-o", exe, "../../cmd/journal-lint").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// timeCheck runs the journal-lint at jl with the configuration file cfg,
// without a cache when cache is "", else with the cache directory cache,
// and returns its wall time and the CPU time of journal-lint and its
// packs (0 where cpuKnown is false), in seconds.
func timeCheck(b *testing.B, jl, cfg, cache string) (wall, cpu float64) {
	b.Helper()
	before := childrenCPU(b)
	cmd := exec.Command(jl, "check", "--format", "json", "--config", cfg)
	cmd.Env = append(os.Environ(), memo.EnvDir+"=off")
	if cache != "" {
		cmd.Env = append(os.Environ(), memo.EnvDir+"="+cache)
	}
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall = time.Since(start).Seconds()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		b.Fatalf("journal-lint check --config %s: %v", cfg, err)
	}
	cpu = childrenCPU(b) - before
	return wall, cpu
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// BenchmarkPackFlood is the bound on what a pack that reports one finding
// per line costs the host (issue 26: 2,000,004 findings kept on a 4 MB
// file, 2.1 GB): a pack served in-process reports 500,000 findings on one
// document, and the host keeps the first diag.MaxPerFileCode and one that
// counts the rest, as for built-in rules. It reports the heap the result
// holds after a garbage collection as kept-MB and fails above 16 MB
// (before the cap: 99 MB).
func BenchmarkPackFlood(b *testing.B) {
	const findings = 500_000
	flood := sdk.Pack{Name: "flood", Version: "1.0.0", Rules: []sdk.Rule{{
		Name: "line", Severity: sdk.Warning, Summary: "one finding per line",
		Check: func(p *sdk.Pass) {
			for range findings {
				p.Reportf(p.Doc.Range(0, 1), "line")
			}
		},
	}}}
	h, err := sdk.Handler(flood)
	if err != nil {
		b.Fatal(err)
	}
	client, stop, err := wire.Pipe(h)
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	ps, err := plugin.Connected(context.Background(), []*wire.Client{client}, []string{""}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ps.Close()
	root := tree(b, widgetTree)
	var kept float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ds := checkTree(b, ps, root)
		runtime.GC()
		runtime.ReadMemStats(&after)
		if len(ds) != diag.MaxPerFileCode+1 {
			b.Fatalf("%d diagnostics kept, want %d", len(ds), diag.MaxPerFileCode+1)
		}
		kept = max(kept, (float64(after.HeapAlloc)-float64(before.HeapAlloc))/(1<<20))
		runtime.KeepAlive(ds)
	}
	b.ReportMetric(kept, "kept-MB")
	if kept > 16 {
		b.Fatalf("the result holds %.1f MB, want at most 16", kept)
	}
}
