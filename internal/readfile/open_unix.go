//go:build unix && !linux

package readfile

import "syscall"

// openFlags returns the flags of [open] beyond read-only: never waiting
// for a FIFO's writer, and with noFollow refusing a final symbolic link.
func openFlags(noFollow bool) int {
	if noFollow {
		return syscall.O_NONBLOCK | syscall.O_NOFOLLOW
	}
	return syscall.O_NONBLOCK
}
