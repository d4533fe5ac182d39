package longtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestMakefileListsLongTests: make test runs the long tests whole in a
// second pass without the race detector, by the names in LONG_TESTS and
// the packages in LONG_PKGS of the Makefile; those are exactly the tests
// of the module that call this package, and their packages.
func TestMakefileListsLongTests(t *testing.T) {
	root := moduleRoot(t)
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	names := makeVar(t, mk, "LONG_TESTS")
	pkgs := makeVar(t, mk, "LONG_PKGS")
	found := longTests(t, root)
	if len(found) == 0 {
		t.Fatal("no test calls package longtest")
	}
	seen := map[string]bool{}
	for _, lt := range found {
		seen[lt.name] = true
		if !slices.Contains(names, lt.name) {
			t.Errorf("%s (%s) calls package longtest but LONG_TESTS does not name it", lt.name, lt.pkg)
		}
		if !slices.Contains(pkgs, lt.pkg) {
			t.Errorf("LONG_PKGS lacks %s, the package of %s", lt.pkg, lt.name)
		}
	}
	for _, n := range names {
		if !seen[n] {
			t.Errorf("LONG_TESTS names %s, which is no test that calls package longtest", n)
		}
	}
	for _, p := range pkgs {
		if !slices.ContainsFunc(found, func(lt longTest) bool { return lt.pkg == p }) {
			t.Errorf("LONG_PKGS names %s, which holds no long test", p)
		}
	}
}

// longTest is a test function that calls package longtest, and its package
// as a relative pattern ("./internal/check").
type longTest struct{ pkg, name string }

// longTests returns the Test functions of the module's test files that
// call package longtest, themselves or through functions of their
// package's test files.
func longTests(t *testing.T, root string) []longTest {
	funcs := map[string]map[string]*ast.FuncDecl{} // by package, by name
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := "./" + filepath.ToSlash(rel)
		if funcs[pkg] == nil {
			funcs[pkg] = map[string]*ast.FuncDecl{}
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil {
				funcs[pkg][fn.Name.Name] = fn
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []longTest
	for pkg, byName := range funcs {
		for name, fn := range byName {
			if strings.HasPrefix(name, "Test") && callsLongtest(fn, byName, map[string]bool{}) {
				out = append(out, longTest{pkg: pkg, name: name})
			}
		}
	}
	return out
}

// callsLongtest reports whether fn refers to package longtest, itself or
// through the functions of byName it calls (seen guards against cycles).
func callsLongtest(fn *ast.FuncDecl, byName map[string]*ast.FuncDecl, seen map[string]bool) bool {
	seen[fn.Name.Name] = true
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && id.Name == "longtest" {
				found = true
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && byName[id.Name] != nil && !seen[id.Name] {
				found = callsLongtest(byName[id.Name], byName, seen)
			}
		}
		return !found
	})
	return found
}

// makeVar returns the words of the Makefile variable name (NAME := words,
// continued over lines with a backslash).
func makeVar(t *testing.T, mk []byte, name string) []string {
	t.Helper()
	text := strings.ReplaceAll(string(mk), "\\\n", " ")
	m := regexp.MustCompile(`(?m)^` + name + `\s*:?=(.*)$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the Makefile has no %s", name)
	}
	return strings.Fields(m[1])
}

// moduleRoot returns the directory of go.mod above the working directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}
