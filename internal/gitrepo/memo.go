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
// lives; a question asked while another goroutine asks it waits for that
// answer, so that a caller can ask ahead, on a goroutine of its own, what
// it will need. Only short answers are remembered (at most memoMax
// bytes): the listings of a large tree (ls-files, ls-tree, check-attr)
// are asked for once anyway, and holding them would cost memory while the
// tree loads.
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
	answers map[string]*answer
}

// answer is the output of one git question, or its error, once done is
// closed; kept is false for an answer that is not remembered (cut short
// by a cancelled context, or longer than memoMax), which whoever waited
// for it asks again.
type answer struct {
	done chan struct{}
	out  []byte
	err  error
	kept bool
}

// WithMemo returns a context under which git's answers to the same
// questions are remembered (see above).
func WithMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, memoKey{}, &memo{answers: map[string]*answer{}})
}

// WithoutMemo returns a context under which git is asked every time, also
// when ctx remembers answers.
func WithoutMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, memoKey{}, (*memo)(nil))
}

// Remembers reports whether git's answers are remembered under ctx
// (WithMemo), so that a question asked ahead of time, on another
// goroutine, is not asked again when it is needed.
func Remembers(ctx context.Context) bool { return memoOf(ctx) != nil }

// claim returns the answer under k: one being asked or asked before
// (mine false), or a new one that the caller is to ask and settle (mine
// true).
func (m *memo) claim(k string) (a *answer, mine bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a, ok := m.answers[k]; ok {
		return a, false
	}
	a = &answer{done: make(chan struct{})}
	m.answers[k] = a
	return a, true
}

// settle records out and err as the answer a to k, remembered when keep
// holds and out is at most memoMax bytes long, and wakes whoever waits.
func (m *memo) settle(k string, a *answer, out []byte, err error, keep bool) {
	m.mu.Lock()
	if keep && len(out) <= memoMax {
		a.out, a.err, a.kept = bytes.Clone(out), err, true
	} else {
		delete(m.answers, k)
	}
	m.mu.Unlock()
	close(a.done)
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
		k := strings.Join(key, "\x00")
		if a, mine := m.claim(k); mine {
			m.settle(k, a, out, nil, true)
		}
	}
}

// recall returns the successful answer to key that ctx's memo holds, if
// any, without waiting for one being asked.
func recall(ctx context.Context, key []string) ([]byte, bool) {
	m := memoOf(ctx)
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	a, ok := m.answers[strings.Join(key, "\x00")]
	m.mu.Unlock()
	if !ok {
		return nil, false
	}
	select {
	case <-a.done:
		return a.out, a.kept && a.err == nil
	default:
		return nil, false
	}
}

// remembered runs ask, or returns what it returned before for the same
// key under ctx, waiting for it while another goroutine asks. An error
// from a cancelled context is not remembered, and neither is an output of
// more than memoMax bytes: whoever waited for such an answer asks again.
func remembered(ctx context.Context, key []string, ask func() ([]byte, error)) ([]byte, error) {
	m := memoOf(ctx)
	if m == nil {
		return ask()
	}
	k := strings.Join(key, "\x00")
	for {
		a, mine := m.claim(k)
		if mine {
			out, err := ask()
			m.settle(k, a, out, err, ctx.Err() == nil)
			return out, err
		}
		select {
		case <-a.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if a.kept {
			return bytes.Clone(a.out), a.err // callers own what they get
		}
	}
}
