package diff

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// docIndex finds the directives of a valid document by what they state.
// The index of a release block is built the first time it is asked for:
// most releases of two consecutive revisions are byte-identical and never
// need one. Indexes are reused (index, done): a check compares every
// consecutive pair of revisions of a tree.
type docIndex struct {
	doc    *syntax.Document
	rev    model.Revision
	blocks map[string]*syntax.ReleaseBlock // by version text
	rels   map[string]*relIndex            // by version text, built by rel
	spare  []*relIndex                     // emptied release indexes, for rel to reuse
}

// indexes holds emptied docIndexes (done).
var indexes = sync.Pool{New: func() any {
	return &docIndex{blocks: map[string]*syntax.ReleaseBlock{}, rels: map[string]*relIndex{}}
}}

// maxReused bounds the releases of an index, and the directives of a
// release index, that done keeps for reuse (a cleared map keeps its size),
// so that one huge document does not keep its index's memory.
const maxReused = 256

// relIndex finds the directives of one release block.
type relIndex struct {
	block   *syntax.ReleaseBlock
	single  map[syntax.Kind]*syntax.Directive            // LICENSE, DESCRIPTION, PUBLISHED, POLICY
	content map[string]*syntax.Directive                 // CONTENT by name
	refs    map[syntax.Kind]map[string]*syntax.Directive // DEPENDS, EXCLUDES, PREFERS by coordinate
}

// index returns the index of doc; done gives it back once nothing reads it.
func index(doc *syntax.Document) *docIndex {
	x := indexes.Get().(*docIndex)
	x.doc, x.rev = doc, doc.Revision
	for _, b := range doc.Releases {
		if b != nil && b.VersionOK {
			x.blocks[b.Version.String()] = b
		}
	}
	return x
}

// done empties x and keeps it for a later index, unless it grew large.
func (x *docIndex) done() {
	if len(x.blocks) > maxReused || len(x.rels) > maxReused {
		return
	}
	for _, ri := range x.rels {
		if len(ri.block.Directives) > maxReused {
			continue
		}
		ri.block = nil
		clear(ri.single)
		clear(ri.content)
		for _, m := range ri.refs {
			clear(m)
		}
		x.spare = append(x.spare, ri)
	}
	clear(x.blocks)
	clear(x.rels)
	x.doc, x.rev = nil, model.Revision{}
	indexes.Put(x)
}

// newRelIndex returns an empty release index.
func newRelIndex() *relIndex {
	return &relIndex{single: map[syntax.Kind]*syntax.Directive{}, content: map[string]*syntax.Directive{},
		refs: map[syntax.Kind]map[string]*syntax.Directive{}}
}

// indexBlock fills ri, an empty release index, with the directives of
// block b.
func indexBlock(ri *relIndex, b *syntax.ReleaseBlock) {
	ri.block = b
	for _, d := range b.Directives {
		if d == nil || len(d.Args) == 0 {
			continue
		}
		switch d.Kind {
		case syntax.KindLicense, syntax.KindDescription, syntax.KindPublished, syntax.KindPolicy:
			ri.single[d.Kind] = d
		case syntax.KindContent:
			ri.content[d.Args[0].Text] = d
		case syntax.KindDepends, syntax.KindExcludes, syntax.KindPrefers:
			if ri.refs[d.Kind] == nil {
				ri.refs[d.Kind] = map[string]*syntax.Directive{}
			}
			ri.refs[d.Kind][d.Args[0].Text] = d
		}
	}
}

// blockText returns the text of the release block of version, from its
// RELEASE directive to the end of its last directive, or nil when the
// document has no such block.
func (x *docIndex) blockText(version string) []byte {
	b := x.blocks[version]
	if b == nil || b.Release == nil {
		return nil
	}
	end := b.Release.Range().End.Offset
	if n := len(b.Directives); n > 0 && b.Directives[n-1] != nil {
		end = b.Directives[n-1].Range().End.Offset
	}
	return x.doc.Src[b.Release.Range().Start.Offset:end]
}

// argRange returns the range of argument i of d, the whole directive when
// d has fewer arguments, or the zero Range for a nil d.
func argRange(d *syntax.Directive, i int) diag.Range {
	if d == nil {
		return diag.Range{}
	}
	if i >= 0 && i < len(d.Args) {
		return d.Args[i].Range()
	}
	return d.Range()
}

// restRange returns the range from argument i of d to its last argument.
func restRange(d *syntax.Directive, i int) diag.Range {
	if d == nil {
		return diag.Range{}
	}
	if i < 0 || i >= len(d.Args) {
		return d.Range()
	}
	return diag.Range{Start: d.Args[i].Range().Start, End: d.Args[len(d.Args)-1].Range().End}
}

