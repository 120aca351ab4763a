package format

import (
	"bytes"
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines shown around each change,
// the default of "diff -u".
const diffContext = 3

// UnifiedDiff returns a unified diff (like "diff -u", the format
// "terraform fmt -diff" prints) between old and new contents, labelled with
// name, or "" if they are equal.
//
// The headers are "--- old/NAME" and "+++ new/NAME" without timestamps, as
// terraform prints them. Lines are compared byte for byte, so a carriage
// return before a newline is part of the line, and a final line without a
// newline is followed by the "\ No newline at end of file" marker.
//
// The diff is always a shortest one. Where several are equally short, the
// choice follows GNU diff (which terraform runs) in the common cases,
// notably lines changed in place, but may differ from it in others.
func UnifiedDiff(name string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	a := splitLines(old)
	b := splitLines(new)
	edits := diffLines(a, b)

	var sb strings.Builder
	fmt.Fprintf(&sb, "--- old/%s\n+++ new/%s\n", name, name)
	for _, h := range makeHunks(edits) {
		h.write(&sb, edits, a, b)
	}
	return sb.String()
}

// splitLines splits s into lines, each keeping its terminating newline. The
// last line lacks one if s does not end with a newline.
func splitLines(s []byte) []string {
	var lines []string
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, string(s))
			break
		}
		lines = append(lines, string(s[:i+1]))
		s = s[i+1:]
	}
	return lines
}

type editKind uint8

const (
	editEqual editKind = iota
	editDelete
	editInsert
)

// edit is one step of an edit script turning a into b: keep a[ai] (which
// equals b[bi]), delete a[ai], or insert b[bi]. Either way ai and bi are
// the positions reached in both files.
type edit struct {
	kind   editKind
	ai, bi int
}

// diffLines computes a shortest edit script from a to b, listing the
// deletions of each group of changes before its insertions, as diff prints
// them.
func diffLines(a, b []string) []edit {
	changedA := make([]bool, len(a))
	changedB := make([]bool, len(b))

	// A line that does not occur at all in the other file is certainly
	// changed. Leaving such lines out of the search makes it cheaper, and
	// also steers it, where there is a choice, towards the alignments diff
	// picks, since diff does the same.
	keptA := keepShared(a, b, changedA)
	keptB := keepShared(b, a, changedB)

	d := &differ{
		a:        pick(a, keptA),
		b:        pick(b, keptB),
		changedA: make([]bool, len(keptA)),
		changedB: make([]bool, len(keptB)),
	}
	size := len(d.a) + len(d.b) + 3 // diagonals -len(b)-1 to len(a)+1
	d.fwd = make([]int, size)
	d.bwd = make([]int, size)
	d.compare(0, len(d.a), 0, len(d.b))
	for i, c := range d.changedA {
		changedA[keptA[i]] = c
	}
	for i, c := range d.changedB {
		changedB[keptB[i]] = c
	}

	// A shortest edit script is often not unique; move the changes to where
	// diff would show them before turning the flags into a script.
	slideChanges(a, changedA, changedB)
	slideChanges(b, changedB, changedA)
	return buildEdits(changedA, changedB)
}

// keepShared returns the indexes of the lines of lines that also occur in
// other, flagging the rest in changed.
func keepShared(lines, other []string, changed []bool) []int {
	inOther := make(map[string]bool, len(other))
	for _, l := range other {
		inOther[l] = true
	}
	var kept []int
	for i, l := range lines {
		if inOther[l] {
			kept = append(kept, i)
		} else {
			changed[i] = true
		}
	}
	return kept
}

// pick returns the lines at the given indexes.
func pick(lines []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = lines[j]
	}
	return out
}

// differ finds which lines of a and b are not part of a longest common
// subsequence, using the linear-space divide-and-conquer form of Myers'
// O((N+M)D) algorithm ("An O(ND) Difference Algorithm and Its Variations",
// 1986), so that even a completely rewritten file needs little memory.
type differ struct {
	a, b               []string
	changedA, changedB []bool
	// fwd and bwd hold, per diagonal, how far the forward and backward
	// searches of the current midpoint call have got.
	fwd, bwd []int
}

