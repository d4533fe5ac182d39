package ref

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// layeringDoc is the document whose table says which package may import
// which, relative to the module root.
const layeringDoc = "docs/architecture.md"

// layering reads the table under "Packages and what each may know" of
// layeringDoc: for each module-relative package path, the module-relative
// paths it may import.
func layering(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(moduleRoot, filepath.FromSlash(layeringDoc)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	code := regexp.MustCompile("`([^`]+)`")
	paths := func(cell string) []string {
		var out []string
		for _, m := range code.FindAllStringSubmatch(cell, -1) {
			out = append(out, m[1])
		}
		return out
	}
	allowed := map[string][]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Packages and what each may know"
			continue
		case !in || !strings.HasPrefix(line, "| `"):
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) != 5 {
			t.Fatalf("%s: a row of the layering table has %d cells, want 3: %s", layeringDoc, len(cells)-2, line)
		}
		for _, p := range paths(cells[1]) {
			if _, dup := allowed[p]; dup {
				t.Errorf("%s: %s has two rows", layeringDoc, p)
			}
			allowed[p] = paths(cells[3])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(allowed) == 0 {
		t.Fatalf("%s has no layering table", layeringDoc)
	}
	return allowed
}

// TestLayering holds every package of the module to the imports the
// layering table of docs/architecture.md allows it, and the table to the
// packages that exist.
func TestLayering(t *testing.T) {
	allowed := layering(t)
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = moduleRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/r35157/journal-lint"
	seen := map[string]bool{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		seen[pkg] = true
		may, listed := allowed[pkg]
		if !listed {
			t.Errorf("%s has no row in the layering table of %s", pkg, layeringDoc)
			continue
		}
		for _, imp := range fields[1:] {
			rel, ours := strings.CutPrefix(imp, module+"/")
			if ours && !slices.Contains(may, rel) {
				t.Errorf("%s imports %s, which the layering table of %s does not allow", pkg, rel, layeringDoc)
			}
		}
	}
	for pkg := range allowed {
		if !seen[pkg] {
			t.Errorf("the layering table of %s names %s, which is no package of the module", layeringDoc, pkg)
		}
	}
}
