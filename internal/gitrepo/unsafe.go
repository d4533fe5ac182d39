package gitrepo

import (
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/internal/safetext"
)

// UnsafeRepositoryError reports a repository that git refuses to work in
// because another user owns it ("detected dubious ownership", see
// safe.directory in git-config(1)): a CI job in a container whose
// workspace belongs to the runner's user, say. Dir is the directory git
// names.
type UnsafeRepositoryError struct {
	Dir string
}

// Error says what git refuses and the command that makes it trust Dir,
// on one line (git's own hint is indented with a tab).
func (e *UnsafeRepositoryError) Error() string {
	return fmt.Sprintf("git refuses the repository at %s because another user owns it (dubious ownership); to trust it, run: git config --global --add safe.directory %s", e.Dir, safetext.ShellWord(e.Dir))
}

// unsafeRepository returns the *UnsafeRepositoryError that git's message
// stderr reports, or nil when it reports none.
func unsafeRepository(stderr string) error {
	_, rest, ok := strings.Cut(stderr, "detected dubious ownership in repository at '")
	if !ok {
		return nil
	}
	dir, _, _ := strings.Cut(rest, "'\n")
	return &UnsafeRepositoryError{Dir: strings.TrimSuffix(dir, "'")}
}
