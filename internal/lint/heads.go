package lint

import (
	"encoding/binary"
	"iter"
	"slices"
	"unsafe"

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
// [JudgeHeads] conservative.
var judges = map[string]func(ref reference, own vt.Coordinate, t Tree) bool{
	rules.DepsUnknownArtifact: func(ref reference, own vt.Coordinate, t Tree) bool {
		return unknownArtifact(ref, own, t)
	},
	rules.DepsUnsatisfiable: func(ref reference, own vt.Coordinate, t Tree) bool {
		_, bad := unsatisfiable(ref, own, t, t.Releases)
		return bad
	},
}

// HeadRefs is what the head-only rules (kind rules.ChainHead) read of one
// chain head: its own artifact and its distinct references (a reference
// that repeats an earlier one is kept once), encoded as one string of
// about the bytes of the references' constraints and none of the head's
// text, with each artifact named by its number in the [RefsArena] that
// keeps it. A caller keeps it while a tree streams, so that once the whole
// tree is known only the heads those rules report on need their documents
// again ([JudgeHeads]). The zero HeadRefs stands for a head whose document
// was not known; every judgement of it is true.
type HeadRefs struct {
	enc   string
	names *refNames // of the arena that keeps enc
}

// refNames numbers the coordinates the HeadRefs of one RefsArena name.
type refNames struct {
	number map[string]uint64
	list   []vt.Coordinate // by number
}

// RefsArena keeps the HeadRefs of a whole tree compactly: each coordinate
// they name is stored once and named by its number (a tree's heads mostly
// name its own artifacts, over and over), and the encodings are packed
// into large blocks, since one small string per chain head, allocated
// while the parser's short-lived objects come and go, would leave most of
// the memory around each one unusable. The zero RefsArena is ready to
// use; it is not safe for concurrent use, but the HeadRefs it returns are
// read concurrently once it is no longer written to.
type RefsArena struct {
	block   []byte
	names   *refNames
	scratch []byte
	seen    map[reference]bool
}

// refsBlock is the size of one block of a RefsArena, in bytes.
const refsBlock = 64 << 10

// Keep returns the references of doc, the document of a chain head, kept
// by a: the encoding goes into a's current block (a new block when it is
// full; an encoding of more than a quarter of a block keeps its own
// memory). It keeps no memory of doc's text. A nil doc gives the zero
// HeadRefs.
func (a *RefsArena) Keep(doc *syntax.Document) HeadRefs {
	if doc == nil {
		return HeadRefs{}
	}
	if a.names == nil {
		a.names = &refNames{number: map[string]uint64{}}
		a.seen = map[reference]bool{}
	}
	b := append(a.scratch[:0], 1) // known
	b = binary.AppendUvarint(b, a.numberOf(self(doc)))
	// A reference that repeats an earlier one (a head often has the same
	// DEPENDS in every release) changes no judgement, and is kept once.
	clear(a.seen)
	for _, keyword := range []string{"DEPENDS", "PREFERS"} {
		for ref := range references(doc, keyword) {
			if a.seen[ref] {
				continue
			}
			a.seen[ref] = true
			b = binary.AppendUvarint(b, a.numberOf(ref.coordinate))
			b = binary.AppendUvarint(b, uint64(len(ref.constraint)))
			b = append(b, ref.constraint...)
		}
	}
	a.scratch = b
	return HeadRefs{enc: a.store(b), names: a.names}
}

// numberOf returns the number of c in a, giving it the next one if it has
// none yet.
func (a *RefsArena) numberOf(c vt.Coordinate) uint64 {
	if n, ok := a.names.number[c.String()]; ok {
		return n
	}
	s := a.store([]byte(c.String()))
	kept, _ := vt.ParseCoordinate(s) // the zero coordinate stays zero
	n := uint64(len(a.names.list))
	a.names.number[s] = n
	a.names.list = append(a.names.list, kept)
	return n
}

// store returns a string of the bytes b, in a's current block when they
// fit in a quarter of one.
func (a *RefsArena) store(b []byte) string {
	n := len(b)
	if n == 0 || n > refsBlock/4 {
		return string(b)
	}
	if cap(a.block)-len(a.block) < n {
		a.block = make([]byte, 0, refsBlock)
	}
	off := len(a.block)
	a.block = append(a.block, b...)
	// The bytes of a block below its length are never written again.
	return unsafe.String(&a.block[off], n)
}

// decode returns the head's own artifact and yields its references.
func (hr HeadRefs) decode() (own vt.Coordinate, refs iter.Seq[reference]) {
	s := hr.enc[1:]
	uvarint := func() int {
		n, k := binary.Uvarint([]byte(s[:min(len(s), binary.MaxVarintLen64)]))
		s = s[k:]
		return int(n)
	}
	own = hr.names.list[uvarint()]
	return own, func(yield func(reference) bool) {
		for len(s) > 0 {
			c := hr.names.list[uvarint()]
			n := uvarint()
			constraint := s[:n]
			s = s[n:]
			if !yield(reference{coordinate: c, constraint: constraint}) {
				return
			}
		}
	}
}

// maxJudged bounds the references one judge of [JudgeHeads] remembers.
const maxJudged = 1 << 14

// JudgeHeads returns a function that reports whether [Run] with cfg, given the
// document of a head that hr describes and tree, could report anything.
// False means that Run reports nothing on that document, so a caller
// that dropped it need not read it again. The judgement is exact for the
// built-in head-only rules, and true whenever cfg enables a rule without a
// judgement (any rule of a custom rule set, cfg.Rules, or one of another
// kind). A judgement depends on tree only through what it holds of the
// coordinates of [HeadRefs.Coordinates] (whether it holds each and the
// releases), so a caller may keep a false one while those stay the same.
// Each distinct reference is judged once per returned function (a head
// often repeats one DEPENDS in every release), up to maxJudged of them.
// The returned function is not safe for concurrent use.
func JudgeHeads(tree *StaticTree, cfg RunConfig) func(hr HeadRefs) bool {
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
	// The tree's releases are read in place (sharedTree), and each
	// reference (with whether it names the head's own artifact, all that
	// the judgements ask of own) is judged once, as long as fewer than
	// maxJudged are remembered: a registry-sized tree has hundreds of
	// thousands of references, nearly all distinct, whose memory would
	// outweigh the few judgements saved.
	shared := sharedTree{tree}
	type judged struct {
		ref  reference
		self bool
	}
	seen := map[judged]bool{}
	return func(hr HeadRefs) bool {
		if always || hr.enc == "" {
			return true
		}
		if len(enabled) == 0 {
			return false
		}
		own, refs := hr.decode()
		for ref := range refs {
			k := judged{ref, ref.coordinate == own}
			bad, ok := seen[k]
			if !ok {
				bad = slices.ContainsFunc(enabled, func(j func(reference, vt.Coordinate, Tree) bool) bool { return j(ref, own, shared) })
				if len(seen) < maxJudged {
					seen[k] = bad
				}
			}
			if bad {
				return true
			}
		}
		return false
	}
}

// Coordinates returns the artifacts the head's references name, each once
// and in the order of their first reference; nil for the zero HeadRefs.
func (hr HeadRefs) Coordinates() []vt.Coordinate {
	if hr.enc == "" {
		return nil
	}
	var out []vt.Coordinate
	seen := map[vt.Coordinate]bool{}
	_, refs := hr.decode()
	for ref := range refs {
		if !seen[ref.coordinate] {
			seen[ref.coordinate] = true
			out = append(out, ref.coordinate)
		}
	}
	return out
}

// sharedTree is a StaticTree whose Releases are its own slices, for the
// judgements, which only read them.
type sharedTree struct{ *StaticTree }

func (t sharedTree) Releases(c vt.Coordinate) []vt.Version {
	vs, _ := t.versions(c.String())
	return vs
}
