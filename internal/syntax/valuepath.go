package syntax

import (
	"strconv"

	"github.com/r35157/journal-lint/internal/diag"
)

// ValuePath names the value at rng in doc: "header" or "release[VERSION]",
// then the directive's keyword with its key for the keyed directives
// (CONTENT name; DEPENDS, EXCLUDES, PREFERS coordinate), then "#N" for the
// N-th argument (1-based) when rng starts inside one; "line N" for a range
// outside any directive and "" for no range or the whole file. Examples:
// "release[1.2.0]/DEPENDS[org.example.core]#2", "header/DESCRIPTION". A
// nil doc has none. A finding's value path survives edits elsewhere in the
// file: the revision fingerprints of a check against a commit
// (fingerprint.Revision) and --new-only's carried-over findings use it.
func (doc *Document) ValuePath(rng diag.Range) string {
	if doc == nil || !rng.IsValid() || rng.IsFileStart() {
		return ""
	}
	line := rng.Start.Line
	section := "header"
	for _, rb := range doc.Releases {
		if rb.Release == nil || rb.Release.Line > line {
			break
		}
		v := ""
		if len(rb.Release.Args) > 0 {
			v = rb.Release.Args[0].Raw
		}
		section = "release[" + v + "]"
	}
	for _, d := range doc.Directives {
		if d.Line != line {
			continue
		}
		p := section + "/" + d.Keyword
		switch d.Keyword {
		case "CONTENT", "DEPENDS", "EXCLUDES", "PREFERS":
			if len(d.Args) > 0 {
				p += "[" + d.Args[0].Raw + "]"
			}
		}
		for i, a := range d.Args {
			if rng.Start.Offset >= a.Range().Start.Offset && rng.Start.Offset < a.Range().End.Offset {
				p += "#" + strconv.Itoa(i+1)
				break
			}
		}
		return p
	}
	return section + "/line " + strconv.Itoa(line)
}
