//go:build !race

package longtest

const race = false
