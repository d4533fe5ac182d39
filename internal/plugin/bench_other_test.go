//go:build !unix

package plugin_test

import "testing"

// cpuKnown is false: childrenCPU does not measure here, so no CPU metrics.
const cpuKnown = false

// childrenCPU returns 0: the CPU time is not measured here.
func childrenCPU(*testing.B) float64 { return 0 }
