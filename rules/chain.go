package rules

import "github.com/r35157/journal-lint/internal/diag"

// goodChain is the passing example shared by the chain/ docs: a valid
// two-revision chain, digests written as placeholders.
const goodChain = `Passing example:

~~~text
-- com.example.widget/20260110T080000Z.journal --   digest sha256:aaaa…
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
-- com.example.widget/20260201T080000Z.journal --
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260201T080000Z
PREDECESSOR sha256:aaaa…
DESCRIPTION "A tiny UI toolkit"
~~~
`

// chainRules are the validity rules of the per-artifact hash chain (format
// spec §6), reported when revisions are ingested in ascending JOURNAL_VERSION
// order. Their examples are several files, written as
// "-- path --" headers followed by the file's text; "sha256:aaaa…" stands
// for the full digest of the file named so.
var chainRules = []Rule{
	validity(diag.ChainDuplicateGenesis, "a second genesis for a coordinate", `Each artifact has exactly one genesis, the revision without PREDECESSOR
(format spec §6). A later revision without PREDECESSOR would start a second,
unrelated history. The related location is the first genesis.

Failing example:

~~~text
-- com.example.widget/20260110T080000Z.journal --
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
-- com.example.widget/20260201T080000Z.journal --
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260201T080000Z
DESCRIPTION "A tiny UI toolkit"
~~~

`+goodChain),
	validity(diag.ChainMissingPredecessor, "PREDECESSOR names no known revision", `A successor's PREDECESSOR must be the digest of a revision that is already
known (format spec §6). A digest that matches nothing usually means the
predecessor's file was edited after the digest was taken, or the digest was
copied from elsewhere.

Failing example:

~~~text
-- com.example.widget/20260110T080000Z.journal --   digest sha256:aaaa…
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
-- com.example.widget/20260201T080000Z.journal --
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260201T080000Z
PREDECESSOR sha256:0000000000000000000000000000000000000000000000000000000000000000
DESCRIPTION "A tiny UI toolkit"
~~~

`+goodChain),
	validity(diag.ChainCrossArtifact, "PREDECESSOR names a revision of another coordinate", `A successor continues the chain of its own artifact: its PREDECESSOR must be
the digest of a revision with the same ARTIFACT (format spec §6). The related
location is the revision the digest belongs to.

Failing example:

~~~text
-- org.example.core/20260105T090000Z.journal --     digest sha256:cccc…
JOURNAL_FORMAT 1
ARTIFACT org.example.core
JOURNAL_VERSION 20260105T090000Z
DESCRIPTION "Core utilities"
-- com.example.widget/20260110T080000Z.journal --   digest sha256:aaaa…
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
-- com.example.widget/20260201T080000Z.journal --
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260201T080000Z
PREDECESSOR sha256:cccc…
DESCRIPTION "A tiny UI toolkit"
~~~

`+goodChain),
	validity(diag.ChainFork, "PREDECESSOR names a known revision that is not the head", `A chain is linear: a successor's PREDECESSOR must be the digest of the
current head of its artifact (format spec §6). Naming an older revision would
fork the history into two branches. The related location is the current
head.

Failing example:

~~~text
-- com.example.widget/20260110T080000Z.journal --   digest sha256:aaaa…
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
-- com.example.widget/20260201T080000Z.journal --   digest sha256:bbbb…
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260201T080000Z
PREDECESSOR sha256:aaaa…
DESCRIPTION "A tiny UI toolkit"
-- com.example.widget/20260301T080000Z.journal --
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260301T080000Z
PREDECESSOR sha256:aaaa…
DESCRIPTION "A tiny UI toolkit"
~~~

`+goodChain),
	validity(diag.ChainNonIncreasingVersion, "JOURNAL_VERSION is not later than the predecessor's", `A successor's JOURNAL_VERSION must be strictly later than its predecessor's
(format spec §6): the chain is chronological. On disk the file names order the
revisions, so this is mostly seen when revisions are supplied through the
service; see also time/future-version, which keeps one future-dated
revision from blocking every successor.

Failing example:

~~~text
head:        com.example.widget at 20260201T080000Z, digest sha256:bbbb…
supplied:
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260115T080000Z
PREDECESSOR sha256:bbbb…
DESCRIPTION "A tiny UI toolkit"
~~~

Passing example:

~~~text
head:        com.example.widget at 20260201T080000Z, digest sha256:bbbb…
supplied:
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260301T080000Z
PREDECESSOR sha256:bbbb…
DESCRIPTION "A tiny UI toolkit"
~~~
`),
	validity(diag.ChainConflict, "different text for an existing coordinate and version", `A revision is identified by its artifact and JOURNAL_VERSION, and accepted
revisions never change. Supplying the exact same bytes again is harmless, but
different text for a coordinate and version that already exist is a conflict
(format spec §6), even when it means the same (a comment or a space
changed), because the digest and with it every successor's PREDECESSOR would
change. On disk this is an accepted file edited before a refresh.

Failing example:

~~~text
accepted:    com.example.widget/20260110T080000Z.journal
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
at refresh:  the same file now reads
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit, now with sliders"
~~~

Passing example:

~~~text
accepted:    com.example.widget/20260110T080000Z.journal   (unchanged at refresh)
new:         com.example.widget/20260201T080000Z.journal   a successor with the new description
~~~
`),
}
