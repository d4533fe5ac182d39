package rules

import "github.com/r35157/journal-lint/internal/diag"

// reportedElsewhere is the Check of the lint rules that another part of
// journal-lint reports (the git gate, the rule-pack host, the check engine):
// a document alone never shows them.
func reportedElsewhere(*Pass) {}

// configUnusedIgnore is config/unused-ignore, reported by the check engine
// (package internal/config) for an ignore entry that suppressed nothing.
var configUnusedIgnore = Rule{
	Code:            "config/unused-ignore",
	DefaultSeverity: diag.Warning,
	Summary:         "an ignore entry of .journal-lint.yaml matched no diagnostic",
	Doc: `Suppressions live in .journal-lint.yaml, never in Journal files (a comment
would change the revision's digest). An ` + "`ignore:`" + ` entry that matched no
diagnostic in this run is stale: the problem was fixed, the file is gone, or
the code or path pattern has a typo. Remove or correct it, so that it cannot
hide a new finding later. The range is the entry in the configuration file.

An entry that only covers a rule set to ` + "`off`" + ` is unused too: the rule
never reports, so there is nothing to ignore.

An entry's ` + "`path`" + ` is a glob over paths relative to the directory of the
configuration file, not to the Journal root: with .journal-lint.yaml at the
top of the repository and the root at journals/, write
` + "`journals/com.example.legacy/**`" + `, the path the output shows. A pattern
written relative to the root matches nothing and is reported here.

Failing example:

~~~text
$ cat .journal-lint.yaml
ignore:
  - code: style/crlf
    reason: "the imported files use CRLF"
$ journal-lint check journals
.journal-lint.yaml:2:5: warning: ignore entry for code "style/crlf" and any path matched no diagnostic [config/unused-ignore]
~~~

Passing example:

~~~text
$ cat .journal-lint.yaml
ignore:
  - code: style/crlf
    path: "journals/com.example.legacy/**"
    reason: "imported byte for byte from the old registry"
$ journal-lint check journals
0 errors, 0 warnings, 0 infos in 3 files (2 artifacts, 3 revisions)
~~~
`,
	Check: reportedElsewhere,
}

// checkBridgedLink is check/bridged-link, the note of the collect-all
// pipeline (internal/chain, Link.Bridge) on a revision whose predecessor
// was rejected.
var checkBridgedLink = Rule{
	Code:            "check/bridged-link",
	DefaultSeverity: diag.Info,
	Summary:         "a revision after a rejected one was checked against the last good head",
	Doc: `The Journal service refuses a whole tree when one revision is invalid, so it
never looks at the revisions after it. ` + "`journal-lint check`" + ` keeps going: when a
revision's PREDECESSOR names a revision of the same artifact that was rejected
(for a syntax, value, placement or chain error, reported on that file), it
checks the revision against the last accepted head instead: its Journal
version must still be later, and its own text must still be valid. This note
says so, and points at that head. It is not a problem of its own: fix the
rejected revision and the note goes away.

Failing example:

~~~text
$ journal-lint check journals
com.example.widget/20260201T080000Z.journal:5:8: error: invalid license "MTI": unknown license identifier: MTI [value/license]
com.example.widget/20260301T080000Z.journal:4:13: info: PREDECESSOR names a revision that was rejected; checked against the last good head 20260110T080000Z instead [check/bridged-link]
~~~

Passing example:

~~~text
$ journal-lint check journals
0 errors, 0 warnings, 0 infos in 3 files (1 artifact, 3 revisions)
~~~
`,
	Check: reportedElsewhere,
}
