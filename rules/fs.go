package rules

import "github.com/r35157/journal-lint/internal/diag"

// validity returns the validity rule code: severity error, documented only
// (the parser, loader or chain reports it).
func validity(code, summary, doc string) Rule {
	return Rule{Code: code, DefaultSeverity: diag.Error, Summary: summary, Doc: doc, Validity: true}
}

// goodTree is the passing layout shared by several fs/ docs.
const goodTree = `Passing example:

~~~text
journals/                          the root: a readable directory
  com.example.widget/              one directory per ARTIFACT
    20260110T080000Z.journal       one file per JOURNAL_VERSION
    20260201T080000Z.journal
    20260101T000000Z.journal.example   examples are ignored
~~~
`

// fsRules are the validity rules of the filesystem layout (format spec §7
// and §8), reported by the loader.
var fsRules = []Rule{
	validity(diag.RootMissing, "the root does not exist", `The root directory given to the loader (or to journal-lint check) does not
exist. Nothing can be loaded, so the whole load fails (format spec §7).

Failing example:

~~~text
$ journal-lint check journals/     # no file or directory called journals
~~~

`+goodTree),
	validity(diag.RootNotDirectory, "the root is not a directory", `The root exists but is a regular file (or another non-directory), so it
cannot hold artifact directories (format spec §7).

Failing example:

~~~text
journals                           a regular file, not a directory
~~~

`+goodTree),
	validity(diag.RootUnreadable, "the root cannot be listed", `The root is a directory but cannot be listed, for example because of its
permissions; no artifact directory can be found (format spec §7).

Failing example:

~~~text
journals/                          mode 0000: listing it fails
~~~

`+goodTree),
	validity(diag.UnexpectedEntry, "an entry outside the filesystem layout", `The root holds only artifact directories, and an artifact directory holds
only "<timestamp>.journal" files and "<timestamp>.journal.example" files
(format spec §7). Anything else, a file directly in the root, a nested
directory, a symbolic link (even one pointing at a valid Journal) or any other
file name, is unexpected and makes loading fail, so that nothing is silently
ignored.

Failing example:

~~~text
journals/
  README.md                        a file directly in the root
  com.example.widget/
    20260110T080000Z.journal
    notes.txt                      another file name
    old/                           a nested directory
    latest.journal -> 20260110T080000Z.journal   a symbolic link
~~~

`+goodTree),
	validity(diag.BadFilename, "a .journal file name whose stem is not a strict timestamp", `A file in an artifact directory that ends in ".journal" must be named
"<timestamp>.journal", with the timestamp in the strict form
YYYYMMDDTHHMMSSZ of a real instant (format spec §4 and §7): the file name is
how the loader orders a chain.

Failing example:

~~~text
journals/
  com.example.widget/
    2026-01-10.journal             not YYYYMMDDTHHMMSSZ
    20260230T080000Z.journal       February 30 does not exist
~~~

`+goodTree),
	validity(diag.FilenameMismatch, "the file name stem differs from JOURNAL_VERSION", `The stem of a Journal's file name must equal its JOURNAL_VERSION exactly
(format spec §7), so that the layout alone tells the order of a chain.

Failing example:

~~~text
-- journals/com.example.widget/20260110T080000Z.journal --
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260111T080000Z
DESCRIPTION "A tiny UI toolkit"
~~~

Passing example:

~~~text
-- journals/com.example.widget/20260111T080000Z.journal --
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260111T080000Z
DESCRIPTION "A tiny UI toolkit"
~~~
`),
	validity(diag.DirectoryMismatch, "the directory name differs from ARTIFACT", `The name of the directory a Journal sits in must equal its ARTIFACT exactly
(format spec §7): the directory is the artifact's chain.

Failing example:

~~~text
-- journals/com.example.gadget/20260110T080000Z.journal --
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
~~~

Passing example:

~~~text
-- journals/com.example.widget/20260110T080000Z.journal --
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
~~~
`),
	validity(diag.UnreadableFile, "a Journal file cannot be read", `A correctly named Journal file exists but reading it fails, for example
because of its permissions or an I/O error. A revision that cannot be read
cannot be checked, so loading fails.

Failing example:

~~~text
journals/
  com.example.widget/
    20260110T080000Z.journal       mode 0000: reading it fails
~~~

`+goodTree),
	validity(diag.TooLarge, "a Journal file exceeds 16 MiB", `A Journal file must not be larger than 16 MiB, 16,777,216 bytes (format spec
§2). The limit is checked before the file is read, so a huge or endless file
cannot exhaust memory.

Failing example:

~~~text
journals/
  com.example.widget/
    20260110T080000Z.journal       16,777,217 bytes
~~~

Passing example:

~~~text
journals/
  com.example.widget/
    20260110T080000Z.journal       16,777,216 bytes or fewer
~~~
`),
	validity(diag.RevisionMissing, "an accepted revision's file has vanished", `Added by this project. Accepted revisions are immutable and stay part of the
chain for good. When a refresh finds that the file of a revision it has
already accepted is gone, the tree on disk no longer matches the accepted
history and the refresh fails; the previously accepted state stays in use.

Failing example:

~~~text
at start:    com.example.widget/20260110T080000Z.journal
             com.example.widget/20260201T080000Z.journal
at refresh:  com.example.widget/20260201T080000Z.journal      the first one was deleted
~~~

Passing example:

~~~text
at start:    com.example.widget/20260110T080000Z.journal
             com.example.widget/20260201T080000Z.journal
at refresh:  com.example.widget/20260110T080000Z.journal
             com.example.widget/20260201T080000Z.journal
             com.example.widget/20260301T080000Z.journal      a new successor
~~~
`),
	validity(diag.ChangedDuringRead, "a Journal file kept changing while it was read", `Added by this project. journal-lint compares the file's size, modification
and change time, device and inode before and after reading it, and reads a
file changed within the last few milliseconds twice: a file rewritten while
it is read would otherwise give bytes (and a digest) that match neither
version. A file that is still changing after a few attempts is refused with
this code, and a refresh of the service fails with the previous state kept.

Failing example:

~~~text
journals/
  com.example.widget/
    20260110T080000Z.journal       rewritten in place, again and again, while check runs
~~~

Passing example:

~~~text
journals/
  com.example.widget/
    20260110T080000Z.journal       written once, before check runs
~~~
`),
}