// compare marks the changed lines between a[aLo:aHi] and b[bLo:bHi].
func (d *differ) compare(aLo, aHi, bLo, bHi int) {
	for aLo < aHi && bLo < bHi && d.a[aLo] == d.b[bLo] {
		aLo++
		bLo++
	}
	for aLo < aHi && bLo < bHi && d.a[aHi-1] == d.b[bHi-1] {
		aHi--
		bHi--
	}
	switch {
	case aLo == aHi:
		for i := bLo; i < bHi; i++ {
			d.changedB[i] = true
		}
	case bLo == bHi:
		for i := aLo; i < aHi; i++ {
			d.changedA[i] = true
		}
	default:
		x, y := d.midpoint(aLo, aHi, bLo, bHi)
		d.compare(aLo, x, bLo, y)
		d.compare(x, aHi, y, bHi)
	}
}

// midpoint returns a point (x, y) that an optimal path from (aLo, bLo) to
// (aHi, bHi) goes through, found by searching from both ends at once until
// the searches meet. The ranges must be non-empty and differ in their first
// and in their last lines, which puts the point strictly between the ends.
func (d *differ) midpoint(aLo, aHi, bLo, bHi int) (int, int) {
	n, m := aHi-aLo, bHi-bLo
	delta := n - m
	odd := delta%2 != 0

	// Coordinates are relative to the subproblem. The forward search works
	// on diagonals k = x - y from the start; the backward one on the
	// diagonals of the reversed problem, where u and v count lines back from
	// the end, so that forward diagonal k is backward diagonal delta-k.
	// Either way the diagonals that stay within the grid are -m to n.
	fwd := search{v: d.fwd[:n+m+3], off: m + 1, n: n, m: m}
	bwd := search{v: d.bwd[:n+m+3], off: m + 1, n: n, m: m}
	fwd.v[fwd.off] = 0
	bwd.v[bwd.off] = 0
	fwdEqual := func(x, y int) bool { return d.a[aLo+x] == d.b[bLo+y] }
	bwdEqual := func(u, v int) bool { return d.a[aHi-1-u] == d.b[bHi-1-v] }

	for {
		// Once the searches cover diagonals in common they meet as soon as
		// their paths on one diagonal overlap. With an odd delta that first
		// happens during a forward step, otherwise during a backward one.
		fwd.extend()
		for k := fwd.hi; k >= fwd.lo; k -= 2 {
			x, y := fwd.advance(k, fwdEqual)
			if kb := delta - k; odd && bwd.lo <= kb && kb <= bwd.hi && x+bwd.v[bwd.off+kb] >= n {
				return aLo + x, bLo + y
			}
		}
		bwd.extend()
		for k := bwd.hi; k >= bwd.lo; k -= 2 {
			u, v := bwd.advance(k, bwdEqual)
			if kf := delta - k; !odd && fwd.lo <= kf && kf <= fwd.hi && fwd.v[fwd.off+kf]+u >= n {
				return aHi - u, bHi - v
			}
		}
	}
}

// search is the state of one direction of midpoint's search: for each
// diagonal k from lo to hi (in steps of two), v[off+k] is the furthest x
// reached on it by a path with the current number of edits.
type search struct {
	v      []int
	off    int
	n, m   int
	lo, hi int
}

// extend widens the range of diagonals by one in each direction, for a path
// one edit longer, without leaving the grid. At an edge the range shrinks by
// one instead, which keeps the diagonals at the right parity. Diagonals
// newly just outside the range get a sentinel below any real x, so that
// advance never takes a step from them.
func (s *search) extend() {
	if s.lo > -s.m {
		s.lo--
		s.v[s.off+s.lo-1] = -1
	} else {
		s.lo++
	}
	if s.hi < s.n {
		s.hi++
		s.v[s.off+s.hi+1] = -1
	} else {
		s.hi--
	}
}

// advance moves the search on diagonal k one edit further: one deletion
// along from diagonal k-1 or one insertion down from diagonal k+1,
// whichever gets further (the deletion on a tie), then along the diagonal
// for as long as lines match. It returns the point reached.
func (s *search) advance(k int, equal func(x, y int) bool) (int, int) {
	var x int
	if from, down := s.v[s.off+k-1], s.v[s.off+k+1]; from >= down {
		x = from + 1
	} else {
		x = down
	}
	y := x - k
	for x < s.n && y < s.m && equal(x, y) {
		x++
		y++
	}
	s.v[s.off+k] = x
	return x, y
}

