//go:build !linux

package check_test

import "os"

// peakRSS returns 0: the peak resident memory is not measured here.
func peakRSS(*os.ProcessState) int64 { return 0 }
