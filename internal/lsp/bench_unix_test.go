//go:build unix

package lsp_test

import (
	"syscall"
	"time"
)

// cpuKnown is true: cpuTime measures the CPU time.
const cpuKnown = true

// cpuTime returns the CPU time (user + system) the process and its
// finished child processes have used.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
