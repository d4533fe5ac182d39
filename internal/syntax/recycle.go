package syntax

import "sync"

// Parse takes the memory of a document's directives, arguments and release
// blocks from the pools below, and Recycle gives it back, so that a caller
// that parses many texts and drops each document once it is done with it
// (a streaming check of a whole tree) reuses that memory instead of making
// the garbage collector reclaim it.

// docMemory is what Parse took from the pools for one document.
type docMemory struct {
	dirs      []Directive
	dirPtrs   []*Directive
	args      []Arg
	blocks    []ReleaseBlock
	blockPtrs []*ReleaseBlock
}

var (
	dirSlabs   slabPool[Directive]
	dirPtrs    slabPool[*Directive]
	argSlabs   slabPool[Arg]
	blockSlabs slabPool[ReleaseBlock]
	blockPtrs  slabPool[*ReleaseBlock]
)

// Recycle hands the memory of doc's directives, arguments and release
// blocks back to the parser for a later Parse. Afterwards no Directive,
// Arg or ReleaseBlock reached from doc may be used: doc keeps its path,
// text, digest, line index, header values and model, and its Directives,
// Releases and Header are cleared. Strings taken from doc stay valid (they
// are slices of its text, which is not recycled). Recycling a document
// twice, or one that Parse did not return, does nothing.
func Recycle(doc *Document) {
	m := doc.mem
	doc.mem = docMemory{}
	doc.Directives, doc.Releases, doc.Header = nil, nil, Header{}
	dirSlabs.put(m.dirs)
	dirPtrs.put(m.dirPtrs)
	argSlabs.put(m.args)
	blockSlabs.put(m.blocks)
	blockPtrs.put(m.blockPtrs)
}

// slabClasses is the number of capacity classes of a slabPool: powers of
// two from 16 to 16<<(slabClasses-1) elements.
const slabClasses = 13

// slabPool recycles slices of T by capacity class; a request beyond the
// largest class is allocated and never kept.
type slabPool[T any] struct{ classes [slabClasses]sync.Pool }

// classOf returns the smallest class whose capacity holds n elements, and
// whether there is one.
func classOf(n int) (int, bool) {
	c := 0
	for 16<<c < n {
		c++
	}
	return c, c < slabClasses
}

// get returns a slice of n zero elements (an empty, non-nil slice for 0).
func (p *slabPool[T]) get(n int) []T {
	c, ok := classOf(n)
	if n == 0 || !ok {
		return make([]T, n)
	}
	if s, _ := p.classes[c].Get().(*[]T); s != nil {
		return (*s)[:n]
	}
	return make([]T, n, 16<<c)
}

// put clears s, so that it holds no text, and keeps it for a later get;
// a slice whose capacity is no class's is left to the garbage collector.
func (p *slabPool[T]) put(s []T) {
	c, ok := classOf(cap(s))
	if cap(s) == 0 || !ok || 16<<c != cap(s) {
		return
	}
	s = s[:cap(s)]
	clear(s)
	p.classes[c].Put(&s)
}
