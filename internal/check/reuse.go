package check

import (
	"slices"
	"strings"
	"sync"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// A check can take over the work of an earlier one (Options.Prior): the
// load takes unchanged artifacts from the earlier load (load.Options.Prior
// says when an artifact counts as unchanged), the visitor copies their
// findings instead of linting and diffing them again, and the head-only
// lint rules run again only on heads that changed or whose view of the tree
// (the coordinates they looked up, lint.Tree) changed. The findings are
// those of a check from scratch, with one exception: the findings of an
// artifact taken over were made with the earlier run's Now, which only the
// time rules look at.

// priorRun returns the run of opts.Prior when this check can take over its
// work, else nil: the earlier check kept its state (KeepState), both
// check the same root the same way and neither compares with git.
func priorRun(opts Options) *run {
	p := opts.Prior
	if p == nil || p.run == nil || p.run.visitor == nil || p.Load == nil {
		return nil
	}
	po := p.run.opts
	if !po.KeepState || !opts.KeepState || po.Root != opts.Root || po.Examples != opts.Examples ||
		po.Against != "" || po.Staged || opts.Against != "" || opts.Staged {
		return nil
	}
	return p.run
}

// sameRules reports whether the prior run's findings were made under the
// same configuration as r's, so that they can be copied.
func sameRules(prior, r *run) bool {
	return prior != nil && prior.cfg == r.cfg
}

// reused copies the findings of the artifact a from the prior visitor when
// the load took a over from the prior load, and reports whether it did.
func (v *visitor) reused(index, of, priorIndex int) bool {
	p := v.prior
	if p == nil || priorIndex < 0 || priorIndex >= len(p.diags) {
		return false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.slot(index, of)
	v.diags[index] = p.diags[priorIndex]
	v.dirs[index] = p.dirs[priorIndex]
	v.trees[index] = p.trees[priorIndex]
	v.head[index] = p.head[priorIndex]
	return true
}

// headCache remembers the findings of the head-only lint rules of each
// chain head and what of the tree they looked at, so that a later check
// runs them again only where that changed.
type headCache struct {
	tree  *lint.StaticTree
	prior *headCache // nil without an earlier run to take over from

	mu    sync.Mutex
	heads map[string]headFindings // by path
	// sameCoords says whether tree and prior.tree list the same
	// coordinates, computed once (coordsOnce).
	coordsOnce sync.Once
	sameCoords bool
}

// headFindings are the findings of the head-only rules on one head.
type headFindings struct {
	digest vt.Digest
	found  diag.List
	// looked are the coordinates the rules looked up; all says they listed
	// every coordinate of the tree.
	looked []vt.Coordinate
	all    bool
}

func newHeadCache(tree *lint.StaticTree, prior *headCache) *headCache {
	return &headCache{tree: tree, prior: prior, heads: map[string]headFindings{}}
}

// lookup returns the prior findings on the head at path when it and
// everything its rules looked at in the tree are unchanged; digestOf gives
// the digest of a head by its path.
func (c *headCache) lookup(path string, digestOf func(string) vt.Digest) (diag.List, bool) {
	if c.prior == nil {
		return nil, false
	}
	f, ok := c.prior.heads[path]
	if !ok || f.digest != digestOf(path) {
		return nil, false
	}
	old, cur := c.prior.tree, c.tree
	if old == cur { // the tree did not change (Run takes the prior one over)
		c.store(path, f)
		return f.found, true
	}
	c.coordsOnce.Do(func() {
		c.sameCoords = slices.EqualFunc(old.Coordinates(), cur.Coordinates(), func(a, b vt.Coordinate) bool { return a.Compare(b) == 0 })
	})
	if f.all && !c.sameCoords {
		return nil, false
	}
	for _, co := range f.looked {
		if !old.SameReleases(cur, co) {
			return nil, false
		}
	}
	c.store(path, f)
	return f.found, true
}

func (c *headCache) store(path string, f headFindings) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.heads[path] = f
}

// recordingTree is the tree as one head's rules see it, noting what they
// look up (each coordinate once).
type recordingTree struct {
	lint.Tree
	looked []vt.Coordinate
	seen   map[string]bool
	all    bool
}

func (t *recordingTree) note(co vt.Coordinate) {
	if t.seen == nil {
		t.seen = map[string]bool{}
	}
	if k := co.String(); !t.seen[k] {
		// A copy: co is a substring of the head's text, which the cache
		// must not keep alive (a check of 100,000 files held 76 MB of
		// head texts through these notes).
		k = strings.Clone(k)
		if c, err := vt.ParseCoordinate(k); err == nil {
			co = c
		}
		t.seen[k] = true
		t.looked = append(t.looked, co)
	}
}

func (t *recordingTree) Coordinates() []vt.Coordinate {
	t.all = true
	return t.Tree.Coordinates()
}

func (t *recordingTree) Has(co vt.Coordinate) bool {
	t.note(co)
	return t.Tree.Has(co)
}

func (t *recordingTree) Releases(co vt.Coordinate) []vt.Version {
	t.note(co)
	return t.Tree.Releases(co)
}
