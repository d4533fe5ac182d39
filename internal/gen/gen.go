// Package gen generates large, realistic Journal trees ("Filesystem layout" in
// docs/journal-format.md) for benchmarks and property tests, and injects
// faults into them.
//
// A generated tree is deterministic in its [Options]: the same seed and file
// count give the same bytes. Every artifact is a linear chain of one or more
// revisions whose PREDECESSOR lines carry the real digests of their
// predecessors; each revision repeats the releases of the one before (as a
// complete worldview does), adjusts their policies now and then, and adds new
// releases. Releases carry a license from a realistic mix, several CONTENT
// lines, dependencies on other artifacts of the tree with exact, range and
// union constraints that some known release satisfies, exclusions,
// preferences that satisfy their constraint, policies, descriptions and
// PUBLISHED times that are never later than the revision's JOURNAL_VERSION.
//
// [Inject] turns a valid tree on disk into one with exactly one fault of a
// given validity code ("Diagnostic codes" in docs/journal-format.md); [Mutate]
// makes a random byte-level change to one file.
package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Options say what to generate.
type Options struct {
	// Files is the number of Journal files (revisions) in the tree; at
	// least 1. With 2 or more files the first artifact has at least two
	// revisions, and with 3 or more there are at least two artifacts, so
	// that every chain fault can be injected.
	Files int
	// Seed makes the tree: equal options give equal bytes.
	Seed uint64
}

// File is one generated Journal file.
type File struct {
	// Path is root-relative with forward slashes:
	// <coordinate>/<timestamp>.journal.
	Path string
	// Data is the file's exact bytes.
	Data []byte
}

// Tree is a generated Journal tree.
type Tree struct {
	// Files lists every file, sorted by path (artifact, then chronological).
	Files []File
	// Artifacts is the number of artifacts (chains).
	Artifacts int
}

// Bytes returns the total size of all files.
func (t *Tree) Bytes() int64 {
	var n int64
	for _, f := range t.Files {
		n += int64(len(f.Data))
	}
	return n
}

// Write writes the tree under dir, creating dir and the artifact
// directories as needed. dir should be empty or absent.
func (t *Tree) Write(dir string) error {
	made := map[string]bool{}
	for _, f := range t.Files {
		abs := filepath.Join(dir, filepath.FromSlash(f.Path))
		d := filepath.Dir(abs)
		if !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
		if err := os.WriteFile(abs, f.Data, 0o644); err != nil {
			return err
		}
	}
	if len(t.Files) == 0 {
		return os.MkdirAll(dir, 0o755)
	}
	return nil
}

// Write generates a tree as opts say and writes it under dir.
func Write(dir string, opts Options) (*Tree, error) {
	t, err := Generate(opts)
	if err != nil {
		return nil, err
	}
	return t, t.Write(dir)
}

// Digest returns the revision digest of data: "sha256:" and 64 lowercase
// hex digits over the exact bytes ("The revision digest" in docs/journal-format.md).
func Digest(data []byte) string {
	s := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(s[:])
}

// timeLayout is the Journal timestamp form ("Values" in docs/journal-format.md).
const timeLayout = "20060102T150405Z"

// Stamp formats t as a Journal timestamp.
func Stamp(t time.Time) string { return t.UTC().Format(timeLayout) }

type version struct {
	major, minor, patch int
	pre                 string
}

func (v version) String() string {
	s := fmt.Sprintf("%d.%d.%d", v.major, v.minor, v.patch)
	if v.pre != "" {
		s += "-" + v.pre
	}
	return s
}

// next returns the version after v: a patch, minor or major step, now and
// then through a release candidate.
func (v version) next(r *rand.Rand) version {
	if v.pre != "" {
		return version{v.major, v.minor, v.patch, ""}
	}
	switch x := r.IntN(20); {
	case x < 11:
		return version{v.major, v.minor, v.patch + 1, ""}
	case x < 17:
		return version{v.major, v.minor + 1, 0, ""}
	case x < 19:
		return version{v.major + 1, 0, 0, ""}
	default:
		return version{v.major + 1, 0, 0, fmt.Sprintf("rc.%d", 1+r.IntN(3))}
	}
}

// release is one release as the generator tracks it across revisions.
type release struct {
	version     version
	license     string
	content     []string // CONTENT lines, without the keyword
	description string
	published   time.Time
	hasPub      bool
	policy      string // POLICY arguments, or ""
	refs        []string
}

// artifact is one generated artifact.
type artifact struct {
	coordinate string
	short      string
	revisions  int
	// versions is every release version the artifact will ever have, in
	// order; dependencies choose their constraints from it.
	versions []version
	// firstIn[i] is the revision that introduces versions[i].
	firstIn []int
	times   []time.Time // JOURNAL_VERSION of every revision
}

