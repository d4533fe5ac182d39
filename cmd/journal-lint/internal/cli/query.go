package cli

import (
	"fmt"
	"io"
	"strconv"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/journal"
	"github.com/r35157/journal-lint/journal/impl/ref"
	"github.com/r35157/journal-lint/journal/journalerr"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"

	"github.com/r35157/journal-lint/internal/safetext"
)

// rootFlags are the flags of the commands that read a tree through the service.
func rootFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "root", Usage: "Journal root `DIR` (default: the config's root, else " + defaultRoot + ")"},
		&ucli.BoolFlag{Name: "examples", Usage: "load *.journal.example files as Journals too"},
		&ucli.StringFlag{Name: "config", Usage: "configuration `FILE` (default: .journal-lint.yaml in the working directory or a parent)"},
	}
}

// openService starts a manager on the root the flags and config name and
// returns its service. An invalid tree is reported as findings.
func openService(c *ucli.Context) (journal.Service, error) {
	s, err := loadSettings(c, c.String("root"))
	if err != nil {
		return nil, err
	}
	var opts []ref.Option
	if s.examples {
		opts = append(opts, ref.WithExamples())
	}
	m, err := ref.NewServiceManager(s.root, opts...)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	if err := m.Start(c.Context); err != nil {
		if ie, ok := err.(*journalerr.InvalidError); ok {
			for _, d := range ie.Diagnostics {
				fmt.Fprintln(c.App.ErrWriter, safetext.Text(d.String()))
			}
			return nil, &exitError{code: ExitFindings, err: fmt.Errorf("the tree under %s is invalid (%d diagnostics); run journal-lint check for details", m.Root(), len(ie.Diagnostics))}
		}
		return nil, usageErrorf("%v", err)
	}
	return m.Service()
}

func parseCoordinateArg(c *ucli.Context) (vt.Coordinate, error) {
	if c.NArg() != 1 {
		return vt.Coordinate{}, usageErrorf("%s needs exactly one COORDINATE", c.Command.Name)
	}
	co, err := vt.ParseCoordinate(c.Args().First())
	if err != nil {
		return vt.Coordinate{}, usageErrorf("%v", err)
	}
	return co, nil
}

func logCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "log",
		Usage: "show an artifact's chain, newest first",
		UsageText: "journal-lint log [--root DIR] COORDINATE\n\n" +
			"One line per revision: Journal version, digest, predecessor digest, release count.\n\n" +
			"Example:\n   journal-lint log --root data/nenjim/journals --examples net.example.quill",
		Flags: rootFlags(),
		Action: func(c *ucli.Context) error {
			co, err := parseCoordinateArg(c)
			if err != nil {
				return err
			}
			svc, err := openService(c)
			if err != nil {
				return err
			}
			revs := svc.Revisions(co)
			if len(revs) == 0 {
				return usageErrorf("no artifact %s in the tree", co)
			}
			w := c.App.Writer
			for i := len(revs) - 1; i >= 0; i-- {
				r := revs[i]
				pred := "genesis"
				if p, ok := r.Predecessor(); ok {
					pred = p.String()
				}
				head := ""
				if i == len(revs)-1 {
					head = "  (head)"
				}
				fmt.Fprintf(w, "%s  %s  predecessor %s  %d releases%s\n", r.JournalVersion(), r.Digest(), pred, len(r.Releases()), head)
			}
			return nil
		},
	}
}

func showCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "show",
		Usage: "show an artifact's worldview at a revision, or one release",
		UsageText: "journal-lint show [--root DIR] COORDINATE [--revision V | --as-of V] [--release VERSION] [--format text|json]\n\n" +
			"Without --revision or --as-of it shows the head. --as-of picks the newest revision at or\n" +
			"before V. --release shows one release as that revision knows it.\n\n" +
			"Examples:\n   journal-lint show --examples net.example.quill\n" +
			"   journal-lint show --examples net.example.quill --as-of 20260210T000000Z --release 1.0.0 --format json",
		Flags: append(rootFlags(),
			&ucli.StringFlag{Name: "revision", Usage: "the revision with exactly Journal version `V`"},
			&ucli.StringFlag{Name: "as-of", Usage: "the newest revision at or before Journal version `V`"},
			&ucli.StringFlag{Name: "release", Usage: "show only release `VERSION`"},
			&ucli.StringFlag{Name: "format", Value: "text", Usage: "`text` or json"},
		),
		Action: func(c *ucli.Context) error {
			co, err := parseCoordinateArg(c)
			if err != nil {
				return err
			}
			format := c.String("format")
			if format != "text" && format != "json" {
				return usageErrorf("--format must be text or json, not %q", format)
			}
			if c.IsSet("revision") && c.IsSet("as-of") {
				return usageErrorf("--revision and --as-of exclude each other")
			}
			svc, err := openService(c)
			if err != nil {
				return err
			}
			rev, err := selectRevision(c, svc, co)
			if err != nil {
				return err
			}
			if v := c.String("release"); v != "" {
				ver, err := vt.ParseVersion(v)
				if err != nil {
					return usageErrorf("%v", err)
				}
				rel, ok := svc.Release(co, rev.JournalVersion(), ver)
				if !ok {
					return usageErrorf("revision %s of %s does not know release %s", rev.JournalVersion(), co, ver)
				}
				if format == "json" {
					return writeJSON(c.App.Writer, releaseJSON(rel))
				}
				fmt.Fprintf(c.App.Writer, "%s @ %s (%s)\n", co, rev.JournalVersion(), rev.Digest())
				writeRelease(c.App.Writer, rel)
				return nil
			}
			if format == "json" {
				return writeJSON(c.App.Writer, revisionJSON(rev))
			}
			writeRevision(c.App.Writer, rev)
			return nil
		},
	}
}

func selectRevision(c *ucli.Context, svc journal.Service, co vt.Coordinate) (model.Revision, error) {
	var (
		rev model.Revision
		ok  bool
	)
	switch {
	case c.IsSet("revision"):
		v, err := vt.ParseJournalVersion(c.String("revision"))
		if err != nil {
			return rev, usageErrorf("--revision: %v", err)
		}
		rev, ok = svc.Revision(co, v)
	case c.IsSet("as-of"):
		v, err := vt.ParseJournalVersion(c.String("as-of"))
		if err != nil {
			return rev, usageErrorf("--as-of: %v", err)
		}
		rev, ok = svc.AsOf(co, v)
	default:
		rev, ok = svc.Latest(co)
	}
	if !ok {
		return rev, usageErrorf("no such revision of %s in the tree", co)
	}
	return rev, nil
}

func writeJSON(w io.Writer, v any) error {
	if err := safetext.WriteJSON(w, v); err != nil {
		return internalErrorf("writing output: %v", err)
	}
	return nil
}

func writeRevision(w io.Writer, r model.Revision) {
	fmt.Fprintf(w, "%s @ %s\n", shown(r.Coordinate()), r.JournalVersion())
	fmt.Fprintf(w, "  digest       %s\n", r.Digest())
	if p, ok := r.Predecessor(); ok {
		fmt.Fprintf(w, "  predecessor  %s\n", p)
	} else {
		fmt.Fprintf(w, "  predecessor  none (genesis)\n")
	}
	fmt.Fprintf(w, "  description  %s\n", quoted(r.Description()))
	if u, ok := r.Info(); ok {
		fmt.Fprintf(w, "  info         %s\n", shown(u))
	}
	if p, ok := r.Policy(); ok {
		fmt.Fprintf(w, "  policy       %s\n", policyText(p))
	}
	fmt.Fprintf(w, "  releases     %d\n", len(r.Releases()))
	for _, rel := range r.ReleasesByVersion() {
		fmt.Fprintln(w)
		writeRelease(w, rel)
	}
}

func policyText(p model.Policy) string {
	if reason, ok := p.Reason(); ok {
		return fmt.Sprintf("%s %s", p.Verdict(), quoted(reason))
	}
	return p.Verdict().String()
}

func describe(s string, ok bool) string {
	if !ok {
		return ""
	}
	return "  " + quoted(s)
}

// quoted returns s as a Go string literal, made safe to print.
func quoted(s string) string { return safetext.Text(strconv.Quote(s)) }

// shown returns the text of v (a name, URI or coordinate from a Journal) as
// safetext shows untrusted text.
func shown(v fmt.Stringer) string { return safetext.Text(v.String()) }