// anchor is the range that stands for an absent value of release version
// (or of the artifact, for ""): the release's RELEASE directive when the
// document has that release, else the JOURNAL_VERSION directive.
func (x *docIndex) anchor(version string) diag.Range {
	if b := x.blocks[version]; version != "" && b != nil && b.Release != nil {
		return b.Release.Range()
	}
	if d := x.doc.Header.JournalVersion; d != nil {
		return d.Range()
	}
	return diag.Range{}
}

// value returns a present value with range r, or the release's anchor when
// r is unknown.
func (x *docIndex) value(version, text string, r diag.Range) Value {
	if !r.IsValid() {
		r = x.anchor(version)
	}
	return Value{Text: text, Present: true, Path: x.doc.Path, Range: r}
}

// absent returns the value "not stated" at the release's anchor.
func (x *docIndex) absent(version string) Value {
	return Value{Path: x.doc.Path, Range: x.anchor(version)}
}

// maybe returns value or absent by ok.
func (x *docIndex) maybe(version, text string, ok bool, r diag.Range) Value {
	if !ok {
		return x.absent(version)
	}
	return x.value(version, text, r)
}

// rel returns the index of release version; never nil.
func (x *docIndex) rel(version string) *relIndex {
	if ri := x.rels[version]; ri != nil {
		return ri
	}
	b := x.blocks[version]
	if b == nil {
		return noRelease
	}
	var ri *relIndex
	if n := len(x.spare); n > 0 {
		ri, x.spare = x.spare[n-1], x.spare[:n-1]
	} else {
		ri = newRelIndex()
	}
	indexBlock(ri, b)
	x.rels[version] = ri
	return ri
}

// noRelease is the index of a release the document does not have; it is
// only read.
var noRelease = &relIndex{block: &syntax.ReleaseBlock{}}

type comparer struct {
	old, new *docIndex
	out      []Change
	// dropAdded says that the caller drops every ReleaseAdded
	// (Options.Drop), and left counts the changes found but not made for
	// that reason.
	dropAdded bool
	left      int
}

func (c *comparer) add(k Kind, release, subject string, o, n Value, msg string) *Change {
	ki, _ := LookupKind(k)
	c.out = append(c.out, Change{Kind: k, Level: ki.Level, Dimension: ki.Dimension, Release: release,
		Subject: subject, Old: o, New: n, Message: msg})
	return &c.out[len(c.out)-1]
}

// header compares the artifact-level parts: identity, description, INFO
// and the default POLICY.
func (c *comparer) header() {
	o, n := c.old, c.new
	oh, nh := o.doc.Header, n.doc.Header
	if oc, nc := o.rev.Coordinate().String(), n.rev.Coordinate().String(); oc != nc {
		c.add(ArtifactChanged, "", "artifact", o.value("", oc, argRange(oh.Artifact, 0)), n.value("", nc, argRange(nh.Artifact, 0)),
			fmt.Sprintf("artifact changes from %s to %s: the revisions are not of the same chain", oc, nc))
	}
	if od, nd := o.rev.Description(), n.rev.Description(); od != nd {
		c.add(DescriptionChanged, "", "description", o.value("", od, argRange(oh.Description, 0)), n.value("", nd, argRange(nh.Description, 0)),
			"artifact description changes")
	}
	ou, ouok := o.rev.Info()
	nu, nuok := n.rev.Info()
	if ouok != nuok || ou.String() != nu.String() {
		ov := o.maybe("", ou.String(), ouok, argRange(oh.Info, 0))
		nv := n.maybe("", nu.String(), nuok, argRange(nh.Info, 0))
		c.add(InfoChanged, "", "info", ov, nv, changeMessage("info uri", ov, nv))
	}
	op, opok := o.rev.Policy()
	np, npok := n.rev.Policy()
	if !opok {
		op = model.DefaultPolicy()
	}
	if !npok {
		np = model.DefaultPolicy()
	}
	ov := o.maybe("", policyText(op), opok, restRange(oh.Policy, 0))
	nv := n.maybe("", policyText(np), npok, restRange(nh.Policy, 0))
	c.policy("", "default policy", "default policy", "default policy reason", op, np, ov, nv, descRange(oh.Policy), descRange(nh.Policy))
}