var (
	vendors = []string{"acme", "apache", "example", "initech", "globex", "umbrella", "hooli", "wayne", "stark",
		"cyberdyne", "tyrell", "soylent", "aperture", "blackmesa", "oscorp", "wonka", "vandelay", "dunder"}
	tlds  = []string{"com", "org", "net", "io", "dev"}
	nouns = []string{"widget", "parser", "logging", "core", "http", "json", "yaml", "crypto", "tls", "cache",
		"queue", "scheduler", "metrics", "tracing", "auth", "storage", "compress", "image", "text", "unicode",
		"config", "cli", "test-kit", "mock", "orm", "sql", "grpc", "proto", "codec", "retry", "rate-limit",
		"uuid", "time", "i18n", "templates", "markdown", "diff", "archive", "zip", "xml", "csv", "regex",
		"pool", "events", "mailer", "search", "geo", "math", "bigint", "rand"}
	suffixes = []string{"", "", "", "-utils", "-api", "-impl", "-extras", "2", "-lite", "_native"}
	// licenses are weighted by how often they occur in practice.
	licenses = []struct {
		expr   string
		weight int
	}{
		{"MIT", 30}, {"Apache-2.0", 22}, {"BSD-3-Clause", 8}, {"BSD-2-Clause", 4}, {"ISC", 3},
		{"MIT OR Apache-2.0", 8}, {"Apache-2.0 WITH LLVM-exception", 2}, {"MPL-2.0", 3},
		{"GPL-2.0-or-later", 3}, {"GPL-3.0-only", 2}, {"LGPL-2.1-or-later", 2}, {"LGPL-3.0-or-later", 2},
		{"EPL-2.0", 2}, {"Unlicense", 1}, {"0BSD", 1}, {"Zlib", 1}, {"BSL-1.0", 1},
		{"(MIT OR Apache-2.0) AND Unicode-3.0", 1}, {"LicenseRef-Proprietary-Acme", 1},
		{"GPL-2.0-only WITH Classpath-exception-2.0", 1}, {"NOASSERTION", 1},
	}
	licenseTotal = func() int {
		n := 0
		for _, l := range licenses {
			n += l.weight
		}
		return n
	}()
	infoSchemes = []string{"https://%s.example.org/", "https://github.com/%s/%s", "git+ssh://git@git.example.net/%s/%s.git",
		"urn:example:%s:%s", "mailto:maintainers@%s.example.com"}
	words = []string{"fast", "small", "safe", "portable", "pure-Go", "streaming", "zero-copy", "pluggable",
		"well-tested", "minimal", "extensible", "structured", "concurrent", "lazy", "strict"}
	changes = []string{"Bug fixes", "Performance improvements", "New streaming API", "Security fix for CVE-2025-%04d",
		"Drops support for old runtimes", "Adds \\\"strict\\\" mode", "Documentation and examples",
		"Fixes a data race in the pool", "Faster start-up, smaller binary", "Unicode 16.0 tables (e.g. é, ß, 漢)"}
	phantom = []string{"org.legacy.shim", "com.oldcorp.commons-compat", "net.example.iconv-shim", "io.unmaintained.helpers",
		"org.log4x.core", "com.example.bloat"}
)

// Generate builds a tree as opts say, in memory.
func Generate(opts Options) (*Tree, error) {
	if opts.Files < 1 {
		return nil, errors.New("gen: Files must be at least 1")
	}
	r := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	arts := plan(r, opts.Files)
	t := &Tree{Artifacts: len(arts)}
	for i, a := range arts {
		t.Files = append(t.Files, revisions(r, a, arts[:i])...)
	}
	sortFiles(t.Files)
	return t, nil
}

