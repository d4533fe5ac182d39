package syntax

import "github.com/r35157/journal-lint/journal/model"

// build interprets a text without diagnostics into the immutable
// model.Revision and sets RevisionOK. It relies on the checks already done:
// every required directive is present once and every value parsed.
//
// The revision owns what build allocates for it (model.NewRevisionOwned):
// the releases, and per kind of list one array that holds the lists of
// every release (parser.lists holds every item of the text, so its lengths
// are exact).
func (p *parser) build() {
	doc, st := p.doc, &p.state
	spec := model.RevisionSpec{
		Digest:         doc.Digest,
		Coordinate:     doc.Coordinate,
		JournalVersion: doc.JournalVersion,
		Description:    st.description,
		Releases:       make([]model.Release, 0, len(st.rels)),
	}
	if doc.PredecessorOK {
		spec.Predecessor = doc.Predecessor
	}
	if st.infoOK {
		u := st.info
		spec.Info = &u
	}
	if st.policyOK {
		pol := st.policy
		spec.Policy = &pol
	}
	contents := make([]model.Content, 0, len(p.lists[listContents]))
	depends := make([]model.Dependency, 0, len(p.lists[listDepends]))
	excludes := make([]model.Exclusion, 0, len(p.lists[listExcludes]))
	prefers := make([]model.Preference, 0, len(p.lists[listPrefers]))
	for _, rel := range st.rels {
		rs := model.ReleaseSpec{Version: rel.block.Version}
		if rel.license.d != nil {
			rs.License = rel.license.v.license
		}
		if rel.description.d != nil {
			rs.Description = rel.description.v.quoted
		}
		if rel.published.d != nil {
			rs.Published = rel.published.v.timestamp
		}
		if rel.policy.d != nil {
			pol := model.NewPolicy(rel.policy.v.verdict, rel.policy.v.quoted)
			rs.Policy = &pol
		}
		for _, it := range rel.contents {
			contents = append(contents, model.NewContent(it.v.name, it.v.digest))
		}
		for _, it := range rel.depends {
			depends = append(depends, model.NewDependency(it.v.coordinate, it.v.constraint, it.v.quoted))
		}
		for _, it := range rel.excludes {
			excludes = append(excludes, model.NewExclusion(it.v.coordinate, it.v.quoted))
		}
		for _, it := range rel.prefers {
			prefers = append(prefers, model.NewPreference(it.v.coordinate, it.v.version, it.v.quoted))
		}
		rs.Contents, contents = tail(contents, len(rel.contents))
		rs.Depends, depends = tail(depends, len(rel.depends))
		rs.Excludes, excludes = tail(excludes, len(rel.excludes))
		rs.Prefers, prefers = tail(prefers, len(rel.prefers))
		spec.Releases = append(spec.Releases, model.NewReleaseOwned(rs))
	}
	doc.Revision = model.NewRevisionOwned(spec)
	doc.RevisionOK = true
}

// tail returns the last n elements of s, capped so that nothing can be
// appended to them in place, and the rest of s's array after them, empty.
func tail[T any](s []T, n int) (last, rest []T) {
	return s[len(s)-n : len(s) : len(s)], s[len(s):]
}