// policy reports a change of verdict as policy-tightened or -relaxed, and a
// change of only the reason as description-changed.
//
// ov and nv are the policies' values; orr and nrr the ranges of their
// quoted reasons, used for a change of the reason alone (zero: the policy's
// range).
func (c *comparer) policy(release, subject, what, reasonWhat string, op, np model.Policy, ov, nv Value, orr, nrr diag.Range) {
	orank, nrank := rank(op.Verdict()), rank(np.Verdict())
	switch {
	case nrank > orank:
		c.add(PolicyTightened, release, subject, ov, nv,
			fmt.Sprintf("%s tightens from %s to %s", what, op.Verdict(), np.Verdict()))
	case nrank < orank:
		c.add(PolicyRelaxed, release, subject, ov, nv,
			fmt.Sprintf("%s relaxes from %s to %s", what, op.Verdict(), np.Verdict()))
	default:
		or, _ := op.Reason()
		nr, _ := np.Reason()
		if or != nr {
			orv, nrv := ov, nv
			orv.Text, nrv.Text = or, nr
			orv.Present, nrv.Present = or != "", nr != ""
			if orr.IsValid() {
				orv.Range = orr
			}
			if nrr.IsValid() {
				nrv.Range = nrr
			}
			c.add(DescriptionChanged, release, subject+" reason", orv, nrv, reasonWhat+" changes")
		}
	}
}

// rank orders verdicts by strictness.
func rank(v vt.Verdict) int {
	switch v {
	case vt.Deprecated:
		return 1
	case vt.Deny:
		return 2
	}
	return 0
}

func policyText(p model.Policy) string {
	if r, ok := p.Reason(); ok {
		return fmt.Sprintf("%s %q", p.Verdict(), r)
	}
	return p.Verdict().String()
}

// changeMessage describes a value that is added, removed or changed.
func changeMessage(what string, o, n Value) string {
	switch {
	case !o.Present:
		return fmt.Sprintf("%s %s is added", what, n.Text)
	case !n.Present:
		return fmt.Sprintf("%s %s is removed", what, o.Text)
	}
	return fmt.Sprintf("%s changes from %s to %s", what, o.Text, n.Text)
}

// releases matches the releases by version.
func (c *comparer) releases(history []model.Revision) {
	o, n := c.old, c.new
	for or := range o.rev.ReleasesByVersionSeq() {
		v := or.Version().String()
		nr, ok := n.rev.Release(or.Version())
		if !ok {
			c.add(ReleaseRemoved, v, "release", o.value(v, v, argRange(o.rel(v).block.Release, 0)), n.absent(v),
				fmt.Sprintf("release %s is removed", v))
			continue
		}
		// A block whose text is unchanged states the same release, and
		// its effective policy is its own or the default, never the
		// header's (see release): nothing to compare.
		if ot := o.blockText(v); ot == nil || !bytes.Equal(ot, n.blockText(v)) {
			c.release(v, or, nr)
		}
	}
	for nr := range n.rev.ReleasesByVersionSeq() {
		if _, ok := o.rev.Release(nr.Version()); ok {
			continue
		}
		v := nr.Version().String()
		ni := n.rel(v)
		nv := n.value(v, v, argRange(ni.block.Release, 0))
		if removedIn, ok := resurrected(nr.Version(), history, o.rev); ok {
			c.add(ReleaseResurrected, v, "release", o.absent(v), nv,
				fmt.Sprintf("release %s reappears after revision %s removed it", v, removedIn))
		} else if c.dropAdded {
			c.left++
		} else {
			c.add(ReleaseAdded, v, "release", o.absent(v), nv, fmt.Sprintf("release %s is added", v))
		}
		if pub, ok := nr.Published(); ok && pub.Before(o.rev.JournalVersion()) {
			ojv := o.rev.JournalVersion().String()
			c.add(ReleaseBackdated, v, "published",
				o.value("", ojv, argRange(o.doc.Header.JournalVersion, 0)),
				n.value(v, pub.String(), argRange(ni.single[syntax.KindPublished], 0)),
				fmt.Sprintf("new release %s is published at %s, before the previous revision's journal version %s", v, pub, ojv))
		}
	}
}

// contentsByName indexes the contents of r by name, so that matching the
// contents of two releases is O(C) rather than the O(C²) of looking each up
// with model.Release.Content.
func contentsByName(r model.Release) map[string]model.Content {
	m := make(map[string]model.Content, len(r.Contents()))
	for _, c := range r.Contents() {
		m[c.Name().String()] = c
	}
	return m
}

// resurrected reports whether version v, missing from old, was held by a
// revision of history, and names the revision that removed it.
func resurrected(v vt.Version, history []model.Revision, old model.Revision) (string, bool) {
	for i := len(history) - 1; i >= 0; i-- {
		if _, ok := history[i].Release(v); ok {
			if i+1 < len(history) {
				return history[i+1].JournalVersion().String(), true
			}
			return old.JournalVersion().String(), true
		}
	}
	return "", false
}

