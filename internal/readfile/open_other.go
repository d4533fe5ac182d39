//go:build !unix

package readfile

// openFlags returns the flags of [open] beyond read-only: none, as this
// system has no FIFO in its file system to wait for and no flag to
// refuse a link.
func openFlags(bool) int { return 0 }