// slideChanges moves runs of changed lines within lines (flagged in
// changed) to where diff would print them. A shortest edit script is often
// not unique: deleting one of several identical adjacent lines can be shown
// at any of them. Each run is slid as far as equal lines allow, merging with
// any neighbouring runs it meets, and then left at the lowest position,
// unless it can sit opposite a run of changes in the other file (other
// holding that file's flags), in which case the last such position is used,
// so that the two read as one replacement. This mirrors GNU diff, which
// terraform fmt -diff runs.
func slideChanges(lines []string, changed, other []bool) {
	// otherGap[g] reports whether the other file has changed lines between
	// its g-th and (g+1)-th unchanged lines; runs in the two files that share
	// a gap are printed together.
	var otherGap []bool
	gapChanged := false
	for _, c := range other {
		if c {
			gapChanged = true
			continue
		}
		otherGap = append(otherGap, gapChanged)
		gapChanged = false
	}
	otherGap = append(otherGap, gapChanged)

	n := len(lines)
	unchanged := 0 // unchanged lines before i
	for i := 0; ; {
		for i < n && !changed[i] {
			i++
			unchanged++
		}
		if i == n {
			return
		}
		start, end := i, i
		for end < n && changed[end] {
			end++
		}
		gap := unchanged // the gap the run [start, end) sits in

		var best int
		for {
			size := end - start
			// Upwards, while the line above the run equals its last line.
			for start > 0 && lines[start-1] == lines[end-1] {
				start--
				end--
				gap--
				changed[start], changed[end] = true, false
				for start > 0 && changed[start-1] {
					start--
				}
			}
			best = -1
			if otherGap[gap] {
				best = end
			}
			// Downwards, while the line below the run equals its first line.
			for end < n && lines[start] == lines[end] {
				changed[start], changed[end] = false, true
				start++
				end++
				gap++
				for end < n && changed[end] {
					end++
				}
				if otherGap[gap] {
					best = end
				}
			}
			if end-start == size {
				break // no merges this time round, so the run is final
			}
		}
		for best >= 0 && end > best {
			start--
			end--
			gap--
			changed[start], changed[end] = true, false
		}
		i = end
		unchanged = gap
	}
}

// buildEdits turns the changed-line flags of both files into an edit
// script, listing the deletions of each group of changes before its
// insertions, as diff prints them.
func buildEdits(changedA, changedB []bool) []edit {
	var edits []edit
	i, j := 0, 0
	for i < len(changedA) || j < len(changedB) {
		for ; i < len(changedA) && changedA[i]; i++ {
			edits = append(edits, edit{editDelete, i, j})
		}
		for ; j < len(changedB) && changedB[j]; j++ {
			edits = append(edits, edit{editInsert, i, j})
		}
		if i < len(changedA) && j < len(changedB) {
			edits = append(edits, edit{editEqual, i, j})
			i++
			j++
		}
	}
	return edits
}

// hunk is a half-open range [start, end) of an edit script.
type hunk struct {
	start, end int
}

// makeHunks splits the edit script into hunks, each covering a group of
// changes plus up to diffContext unchanged lines either side. Changes
// separated by no more than twice that many unchanged lines share a hunk, so
// that no context line is printed twice.
func makeHunks(edits []edit) []hunk {
	var hunks []hunk
	lastChange := -1
	for i, e := range edits {
		if e.kind == editEqual {
			continue
		}
		if lastChange >= 0 && i-lastChange-1 <= 2*diffContext {
			hunks[len(hunks)-1].end = min(i+1+diffContext, len(edits))
		} else {
			hunks = append(hunks, hunk{
				start: max(i-diffContext, 0),
				end:   min(i+1+diffContext, len(edits)),
			})
		}
		lastChange = i
	}
	return hunks
}

func (h hunk) write(sb *strings.Builder, edits []edit, a, b []string) {
	// Count the lines of each side in the hunk.
	aCount, bCount := 0, 0
	for _, e := range edits[h.start:h.end] {
		switch e.kind {
		case editEqual:
			aCount++
			bCount++
		case editDelete:
			aCount++
		case editInsert:
			bCount++
		}
	}
	// Every edit records the position on both sides, so the first one gives
	// where the hunk starts in each file.
	first := edits[h.start]
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(first.ai, aCount), hunkRange(first.bi, bCount))
	for _, e := range edits[h.start:h.end] {
		switch e.kind {
		case editEqual:
			writeLine(sb, ' ', a[e.ai])
		case editDelete:
			writeLine(sb, '-', a[e.ai])
		case editInsert:
			writeLine(sb, '+', b[e.bi])
		}
	}
}

// hunkRange formats the range of a hunk header for lines starting at the
// zero-based index start: "L,N" with one-based L, or just "L" when N is 1.
// An empty range names the line before it, as diff and patch expect.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	default:
		return fmt.Sprintf("%d,%d", start+1, count)
	}
}

func writeLine(sb *strings.Builder, prefix byte, line string) {
	sb.WriteByte(prefix)
	sb.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		sb.WriteString("\n\\ No newline at end of file\n")
	}
}
