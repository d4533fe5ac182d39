package rules

import (
	"github.com/r35157/journal-lint/internal/diag"
)

// historyPassing is the passing example shared by the history/ docs.
const historyPassing = `Passing example:

~~~text
$ git diff --name-status origin/main -- journals
A       journals/com.example.widget/20260301T090000Z.journal    a new successor
$ journal-lint check --against origin/main journals
0 errors, 0 warnings, 0 infos in 3 files (1 artifact, 3 revisions)
~~~
`

// repoRules are the rules of the repository workflows, sorted by code. The
// check engine's git analyzer (internal/check/gitgate.go) reports them, not a
// Check on one document: they need git, which a Pass does not have.
var repoRules = []Rule{
	{
		Code:            "history/revision-deleted",
		DefaultSeverity: diag.Error,
		Summary:         "a Journal file that exists at the --against revision was deleted",
		Doc: `Reported by ` + "`journal-lint check --against REV`" + ` (and ` + "`--staged`" + `, which compares
against HEAD) for a Journal file that exists at REV under the root and is gone
from the work tree (or the index). An accepted revision is immutable and stays
forever: consumers have pinned its digest, and every successor names it in
PREDECESSOR, so deleting it breaks the chain for everyone who loads the
repository after the merge. To stop recommending releases, write a successor
revision that changes their POLICY.

The message gives the file's digest at REV; the help gives the
` + "`git checkout REV -- PATH`" + ` command that restores it. A file that only moved
is reported as history/revision-renamed instead.

Failing example:

~~~text
$ git rm journals/com.example.widget/20260110T080000Z.journal
$ journal-lint check --staged journals
com.example.widget/20260110T080000Z.journal: error: accepted revision com.example.widget/20260110T080000Z.journal was deleted (its digest at HEAD is sha256:aaaa…) [history/revision-deleted]
~~~

` + historyPassing,
		Check: reportedElsewhere,
	},
	{
		Code:            "history/revision-modified",
		DefaultSeverity: diag.Error,
		Summary:         "a Journal file that exists at the --against revision has other bytes now",
		Doc: `Reported by ` + "`journal-lint check --against REV`" + ` (and ` + "`--staged`" + `) for a Journal file
that exists at REV and whose bytes differ now. A revision's digest is the
SHA-256 of its exact bytes (format spec §1), so any edit (a typo fix, a
comment, trailing white space, other line endings) makes it a different
revision: the successor that names the old digest no longer links, and the
service rejects the new text for the same Journal version as chain/conflict.

The message shows both digests, the one at REV and the one now, and says when
the two differ only in line endings. A change of the file mode alone is not
reported. To change the worldview, restore the file and write a new successor
(` + "`journal-lint new COORDINATE`" + ` drafts one).

Failing example:

~~~text
$ sed -i 's/A tiny UI toolkit/A small UI toolkit/' journals/com.example.widget/20260110T080000Z.journal
$ journal-lint check --against origin/main journals
com.example.widget/20260110T080000Z.journal: error: accepted revision com.example.widget/20260110T080000Z.journal was modified: its digest at origin/main is sha256:aaaa…, now sha256:bbbb… [history/revision-modified]
~~~

` + historyPassing,
		Check: reportedElsewhere,
	},
	{
		Code:            "history/revision-renamed",
		DefaultSeverity: diag.Error,
		Summary:         "a Journal file that exists at the --against revision moved to another path",
		Doc: `Reported by ` + "`journal-lint check --against REV`" + ` (and ` + "`--staged`" + `) for a Journal file
that exists at REV and now lives at another path: git saw a rename, or a new
file holds exactly the bytes of a deleted one. A revision's path is fixed by
its ARTIFACT and JOURNAL_VERSION (format spec §7), so a moved revision is at
best unexpected and at worst loaded under the wrong name. The related
location is the old path; the message says when the bytes changed too.

Failing example:

~~~text
$ git mv journals/com.example.widget/20260110T080000Z.journal journals/com.example.widget/20260111T080000Z.journal
$ journal-lint check --staged journals
com.example.widget/20260111T080000Z.journal: error: accepted revision com.example.widget/20260110T080000Z.journal was renamed to com.example.widget/20260111T080000Z.journal (its digest at HEAD is sha256:aaaa…) [history/revision-renamed]
~~~

` + historyPassing,
		Check: reportedElsewhere,
	},
	{
		Code:            "repo/eol-conversion",
		DefaultSeverity: diag.Warning,
		Summary:         "git may convert the line endings of Journal files",
		Doc: `Reported once per check when the root lies inside a git work tree and
` + "`git check-attr text`" + ` says that git may convert the line endings of a loaded
Journal file: its ` + "`text`" + ` attribute is set, ` + "`auto`" + ` or unspecified (so
` + "`core.autocrlf`" + ` on some clone decides). A checkout that converts line endings
changes the bytes, hence every digest, and a successor's PREDECESSOR then
names no known revision (chain/missing-predecessor, whose message then says
that line endings explain it).

The fix is two lines in the .gitattributes at the top of the repository,
which unset ` + "`text`" + ` so git stores and checks out the exact bytes:

~~~text
*.journal -text
*.journal.example -text
~~~

` + "`binary`" + ` works too. ` + "`eol=lf`" + ` is wrong here: it turns conversion on and rewrites
CRLF-authored Journals (which the format allows) to LF on checkout, changing
their digests. A file that was already converted on checkout keeps its wrong
bytes until it is checked out again (delete it, then ` + "`git checkout -- PATH`" + `).

Failing example:

~~~text
$ cat .gitattributes
* text=auto
$ journal-lint check journals
warning: git may convert the line endings of 3 Journal files, which changes their digests (first: com.example.widget/20260110T080000Z.journal (text: auto, eol: unspecified)) [repo/eol-conversion]
~~~

Passing example:

~~~text
$ cat .gitattributes
* text=auto
*.journal -text
*.journal.example -text
$ journal-lint check journals
0 errors, 0 warnings, 0 infos in 3 files (1 artifact, 3 revisions)
~~~
`,
		Check: reportedElsewhere,
	},
}