// plan decides the artifacts, their chain lengths, versions and times.
func plan(r *rand.Rand, files int) []*artifact {
	var lens []int
	left := files
	for left > 0 {
		n := 1 + r.IntN(6)
		if len(lens) == 0 && files >= 2 {
			n = max(n, 2) // a chain to fork
			if files >= 3 {
				n = min(n, files-1) // room for a second artifact
			}
		}
		n = min(n, left)
		lens = append(lens, n)
		left -= n
	}
	used := map[string]bool{}
	arts := make([]*artifact, len(lens))
	for i, n := range lens {
		a := &artifact{revisions: n}
		for {
			noun := nouns[r.IntN(len(nouns))]
			a.short = noun + suffixes[r.IntN(len(suffixes))]
			a.coordinate = tlds[r.IntN(len(tlds))] + "." + vendors[r.IntN(len(vendors))] + "." + a.short
			if !used[a.coordinate] {
				break
			}
			a.coordinate += fmt.Sprintf("%d", i) // many artifacts exhaust the names
			if !used[a.coordinate] {
				break
			}
		}
		used[a.coordinate] = true
		// Journal versions: genesis between 2019 and 2024, then one to
		// ninety days apart, always well before today.
		t := time.Date(2019+r.IntN(5), time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), 0, time.UTC)
		for range n {
			a.times = append(a.times, t)
			t = t.Add(time.Duration(1+r.IntN(90))*24*time.Hour + time.Duration(r.IntN(86400))*time.Second)
		}
		v := version{r.IntN(3), r.IntN(5), r.IntN(4), ""}
		if v.major == 0 && v.minor == 0 {
			v.minor = 1
		}
		initial := 1 + r.IntN(4)
		for rev := range n {
			k := initial
			if rev > 0 {
				k = r.IntN(3)
				if rev == n-1 && k == 0 {
					k = 1
				}
			}
			for range k {
				a.versions = append(a.versions, v)
				a.firstIn = append(a.firstIn, rev)
				v = v.next(r)
			}
		}
		arts[i] = a
	}
	return arts
}

func pickLicense(r *rand.Rand) string {
	x := r.IntN(licenseTotal)
	for _, l := range licenses {
		if x < l.weight {
			return l.expr
		}
		x -= l.weight
	}
	return "MIT"
}

// hexOf is a deterministic, realistic-looking content digest.
func hexOf(parts ...string) string {
	s := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return "sha256:" + hex.EncodeToString(s[:])
}

// constraint returns a constraint over dep's versions that v satisfies, and
// whether it admits more than one version (so a PREFERS is meaningful).
func constraint(r *rand.Rand, v version) (string, bool) {
	upper := version{v.major + 1, 0, 0, ""}
	switch r.IntN(6) {
	case 0, 1:
		return v.String(), false
	case 2:
		return "[" + v.String() + "," + upper.String() + ")", true
	case 3:
		return "[" + v.String() + ",)", true
	case 4:
		return "(," + v.String() + "]", true
	default:
		// A union of two disjoint intervals, the first holding v.
		hi := version{v.major, v.minor, v.patch + 1, ""}
		return "[" + v.String() + "," + hi.String() + "),[" + upper.String() + "," + version{v.major + 2, 0, 0, ""}.String() + ")", true
	}
}

// makeRelease creates release i of a, introduced in revision rev, with
// references to the earlier artifacts deps.
func makeRelease(r *rand.Rand, a *artifact, i, rev int, deps []*artifact) *release {
	v := a.versions[i]
	rel := &release{version: v, license: pickLicense(r)}
	// Published after the previous revision was written (else it would
	// have been in that worldview) and not after this one; a genesis
	// records releases of up to a year before.
	at := a.times[rev]
	span := int64(365 * 86400)
	if rev > 0 {
		span = int64(at.Sub(a.times[rev-1]) / time.Second)
	}
	rel.published = at.Add(-time.Duration(r.Int64N(span)) * time.Second)
	rel.hasPub = r.IntN(10) < 8
	base := a.short + "-" + v.String()
	kinds := []string{".tar.gz", ".jar", ".zip", ".tgz"}
	main := base + kinds[r.IntN(len(kinds))]
	rel.content = append(rel.content, main+" "+hexOf(a.coordinate, main))
	for _, extra := range []string{main + ".asc", base + "-sources.jar", base + ".spdx.json", base + ".intoto.jsonl"} {
		if r.IntN(3) == 0 {
			rel.content = append(rel.content, extra+" "+hexOf(a.coordinate, extra))
		}
	}
	if r.IntN(2) == 0 {
		c := changes[r.IntN(len(changes))]
		if strings.Contains(c, "%04d") {
			c = fmt.Sprintf(c, r.IntN(10000))
		}
		rel.description = c
	}
	// Dependencies on earlier artifacts of the tree, each satisfiable by a
	// release that exists by the time this revision is written.
	taken := map[string]bool{a.coordinate: true}
	for range r.IntN(4) {
		if len(deps) == 0 {
			break
		}
		d := deps[r.IntN(len(deps))]
		if taken[d.coordinate] {
			continue
		}
		taken[d.coordinate] = true
		target := d.versions[r.IntN(len(d.versions))]
		c, wide := constraint(r, target)
		line := "DEPENDS " + d.coordinate + " " + c
		if r.IntN(2) == 0 {
			line += fmt.Sprintf(" %q", d.short+" for "+words[r.IntN(len(words))]+" support")
		}
		rel.refs = append(rel.refs, line)
		if wide && r.IntN(3) == 0 {
			line := "PREFERS " + d.coordinate + " " + target.String()
			if r.IntN(2) == 0 {
				line += ` "the version this release was tested against"`
			}
			rel.refs = append(rel.refs, line)
		}
	}
	if r.IntN(6) == 0 {
		x := phantom[r.IntN(len(phantom))]
		if !taken[x] {
			taken[x] = true
			rel.refs = append(rel.refs, "EXCLUDES "+x+` "pulled in transitively, never used"`)
		}
	}
	if r.IntN(12) == 0 && len(deps) > 0 {
		// Prefer a version of an artifact this release does not depend on.
		d := deps[r.IntN(len(deps))]
		if !taken[d.coordinate] {
			rel.refs = append(rel.refs, "PREFERS "+d.coordinate+" "+d.versions[len(d.versions)-1].String())
		}
	}
	if v.pre != "" {
		rel.policy = `deprecated "release candidate; use the final release"`
	}
	return rel
}

