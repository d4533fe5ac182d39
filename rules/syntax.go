package rules

import "github.com/r35157/journal-lint/internal/diag"

// minimalJournal is the passing example shared by several syntax/ docs: the
// smallest valid Journal.
const minimalJournal = `Passing example:

~~~journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
~~~
`

// syntaxRules are the validity rules of the text and line grammar (format
// spec §2 and §3), reported by the parser.
var syntaxRules = []Rule{
	validity(diag.SyntaxEncoding, "invalid UTF-8, a byte-order mark, or a forbidden control character", `A Journal is UTF-8 without a byte-order mark, and must not contain the
control characters U+0000–U+0008, U+000B, U+000C, U+000E–U+001F, U+007F or
U+0080–U+009F (format spec §2). TAB is white space; inside a quoted string it
is written as \t. The range is the offending bytes. Below, the file starts
with a byte-order mark and a comment holds a BEL.

Failing example:

~~~journal
⟦U+FEFF⟧JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
# ring ⟦U+0007⟧
~~~

`+minimalJournal),
	validity(diag.SyntaxLineEnding, "mixed LF and CRLF line endings, or a lone CR", `Lines end with LF or with CRLF, and one file uses one of the two throughout;
a CR that is not followed by LF is an error (format spec §2). Mixed endings
usually come from editing a file on two systems; since the digest covers
every byte, the file must be fixed before it is accepted.

Failing example:

~~~journal
JOURNAL_FORMAT 1␍
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
~~~

`+minimalJournal),
	validity(diag.SyntaxUnknownDirective, "an unknown or lowercase keyword", `Every directive starts with one of the keywords of format spec §3, written in
uppercase; keywords are case-sensitive and an unknown one is an error (format
spec §2), so that a typo never passes as an ignored extension.

Failing example:

~~~journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
HOMEPAGE https://widgets.example.org/
~~~

Passing example:

~~~journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
INFO https://widgets.example.org/
~~~
`),
	validity(diag.SyntaxMisplacedDirective, "a directive out of order or in the wrong part of the file", `The header directives come in exactly the order JOURNAL_FORMAT, ARTIFACT,
JOURNAL_VERSION, PREDECESSOR, DESCRIPTION, INFO, POLICY, all before the first
RELEASE; release directives (LICENSE, CONTENT, PUBLISHED, DEPENDS, …) come only
inside a release block (format spec §3).

Failing example:

~~~journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
INFO https://widgets.example.org/
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
~~~

Passing example:

~~~journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
INFO https://widgets.example.org/

RELEASE 1.0.0
LICENSE MIT
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
~~~
`),
	validity(diag.SyntaxDuplicateDirective, "a directive that may appear once appears again", `Each header directive appears at most once, and within a release LICENSE,
DESCRIPTION, PUBLISHED and POLICY appear at most once (format spec §3 and
rule 5.3). The diagnostic points at the repetition; its related location is
the first occurrence.

Failing example:

~~~journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
LICENSE Apache-2.0
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
~~~

Passing example:

~~~journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT OR Apache-2.0
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
~~~
`),
	validity(diag.SyntaxMissingDirective, "a required directive is absent", `The header needs JOURNAL_FORMAT, ARTIFACT, JOURNAL_VERSION and DESCRIPTION
(and PREDECESSOR in every revision but the genesis, which the chain checks);
every release needs exactly one LICENSE and at least one CONTENT (format spec
§3 and rule 5.3).

Failing example:

~~~journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
~~~

Passing example:

~~~journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
~~~
`),
	validity(diag.SyntaxArguments, "wrong number or form of arguments, or a bad quoted string", `Each directive takes the arguments of format spec §3: a fixed number of bare
tokens and, where the grammar allows one, a final quoted string in JSON string
syntax on one line (format spec §2). Too many or too few arguments, a quoted
string where a bare token belongs (or the reverse), an unterminated string or
a bad escape are reported here; a bare token of the right count but the wrong
form is a value/ error instead.

Failing example:

~~~journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget com.example.gadget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit
~~~

`+minimalJournal),
	validity(diag.SyntaxEmpty, "the text is empty or blank", `Added by this project. A Journal text that is empty, or holds only spaces,
tabs and line terminators, is rejected as a whole (the requirements reject
null, empty or blank input) rather than with one missing-directive
diagnostic per header line.

Failing example:

~~~journal
␠␠
~~~

`+minimalJournal),
}
