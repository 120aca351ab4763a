package views

import (
	"bufio"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// sourceSnippet is the part of a file a diagnostic shows: the whole lines
// its subject (widened to its context, when it has one) touches, and where
// the subject lies in them. Human and JSON diagnostics render the same
// snippet, as Terraform's do.
type sourceSnippet struct {
	// Code is the lines, joined with "\n", carriage returns dropped.
	Code string
	// StartLine is the number of Code's first line.
	StartLine int
	// HighlightStart and HighlightEnd are byte offsets in Code of the
	// subject, clamped to Code.
	HighlightStart, HighlightEnd int
}

// snippetOf computes the snippet of subject (and context, which may be
// nil) in src. A line belongs to the snippet when its bytes (the newline
// excluded) overlap the range, so a subject that ends at the start of a
// line (the newline before it is the token in error) leaves that line out
// unless the context reaches into it. ok is false when no line qualifies.
func snippetOf(subject hcl.Range, context *hcl.Range, src []byte) (sourceSnippet, bool) {
	highlight := subject
	// Some diagnostic sources leave the end of the subject unset.
	if highlight.End == (hcl.Pos{}) {
		highlight.End = highlight.Start
	}
	rng := highlight
	if context != nil {
		rng = hcl.RangeOver(rng, *context)
	}
	if rng.Empty() {
		rng.End.Byte++
		rng.End.Column++
	}
	sc := hcl.NewRangeScanner(src, rng.Filename, bufio.ScanLines)
	var code strings.Builder
	start, startLine, found := 0, 0, false
	for sc.Scan() {
		line := sc.Range()
		if !line.Overlaps(rng) {
			if found {
				break
			}
			continue
		}
		if !found {
			start, startLine, found = line.Start.Byte, line.Start.Line, true
		} else {
			code.WriteByte('\n')
		}
		code.Write(line.SliceBytes(src))
	}
	if !found {
		if highlight.Start.Byte >= len(src) && highlight.Start.Line > 0 {
			// A subject at the end of the file, on the empty line after
			// its last newline ("found the end of the file"): Terraform
			// shows that line, empty.
			return sourceSnippet{StartLine: highlight.Start.Line}, true
		}
		return sourceSnippet{}, false
	}
	s := sourceSnippet{Code: code.String(), StartLine: startLine}
	clamp := func(n int) int { return min(max(n, 0), len(s.Code)) }
	s.HighlightStart = clamp(highlight.Start.Byte - start)
	s.HighlightEnd = max(clamp(highlight.End.Byte-start), s.HighlightStart)
	return s, true
}
