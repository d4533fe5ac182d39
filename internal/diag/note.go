package diag

import "slices"

// A Note amends one diagnostic of a list that its maker did not find, with
// what the maker knows of it: the git gate notes that a chain broke because
// an accepted revision was edited, deleted or converted since a commit, or
// that a fork's advice cannot be followed because both revisions are
// committed (package gitcheck). A maker returns notes beside its own
// findings instead of editing the list, which stays what its finder found
// (a later run may take it over, a cache keeps records of it); [Amend]
// applies them, in one place.
type Note struct {
	// At is the diagnostic's index in the list the note amends.
	At int
	// Message is appended to the diagnostic's message.
	Message string
	// Help replaces the diagnostic's help when it is not "".
	Help string
	// Related are appended to the diagnostic's related locations.
	Related []Related
	// DropFixes removes the diagnostic's fixes, which would change an
	// accepted revision or make a change to one permanent.
	DropFixes bool
}

// Amend returns l with notes applied in their order: several notes on one
// diagnostic append their messages and related locations in turn, and the
// last help stands. Each note's At must index l. l and its diagnostics are
// not modified; the result is l itself when there is no note.
func Amend(l List, notes []Note) List {
	if len(notes) == 0 {
		return l
	}
	out := slices.Clone(l)
	for _, n := range notes {
		d := &out[n.At]
		d.Message += n.Message
		if n.Help != "" {
			d.Help = n.Help
		}
		if len(n.Related) > 0 {
			d.Related = slices.Concat(d.Related, n.Related)
		}
		if n.DropFixes {
			d.Fixes = nil
		}
	}
	return out
}