// release compares one release that both revisions have.
func (c *comparer) release(v string, or, nr model.Release) {
	o, n := c.old, c.new
	oi, ni := o.rel(v), n.rel(v)

	if ol, nl := or.License(), nr.License(); ol.String() != nl.String() {
		ch := c.add(ReleaseLicenseChanged, v, "license",
			o.value(v, ol.String(), argRange(oi.single[syntax.KindLicense], 0)),
			n.value(v, nl.String(), argRange(ni.single[syntax.KindLicense], 0)),
			fmt.Sprintf("license of release %s changes from %s to %s", v, ol, nl))
		if ol.Equivalent(nl) {
			ch.Level = diag.Info
			ch.Message += " (equivalent expressions)"
		}
	}

	oldContents, newContents := contentsByName(or), contentsByName(nr)
	for _, oc := range or.Contents() {
		name := oc.Name().String()
		ov := func() Value { return o.value(v, oc.Digest().String(), argRange(oi.content[name], 1)) }
		nc, ok := newContents[name]
		switch {
		case !ok:
			c.add(ReleaseContentRemoved, v, "content "+name, ov(), n.absent(v),
				fmt.Sprintf("content %s of release %s is removed", name, v))
		case nc.Digest() != oc.Digest():
			c.add(ReleaseContentChanged, v, "content "+name, ov(), n.value(v, nc.Digest().String(), argRange(ni.content[name], 1)),
				fmt.Sprintf("content %s of release %s changes digest", name, v))
		}
	}
	for _, nc := range nr.Contents() {
		name := nc.Name().String()
		if _, ok := oldContents[name]; !ok {
			c.add(ContentAdded, v, "content "+name, o.absent(v), n.value(v, nc.Digest().String(), argRange(ni.content[name], 1)),
				fmt.Sprintf("release %s adds content %s", v, name))
		}
	}

	od, odok := or.Description()
	nd, ndok := nr.Description()
	if od != nd {
		c.add(DescriptionChanged, v, "description",
			o.maybe(v, od, odok, argRange(oi.single[syntax.KindDescription], 0)),
			n.maybe(v, nd, ndok, argRange(ni.single[syntax.KindDescription], 0)),
			fmt.Sprintf("description of release %s changes", v))
	}

	op, opok := or.Published()
	np, npok := nr.Published()
	if opok != npok || op.Compare(np) != 0 {
		ov := o.maybe(v, op.String(), opok, argRange(oi.single[syntax.KindPublished], 0))
		nv := n.maybe(v, np.String(), npok, argRange(ni.single[syntax.KindPublished], 0))
		c.add(ReleasePublishedChanged, v, "published", ov, nv, publishedMessage(v, ov, nv))
	}

	_, ownOld := or.Policy()
	_, ownNew := nr.Policy()
	if ownOld || ownNew {
		oe, ne := or.EffectivePolicy(), nr.EffectivePolicy()
		ov := o.value(v, policyText(oe), c.policyRange(o, oi))
		nv := n.value(v, policyText(ne), c.policyRange(n, ni))
		c.policy(v, "policy", "policy of release "+v, "policy reason of release "+v, oe, ne, ov, nv,
			descRange(policyDirective(o, oi)), descRange(policyDirective(n, ni)))
	}

	c.refs(v, or, nr, oi, ni)
}

func publishedMessage(v string, o, n Value) string {
	switch {
	case !o.Present:
		return fmt.Sprintf("release %s gets a published time %s", v, n.Text)
	case !n.Present:
		return fmt.Sprintf("published time %s of release %s is removed", o.Text, v)
	}
	return fmt.Sprintf("published time of release %s changes from %s to %s", v, o.Text, n.Text)
}

// policyDirective is the POLICY that decides a release's effective policy:
// its own, else the header's, else nil.
func policyDirective(x *docIndex, ri *relIndex) *syntax.Directive {
	if d := ri.single[syntax.KindPolicy]; d != nil {
		return d
	}
	return x.doc.Header.Policy
}

// policyRange is the range of the POLICY that decides a release's effective
// policy: its own, else the header's, else its RELEASE directive.
func (c *comparer) policyRange(x *docIndex, ri *relIndex) diag.Range {
	if d := ri.single[syntax.KindPolicy]; d != nil {
		return restRange(d, 0)
	}
	if d := x.doc.Header.Policy; d != nil {
		return restRange(d, 0)
	}
	return argRange(ri.block.Release, 0)
}

// ref is one DEPENDS, EXCLUDES or PREFERS entry reduced to what is
// compared: its value (constraint, version, or "" for an exclusion) and
// its description.
type ref struct {
	value, description string
}

