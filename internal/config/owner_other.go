//go:build !unix

package config

// checkOwner is the check of owner_unix.go where the system has no Unix
// owners and modes: every file passes (a documented limit, docs/ci.md).
func checkOwner(path string) error { return nil }

// mayBeShared is the check of owner_unix.go where the system has no Unix
// owners and modes: no directory counts as shared.
func mayBeShared(dir string) bool { return false }
