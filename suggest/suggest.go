// Package suggest finds the "did you mean" candidate for a mistyped word:
// a command, a flag, a rule code, a configuration key or an SPDX license
// identifier. It is the one home of that heuristic, so every message that
// suggests a correction agrees on what is close enough.
package suggest

import "strings"

// Closest returns the candidate nearest to s: the one candidate that s is a
// prefix of (an abbreviation such as "warn" for "warning"), else the
// candidate with the smallest [Distance] to s when that distance
// is at most max(2, len(s)/3) bytes (a plausible typo), else "". Ties go to
// the earlier candidate. Comparison is byte-exact.
func Closest(s string, candidates []string) string {
	return closest(s, candidates, func(x string) string { return x })
}

// ClosestFold is Closest with case-insensitive comparison (ASCII and Unicode
// simple folding via strings.ToLower); it returns the candidate as spelled
// in candidates.
func ClosestFold(s string, candidates []string) string {
	return closest(s, candidates, strings.ToLower)
}

func closest(s string, candidates []string, norm func(string) string) string {
	ns := norm(s)
	if ns == "" {
		return ""
	}
	prefixed, n := "", 0
	for _, c := range candidates {
		if strings.HasPrefix(norm(c), ns) {
			prefixed = c
			n++
		}
	}
	if n == 1 {
		return prefixed
	}
	best, bestD := "", -1
	for _, c := range candidates {
		d := Distance(ns, norm(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > max(2, len(ns)/3) {
		return ""
	}
	return best
}

// Distance is the optimal string alignment distance of a and b counted in
// bytes: the Levenshtein distance (insertions, deletions and substitutions
// each cost 1) where swapping two adjacent bytes also costs 1, the most
// common typo ("MTI" is 1 from "MIT", 2 from "FTL").
func Distance(a, b string) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(a)][len(b)]
}
