package gitrepo

import (
	"bytes"
	"context"
	"strings"
	"sync"
)

// A command of journal-lint asks git the same questions from several
// places: where the work tree's top level is (for the paths it prints, for
// the git gate, for the trust of a configuration), which commit HEAD is.
// Each answer costs a git process, about as long as checking a small tree.
// Under a context from WithMemo, [Open] and a Repo's queries run git once
// per question (the same directory and arguments, no standard input) and
// hand out the remembered output after that, for as long as the context
// lives. Only short answers are remembered (at most memoMax bytes): the
// listings of a large tree (ls-files, ls-tree, check-attr) are asked for
// once anyway, and holding them would cost memory while the tree loads.
// The command-line tool runs each command under one; the language server,
// which runs for hours while the user commits and checks out, does not
// (WithoutMemo).

// memoMax is the largest output that a memo keeps, in bytes.
const memoMax = 64 << 10

// memoKey is the context key of a *memo.
type memoKey struct{}

// memo is the answers remembered under one context.
type memo struct {
	mu      sync.Mutex
	answers map[string]answer
}

// answer is the output of one git question, or its error.
type answer struct {
	out []byte
	err error
}

// WithMemo returns a context under which git's answers to the same
// questions are remembered (see above).
func WithMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, memoKey{}, &memo{answers: map[string]answer{}})
}

// WithoutMemo returns a context under which git is asked every time, also
// when ctx remembers answers.
func WithoutMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, memoKey{}, (*memo)(nil))
}

// get returns the answer remembered under k.
func (m *memo) get(k string) (answer, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.answers[k]
	return a, ok
}

// put remembers a under k, unless its output is longer than memoMax.
func (m *memo) put(k string, a answer) {
	if len(a.out) > memoMax {
		return
	}
	a.out = bytes.Clone(a.out)
	m.mu.Lock()
	m.answers[k] = a
	m.mu.Unlock()
}

// memoOf returns ctx's memo, or nil.
func memoOf(ctx context.Context) *memo {
	m, _ := ctx.Value(memoKey{}).(*memo)
	return m
}

// remember records out as the answer to key under ctx's memo, if it has
// one, as if git had been asked (see [Repo.ResolveCommit]).
func remember(ctx context.Context, key []string, out []byte) {
	if m := memoOf(ctx); m != nil {
		m.put(strings.Join(key, "\x00"), answer{out: out})
	}
}

// recall returns the successful answer to key that ctx's memo holds, if
// any.
func recall(ctx context.Context, key []string) ([]byte, bool) {
	m := memoOf(ctx)
	if m == nil {
		return nil, false
	}
	a, ok := m.get(strings.Join(key, "\x00"))
	return a.out, ok && a.err == nil
}

// remembered runs ask, or returns what it returned before for the same
// key under ctx. An error from a cancelled context is not remembered, and
// neither is an output of more than memoMax bytes.
func remembered(ctx context.Context, key []string, ask func() ([]byte, error)) ([]byte, error) {
	m := memoOf(ctx)
	if m == nil {
		return ask()
	}
	k := strings.Join(key, "\x00")
	if a, ok := m.get(k); ok {
		return bytes.Clone(a.out), a.err // callers own what they get
	}
	out, err := ask()
	if ctx.Err() == nil {
		m.put(k, answer{out: out, err: err})
	}
	return out, err
}
