package ref

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/journal"
)

// moduleRoot is the module's root directory, relative to this package.
const moduleRoot = "../../.."

// publicPackages are the module's public library packages, relative to the
// module root.
var publicPackages = []string{"journal", "journal/model", "journal/valuetypes", "journal/journalerr", "journal/impl/ref"}

// exported parses the non-test Go files of dir and returns its exported
// top-level declarations by name.
func exported(t *testing.T, dir string) (map[string]ast.Node, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]ast.Node{}
	var files []*ast.File
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && d.Recv == nil {
					out[d.Name.Name] = d
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							out[s.Name.Name] = s
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								out[n.Name] = s
							}
						}
					}
				}
			}
		}
	}
	return out, files
}

func TestPublicPackageContents(t *testing.T) {
	t.Parallel()
	names, _ := exported(t, filepath.Join(moduleRoot, "journal"))
	got := slices.Sorted(func(yield func(string) bool) {
		for n := range names {
			if !yield(n) {
				return
			}
		}
	})
	if want := []string{"Service", "ServiceManager"}; !slices.Equal(got, want) {
		t.Errorf("package journal exports %v, want exactly %v", got, want)
	}
	for _, n := range got {
		if ts, ok := names[n].(*ast.TypeSpec); !ok || !isInterface(ts) {
			t.Errorf("journal.%s is not an interface", n)
		}
	}
	for _, p := range publicPackages[1:] {
		if _, err := os.Stat(filepath.Join(moduleRoot, p)); err != nil {
			t.Errorf("public subpackage %s: %v", p, err)
		}
	}
}

func isInterface(ts *ast.TypeSpec) bool { _, ok := ts.Type.(*ast.InterfaceType); return ok }

// TestReferenceImplementationBoundary checks that no exported declaration of
// a public package mentions an internal package, and that journal/impl/ref
// exports only its constructor and options.
func TestReferenceImplementationBoundary(t *testing.T) {
	t.Parallel()
	for _, p := range publicPackages {
		names, files := exported(t, filepath.Join(moduleRoot, p))
		internalNames := map[string]bool{}
		for _, f := range files {
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				if strings.Contains(path, "/internal/") {
					name := path[strings.LastIndex(path, "/")+1:]
					if im.Name != nil {
						name = im.Name.Name
					}
					internalNames[name] = true
				}
			}
		}
		check := func(what string, n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && internalNames[id.Name] {
						t.Errorf("%s: exported %s mentions internal type %s.%s", p, what, id.Name, sel.Sel.Name)
					}
				}
				return true
			})
		}
		for name, n := range names {
			switch n := n.(type) {
			case *ast.FuncDecl:
				check(name, n.Type)
			case *ast.TypeSpec:
				check(name, exportedShape(n))
			case *ast.ValueSpec:
				if n.Type != nil {
					check(name, n.Type)
				}
			}
		}
		for _, f := range files { // exported methods of exported types
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.IsExported() {
					check(fd.Name.Name, fd.Type)
				}
			}
		}
		if p == "journal/impl/ref" {
			for name := range names {
				if name != "NewServiceManager" && name != "Option" && !strings.HasPrefix(name, "With") {
					t.Errorf("journal/impl/ref exports %s; it may export only the constructor and options", name)
				}
			}
		}
	}
}

// exportedShape returns the parts of a type declaration that outsiders see:
// an interface's methods or a struct's exported fields.
func exportedShape(ts *ast.TypeSpec) ast.Node {
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return ts.Type
	}
	fl := &ast.FieldList{}
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.IsExported() {
				fl.List = append(fl.List, f)
				break
			}
		}
	}
	return fl
}

// TestSupersededAPIRemoved checks that no superseded name, deprecated alias
// or forwarding wrapper remains in the public packages.
func TestSupersededAPIRemoved(t *testing.T) {
	t.Parallel()
	for _, p := range publicPackages {
		names, files := exported(t, filepath.Join(moduleRoot, p))
		for _, bad := range []string{"JournalManager", "Manager", "JournalService", "JournalServiceManager"} {
			if _, ok := names[bad]; ok {
				t.Errorf("%s exports superseded name %s", p, bad)
			}
		}
		for _, f := range files {
			for _, cg := range f.Comments {
				if strings.Contains(cg.Text(), "Deprecated:") {
					t.Errorf("%s has a deprecated identifier: %q", p, strings.TrimSpace(cg.Text()))
				}
			}
		}
	}
	if _, err := os.Stat(filepath.Join(moduleRoot, "journalmanager")); err == nil {
		t.Error("a superseded journalmanager package remains")
	}
}

// methodNames lists the methods of interface type T.
func methodNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumMethod() {
		out = append(out, t.Method(i).Name)
	}
	return out
}

func TestReadOnlyBoundary(t *testing.T) {
	t.Parallel()
	svc := reflect.TypeFor[journal.Service]()
	for _, m := range methodNames(svc) {
		for _, bad := range []string{"Start", "Stop", "Root", "Refresh", "Parse", "Update", "Ingest", "Add", "Put", "Set", "Delete", "Load", "Path", "Config"} {
			if strings.HasPrefix(m, bad) {
				t.Errorf("journal.Service has a %s operation: %s", bad, m)
			}
		}
	}
	want := []string{"AsOf", "Coordinates", "Latest", "Release", "Revision", "Revisions"}
	if got := methodNames(svc); !slices.Equal(got, want) {
		t.Errorf("journal.Service methods = %v, want %v", got, want)
	}
}

func TestAdministrativeAPIDoesNotDuplicateQueries(t *testing.T) {
	t.Parallel()
	mgr := reflect.TypeFor[journal.ServiceManager]()
	queries := methodNames(reflect.TypeFor[journal.Service]())
	for _, m := range methodNames(mgr) {
		if slices.Contains(queries, m) {
			t.Errorf("journal.ServiceManager duplicates the query %s", m)
		}
	}
	want := []string{"Refresh", "Root", "Service", "Start", "Stop"}
	if got := methodNames(mgr); !slices.Equal(got, want) {
		t.Errorf("journal.ServiceManager methods = %v, want %v", got, want)
	}
}
