package check

import (
	"slices"

	"github.com/r35157/journal-lint/internal/diag"
)

// A note amends one diagnostic of the load with what git knows of it: a
// chain broke because an accepted revision was edited, deleted or
// converted since the commit (explainChanged, explainCommitted), or a fork's
// advice cannot be followed because both revisions are committed
// (adviseFork). The gate
// returns notes beside its own findings instead of editing the load's
// result, which a later run may take over (Options.Prior) and the cache
// keeps records of; [applyNotes] applies them, in one place, before the
// configuration.
type note struct {
	// at is the diagnostic's index in the load's Result.Diagnostics.
	at int
	// message is appended to the diagnostic's message.
	message string
	// help replaces the diagnostic's help when it is not "".
	help string
	// related are appended to the diagnostic's related locations.
	related []diag.Related
	// dropFixes removes the diagnostic's fixes, which would change an
	// accepted revision or make a change to one permanent.
	dropFixes bool
}

// applyNotes returns l with notes applied in their order: several notes on
// one diagnostic append their messages and related locations in turn, and
// the last help stands. l and its diagnostics are not modified; the
// result is l itself when there is no note.
func applyNotes(l diag.List, notes []note) diag.List {
	if len(notes) == 0 {
		return l
	}
	out := slices.Clone(l)
	for _, n := range notes {
		d := &out[n.at]
		d.Message += n.message
		if n.help != "" {
			d.Help = n.help
		}
		if len(n.related) > 0 {
			d.Related = slices.Concat(d.Related, n.related)
		}
		if n.dropFixes {
			d.Fixes = nil
		}
	}
	return out
}