func writeRelease(w io.Writer, r model.Release) {
	own := ""
	if _, ok := r.Policy(); !ok {
		own = " (inherited)"
	}
	fmt.Fprintf(w, "  release %s\n", r.Version())
	fmt.Fprintf(w, "    license    %s\n", r.License())
	fmt.Fprintf(w, "    policy     %s%s\n", policyText(r.EffectivePolicy()), own)
	if d, ok := r.Description(); ok {
		fmt.Fprintf(w, "    description %s\n", quoted(d))
	}
	if p, ok := r.Published(); ok {
		fmt.Fprintf(w, "    published  %s\n", p)
	}
	for _, c := range r.Contents() {
		fmt.Fprintf(w, "    content    %s %s\n", shown(c.Name()), c.Digest())
	}
	for _, d := range r.Dependencies() {
		fmt.Fprintf(w, "    depends    %s %s%s\n", shown(d.Coordinate()), shown(d.Constraint()), describe(d.Description()))
	}
	for _, e := range r.Exclusions() {
		fmt.Fprintf(w, "    excludes   %s%s\n", shown(e.Coordinate()), describe(e.Description()))
	}
	for _, p := range r.Preferences() {
		fmt.Fprintf(w, "    prefers    %s %s%s\n", shown(p.Coordinate()), p.Version(), describe(p.Description()))
	}
}

type policyDoc struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
}

type refDoc struct {
	Coordinate  string `json:"coordinate"`
	Constraint  string `json:"constraint,omitempty"`
	Version     string `json:"version,omitempty"`
	Description string `json:"description,omitempty"`
}

type releaseDoc struct {
	Version         string            `json:"version"`
	License         string            `json:"license"`
	Contents        map[string]string `json:"contents"`
	Description     string            `json:"description,omitempty"`
	Published       string            `json:"published,omitempty"`
	Policy          *policyDoc        `json:"policy,omitempty"`
	EffectivePolicy policyDoc         `json:"effectivePolicy"`
	Depends         []refDoc          `json:"depends"`
	Excludes        []refDoc          `json:"excludes"`
	Prefers         []refDoc          `json:"prefers"`
}

type revisionDoc struct {
	Coordinate     string       `json:"coordinate"`
	JournalVersion string       `json:"journalVersion"`
	Digest         string       `json:"digest"`
	Predecessor    string       `json:"predecessor,omitempty"`
	Description    string       `json:"description"`
	Info           string       `json:"info,omitempty"`
	Policy         *policyDoc   `json:"policy,omitempty"`
	Releases       []releaseDoc `json:"releases"`
}

func policyJSON(p model.Policy) policyDoc {
	r, _ := p.Reason()
	return policyDoc{Verdict: p.Verdict().String(), Reason: r}
}

func releaseJSON(r model.Release) releaseDoc {
	d := releaseDoc{Version: r.Version().String(), License: r.License().String(), Contents: map[string]string{},
		EffectivePolicy: policyJSON(r.EffectivePolicy()), Depends: []refDoc{}, Excludes: []refDoc{}, Prefers: []refDoc{}}
	for _, c := range r.Contents() {
		d.Contents[c.Name().String()] = c.Digest().String()
	}
	d.Description, _ = r.Description()
	if p, ok := r.Published(); ok {
		d.Published = p.String()
	}
	if p, ok := r.Policy(); ok {
		pd := policyJSON(p)
		d.Policy = &pd
	}
	for _, x := range r.Dependencies() {
		desc, _ := x.Description()
		d.Depends = append(d.Depends, refDoc{Coordinate: x.Coordinate().String(), Constraint: x.Constraint().String(), Description: desc})
	}
	for _, x := range r.Exclusions() {
		desc, _ := x.Description()
		d.Excludes = append(d.Excludes, refDoc{Coordinate: x.Coordinate().String(), Description: desc})
	}
	for _, x := range r.Preferences() {
		desc, _ := x.Description()
		d.Prefers = append(d.Prefers, refDoc{Coordinate: x.Coordinate().String(), Version: x.Version().String(), Description: desc})
	}
	return d
}

func revisionJSON(r model.Revision) revisionDoc {
	d := revisionDoc{Coordinate: r.Coordinate().String(), JournalVersion: r.JournalVersion().String(),
		Digest: r.Digest().String(), Description: r.Description(), Releases: []releaseDoc{}}
	if p, ok := r.Predecessor(); ok {
		d.Predecessor = p.String()
	}
	if u, ok := r.Info(); ok {
		d.Info = u.String()
	}
	if p, ok := r.Policy(); ok {
		pd := policyJSON(p)
		d.Policy = &pd
	}
	for _, rel := range r.ReleasesByVersion() {
		d.Releases = append(d.Releases, releaseJSON(rel))
	}
	return d
}
