package rules

import (
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
)

// historyDoc is the documentation of one history/<kind> rule: why the
// change matters, and a failing and a passing pair of revisions, each
// written as the relevant lines of the previous and the current revision.
type historyDoc struct {
	kind     diff.Kind
	why      string
	failPrev string
	failCur  string
	passPrev string
	passCur  string
}

// historyRules lists one cross-revision rule per kind of the semantic diff
// engine (package internal/diff, issue 4), with the kind's default level.
// The check engine produces them across revisions, so they have no Check.
var historyRules = buildHistoryRules([]historyDoc{
	{diff.ReleaseRemoved,
		"A Journal revision states the complete worldview of an artifact, so a release that a successor leaves out is deleted from history: resolvers that pinned it lose it without a reason. To withdraw a release, a successor keeps it and gives it `POLICY deny \"reason\"`.",
		"RELEASE 1.0.0\nLICENSE MIT\nCONTENT widget-1.0.0.jar sha256:1111…\n\nRELEASE 1.1.0\nLICENSE MIT\nCONTENT widget-1.1.0.jar sha256:2222…",
		"RELEASE 1.1.0\nLICENSE MIT\nCONTENT widget-1.1.0.jar sha256:2222…",
		"RELEASE 1.0.0\nLICENSE MIT\nCONTENT widget-1.0.0.jar sha256:1111…",
		"RELEASE 1.0.0\nLICENSE MIT\nCONTENT widget-1.0.0.jar sha256:1111…\nPOLICY deny \"broken build\"",
	},
	{diff.ReleaseContentChanged,
		"A CONTENT line pins the exact bytes of a published file. When a later revision gives the same name another digest, either the file was replaced after publication or the Journal is being used to bless a tampered artifact: the supply-chain red flag. Publish a new release instead.",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:9999…",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…\n\nRELEASE 1.0.1\nCONTENT widget-1.0.1.jar sha256:9999…",
	},
	{diff.ReleaseContentRemoved,
		"Removing a CONTENT entry of a published release drops the digest that let consumers verify that file; the file itself did not stop existing.",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…\nCONTENT widget-1.0.0.jar.asc sha256:2222…",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…",
	},
	{diff.ReleasePublishedChanged,
		"When a release was published is history. Changing, adding or removing PUBLISHED of an existing release rewrites it, and can hide a backdated release.",
		"RELEASE 1.0.0\nPUBLISHED 20260101T000000Z",
		"RELEASE 1.0.0\nPUBLISHED 20251201T000000Z",
		"RELEASE 1.0.0\nPUBLISHED 20260101T000000Z",
		"RELEASE 1.0.0\nPUBLISHED 20260101T000000Z",
	},
	{diff.ReleaseDependenciesChanged,
		"The DEPENDS, EXCLUDES and PREFERS lines of a published release describe how it was built and tested. Changing them afterwards changes what resolvers pick for a release people already use; publish a new release, or withdraw the old one with POLICY.",
		"RELEASE 1.0.0\nDEPENDS org.example.core [1.2.0,2.0.0)",
		"RELEASE 1.0.0\nDEPENDS org.example.core [1.4.0,2.0.0)",
		"RELEASE 1.0.0\nDEPENDS org.example.core [1.2.0,2.0.0)",
		"RELEASE 1.0.0\nDEPENDS org.example.core [1.2.0,2.0.0) \"the core library\"",
	},
	{diff.ArtifactChanged,
		"Two revisions with different ARTIFACT lines are not of the same chain, so everything else in the comparison is meaningless. In check this cannot happen between accepted revisions; in `journal-lint diff` it means two unrelated files were compared.",
		"ARTIFACT com.example.widget",
		"ARTIFACT com.example.gadget",
		"ARTIFACT com.example.widget",
		"ARTIFACT com.example.widget",
	},
	{diff.ReleaseLicenseChanged,
		"The license of a published release is what its users accepted. A change is reported as a warning for legal review; when the two SPDX expressions are equivalent (a deprecated identifier and its replacement, operands reordered, redundant parentheses) it is reported as info instead.",
		"RELEASE 1.0.0\nLICENSE MIT",
		"RELEASE 1.0.0\nLICENSE Apache-2.0",
		"RELEASE 1.0.0\nLICENSE MIT",
		"RELEASE 1.0.0\nLICENSE MIT",
	},
	{diff.PolicyTightened,
		"A stricter effective policy (allow → deprecated → deny) changes what consumers may use; it is often right (a security withdrawal), but reviewers should see it.",
		"RELEASE 1.0.0\nPOLICY allow",
		"RELEASE 1.0.0\nPOLICY deny \"CVE-2026-0001\"",
		"RELEASE 1.0.0\nPOLICY deny \"CVE-2026-0001\"",
		"RELEASE 1.0.0\nPOLICY deny \"CVE-2026-0001: remote code execution\"",
	},
	{diff.ReleaseBackdated,
		"A release that is new in this revision but was PUBLISHED before the previous revision was written should have been in the previous worldview. Either PUBLISHED is wrong, or a release is slipped into history after the fact.",
		"JOURNAL_VERSION 20260201T000000Z",
		"JOURNAL_VERSION 20260301T000000Z\n\nRELEASE 1.1.0\nPUBLISHED 20260115T000000Z",
		"JOURNAL_VERSION 20260201T000000Z",
		"JOURNAL_VERSION 20260301T000000Z\n\nRELEASE 1.1.0\nPUBLISHED 20260215T000000Z",
	},
	{diff.ReleaseResurrected,
		"A version that an earlier revision removed appears again. A version number names one build forever; bringing it back, possibly with other content, confuses every consumer that saw it disappear.",
		"# an earlier revision had RELEASE 1.0.0; this one dropped it\nRELEASE 1.1.0",
		"RELEASE 1.0.0\n\nRELEASE 1.1.0",
		"RELEASE 1.0.0\nPOLICY deny \"broken build\"\n\nRELEASE 1.1.0",
		"RELEASE 1.0.0\nPOLICY deny \"broken build\"\n\nRELEASE 1.1.0",
	},
	{diff.ReleaseAdded,
		"A new release is the normal way a Journal grows. It is reported for the record (info) and is off in check unless enabled.",
		"RELEASE 1.0.0",
		"RELEASE 1.0.0\n\nRELEASE 1.1.0",
		"RELEASE 1.0.0",
		"RELEASE 1.0.0",
	},
	{diff.ContentAdded,
		"An existing release gets another CONTENT file, such as a signature or an SBOM published later. It does not change the files already pinned.",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…\nCONTENT widget-1.0.0.jar.asc sha256:2222…",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…",
		"RELEASE 1.0.0\nCONTENT widget-1.0.0.jar sha256:1111…",
	},
	{diff.PolicyRelaxed,
		"A less strict effective policy (deny → deprecated → allow) makes a release usable again; reported for the record.",
		"RELEASE 1.0.0\nPOLICY deprecated \"use 2.x\"",
		"RELEASE 1.0.0",
		"RELEASE 1.0.0\nPOLICY deprecated \"use 2.x\"",
		"RELEASE 1.0.0\nPOLICY deprecated \"use 2.x\"",
	},
	{diff.DescriptionChanged,
		"A quoted text changed: the artifact or a release DESCRIPTION, a POLICY reason, or the description of a DEPENDS, EXCLUDES or PREFERS entry. `journal-lint diff` shows the change word by word.",
		"DESCRIPTION \"A tiny UI toolkit\"",
		"DESCRIPTION \"A small UI toolkit\"",
		"DESCRIPTION \"A tiny UI toolkit\"",
		"DESCRIPTION \"A tiny UI toolkit\"",
	},
	{diff.InfoChanged,
		"The INFO URI of the artifact was added, removed or changed; reviewers may want to check where it now points.",
		"INFO https://example.com/widget",
		"INFO https://example.org/widget",
		"INFO https://example.com/widget",
		"INFO https://example.com/widget",
	},
	{diff.NoSemanticChange,
		"The texts differ, but only in comments, spacing, order, line endings or chain metadata: the worldview is the same. Reported with both revision digests so that a reviewer knows nothing else needs reading. Under `journal-lint check --staged` (the pre-commit hook) a revision that the commit adds and that changes nothing is a warning even when not configured: a successor drafted with `journal-lint new` and committed without its edit.",
		"RELEASE 1.0.0\nLICENSE MIT\n# signed off by the release team",
		"# signed off by the release team\nRELEASE 1.0.0\nLICENSE MIT",
		"RELEASE 1.0.0\nLICENSE MIT",
		"RELEASE 1.0.0\nLICENSE MIT\n\nRELEASE 1.1.0\nLICENSE MIT",
	},
})

