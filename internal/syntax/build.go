package syntax

import "github.com/r35157/journal-lint/journal/model"

// build interprets a text without diagnostics into the immutable
// model.Revision and sets RevisionOK. It relies on the checks already done:
// every required directive is present once and every value parsed.
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
	contents := []model.Content{}
	depends := []model.Dependency{}
	excludes := []model.Exclusion{}
	prefers := []model.Preference{}
	for _, rel := range st.rels {
		rs := model.ReleaseSpec{
			Version: rel.block.Version,
			// model.NewRelease copies these slices, so one scratch
			// of each serves every release.
			Contents: contents[:0],
			Depends:  depends[:0],
			Excludes: excludes[:0],
			Prefers:  prefers[:0],
		}
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
			rs.Contents = append(rs.Contents, model.NewContent(it.v.name, it.v.digest))
		}
		for _, it := range rel.depends {
			rs.Depends = append(rs.Depends, model.NewDependency(it.v.coordinate, it.v.constraint, it.v.quoted))
		}
		for _, it := range rel.excludes {
			rs.Excludes = append(rs.Excludes, model.NewExclusion(it.v.coordinate, it.v.quoted))
		}
		for _, it := range rel.prefers {
			rs.Prefers = append(rs.Prefers, model.NewPreference(it.v.coordinate, it.v.version, it.v.quoted))
		}
		spec.Releases = append(spec.Releases, model.NewRelease(rs))
		contents, depends, excludes, prefers = rs.Contents, rs.Depends, rs.Excludes, rs.Prefers
	}
	doc.Revision = model.NewRevision(spec)
	doc.RevisionOK = true
}
