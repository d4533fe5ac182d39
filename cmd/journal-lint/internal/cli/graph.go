package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// ANSI colours of log --graph.
const (
	ansiReset = "\x1b[0m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiCyan  = "\x1b[36m"
)

// graphNode is one revision file of the artifact in log --graph.
type graphNode struct {
	file    *load.File
	digest  vt.Digest
	pred    vt.Digest // zero for a genesis or an unreadable PREDECESSOR
	version string    // the Journal version, or the file name when unknown
	note    string
	bad     bool
}

// writeGraph draws every revision file of co in lr, newest first, as a
// tree in the manner of git log --graph: a line per revision with "*" in
// its lane, "|" for the other lanes, and "/" where a lane joins the one to
// its left. Two revisions that name the same predecessor (a fork) are two
// lanes that join at it; a revision whose predecessor was rejected shows
// its bridged link. Rejected revisions name the codes that rejected them.
func writeGraph(w io.Writer, lr *load.Result, co vt.Coordinate, color bool) error {
	nodes := graphNodes(lr, co)
	if len(nodes) == 0 {
		return usageErrorf("no revision file of %s under %s", co, shownRoot(context.Background(), lr.Root))
	}
	byDigest := map[vt.Digest]bool{}
	for _, n := range nodes {
		byDigest[n.digest] = true
	}
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
	var lanes []vt.Digest
	for _, n := range nodes {
		var waiting []int
		for i, d := range lanes {
			if d == n.digest {
				waiting = append(waiting, i)
			}
		}
		col := len(lanes)
		if len(waiting) > 0 {
			// Lanes that wait for this revision too (its other children)
			// join the first one before it is drawn.
			col = waiting[0]
			lanes = joinLanes(w, lanes, waiting[1:], true, paint)
		} else {
			lanes = append(lanes, n.digest)
		}
		var b strings.Builder
		for i := range lanes {
			if i == col {
				if n.bad {
					b.WriteString(paint(ansiRed, "*"))
				} else {
					b.WriteString(paint(ansiGreen, "*"))
				}
			} else {
				b.WriteString(paint(ansiCyan, "|"))
			}
			b.WriteByte(' ')
		}
		label := fmt.Sprintf("%s %s", n.version, shortDigest(n.digest))
		if n.note != "" {
			label += "  " + n.note
		}
		if n.bad {
			label = paint(ansiRed, label)
		}
		fmt.Fprintf(w, "%s%s\n", b.String(), label)
		if !n.pred.IsZero() && byDigest[n.pred] {
			lanes[col] = n.pred
		} else {
			lanes = joinLanes(w, lanes, []int{col}, false, paint)
		}
	}
	return nil
}

// joinLanes removes the lanes at the ascending indices gone and returns the
// rest. It draws a line where the lanes right of the first removed one move
// left ("/"): always for a merge (the removed lanes join the lane to their
// left), and for ended lanes only when lanes to their right move.
func joinLanes(w io.Writer, lanes []vt.Digest, gone []int, merge bool, paint func(string, string) string) []vt.Digest {
	if len(gone) == 0 {
		return lanes
	}
	if merge || gone[0] < len(lanes)-1 {
		line := []byte(strings.Repeat(" ", 2*len(lanes)))
		for i := range lanes {
			switch {
			case i < gone[0]:
				line[2*i] = '|'
			case slices.Contains(gone, i):
				if merge && i > 0 {
					line[2*i-1] = '/'
				}
			default:
				line[2*i-1] = '/'
			}
		}
		fmt.Fprintln(w, paint(ansiCyan, strings.TrimRight(string(line), " ")))
	}
	out := lanes[:0:0]
	for i, d := range lanes {
		if !slices.Contains(gone, i) {
			out = append(out, d)
		}
	}
	return out
}

// graphNodes returns the revision files of co, newest first (by file name,
// which is the Journal version), with what the chain made of them.
func graphNodes(lr *load.Result, co vt.Coordinate) []graphNode {
	head := ""
	if e, ok := lr.State.Head(co); ok {
		head = e.Source
	}
	var out []graphNode
	for _, f := range lr.Files {
		rest, ok := strings.CutPrefix(f.Path, co.String()+"/")
		if !ok || !f.Summary.Read {
			continue
		}
		n := graphNode{file: f, digest: f.Summary.Digest, version: strings.SplitN(rest, ".", 2)[0]}
		if f.Summary.JournalVersionOK {
			n.version = f.Summary.JournalVersion.String()
		}
		// The load dropped the document: its PREDECESSOR is read again
		// (nil when the file changed since).
		if doc := lr.Doc(f.Path); doc != nil && doc.PredecessorOK {
			n.pred = doc.Predecessor
		}
		var codes []string
		bridged := false
		for _, d := range f.Diagnostics {
			switch {
			case d.Code == rules.CheckBridgedLink:
				bridged = true
			case d.Severity == diag.Error && !slices.Contains(codes, d.Code):
				codes = append(codes, d.Code)
			}
		}
		switch {
		case f.Outcome == chain.Rejected || len(codes) > 0:
			n.bad = true
			n.note = "(rejected: " + strings.Join(codes, ", ") + ")"
		case f.Path == head:
			n.note = "(head)"
		}
		if bridged {
			n.note = strings.TrimSpace(n.note + " (bridged: its predecessor was rejected)")
		}
		if n.pred.IsZero() && !n.bad {
			n.note = strings.TrimSpace(n.note + " (genesis)")
		}
		out = append(out, n)
	}
	slices.Reverse(out)
	return out
}
