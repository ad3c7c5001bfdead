// Package suggest answers "did you mean": the candidate closest to a
// mistyped name, by the similarity Python's difflib computes, so that our
// suggestions agree with Hermes' own (get_close_matches). It knows no
// events, keys or agents: callers pass the names they accept.
package suggest

// Closest returns the candidate closest to word when its similarity is at
// least 0.6, else "". Similarity is the Ratcliff/Obershelp ratio that
// Python's difflib.SequenceMatcher computes (2·matches / total length), so our
// did-you-mean agrees with Hermes' (get_close_matches(word, candidates, n=1,
// cutoff=0.6)); among equal scores difflib keeps the lexically greatest
// candidate, and so do we.
func Closest(word string, candidates []string) string { return ClosestCutoff(word, candidates, 0.6) }

// ClosestCutoff is Closest with another similarity cutoff: a higher one
// for names among many that are not ours (the top-level keys of Hermes'
// config).
func ClosestCutoff(word string, candidates []string, cutoff float64) string {
	w := []rune(word)
	best, bestScore := "", 0.0
	for _, c := range candidates {
		// difflib's real_quick_ratio: no more can match than the shorter
		// has, so a candidate whose length is too far from the word's is
		// passed over unscored. Exact (the ratio is at most this bound),
		// and it keeps a long word cheap: scoring 500 KB against the
		// event names took serve 14 s of CPU for one 404. The bound is
		// computed as ratio computes a score, so one that reaches the
		// cutoff is never passed over for a rounding.
		cr := []rune(c)
		if total := len(cr) + len(w); total > 0 && 2*float64(min(len(cr), len(w)))/float64(total) < cutoff {
			continue
		}
		r := ratio(cr, w)
		if r < cutoff {
			continue
		}
		if r > bestScore || (r == bestScore && c > best) {
			best, bestScore = c, r
		}
	}
	return best
}

// ratio is difflib's SequenceMatcher(None, a, b).ratio() for inputs shorter
// than 200 runes (above that difflib's autojunk heuristic would kick in; event
// names never get near it, and longer inputs still get a sensible score).
func ratio(a, b []rune) float64 {
	total := len(a) + len(b)
	if total == 0 {
		return 1
	}
	b2j := make(map[rune][]int, len(b))
	for j, r := range b {
		b2j[r] = append(b2j[r], j)
	}
	matches := 0
	type span struct{ alo, ahi, blo, bhi int }
	queue := []span{{0, len(a), 0, len(b)}}
	for len(queue) > 0 {
		s := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		i, j, k := longestMatch(a, b2j, s.alo, s.ahi, s.blo, s.bhi)
		if k == 0 {
			continue
		}
		matches += k
		if s.alo < i && s.blo < j {
			queue = append(queue, span{s.alo, i, s.blo, j})
		}
		if i+k < s.ahi && j+k < s.bhi {
			queue = append(queue, span{i + k, s.ahi, j + k, s.bhi})
		}
	}
	return 2 * float64(matches) / float64(total)
}

// longestMatch finds the longest common block of a[alo:ahi] and b[blo:bhi],
// preferring the earliest start in a, then in b (difflib's tie rule).
func longestMatch(a []rune, b2j map[rune][]int, alo, ahi, blo, bhi int) (int, int, int) {
	besti, bestj, bestsize := alo, blo, 0
	j2len := map[int]int{}
	for i := alo; i < ahi; i++ {
		next := map[int]int{}
		for _, j := range b2j[a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := j2len[j-1] + 1
			next[j] = k
			if k > bestsize {
				besti, bestj, bestsize = i-k+1, j-k+1, k
			}
		}
		j2len = next
	}
	return besti, bestj, bestsize
}
