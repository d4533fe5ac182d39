package gen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/r35157/journal-lint/rules"
)

// Fault describes one fault that [Inject] put into a tree.
type Fault struct {
	// Code is the validity code ("Diagnostic codes" in docs/journal-format.md)
	// that checking the tree must report as an error.
	Code string
	// Path is the root-relative path of the entry the fault is in, with
	// forward slashes; empty for the root itself.
	Path string
	// Examples is true when the fault shows only when *.journal.example
	// files are loaded as Journals too (journal-lint check --examples).
	Examples bool
	// Note says what was done, for test failure messages.
	Note string
	// Cleanup, when not nil, undoes what would stop the tree from being
	// removed (permissions taken away). Call it when done with the tree.
	Cleanup func() error
}

// ErrNotExpressible is returned by [Inject] for a code that cannot be
// expressed in this tree or under this user (for example an unreadable file
// when running as root, who reads everything).
var ErrNotExpressible = errors.New("gen: fault not expressible here")

// fault injects one fault into t and describes it.
type fault func(t *tree, r *rand.Rand) (Fault, error)

// faults maps every validity code in "Diagnostic codes" in
// docs/journal-format.md (and syntax/empty, which this project adds) to its
// injector.
var faults = map[string]fault{
	rules.FSRootMissing:       rootMissing,
	rules.FSRootNotDirectory:  rootNotDirectory,
	rules.FSRootUnreadable:    rootUnreadable,
	rules.FSUnexpectedEntry:   unexpectedEntry,
	rules.FSBadFilename:       badFilename,
	rules.FSFilenameMismatch:  filenameMismatch,
	rules.FSDirectoryMismatch: directoryMismatch,
	rules.FSUnreadableFile:    unreadableFile,
	rules.FSTooLarge:          tooLarge,
	rules.SyntaxEncoding:      encoding,
	rules.SyntaxLineEnding:    lineEnding,
	rules.SyntaxUnknownDirective: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.edit(r, rules.SyntaxUnknownDirective, func(f *jfile) string {
			if i := f.release(r); i >= 0 && r.IntN(2) == 0 {
				f.insert(i+1, "VENDOR acme-internal")
				return "VENDOR directive in a release"
			}
			f.insert(f.find("DESCRIPTION", 0, f.headerEnd())+1, "Info https://example.org/")
			return "lowercase keyword Info in the header"
		})
	},
	rules.SyntaxMisplacedDirective: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.edit(r, rules.SyntaxMisplacedDirective, func(f *jfile) string {
			switch r.IntN(3) {
			case 0:
				f.insert(f.headerEnd(), "LICENSE MIT")
				return "LICENSE before any RELEASE"
			case 1:
				a, v := f.find("ARTIFACT", 0, f.headerEnd()), f.find("JOURNAL_VERSION", 0, f.headerEnd())
				f.lines[a], f.lines[v] = f.lines[v], f.lines[a]
				return "ARTIFACT and JOURNAL_VERSION swapped"
			}
			f.insert(len(f.lines), "INFO https://late.example.org/")
			return "INFO after a RELEASE"
		})
	},
	rules.SyntaxDuplicateDirective: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.edit(r, rules.SyntaxDuplicateDirective, func(f *jfile) string {
			kw := []string{"DESCRIPTION", "ARTIFACT", "JOURNAL_FORMAT"}[r.IntN(3)]
			i := f.find(kw, 0, f.headerEnd())
			f.insert(i+1, strings.TrimRight(f.lines[i], "\r\n"))
			return kw + " twice in the header"
		})
	},
	rules.SyntaxMissingDirective: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.edit(r, rules.SyntaxMissingDirective, func(f *jfile) string {
			kw := []string{"DESCRIPTION", "ARTIFACT", "JOURNAL_VERSION"}[r.IntN(3)]
			f.remove(f.find(kw, 0, f.headerEnd()))
			return "header without " + kw
		})
	},
	rules.SyntaxArguments: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.edit(r, rules.SyntaxArguments, func(f *jfile) string {
			switch r.IntN(3) {
			case 0:
				i := f.find("DESCRIPTION", 0, f.headerEnd())
				f.set(i, "DESCRIPTION unquoted words")
				return "DESCRIPTION without quotes"
			case 1:
				i := f.find("DESCRIPTION", 0, f.headerEnd())
				f.set(i, `DESCRIPTION "bad \q escape"`)
				return "bad escape in a quoted string"
			}
			if i := f.release(r); i >= 0 {
				f.insert(i+1, "CONTENT lonely-name.tar.gz")
				return "CONTENT without a digest"
			}
			f.set(f.find("JOURNAL_FORMAT", 0, f.headerEnd()), "JOURNAL_FORMAT")
			return "JOURNAL_FORMAT without its argument"
		})
	},
	rules.ValueCoordinate: inRelease(rules.ValueCoordinate, "EXCLUDES Not_A.Coordinate", "DEPENDS nodots 1.0.0"),
	rules.ValueTimestamp: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.editRelease(r, rules.ValueTimestamp, func(f *jfile, i int) string {
			f.removeIn(i, "PUBLISHED")
			f.insert(i+1, "PUBLISHED "+[]string{"20251301T000000Z", "2025-01-01T00:00:00Z", "20250230T120000Z", "20250101T236000Z"}[r.IntN(4)])
			return "bad PUBLISHED"
		})
	},
	rules.ValueDigest: inRelease(rules.ValueDigest,
		"CONTENT upper.tar.gz sha256:ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789",
		"CONTENT short.tar.gz sha256:abcdef",
		"CONTENT md5.tar.gz md5:0123456789abcdef0123456789abcdef"),
	rules.ValueVersion: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.editRelease(r, rules.ValueVersion, func(f *jfile, i int) string {
			v := []string{"1.0", "v1.2.3", "01.2.3", "1.2.3+build.5"}[r.IntN(4)]
			f.set(i, "RELEASE "+v)
			return "RELEASE " + v
		})
	},
	rules.ValueConstraint: inRelease(rules.ValueConstraint,
		"DEPENDS org.fault.target [2.0.0,1.0.0)",
		"DEPENDS org.fault.target [1.0.0,2.0.0),[1.5.0,3.0.0)",
		"DEPENDS org.fault.target [1.0.0,2.0.0),[2.0.0,3.0.0)",
		"DEPENDS org.fault.target (,)"),
	rules.ValueLicense: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.editRelease(r, rules.ValueLicense, func(f *jfile, i int) string {
			l := []string{"Not-A-Real-License-1.0", "MIT AND", "(MIT OR Apache-2.0"}[r.IntN(3)]
			f.set(f.find("LICENSE", i, f.blockEnd(i)), "LICENSE "+l)
			return "LICENSE " + l
		})
	},
	rules.ValueURI: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.edit(r, rules.ValueURI, func(f *jfile) string {
			u := []string{"relative/path", "//example.org/no-scheme", "1http://example.org/"}[r.IntN(3)]
			if i := f.find("INFO", 0, f.headerEnd()); i >= 0 {
				f.set(i, "INFO "+u)
			} else {
				f.insert(f.find("DESCRIPTION", 0, f.headerEnd())+1, "INFO "+u)
			}
			return "INFO " + u
		})
	},
	rules.ValueName: inRelease(rules.ValueName,
		"CONTENT dir/file.tar.gz sha256:1111111111111111111111111111111111111111111111111111111111111111",
		"CONTENT .. sha256:1111111111111111111111111111111111111111111111111111111111111111",
		"CONTENT spaced~name sha256:1111111111111111111111111111111111111111111111111111111111111111"),
	rules.ValueVerdict: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.editRelease(r, rules.ValueVerdict, func(f *jfile, i int) string {
			f.removeIn(i, "POLICY")
			f.insert(i+1, `POLICY maybe "undecided"`)
			return "POLICY maybe"
		})
	},
	rules.ValueFormat: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.edit(r, rules.ValueFormat, func(f *jfile) string {
			v := []string{"2", "1.0", "01"}[r.IntN(3)]
			f.set(f.find("JOURNAL_FORMAT", 0, f.headerEnd()), "JOURNAL_FORMAT "+v)
			return "JOURNAL_FORMAT " + v
		})
	},
	rules.SemanticDuplicateRelease: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.editRelease(r, rules.SemanticDuplicateRelease, func(f *jfile, i int) string {
			block := slices.Clone(f.lines[i:f.blockEnd(i)])
			if last := f.lines[len(f.lines)-1]; !strings.HasSuffix(last, "\n") {
				f.lines[len(f.lines)-1] = last + f.nl
			}
			if last := block[len(block)-1]; !strings.HasSuffix(last, "\n") {
				block[len(block)-1] = last + f.nl
			}
			f.lines = append(f.lines, block...)
			return "a release block repeated at the end"
		})
	},
	rules.SemanticDuplicateContent: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.editRelease(r, rules.SemanticDuplicateContent, func(f *jfile, i int) string {
			c := f.find("CONTENT", i, f.blockEnd(i))
			f.insert(c+1, strings.TrimRight(f.lines[c], "\r\n"))
			return "a CONTENT line repeated"
		})
	},
	rules.SemanticDuplicateReference: inRelease(rules.SemanticDuplicateReference,
		"EXCLUDES org.fault.twice\nEXCLUDES org.fault.twice \"again\"",
		"DEPENDS org.fault.twice 1.0.0\nDEPENDS org.fault.twice [1.0.0,2.0.0)",
		"PREFERS org.fault.twice 1.0.0\nPREFERS org.fault.twice 1.0.1"),
	rules.SemanticSelfReference: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.editRelease(r, rules.SemanticSelfReference, func(f *jfile, i int) string {
			line := []string{"EXCLUDES ", "DEPENDS ", "PREFERS "}[r.IntN(3)] + f.artifact
			if !strings.HasPrefix(line, "EXCLUDES") {
				line += " 1.0.0"
			}
			f.removeRefs(i, f.artifact)
			f.insert(i+1, line)
			return line
		})
	},
	rules.SemanticReferenceConflict: inRelease(rules.SemanticReferenceConflict,
		"DEPENDS org.fault.both 1.0.0\nEXCLUDES org.fault.both",
		"EXCLUDES org.fault.both\nPREFERS org.fault.both 1.0.0"),
	rules.SemanticPreferenceUnsatisfied: inRelease(rules.SemanticPreferenceUnsatisfied,
		"DEPENDS org.fault.pref [1.0.0,2.0.0)\nPREFERS org.fault.pref 3.0.0",
		"DEPENDS org.fault.pref 1.0.0\nPREFERS org.fault.pref 1.0.1"),
	rules.SemanticPublishedAfterVersion: func(t *tree, r *rand.Rand) (Fault, error) {
		return t.editRelease(r, rules.SemanticPublishedAfterVersion, func(f *jfile, i int) string {
			at := "99991231T235959Z"
			if v, err := time.Parse(timeLayout, f.stem); err == nil && r.IntN(2) == 0 {
				at = Stamp(v.Add(time.Duration(1+r.IntN(86400)) * time.Second))
			}
			f.removeIn(i, "PUBLISHED")
			f.insert(i+1, "PUBLISHED "+at)
			return "PUBLISHED " + at + " after JOURNAL_VERSION " + f.stem
		})
	},
	rules.ChainDuplicateGenesis: func(t *tree, r *rand.Rand) (Fault, error) {
		a := t.artifacts[r.IntN(len(t.artifacts))]
		f := t.successor(r, a)
		f.remove(f.find("PREDECESSOR", 0, f.headerEnd()))
		return t.add(f, rules.ChainDuplicateGenesis, "a second genesis after the head")
	},
	rules.ChainMissingPredecessor: func(t *tree, r *rand.Rand) (Fault, error) {
		a := t.artifacts[r.IntN(len(t.artifacts))]
		d := hexOf("missing", fmt.Sprint(r.Uint64()))
		if len(a.files) > 1 && r.IntN(2) == 0 {
			f := a.files[len(a.files)-1]
			f.set(f.find("PREDECESSOR", 0, f.headerEnd()), "PREDECESSOR "+d)
			return t.save(f, rules.ChainMissingPredecessor, "the head names an unknown digest")
		}
		f := t.successor(r, a)
		f.setPredecessor(d)
		return t.add(f, rules.ChainMissingPredecessor, "a new head names an unknown digest")
	},
	rules.ChainCrossArtifact: func(t *tree, r *rand.Rand) (Fault, error) {
		if len(t.artifacts) < 2 {
			return Fault{}, fmt.Errorf("%w: chain/cross-artifact needs two artifacts", ErrNotExpressible)
		}
		i := r.IntN(len(t.artifacts))
		j := (i + 1 + r.IntN(len(t.artifacts)-1)) % len(t.artifacts)
		a, b := t.artifacts[i], t.artifacts[j]
		other := b.files[r.IntN(len(b.files))]
		f := t.successor(r, a)
		f.setPredecessor(Digest(other.data))
		return t.add(f, rules.ChainCrossArtifact, "PREDECESSOR names "+other.rel)
	},
	rules.ChainFork: func(t *tree, r *rand.Rand) (Fault, error) {
		var cands []*dir
		for _, a := range t.artifacts {
			if len(a.files) > 1 {
				cands = append(cands, a)
			}
		}
		if len(cands) == 0 {
			return Fault{}, fmt.Errorf("%w: chain/fork needs a chain of two revisions", ErrNotExpressible)
		}
		a := cands[r.IntN(len(cands))]
		old := a.files[r.IntN(len(a.files)-1)]
		f := t.successor(r, a)
		f.setPredecessor(Digest(old.data))
		return t.add(f, rules.ChainFork, "a new revision names "+old.rel+", not the head")
	},
	rules.ChainNonIncreasingVersion: func(*tree, *rand.Rand) (Fault, error) {
		// Files load in file-name order and a file name must equal its
		// JOURNAL_VERSION, so within one load a successor is never earlier
		// than the head; an equal one is a conflict. This code arises only
		// against an earlier accepted state (refresh) or in ingestion.
		return Fault{}, fmt.Errorf("%w: chain/non-increasing-version cannot occur in a single load of a tree", ErrNotExpressible)
	},
	rules.ChainConflict: func(t *tree, r *rand.Rand) (Fault, error) {
		a := t.artifacts[r.IntN(len(t.artifacts))]
		f := a.files[r.IntN(len(a.files))]
		ex := f.clone()
		ex.rel += ".example"
		ex.abs += ".example"
		ex.insert(0, "# an example copy that differs from the runtime revision")
		fl, err := t.add(ex, rules.ChainConflict, "an example with the same version and different text")
		fl.Examples = true
		return fl, err
	},
	rules.SyntaxEmpty: func(t *tree, r *rand.Rand) (Fault, error) {
		a := t.artifacts[r.IntN(len(t.artifacts))]
		f := t.successor(r, a)
		f.lines = []string{[]string{"", "\n", "  \n\t\n", "   "}[r.IntN(4)]}
		return t.add(f, rules.SyntaxEmpty, "an empty or blank file")
	},
}