func depRefs(r model.Release) map[string]ref {
	m := map[string]ref{}
	for _, d := range r.Dependencies() {
		desc, _ := d.Description()
		m[d.Coordinate().String()] = ref{d.Constraint().String(), desc}
	}
	return m
}

func exclRefs(r model.Release) map[string]ref {
	m := map[string]ref{}
	for _, e := range r.Exclusions() {
		desc, _ := e.Description()
		m[e.Coordinate().String()] = ref{"", desc}
	}
	return m
}

func prefRefs(r model.Release) map[string]ref {
	m := map[string]ref{}
	for _, p := range r.Preferences() {
		desc, _ := p.Description()
		m[p.Coordinate().String()] = ref{p.Version().String(), desc}
	}
	return m
}

// refs compares the DEPENDS, EXCLUDES and PREFERS entries by coordinate.
func (c *comparer) refs(v string, or, nr model.Release, oi, ni *relIndex) {
	lists := []struct {
		kind      syntax.Kind
		word      string // subject prefix
		noun      string // in messages
		old, new_ map[string]ref
	}{
		{syntax.KindDepends, "depends", "dependency on", depRefs(or), depRefs(nr)},
		{syntax.KindExcludes, "excludes", "exclusion of", exclRefs(or), exclRefs(nr)},
		{syntax.KindPrefers, "prefers", "preference for", prefRefs(or), prefRefs(nr)},
	}
	for _, l := range lists {
		for _, coord := range unionKeys(l.old, l.new_) {
			orf, inOld := l.old[coord]
			nrf, inNew := l.new_[coord]
			od, nd := oi.refs[l.kind][coord], ni.refs[l.kind][coord]
			subject := l.word + " " + coord
			// The value is the entry without its description: the
			// coordinate, then the constraint or version.
			ov := c.old.maybe(v, refText(coord, orf), inOld, valueRange(od))
			nv := c.new.maybe(v, refText(coord, nrf), inNew, valueRange(nd))
			switch {
			case !inOld:
				c.add(ReleaseDependenciesChanged, v, subject, ov, nv,
					fmt.Sprintf("release %s adds %s %s", v, l.noun, nv.Text))
			case !inNew:
				c.add(ReleaseDependenciesChanged, v, subject, ov, nv,
					fmt.Sprintf("release %s drops %s %s", v, l.noun, coord))
			case orf.value != nrf.value:
				c.add(ReleaseDependenciesChanged, v, subject, ov, nv,
					fmt.Sprintf("%s %s of release %s changes from %s to %s", l.noun, coord, v, orf.value, nrf.value))
			}
			if inOld && inNew && orf.description != nrf.description {
				dov := c.old.maybe(v, orf.description, orf.description != "", descRange(od))
				dnv := c.new.maybe(v, nrf.description, nrf.description != "", descRange(nd))
				c.add(DescriptionChanged, v, subject+" description", dov, dnv,
					fmt.Sprintf("description of the %s %s of release %s changes", l.noun, coord, v))
			}
		}
	}
}

func refText(coord string, r ref) string {
	if r.value == "" {
		return coord
	}
	return coord + " " + r.value
}

// valueRange covers a reference's coordinate and value, not its quoted
// description.
func valueRange(d *syntax.Directive) diag.Range {
	if d == nil || len(d.Args) == 0 {
		return diag.Range{}
	}
	last := len(d.Args) - 1
	if d.Args[last].Quoted && last > 0 {
		last--
	}
	return diag.Range{Start: d.Args[0].Range().Start, End: d.Args[last].Range().End}
}

// descRange covers a reference's quoted description, or is zero.
func descRange(d *syntax.Directive) diag.Range {
	if d == nil || len(d.Args) == 0 || !d.Args[len(d.Args)-1].Quoted {
		return diag.Range{}
	}
	return d.Args[len(d.Args)-1].Range()
}

func unionKeys(a, b map[string]ref) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// noSemanticChange reports that two different texts mean the same, and
// names what differs (see invisibleChanges): "the texts differ only in
// line endings (LF → CRLF) and trailing white space (sha256:… →
// sha256:…)".
func (c *comparer) noSemanticChange() {
	o, n := c.old, c.new
	od, nd := o.doc.Digest.String(), n.doc.Digest.String()
	c.add(NoSemanticChange, "", "text", o.value("", od, diag.Range{}), n.value("", nd, diag.Range{}),
		fmt.Sprintf("the texts differ only in %s (%s → %s)", andList(invisibleChanges(o.doc.Src, n.doc.Src)), od, nd))
}

// andList joins items as "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
