package rules

import "github.com/r35157/journal-lint/internal/diag"

// semanticRules are the validity rules of the meaning of one revision
// (format spec §5), reported by the parser after the grammar checks.
var semanticRules = []Rule{
	validity(diag.SemanticDuplicateRelease, "a release version appears twice in one revision", valueDoc(`Release versions are unique within a revision (rule 5.2): a worldview that
describes one release twice cannot say which description is true. Versions
are compared by SemVer precedence. The related location is the first
release with the version.`,
		journalHead+`
RELEASE 1.0.0
LICENSE Apache-2.0
CONTENT widget-1.0.0.jar sha256:4444444444444444444444444444444444444444444444444444444444444444
`, journalHead+`
RELEASE 1.0.1
LICENSE Apache-2.0
CONTENT widget-1.0.1.jar sha256:4444444444444444444444444444444444444444444444444444444444444444
`)),
	validity(diag.SemanticDuplicateContent, "a CONTENT name appears twice in one release", valueDoc(`CONTENT names are unique within a release (rule 5.4): each names one file,
and two digests for the same file contradict each other.`,
		journalHead+"CONTENT widget-1.0.0.jar sha256:4444444444444444444444444444444444444444444444444444444444444444\n",
		journalHead+"CONTENT widget-1.0.0-sources.jar sha256:4444444444444444444444444444444444444444444444444444444444444444\n")),
	validity(diag.SemanticDuplicateReference, "a coordinate is repeated in one DEPENDS, EXCLUDES or PREFERS list", valueDoc(`Within a release a coordinate appears at most once among its DEPENDS, once
among its EXCLUDES and once among its PREFERS (rule 5.5). Several intervals
for one dependency go into a single constraint instead.`,
		journalHead+`DEPENDS org.example.core [1.2.0,1.3.0)
DEPENDS org.example.core [1.4.0,2.0.0)
`, journalHead+`DEPENDS org.example.core [1.2.0,1.3.0),[1.4.0,2.0.0)
`)),
	validity(diag.SemanticSelfReference, "a release depends on, excludes or prefers its own artifact", valueDoc(`A release never names the Journal's own ARTIFACT in DEPENDS, EXCLUDES or
PREFERS (rule 5.5): an artifact cannot depend on itself.`,
		journalHead+"DEPENDS com.example.widget [0.9.0,1.0.0)\n",
		journalHead+"DEPENDS org.example.core [1.2.0,2.0.0)\n")),
	validity(diag.SemanticReferenceConflict, "a coordinate is both depended on and excluded, or excluded and preferred", valueDoc(`Within a release a coordinate is not both in DEPENDS and in EXCLUDES, nor
both in EXCLUDES and in PREFERS (rule 5.5): the release cannot need an
artifact, or express a preference about it, and also remove it from its
dependency closure.`,
		journalHead+`DEPENDS org.example.core [1.2.0,2.0.0)
EXCLUDES org.example.core
`, journalHead+`DEPENDS org.example.core [1.2.0,2.0.0)
EXCLUDES org.example.legacy-shim
`)),
	validity(diag.SemanticPreferenceUnsatisfied, "a preferred version does not satisfy the dependency's constraint", valueDoc(`When a release both DEPENDS on and PREFERS a coordinate, the preferred
version satisfies the constraint (rule 5.6): a resolver could never pick it.
The related location is the DEPENDS line.`,
		journalHead+`DEPENDS org.example.core [1.2.0,1.3.0)
PREFERS org.example.core 1.4.2
`, journalHead+`DEPENDS org.example.core [1.2.0,2.0.0)
PREFERS org.example.core 1.4.2
`)),
	validity(diag.SemanticPublishedAfterVersion, "a release's PUBLISHED is later than JOURNAL_VERSION", valueDoc(`A release's PUBLISHED is not later than the revision's JOURNAL_VERSION
(rule 5.7): a worldview written at one instant cannot know a release
published after it.`,
		journalHead+"PUBLISHED 20260201T000000Z\n",
		journalHead+"PUBLISHED 20260101T000000Z\n")),
}
