//go:build !unix

package lsp_test

import "time"

// cpuKnown is false: cpuTime does not measure here, so no CPU metrics.
const cpuKnown = false

// cpuTime returns 0: the CPU time is not measured here.
func cpuTime() time.Duration { return 0 }
