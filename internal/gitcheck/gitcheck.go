// Package gitcheck holds the analyzers of the git gate that judge a loaded
// tree by what git knows of it (requirements, "Repository workflows"):
// accepted revisions modified, deleted or renamed since the compared
// commit (history/revision-*), the notes that explain chain findings by
// committed bytes or amend their advice, and the Journals git may convert
// or converted (repo/eol-*). They look at a [Tree]: what
// git says of the tree under the root (package gitfacts), where the tree
// was read from, and what the load found there. Their findings are
// diagnostics; what they know of the load's own diagnostics reaches the
// result as notes (diag.Note), never as edits of the load's result.
//
// Package check opens the gate (the repository, the compared commit, the
// source of the tree), runs the load, gathers the facts it keeps records
// of in the persistent cache (the files' attributes, the tree summaries),
// and then runs these analyzers.
package gitcheck

import (
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/source"
)

// Tree is what the analyzers look at. Its methods are called one after
// another, after the load; those that ask git (through Facts) ask each
// question once per run.
type Tree struct {
	// Facts is what git says of the tree: the repository (non-nil), the
	// root in it, the compared commit and its files (empty Commit: none),
	// the index, HEAD's files.
	*gitfacts.Facts
	// Staged says that the tree checked is the index's (--staged), not
	// the work tree's.
	Staged bool
	// Source is where the tree was read from: the disk under the root
	// (with an editor's buffers over it), or the index's entries.
	Source source.Source
	// Load is what the load found.
	Load *load.Result
	// Attrs are the conversion attributes git gave of the loaded files;
	// nil when it was not asked, and then any file may be converted.
	Attrs *gitfacts.AttrTable
	// ChangedOnly says that the load read only the artifact directories
	// the index changes since HEAD, beside a summary of HEAD's tree that
	// speaks for the others (a staged check from the cache): no
	// .gitattributes that decides a loaded file's attributes differs from
	// HEAD's then.
	ChangedOnly bool
}