// buildHistoryRules turns the docs into rules, taking level and summary
// from the diff engine so that the two cannot disagree.
func buildHistoryRules(docs []historyDoc) []Rule {
	out := make([]Rule, 0, len(docs))
	for _, d := range docs {
		ki, ok := diff.LookupKind(d.kind)
		if !ok {
			continue // a kind the engine does not know fails TestHistoryRulesCoverKinds
		}
		offNote := ""
		if ki.Level == diag.Info {
			offNote = "\n\nAs an info kind it is off in `journal-lint check` unless `.journal-lint.yaml` sets a level for it under `rules:`; `journal-lint diff` always shows it."
		}
		doc := fmt.Sprintf(`%s

The check engine compares every consecutive pair of accepted revisions of
every chain with the semantic diff engine and reports this code on the newer
revision, with the older revision's location as related information; `+"`journal-lint diff`"+`
reports the same change as kind `+"`%s`"+` (dimension %s). It is a
cross-revision rule: one file alone can never trigger it.%s

Failing example:

%s

Passing example:

%s
`, d.why, d.kind, ki.Dimension, offNote, pair(d.failPrev, d.failCur), pair(d.passPrev, d.passCur))
		out = append(out, Rule{
			Code:            d.kind.Code(),
			DefaultSeverity: ki.Level,
			Summary:         ki.Summary,
			Doc:             doc,
			CrossRevision:   true,
		})
	}
	return out
}

// pair writes the relevant lines of two consecutive revisions as one text
// example.
func pair(prev, cur string) string {
	return "```text\n# previous revision\n" + strings.TrimSpace(prev) + "\n\n# current revision\n" + strings.TrimSpace(cur) + "\n```"
}
