package scenarios

import "strings"

// closest returns the candidate nearest to s (case-insensitive edit distance), if it is near
// enough to be a likely typo: at most 2 edits, and fewer than half of s's letters.
func closest(s string, candidates []string) (string, bool) {
	best, bestDist := "", -1
	ls := strings.ToLower(s)
	for _, c := range candidates {
		dist := editDistance(ls, strings.ToLower(c))
		if bestDist < 0 || dist < bestDist {
			best, bestDist = c, dist
		}
	}
	if bestDist < 0 || bestDist > 2 || 2*bestDist >= len([]rune(s)) {
		return "", false
	}
	return best, true
}

// editDistance is the Levenshtein distance between a and b, counted in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
