package lint

import (
	"iter"
	"slices"
	"strings"
	"sync"

	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// reference is what the head-only rules (deps/…) read of one DEPENDS or
// PREFERS directive of a release block: the artifact it names and, for a
// DEPENDS, the text of its constraint. A directive whose first argument is
// missing, quoted or not a coordinate is no reference: no rule reads it.
type reference struct {
	coordinate vt.Coordinate
	constraint string // DEPENDS: the bare second argument; "" when missing or quoted
}

// references yields the references of doc's directives with keyword
// ("DEPENDS" or "PREFERS") in file order, each with the arguments a
// diagnostic points at: the coordinate, then the constraint (zero when
// there is none).
func references(doc *syntax.Document, keyword string) iter.Seq2[reference, [2]syntax.Arg] {
	return func(yield func(reference, [2]syntax.Arg) bool) {
		for _, d := range releaseDirectives(doc, keyword) {
			carg, ok := bareArg(d, 0)
			if !ok {
				continue
			}
			c, err := vt.ParseCoordinate(carg.Text)
			if err != nil {
				continue
			}
			ref, args := reference{coordinate: c}, [2]syntax.Arg{carg}
			if karg, ok := bareArg(d, 1); ok && keyword == "DEPENDS" {
				ref.constraint, args[1] = karg.Text, karg
			}
			if !yield(ref, args) {
				return
			}
		}
	}
}

// self is the document's own ARTIFACT, or the zero coordinate when it has
// none; no reference names the zero coordinate.
func self(doc *syntax.Document) vt.Coordinate {
	if doc.CoordinateOK {
		return doc.Coordinate
	}
	return vt.Coordinate{}
}

// unknownArtifact is the judgement of deps/unknown-artifact on one
// reference of the document whose own artifact is own: it names another
// artifact, which t does not hold.
func unknownArtifact(ref reference, own vt.Coordinate, t Tree) bool {
	return ref.coordinate != own && !t.Has(ref.coordinate)
}

// unsatisfiable is the judgement of deps/unsatisfiable on one reference of
// the document whose own artifact is own: a DEPENDS on another artifact
// that t holds, with a constraint that parses and that none of the
// releases of that artifact's head satisfies. It returns those releases
// (ascending) and whether the constraint is unsatisfiable; releases gives
// them for a coordinate t holds.
func unsatisfiable(ref reference, own vt.Coordinate, t Tree, releases func(vt.Coordinate) []vt.Version) ([]vt.Version, bool) {
	if ref.constraint == "" || ref.coordinate == own || !t.Has(ref.coordinate) {
		return nil, false
	}
	k, err := vt.ParseConstraint(ref.constraint)
	if err != nil {
		return nil, false
	}
	known := releases(ref.coordinate)
	return known, !k.ContainsAny(known)
}

// judges are the judgements of the head-only rules on one reference, by
// code: a rule reports on a document exactly when it judges one of the
// document's references true (the rule's Check reports one diagnostic per
// such reference). A head-only rule without an entry makes
// [HeadIndex.Judge] conservative.
var judges = map[string]func(ref reference, own vt.Coordinate, t Tree) bool{
	rules.DepsUnknownArtifact: func(ref reference, own vt.Coordinate, t Tree) bool {
		return unknownArtifact(ref, own, t)
	},
	rules.DepsUnsatisfiable: func(ref reference, own vt.Coordinate, t Tree) bool {
		_, bad := unsatisfiable(ref, own, t, t.Releases)
		return bad
	},
}

// HeadIndex keeps, while a tree streams, what the head-only rules (kind
// rules.ChainHead) read of each chain head, in a few bytes per reference
// and none of the head's text, so that once the whole tree is known only
// the heads those rules report on need their documents again
// ([HeadIndex.Judge]). Equal references of different heads are stored
// once. Its zero value is empty and ready to use; it is safe for
// concurrent use.
type HeadIndex struct {
	mu   sync.Mutex
	ids  map[reference]int32
	refs []reference
}

// HeadRefs is what a [HeadIndex] keeps of one head: its own artifact and
// its references, as indexes into the HeadIndex it came from. The zero
// HeadRefs stands for a head whose document was not known; every
// judgement of it is true.
type HeadRefs struct {
	known bool
	own   int32 // -1: the document has no ARTIFACT
	refs  []int32
}

// Add records the references of doc, the document of a chain head, and
// returns them; a nil doc gives the zero HeadRefs. It keeps no memory of
// doc's text.
func (x *HeadIndex) Add(doc *syntax.Document) HeadRefs {
	if doc == nil {
		return HeadRefs{}
	}
	var refs []reference
	for _, keyword := range []string{"DEPENDS", "PREFERS"} {
		for ref := range references(doc, keyword) {
			refs = append(refs, ref)
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	hr := HeadRefs{known: true, own: -1}
	if own := self(doc); !own.IsZero() {
		hr.own = x.id(reference{coordinate: own})
	}
	if len(refs) > 0 {
		hr.refs = make([]int32, len(refs))
		for i, ref := range refs {
			hr.refs[i] = x.id(ref)
		}
		slices.Sort(hr.refs)
		hr.refs = slices.Clip(slices.Compact(hr.refs))
	}
	return hr
}

// id returns the index of ref, adding a copy of it (sharing no memory
// with the text it was read from) when it is new. x.mu must be held.
func (x *HeadIndex) id(ref reference) int32 {
	if id, ok := x.ids[ref]; ok {
		return id
	}
	if x.ids == nil {
		x.ids = map[reference]int32{}
	}
	c, _ := vt.ParseCoordinate(strings.Clone(ref.coordinate.String()))
	stored := reference{coordinate: c, constraint: strings.Clone(ref.constraint)}
	id := int32(len(x.refs))
	x.refs = append(x.refs, stored)
	x.ids[stored] = id
	return id
}

// Judge returns a function that reports whether [Run] with cfg, given the
// document of a head that hr describes and tree, could report anything.
// False means that Run reports nothing on that document, so a caller
// that dropped it need not read it again. The judgement is exact for the
// built-in head-only rules, and true whenever cfg enables a rule without a
// judgement (any rule of a custom rule set, cfg.Rules, or one of another
// kind). hr must come from an Add that returned before Judge was called.
// The returned function is not safe for concurrent use.
func (x *HeadIndex) Judge(tree Tree, cfg RunConfig) func(hr HeadRefs) bool {
	x.mu.Lock()
	stored := x.refs // later Adds only append
	x.mu.Unlock()
	var enabled []func(reference, vt.Coordinate, Tree) bool
	always := false
	for _, r := range cfg.rules() {
		if r.Check == nil || (cfg.Enabled != nil && !cfg.Enabled(r.Code)) {
			continue
		}
		j, ok := judges[r.Code]
		if cfg.Rules != nil || !ok {
			always = true
			break
		}
		enabled = append(enabled, j)
	}
	// verdicts caches the judgement of each reference that is not the
	// head's own artifact, which is the same for every head.
	verdicts := map[int32]bool{}
	return func(hr HeadRefs) bool {
		if always || !hr.known {
			return true
		}
		if len(enabled) == 0 {
			return false
		}
		var own vt.Coordinate
		if hr.own >= 0 {
			own = stored[hr.own].coordinate
		}
		for _, id := range hr.refs {
			ref := stored[id]
			if ref.coordinate == own {
				// Only the rules' own test of "another artifact" differs
				// from the cached judgement: a reference to itself is
				// never reported.
				continue
			}
			bad, ok := verdicts[id]
			if !ok {
				for _, j := range enabled {
					if bad = j(ref, vt.Coordinate{}, tree); bad {
						break
					}
				}
				verdicts[id] = bad
			}
			if bad {
				return true
			}
		}
		return false
	}
}
