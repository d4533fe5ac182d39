// Package journal is the public API for reading Nenjim Journals: the
// read-only query service [Service] and its lifecycle manager
// [ServiceManager]. It exports exactly these two interfaces.
//
// # Mapping to the requirements
//
// The requirements (journal-management-requirements.md) name Java packages;
// in Go they map as follows:
//
//	com.r35157.nenjim.service.journal      → journal (Service, ServiceManager)
//	  JournalService                       → [Service]
//	  JournalServiceManager                → [ServiceManager]
//	.model                                 → journal/model
//	.valuetypes                            → journal/valuetypes
//	.exception                             → journal/journalerr
//	.impl.ref (constructor and options)    → journal/impl/ref
//	.impl.ref helpers (parser, ingestion,  → internal/... (not importable
//	  chain store, filesystem loader)        from other modules)
//
// "An empty optional rather than null" is a (value, bool) result; "an
// immutable empty collection" is an empty, non-nil slice that the caller owns.
//
// # Use
//
// Build a manager with journal/impl/ref, start it, and hand its Service to
// code that only reads:
//
//	m, err := ref.NewServiceManager("data/nenjim/journals")
//	if err != nil { ... }
//	if err := m.Start(ctx); err != nil {
//		var invalid *journalerr.InvalidError
//		if errors.As(err, &invalid) { ... } // every diagnostic, with file and position
//	}
//	defer m.Stop(ctx)
//	svc, _ := m.Service()
//	head, ok := svc.Latest(coordinate)
//
// # Concurrency and lifecycle
//
// A refresh builds the new state beside the published one and publishes it
// with one atomic pointer store, so [ServiceManager.Service] and every
// [Service] query read the current snapshot without waiting for a running
// Refresh; a query never sees half a refresh.
//
// The requirement "Service access follows lifecycle" is about the manager:
// [ServiceManager.Service] and [ServiceManager.Refresh] fail with
// journalerr.ErrUnavailable before Start and after Stop. A [Service] handle
// obtained while the manager was started keeps answering after Stop, from
// the last snapshot published before Stop: its results are immutable values
// (requirement "Filesystem-independent read-only Journal service"), its
// methods have no error to report, and an empty answer would be
// indistinguishable from an unknown coordinate. While the manager runs, a
// handle answers each query from the snapshot published at that moment,
// so a Refresh shows in handles taken before it, and two queries may see
// two snapshots; once the manager is stopped, no later Refresh or Start
// changes what the handle sees, and a restarted manager hands out a new
// one.
package journal

import (
	"context"

	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Service is the read-only, filesystem-independent query API over accepted
// Journal revisions (requirement "Filesystem-independent read-only Journal
// service"). Every method is safe for concurrent use, never blocks on a
// refresh, and sees one consistent snapshot per call. Results are immutable
// values; unknown things yield (zero, false) or an empty non-nil slice.
// After the manager that handed it out is stopped, a Service keeps
// answering from the last snapshot published before Stop.
type Service interface {
	// Coordinates returns every known artifact coordinate in ascending
	// byte order; never nil.
	Coordinates() []vt.Coordinate

	// Revisions returns every accepted revision of coordinate c in ascending
	// Journal-version order (genesis first, head last); an empty non-nil
	// slice when c is unknown.
	Revisions(c vt.Coordinate) []model.Revision

	// Latest returns the chain head of c, or false when c is unknown.
	Latest(c vt.Coordinate) (model.Revision, bool)

	// Revision returns the revision of c with exactly Journal version v, or
	// false. O(log n) in the chain length.
	Revision(c vt.Coordinate, v vt.JournalVersion) (model.Revision, bool)

	// AsOf returns the newest revision of c whose Journal version is at or
	// before v: the complete worldview from that chain position, not a newer
	// snapshot filtered by publication time. False when c is unknown or every
	// revision is later than v. O(log n) in the chain length.
	AsOf(c vt.Coordinate, v vt.JournalVersion) (model.Revision, bool)

	// Release returns release version of c as the revision with exactly
	// Journal version rev knows it (license, content, dependencies,
	// exclusions, preferences, description, publication time, effective
	// policy), or false when the coordinate, the revision or the release is
	// unknown there. rev must be a revision's own Journal version: for the
	// release as of an instant, take the revision from AsOf and pass its
	// JournalVersion.
	Release(c vt.Coordinate, rev vt.JournalVersion, version vt.Version) (model.Release, bool)
}

// ServiceManager is the lifecycle and administrative API (requirement
// "Journal service lifecycle manager"). It never creates, rewrites or
// deletes anything under its root. It is safe for concurrent use.
type ServiceManager interface {
	// Start performs the complete initial chronological load of the root and
	// succeeds only if every file is valid (requirement "Filesystem-backed
	// lifecycle loading"); a file that is no Journal, such as a README.md,
	// .DS_Store or editor backup under the root, is an fs/unexpected-entry
	// error ("Filesystem layout" in docs/journal-format.md). On failure
	// nothing is exposed, and the error is
	// a *journalerr.InvalidError carrying every diagnostic (a root that is
	// missing, not a directory or unreadable is one too, whose diagnostic
	// has a root code, so it matches journalerr.ErrInvalidRoot), ctx's
	// error when ctx ends (context.Canceled also when Stop ends the load),
	// or an I/O error that names no file. Starting a started manager fails
	// with an error matching journalerr.ErrUnavailable.
	Start(ctx context.Context) error

	// Stop stops the manager; afterwards Service and Refresh fail with
	// journalerr.ErrUnavailable, while Service handles taken before keep
	// answering from the last published snapshot. A running Start or
	// Refresh is cancelled and publishes nothing (it fails with an error
	// matching journalerr.ErrUnavailable or context.Canceled); Stop returns
	// once it has ended. Stop on a stopped manager is a no-op. It never
	// touches files.
	Stop(ctx context.Context) error

	// Refresh reloads the root all-or-nothing: new valid successors become
	// visible, unchanged files are idempotent, and any invalid, changed or
	// vanished file makes it fail with a *journalerr.InvalidError and leaves
	// the service's state exactly as it was. The new state is built while
	// queries and Service keep reading the old one, and is published with
	// one atomic store; concurrent Refresh calls run one after the other.
	// It fails with journalerr.ErrUnavailable unless the manager is
	// started, or when Stop ends it.
	Refresh(ctx context.Context) error

	// Root returns the normalized absolute Journal root.
	Root() string

	// Service returns the read-only query service while the manager is
	// started, or an error matching journalerr.ErrUnavailable otherwise. It
	// never waits for a running Start or Refresh: during a Refresh it
	// returns the service, which answers from the snapshot before it.
	Service() (Service, error)
}