// Codes returns every code [Inject] knows, sorted. Some of them may still
// be [ErrNotExpressible] in a given tree or for a given user.
func Codes() []string {
	out := make([]string, 0, len(faults))
	for c := range faults {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// Inject puts one fault of the validity code into the valid tree under
// root, choosing where and how from seed, and returns what it did. The tree
// should have been written by [Write] (any valid tree with at least one
// release per file works for most codes). It returns an error wrapping
// [ErrNotExpressible] when the code cannot be expressed here.
func Inject(root, code string, seed uint64) (Fault, error) {
	fn, ok := faults[code]
	if !ok {
		return Fault{}, fmt.Errorf("gen: unknown fault code %q (known: %s)", code, strings.Join(Codes(), ", "))
	}
	t, err := readTree(root)
	if err != nil {
		return Fault{}, err
	}
	if r, _ := rules.Lookup(code); len(t.artifacts) == 0 && r.Scope != rules.ScopeRoot {
		return Fault{}, fmt.Errorf("%w: the tree has no Journal files", ErrNotExpressible)
	}
	r := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	return fn(t, r)
}

// Mutate makes one to three random byte-level changes (flips, insertions,
// deletions, duplicated or swapped lines) to one Journal file of the tree
// under root, chosen from seed, and returns its root-relative path. The
// result may or may not be valid.
func Mutate(root string, seed uint64) (string, error) {
	t, err := listTree(root) // only the chosen file is read
	if err != nil {
		return "", err
	}
	if len(t.artifacts) == 0 {
		return "", fmt.Errorf("%w: the tree has no Journal files", ErrNotExpressible)
	}
	r := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
	a := t.artifacts[r.IntN(len(t.artifacts))]
	f := a.files[r.IntN(len(a.files))]
	if err := f.read(); err != nil {
		return "", err
	}
	b := []byte(strings.Join(f.lines, ""))
	noise := []byte("\n\r\" \t#\x00\xff\xc3\xa9\\,()[]:-.0123456789abcXYZ\u202e")
	for range 1 + r.IntN(3) {
		if len(b) == 0 {
			b = append(b, noise[r.IntN(len(noise))])
			continue
		}
		p := r.IntN(len(b))
		switch r.IntN(6) {
		case 0: // replace a byte
			b[p] = noise[r.IntN(len(noise))]
		case 1: // flip one bit
			b[p] ^= 1 << r.IntN(8)
		case 2: // insert a few bytes
			ins := make([]byte, 1+r.IntN(4))
			for k := range ins {
				ins[k] = noise[r.IntN(len(noise))]
			}
			b = slices.Insert(b, p, ins...)
		case 3: // delete a few bytes
			b = slices.Delete(b, p, min(len(b), p+1+r.IntN(8)))
		case 4, 5: // duplicate or swap whole lines
			ls := strings.SplitAfter(string(b), "\n")
			i, j := r.IntN(len(ls)), r.IntN(len(ls))
			if r.IntN(2) == 0 {
				ls = slices.Insert(ls, j, ls[i])
			} else {
				ls[i], ls[j] = ls[j], ls[i]
			}
			b = []byte(strings.Join(ls, ""))
		}
	}
	return f.rel, os.WriteFile(f.abs, b, 0o644)
}

// tree is a Journal tree read back from disk.
type tree struct {
	root      string
	artifacts []*dir
}

// dir is one artifact directory with its runtime Journal files in
// chronological order.
type dir struct {
	name  string
	files []*jfile
}

// jfile is a Journal file as lines that keep their terminators.
type jfile struct {
	rel, abs, stem string
	artifact       string
	nl             string // "\n" or "\r\n"
	data           []byte
	lines          []string
}

// readTree reads the tree under root: its artifact directories, each with
// its Journal files and their text.
func readTree(root string) (*tree, error) {
	t, err := listTree(root)
	if err != nil {
		return nil, err
	}
	for _, d := range t.artifacts {
		for _, f := range d.files {
			if err := f.read(); err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

// listTree lists the tree under root as readTree does, without reading
// the files (their text is empty until [jfile.read]).
func listTree(root string) (*tree, error) {
	t := &tree{root: root}
	entries, err := os.ReadDir(root)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return t, nil
		}
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub, err := os.ReadDir(filepath.Join(root, e.Name()))
		if err != nil {
			return nil, err
		}
		d := &dir{name: e.Name()}
		for _, s := range sub {
			stem, ok := strings.CutSuffix(s.Name(), ".journal")
			if !ok || !s.Type().IsRegular() {
				continue
			}
			d.files = append(d.files, newJFile(root, e.Name(), stem, nil))
		}
		if len(d.files) > 0 {
			t.artifacts = append(t.artifacts, d)
		}
	}
	return t, nil
}

// newJFile returns the Journal file of the artifact directory dir under
// root named after stem, with the bytes data (nil for a file not read yet,
// see [jfile.read]).
func newJFile(root, dir, stem string, data []byte) *jfile {
	f := &jfile{rel: dir + "/" + stem + ".journal", abs: filepath.Join(root, dir, stem+".journal"), stem: stem, artifact: dir}
	f.setData(data)
	return f
}

// read reads the text of f from disk (see setData).
func (f *jfile) read() error {
	data, err := os.ReadFile(f.abs)
	if err != nil {
		return err
	}
	f.setData(data)
	return nil
}

// setData makes data the text of f: its bytes, its lines and its line
// terminator.
func (f *jfile) setData(data []byte) {
	text := string(data) // one copy: a tree may hold a 17 MiB file (fs/too-large)
	f.data, f.nl, f.lines = data, "\n", strings.SplitAfter(text, "\n")
	if f.lines[len(f.lines)-1] == "" {
		f.lines = f.lines[:len(f.lines)-1]
	}
	if strings.Contains(text, "\r\n") {
		f.nl = "\r\n"
	}
}

func (f *jfile) clone() *jfile {
	g := *f
	g.lines = slices.Clone(f.lines)
	return &g
}

// keyword returns the directive keyword of line i, or "".
func (f *jfile) keyword(i int) string {
	s := strings.TrimLeft(f.lines[i], " \t")
	k, _, _ := strings.Cut(s, " ")
	return strings.TrimRight(k, "\r\n")
}

// find returns the first line in [from, to) with keyword kw, or -1.
func (f *jfile) find(kw string, from, to int) int {
	for i := max(from, 0); i < to && i < len(f.lines); i++ {
		if f.keyword(i) == kw {
			return i
		}
	}
	return -1
}

// headerEnd is the index of the first RELEASE line, or len(lines).
func (f *jfile) headerEnd() int {
	if i := f.find("RELEASE", 0, len(f.lines)); i >= 0 {
		return i
	}
	return len(f.lines)
}

// blockEnd is the end of the release block starting at line i.
func (f *jfile) blockEnd(i int) int {
	if j := f.find("RELEASE", i+1, len(f.lines)); j >= 0 {
		return j
	}
	return len(f.lines)
}

// release returns the RELEASE line of a random release block, or -1.
func (f *jfile) release(r *rand.Rand) int {
	var rs []int
	for i := range f.lines {
		if f.keyword(i) == "RELEASE" {
			rs = append(rs, i)
		}
	}
	if len(rs) == 0 {
		return -1
	}
	return rs[r.IntN(len(rs))]
}

// insert inserts text (one or more lines, "\n"-separated) before line i.
func (f *jfile) insert(i int, text string) {
	if i < 0 {
		i = 0
	}
	if i > 0 && i == len(f.lines) && !strings.HasSuffix(f.lines[i-1], "\n") {
		f.lines[i-1] += f.nl
	}
	var add []string
	for _, l := range strings.Split(text, "\n") {
		add = append(add, l+f.nl)
	}
	f.lines = slices.Insert(f.lines, i, add...)
}

func (f *jfile) remove(i int) {
	if i >= 0 {
		f.lines = slices.Delete(f.lines, i, i+1)
	}
}

// set replaces line i, keeping its terminator.
func (f *jfile) set(i int, text string) {
	if i < 0 {
		return
	}
	end := f.lines[i][len(strings.TrimRight(f.lines[i], "\r\n")):]
	f.lines[i] = text + end
}

// removeIn removes every kw line of the release block at i.
func (f *jfile) removeIn(i int, kw string) {
	for j := f.find(kw, i+1, f.blockEnd(i)); j >= 0; j = f.find(kw, i+1, f.blockEnd(i)) {
		f.remove(j)
	}
}

// removeRefs removes the references to coordinate c in the block at i.
func (f *jfile) removeRefs(i int, c string) {
	for j := i + 1; j < f.blockEnd(i); j++ {
		switch f.keyword(j) {
		case "DEPENDS", "EXCLUDES", "PREFERS":
			if fs := strings.Fields(f.lines[j]); len(fs) > 1 && fs[1] == c {
				f.remove(j)
				j--
			}
		}
	}
}

// setPredecessor sets or adds the PREDECESSOR line.
func (f *jfile) setPredecessor(d string) {
	if i := f.find("PREDECESSOR", 0, f.headerEnd()); i >= 0 {
		f.set(i, "PREDECESSOR "+d)
		return
	}
	f.insert(f.find("JOURNAL_VERSION", 0, f.headerEnd())+1, "PREDECESSOR "+d)
}

func (f *jfile) bytes() []byte { return []byte(strings.Join(f.lines, "")) }

// pick chooses a file to damage: usually a head (the newest revision is
// the one being written), sometimes any revision.
func (t *tree) pick(r *rand.Rand, needRelease bool) *jfile {
	var all []*jfile
	for _, a := range t.artifacts {
		for _, f := range a.files {
			if !needRelease || f.find("RELEASE", 0, len(f.lines)) >= 0 {
				all = append(all, f)
			}
		}
	}
	if len(all) == 0 {
		return nil
	}
	if r.IntN(3) > 0 {
		var heads []*jfile
		for _, f := range all {
			if fs := t.dirOf(f).files; fs[len(fs)-1] == f {
				heads = append(heads, f)
			}
		}
		if len(heads) > 0 {
			return heads[r.IntN(len(heads))]
		}
	}
	return all[r.IntN(len(all))]
}

func (t *tree) dirOf(f *jfile) *dir {
	for _, a := range t.artifacts {
		if a.name == f.artifact {
			return a
		}
	}
	return nil
}

// edit damages one file with fn, which returns a note.
func (t *tree) edit(r *rand.Rand, code string, fn func(f *jfile) string) (Fault, error) {
	f := t.pick(r, false)
	note := fn(f)
	return t.save(f, code, note)
}

// editRelease damages one release block (fn gets its RELEASE line).
func (t *tree) editRelease(r *rand.Rand, code string, fn func(f *jfile, i int) string) (Fault, error) {
	f := t.pick(r, true)
	if f == nil {
		return Fault{}, fmt.Errorf("%w: %s needs a release", ErrNotExpressible, code)
	}
	note := fn(f, f.release(r))
	return t.save(f, code, note)
}

// inRelease inserts one of the variants (lines separated by "\n") right
// after the RELEASE line of a random release block.
func inRelease(code string, variants ...string) fault {
	return func(t *tree, r *rand.Rand) (Fault, error) {
		return t.editRelease(r, code, func(f *jfile, i int) string {
			v := variants[r.IntN(len(variants))]
			f.insert(i+1, v)
			return strings.ReplaceAll(v, "\n", "; ")
		})
	}
}

func (t *tree) save(f *jfile, code, note string) (Fault, error) {
	fl := Fault{Code: code, Path: f.rel, Note: note}
	return fl, os.WriteFile(f.abs, f.bytes(), 0o644)
}

// add writes a new file; it is save under another name for readability.
func (t *tree) add(f *jfile, code, note string) (Fault, error) { return t.save(f, code, note) }

// successor returns a new, unsaved revision of a after its head: the head's
// text with a later JOURNAL_VERSION and the head as PREDECESSOR.
func (t *tree) successor(r *rand.Rand, a *dir) *jfile {
	return successorOf(t.root, a.files[len(a.files)-1], time.Duration(3600+r.IntN(30*86400))*time.Second)
}

// successorOf returns a new, unsaved revision after head under root: its
// text with a JOURNAL_VERSION later by after and head as PREDECESSOR.
func successorOf(root string, head *jfile, after time.Duration) *jfile {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if v, err := time.Parse(timeLayout, head.stem); err == nil {
		at = v
	}
	stem := Stamp(at.Add(after))
	f := head.clone()
	f.stem = stem
	f.rel = head.artifact + "/" + stem + ".journal"
	f.abs = filepath.Join(root, head.artifact, stem+".journal")
	f.set(f.find("JOURNAL_VERSION", 0, f.headerEnd()), "JOURNAL_VERSION "+stem)
	f.setPredecessor(Digest(head.data))
	return f
}

// Successor returns a valid successor of the head revision head of a
// generated tree, the file of the artifact directory dir named after stem
// (its Journal version): its root-relative path
// (<dir>/<timestamp>.journal) and bytes, the head's text with a
// JOURNAL_VERSION one hour later and the head's digest as PREDECESSOR.
// Writing it next to the head grows the artifact's chain by one revision.
func Successor(dir, stem string, head []byte) (rel string, data []byte) {
	f := successorOf("", newJFile("", dir, stem, head), time.Hour)
	return f.rel, f.bytes()
}

// laterStem is a timestamp after every file of a.
func (t *tree) laterStem(r *rand.Rand, a *dir) string {
	return t.successor(r, a).stem
}

func rootMissing(t *tree, _ *rand.Rand) (Fault, error) {
	return Fault{Code: rules.FSRootMissing, Note: "root removed"}, os.RemoveAll(t.root)
}

func rootNotDirectory(t *tree, _ *rand.Rand) (Fault, error) {
	if err := os.RemoveAll(t.root); err != nil {
		return Fault{}, err
	}
	return Fault{Code: rules.FSRootNotDirectory, Note: "root replaced by a file"}, os.WriteFile(t.root, []byte("not a directory\n"), 0o644)
}

func rootUnreadable(t *tree, _ *rand.Rand) (Fault, error) {
	if os.Geteuid() == 0 {
		return Fault{}, fmt.Errorf("%w: fs/root-unreadable: root can list every directory", ErrNotExpressible)
	}
	root := t.root
	return Fault{Code: rules.FSRootUnreadable, Note: "root mode 000", Cleanup: func() error { return os.Chmod(root, 0o755) }},
		os.Chmod(root, 0)
}

func unreadableFile(t *tree, r *rand.Rand) (Fault, error) {
	if os.Geteuid() == 0 {
		return Fault{}, fmt.Errorf("%w: fs/unreadable-file: root can read every file", ErrNotExpressible)
	}
	f := t.pick(r, false)
	abs := f.abs
	return Fault{Code: rules.FSUnreadableFile, Path: f.rel, Note: "file mode 000", Cleanup: func() error { return os.Chmod(abs, 0o644) }},
		os.Chmod(abs, 0)
}

func unexpectedEntry(t *tree, r *rand.Rand) (Fault, error) {
	a := t.artifacts[r.IntN(len(t.artifacts))]
	fl := Fault{Code: rules.FSUnexpectedEntry}
	var err error
	switch r.IntN(5) {
	case 0:
		fl.Path, fl.Note = "README.md", "a stray file in the root"
		err = os.WriteFile(filepath.Join(t.root, fl.Path), []byte("# journals\n"), 0o644)
	case 1:
		fl.Path, fl.Note = a.name+"/notes.txt", "a stray file in an artifact directory"
		err = os.WriteFile(filepath.Join(t.root, a.name, "notes.txt"), []byte("todo\n"), 0o644)
	case 2:
		fl.Path, fl.Note = a.name+"/old", "a nested directory"
		err = os.Mkdir(filepath.Join(t.root, a.name, "old"), 0o755)
	case 3:
		stem := t.laterStem(r, a)
		fl.Path, fl.Note = a.name+"/"+stem+".journal", "a symbolic link named like a Journal"
		err = os.Symlink(filepath.Base(a.files[0].abs), filepath.Join(t.root, a.name, stem+".journal"))
	default:
		fl.Path, fl.Note = "Not-A-Coordinate", "a directory in the root not named after a coordinate"
		err = os.Mkdir(filepath.Join(t.root, fl.Path), 0o755)
	}
	return fl, err
}

func badFilename(t *tree, r *rand.Rand) (Fault, error) {
	f := t.pick(r, false)
	s := []byte(f.stem)
	var stem string
	switch r.IntN(3) {
	case 0:
		if len(s) == 16 {
			s[4], s[5] = '1', '3' // month 13
		}
		stem = string(s)
	case 1:
		stem = strings.ToLower(f.stem)
	default:
		stem = "2025-01-01T00:00:00Z"
	}
	if stem == f.stem {
		stem = "not-a-timestamp"
	}
	to := filepath.Join(filepath.Dir(f.abs), stem+".journal")
	return Fault{Code: rules.FSBadFilename, Path: f.artifact + "/" + stem + ".journal", Note: "renamed from " + f.rel}, os.Rename(f.abs, to)
}

func filenameMismatch(t *tree, r *rand.Rand) (Fault, error) {
	a := t.artifacts[r.IntN(len(t.artifacts))]
	f := a.files[len(a.files)-1]
	stem := t.laterStem(r, a)
	to := filepath.Join(filepath.Dir(f.abs), stem+".journal")
	return Fault{Code: rules.FSFilenameMismatch, Path: a.name + "/" + stem + ".journal", Note: "renamed from " + f.rel}, os.Rename(f.abs, to)
}

func directoryMismatch(t *tree, r *rand.Rand) (Fault, error) {
	a := t.artifacts[r.IntN(len(t.artifacts))]
	f := a.files[len(a.files)-1]
	name := a.name + "-moved"
	if err := os.MkdirAll(filepath.Join(t.root, name), 0o755); err != nil {
		return Fault{}, err
	}
	rel := name + "/" + f.stem + ".journal"
	return Fault{Code: rules.FSDirectoryMismatch, Path: rel, Note: "moved from " + f.rel},
		os.Rename(f.abs, filepath.Join(t.root, filepath.FromSlash(rel)))
}

func tooLarge(t *tree, r *rand.Rand) (Fault, error) {
	a := t.artifacts[r.IntN(len(t.artifacts))]
	f := t.successor(r, a)
	fh, err := os.Create(f.abs)
	if err != nil {
		return Fault{}, err
	}
	// A valid beginning, then a sparse hole: 17 MiB on paper, almost
	// nothing on disk.
	if _, err := fh.Write(f.bytes()); err != nil {
		fh.Close()
		return Fault{}, err
	}
	if err := fh.Truncate(17 << 20); err != nil {
		fh.Close()
		return Fault{}, err
	}
	return Fault{Code: rules.FSTooLarge, Path: f.rel, Note: "a 17 MiB file"}, fh.Close()
}

func encoding(t *tree, r *rand.Rand) (Fault, error) {
	return t.edit(r, rules.SyntaxEncoding, func(f *jfile) string {
		d := f.find("DESCRIPTION", 0, f.headerEnd())
		switch r.IntN(4) {
		case 0:
			f.lines[0] = "\ufeff" + f.lines[0]
			return "a byte-order mark"
		case 1:
			f.set(d, "DESCRIPTION \"broken \xff\xfe byte\"")
			return "invalid UTF-8 in DESCRIPTION"
		case 2:
			f.insert(d+1, "# a bell \a in a comment")
			return "U+0007 in a comment"
		}
		f.set(d, "DESCRIPTION \"C1 \u0085 control\"")
		return "U+0085 in DESCRIPTION"
	})
}

func lineEnding(t *tree, r *rand.Rand) (Fault, error) {
	return t.edit(r, rules.SyntaxLineEnding, func(f *jfile) string {
		d := f.find("DESCRIPTION", 0, f.headerEnd())
		if r.IntN(2) == 0 {
			f.lines[d] = strings.Replace(f.lines[d], " ", " \r", 1)
			return "a lone CR"
		}
		if f.nl == "\r\n" {
			f.lines[d] = strings.TrimRight(f.lines[d], "\r\n") + "\n"
		} else {
			f.lines[d] = strings.TrimRight(f.lines[d], "\r\n") + "\r\n"
		}
		return "mixed LF and CRLF"
	})
}

// FaultOptions says how [WriteFaulted] breaks the tree it writes.
type FaultOptions struct {
	// InjectSeed is the seed of the first code of [Codes]; the i-th code
	// is injected with InjectSeed+i.
	InjectSeed uint64
	// Mutations is the number of [Mutate] calls after the injections, the
	// i-th with MutateSeed+i.
	Mutations  int
	MutateSeed uint64
}

// WriteFaulted writes the tree of opts under root ([Write]), injects a
// fault of every code of [Codes] that the tree can express, except those
// that break the root itself (rules.ScopeRoot: a broken root hides every
// other fault), and then makes fo.Mutations byte-level mutations. The
// codes go in the order of [Codes], but fs/too-large goes last: its file
// of 17 MiB would otherwise be read again by every later injection. Equal
// arguments give equal bytes. It returns the number of faults injected,
// or the first error of writing, of an injection (other than
// [ErrNotExpressible]) or of a mutation.
func WriteFaulted(root string, opts Options, fo FaultOptions) (int, error) {
	if _, err := Write(root, opts); err != nil {
		return 0, err
	}
	codes := Codes()
	order := make([]int, 0, len(codes)) // indexes into codes; each code's seed is by its index
	large := -1
	for i, code := range codes {
		switch r, _ := rules.Lookup(code); {
		case r.Scope == rules.ScopeRoot:
		case code == rules.FSTooLarge:
			large = i
		default:
			order = append(order, i)
		}
	}
	if large >= 0 {
		order = append(order, large)
	}
	injected := 0
	for _, i := range order {
		if _, err := Inject(root, codes[i], fo.InjectSeed+uint64(i)); err != nil {
			if errors.Is(err, ErrNotExpressible) {
				continue
			}
			return injected, fmt.Errorf("inject %s: %w", codes[i], err)
		}
		injected++
	}
	for i := range fo.Mutations {
		if _, err := Mutate(root, fo.MutateSeed+uint64(i)); err != nil {
			return injected, err
		}
	}
	return injected, nil
}