// revisions writes every revision of a.
func revisions(r *rand.Rand, a *artifact, deps []*artifact) []File {
	var out []File
	var rels []*release
	var pred string
	headerPolicy := ""
	if r.IntN(8) == 0 {
		headerPolicy = `POLICY deprecated "no longer maintained; see the successor project"`
	}
	info := ""
	if r.IntN(3) > 0 {
		s := infoSchemes[r.IntN(len(infoSchemes))]
		if strings.Count(s, "%s") == 2 {
			info = fmt.Sprintf(s, a.short, a.short)
		} else {
			info = fmt.Sprintf(s, a.short)
		}
		info = strings.ReplaceAll(info, "_", "-")
	}
	desc := fmt.Sprintf("%s: a %s, %s %s library", a.short, words[r.IntN(len(words))], words[r.IntN(len(words))], strings.ReplaceAll(a.short, "-", " "))
	crlf := r.IntN(25) == 0
	for rev := range a.revisions {
		// Now and then a later revision deprecates or denies an old release.
		if rev > 0 && len(rels) > 1 && r.IntN(8) == 0 {
			old := rels[r.IntN(len(rels)-1)]
			if r.IntN(4) == 0 {
				old.policy = fmt.Sprintf(`deny "security advisory SA-%d-%03d; upgrade"`, a.times[rev].Year(), r.IntN(1000))
			} else {
				old.policy = `deprecated "superseded by ` + rels[len(rels)-1].version.String() + `"`
			}
		}
		for i, fi := range a.firstIn {
			if fi == rev {
				rels = append(rels, makeRelease(r, a, i, rev, deps))
			}
		}
		var b strings.Builder
		if rev == 0 && r.IntN(3) == 0 {
			fmt.Fprintf(&b, "# %s: Journal of %s.\n", a.short, a.coordinate)
		}
		b.WriteString("JOURNAL_FORMAT 1\n")
		b.WriteString("ARTIFACT " + a.coordinate + "\n")
		b.WriteString("JOURNAL_VERSION " + Stamp(a.times[rev]) + "\n")
		if pred != "" {
			b.WriteString("PREDECESSOR " + pred + "\n")
		}
		fmt.Fprintf(&b, "DESCRIPTION %q\n", desc)
		if info != "" {
			b.WriteString("INFO " + info + "\n")
		}
		if headerPolicy != "" {
			b.WriteString(headerPolicy + "\n")
		}
		for _, rel := range rels {
			b.WriteString("\nRELEASE " + rel.version.String() + "\n")
			b.WriteString("LICENSE " + rel.license + "\n")
			for _, c := range rel.content {
				b.WriteString("CONTENT " + c + "\n")
			}
			if rel.description != "" {
				b.WriteString(`DESCRIPTION "` + rel.description + "\"\n")
			}
			if rel.hasPub {
				b.WriteString("PUBLISHED " + Stamp(rel.published) + "\n")
			}
			if rel.policy != "" {
				b.WriteString("POLICY " + rel.policy + "\n")
			}
			for _, ref := range rel.refs {
				b.WriteString(ref + "\n")
			}
		}
		data := []byte(b.String())
		if crlf {
			data = []byte(strings.ReplaceAll(b.String(), "\n", "\r\n"))
		}
		out = append(out, File{Path: a.coordinate + "/" + Stamp(a.times[rev]) + ".journal", Data: data})
		pred = Digest(data)
	}
	return out
}

// sortFiles sorts by path: artifact, then chronologically.
func sortFiles(fs []File) {
	slices.SortFunc(fs, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
}
