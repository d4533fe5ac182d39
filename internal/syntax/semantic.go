package syntax

import (
	"fmt"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

// This file holds the rules of "Semantic rules" in docs/journal-format.md that
// go beyond one directive: rules 2 and 4–7. Rule 1 (header complete and in
// order, format 1) and rule 3 (per-release LICENSE/CONTENT/… counts) are
// structural and reported by parse.go with syntax/… and value/format codes, as
// "Diagnostic codes" in docs/journal-format.md assigns. Every rule here looks
// only at values that parsed; a value that did not parse already has its own
// value/… diagnostic.

// checkSemantics runs rules 2 and 4–7 over the whole text.
func (p *parser) checkSemantics() {
	p.checkDuplicateReleases()
	for _, rel := range p.state.rels {
		p.checkContents(rel)
		p.checkReferences(rel)
		p.checkPublished(rel)
	}
}

// keyed is one parsed value of a list with the directive that states it.
type keyed struct {
	key  string
	d    *Directive
	arg  int
	item int // index in the release's item list (coordinates only)
}

// firstByKey returns, for each element of list after the first with its
// key, the index of that first element; -1 when the element is the first.
// Lists are short, so small ones are searched linearly.
// The result is p's scratch, valid until the next call.
func (p *parser) firstByKey(list []keyed) []int {
	if cap(p.keys.idx) < len(list) {
		p.keys.idx = make([]int, len(list))
	}
	out := p.keys.idx[:len(list)]
	if len(list) <= 16 {
		for i := range list {
			out[i] = -1
			for j := 0; j < i; j++ {
				if list[j].key == list[i].key {
					out[i] = j
					break
				}
			}
		}
		return out
	}
	seen := make(map[string]int, len(list))
	for i, k := range list {
		if j, ok := seen[k.key]; ok {
			out[i] = j
			continue
		}
		seen[k.key] = i
		out[i] = -1
	}
	return out
}

// putList keeps list, grown from k.list, as the scratch of the next list.
func (k *keyScratch) putList(list []keyed) {
	k.list = list[:0]
	k.listUsed = max(k.listUsed, len(list))
}

// checkDuplicateReleases reports a release version stated twice
// (rule 2 of "Semantic rules" in docs/journal-format.md: semantic/duplicate-release).
func (p *parser) checkDuplicateReleases() {
	list := p.keys.list[:0]
	defer func() { p.keys.putList(list) }()
	for _, rel := range p.state.rels {
		if rel.block.VersionOK {
			list = append(list, keyed{rel.block.Version.String(), rel.block.Release, 0, 0})
		}
	}
	for i, j := range p.firstByKey(list) {
		if j < 0 {
			continue
		}
		p.report(rules.SemanticDuplicateRelease, list[i].d.Args[0].Range(),
			fmt.Sprintf("duplicate release %s", list[i].key),
			"each release version appears once in a revision (rule 2 of \"Semantic rules\" in docs/journal-format.md)",
			diag.Related{Range: list[j].d.Args[0].Range(), Message: "first stated here"})
	}
}

// checkContents reports a CONTENT name repeated within one release
// (rule 4 of "Semantic rules" in docs/journal-format.md: semantic/duplicate-content).
func (p *parser) checkContents(rel *release) {
	if len(rel.contents) < 2 {
		return
	}
	list := p.keys.list[:0]
	defer func() { p.keys.putList(list) }()
	for _, it := range rel.contents {
		if it.v.ok[0] {
			list = append(list, keyed{it.v.name.String(), it.d, 0, 0})
		}
	}
	for i, j := range p.firstByKey(list) {
		if j < 0 {
			continue
		}
		p.report(rules.SemanticDuplicateContent, list[i].d.Args[0].Range(),
			fmt.Sprintf("duplicate content name %s", quoteShort(list[i].key)),
			"CONTENT names are unique within a release (rule 4 of \"Semantic rules\" in docs/journal-format.md)",
			diag.Related{Range: list[j].d.Args[0].Range(), Message: "first stated here"})
	}
}

// coordinates returns the parsed coordinates of a reference list, and reports
// each that is the Journal's own ARTIFACT (semantic/self-reference) or repeats
// an earlier one of the same list (semantic/duplicate-reference), rule 5 of
// "Semantic rules" in docs/journal-format.md. The result holds first
// occurrences only. The result is p.keys.first[slot], valid until the next call
// with that slot.
func (p *parser) coordinates(items []item, slot int) []keyed {
	list := p.keys.list[:0]
	defer func() { p.keys.putList(list) }()
	for i, it := range items {
		if it.v.ok[0] {
			list = append(list, keyed{it.v.coordinate.String(), it.d, 0, i})
		}
	}
	own := ""
	if p.doc.CoordinateOK {
		own = p.doc.Coordinate.String()
	}
	firsts := p.keys.first[slot][:0]
	defer func() {
		p.keys.first[slot] = firsts
		p.keys.firstUsed[slot] = max(p.keys.firstUsed[slot], len(firsts))
	}()
	for i, j := range p.firstByKey(list) {
		k := list[i]
		if k.key == own {
			p.report(rules.SemanticSelfReference, k.d.Args[0].Range(),
				fmt.Sprintf("reference to the journal's own artifact %s in %s", k.key, k.d.Keyword),
				"a release cannot depend on, exclude or prefer its own artifact (rule 5 of \"Semantic rules\" in docs/journal-format.md)",
				diag.Related{Range: p.doc.Header.Artifact.Args[0].Range(), Message: "ARTIFACT stated here"})
		}
		if j >= 0 {
			p.report(rules.SemanticDuplicateReference, k.d.Args[0].Range(),
				fmt.Sprintf("coordinate %s listed twice in %s", k.key, k.d.Keyword),
				fmt.Sprintf("a coordinate appears at most once in the %s list of a release (rule 5 of \"Semantic rules\" in docs/journal-format.md)", k.d.Keyword),
				diag.Related{Range: list[j].d.Args[0].Range(), Message: "first stated here"})
			continue
		}
		firsts = append(firsts, k)
	}
	return firsts
}

// checkReferences checks the DEPENDS, EXCLUDES and PREFERS lists of one
// release: rules 5 and 6 of "Semantic rules" in docs/journal-format.md.
func (p *parser) checkReferences(rel *release) {
	if len(rel.depends)+len(rel.excludes)+len(rel.prefers) == 0 {
		return
	}
	deps := p.coordinates(rel.depends, 0)
	excl := p.coordinates(rel.excludes, 1)
	prefs := p.coordinates(rel.prefers, 2)

	depOf := byKey(deps)
	conflict := func(a, b *Directive, key string) {
		// Report at the later of the two lines, pointing back at the other.
		if b.Line < a.Line {
			a, b = b, a
		}
		p.report(rules.SemanticReferenceConflict, b.Args[0].Range(),
			fmt.Sprintf("coordinate %s is both in %s and in %s", key, a.Keyword, b.Keyword),
			"a coordinate cannot be both depended on and excluded, nor both excluded and preferred (rule 5 of \"Semantic rules\" in docs/journal-format.md)",
			diag.Related{Range: a.Args[0].Range(), Message: a.Keyword + " stated here"})
	}
	prefOf := byKey(prefs)
	for _, e := range excl {
		if d, ok := depOf(e.key); ok {
			conflict(d.d, e.d, e.key)
		}
		if d, ok := prefOf(e.key); ok {
			conflict(e.d, d.d, e.key)
		}
	}

	// Rule 6: a preferred version satisfies the constraint of the same
	// coordinate's DEPENDS.
	for _, pk := range prefs {
		dk, ok := depOf(pk.key)
		if !ok {
			continue
		}
		dep := dk.d
		pit, dit := &rel.prefers[pk.item], &rel.depends[dk.item]
		if !pit.v.ok[1] || !dit.v.ok[1] {
			continue
		}
		if !dit.v.constraint.Contains(pit.v.version) {
			p.report(rules.SemanticPreferenceUnsatisfied, pk.d.Args[1].Range(),
				fmt.Sprintf("preferred version %s of %s is outside the DEPENDS constraint %s",
					pit.v.version.String(), pk.key, dit.v.constraint.String()),
				"prefer a version the constraint accepts, or widen the constraint (rule 6 of \"Semantic rules\" in docs/journal-format.md)",
				diag.Related{Range: dep.Args[1].Range(), Message: "constraint stated here"})
		}
	}
}

// byKey returns a lookup of the element of list (whose keys are distinct)
// with a key: a linear search for a short list, a map for a long one, so
// that checking n references of a release is O(n), not O(n²).
func byKey(list []keyed) func(string) (keyed, bool) {
	if len(list) <= 16 {
		return func(key string) (keyed, bool) {
			for _, k := range list {
				if k.key == key {
					return k, true
				}
			}
			return keyed{}, false
		}
	}
	m := make(map[string]keyed, len(list))
	for _, k := range list {
		m[k.key] = k
	}
	return func(key string) (keyed, bool) {
		k, ok := m[key]
		return k, ok
	}
}

// checkPublished reports a PUBLISHED later than the revision's JOURNAL_VERSION
// (rule 7 of "Semantic rules" in docs/journal-format.md:
// semantic/published-after-version).
func (p *parser) checkPublished(rel *release) {
	pub := &rel.published
	if pub.d == nil || !pub.v.ok[0] || !p.doc.JournalVersionOK {
		return
	}
	if pub.v.timestamp.Compare(p.doc.JournalVersion) > 0 {
		p.report(rules.SemanticPublishedAfterVersion, pub.d.Args[0].Range(),
			fmt.Sprintf("published %s is later than the journal version %s",
				pub.v.timestamp.String(), p.doc.JournalVersion.String()),
			"a revision cannot know a release published after it was written (rule 7 of \"Semantic rules\" in docs/journal-format.md)",
			diag.Related{Range: p.doc.Header.JournalVersion.Args[0].Range(), Message: "JOURNAL_VERSION stated here"})
	}
}
