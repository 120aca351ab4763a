package render

// pairIdx pairs an element of the before sequence with an element of the
// after sequence; -1 marks a side where the element does not exist.
type pairIdx struct{ b, a int }

// alignSeq decides which elements of two sequences correspond, given a
// comparison key for every element (equal keys mean equal elements).
//
// Sequences of equal length are compared index by index unless every
// element of before still appears in after (a pure reordering), in which
// case, as for sequences of different lengths, the longest common
// subsequence is kept and the remaining elements become deletions and
// additions. pairable reports whether a deleted before element and an added
// after element found at the same step should be shown as one update
// (Terraform does so for objects).
func alignSeq(bk, ak []string, pairable func(b, a int) bool) []pairIdx {
	n, m := len(bk), len(ak)
	if n == m && n > 0 && !allIn(bk, ak) {
		out := make([]pairIdx, n)
		for i := range out {
			out[i] = pairIdx{i, i}
		}
		return out
	}

	lcs := longestCommon(bk, ak)
	var out []pairIdx
	bi, ai, li := 0, 0, 0
	for bi < n || ai < m || li < len(lcs) {
		for bi < n && (li >= len(lcs) || bk[bi] != lcs[li]) {
			if pairable != nil && ai < m && (li >= len(lcs) || ak[ai] != lcs[li]) && pairable(bi, ai) {
				out = append(out, pairIdx{bi, ai})
				bi++
				ai++
				continue
			}
			out = append(out, pairIdx{bi, -1})
			bi++
		}
		for ai < m && (li >= len(lcs) || ak[ai] != lcs[li]) {
			out = append(out, pairIdx{-1, ai})
			ai++
		}
		if li < len(lcs) {
			out = append(out, pairIdx{bi, ai})
			bi++
			ai++
			li++
		}
	}
	return out
}

// allIn reports whether every key of xs occurs in ys.
func allIn(xs, ys []string) bool {
	set := make(map[string]bool, len(ys))
	for _, y := range ys {
		set[y] = true
	}
	for _, x := range xs {
		if !set[x] {
			return false
		}
	}
	return true
}

// longestCommon returns a longest common subsequence of xs and ys. When
// several exist, the choice made walking back from the ends (preferring to
// drop an element of ys on ties) decides which, matching Terraform's output.
func longestCommon(xs, ys []string) []string {
	if len(xs) == 0 || len(ys) == 0 {
		return nil
	}
	w := len(xs)
	c := make([]int, len(xs)*len(ys))
	at := func(x, y int) int {
		if x < 0 || y < 0 {
			return 0
		}
		return c[y*w+x]
	}
	for y := range ys {
		for x := range xs {
			if xs[x] == ys[y] {
				c[y*w+x] = at(x-1, y-1) + 1
			} else {
				c[y*w+x] = max(at(x-1, y), at(x, y-1))
			}
		}
	}
	seq := make([]string, c[len(c)-1])
	i := len(seq) - 1
	for x, y := len(xs)-1, len(ys)-1; x >= 0 && y >= 0; {
		switch {
		case xs[x] == ys[y]:
			seq[i] = xs[x]
			i--
			x--
			y--
		case at(x-1, y) > at(x, y-1):
			x--
		default:
			y--
		}
	}
	return seq
}
