//go:build unix

package plugin_test

import (
	"syscall"
	"testing"
)

// cpuKnown is true: childrenCPU measures the CPU time.
const cpuKnown = true

// childrenCPU returns the CPU seconds (user + system) of finished children.
func childrenCPU(b *testing.B) float64 {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		b.Fatal(err)
	}
	seconds := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return seconds(ru.Utime) + seconds(ru.Stime)
}
