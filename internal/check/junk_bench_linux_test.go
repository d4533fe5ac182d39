//go:build linux

package check_test

import (
	"os"
	"syscall"
)

// peakRSS returns the peak resident memory of ps's process, in bytes.
func peakRSS(ps *os.ProcessState) int64 {
	return ps.SysUsage().(*syscall.Rusage).Maxrss << 10 // Linux counts KiB
}
