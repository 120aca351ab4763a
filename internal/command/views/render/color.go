package render

import (
	"strings"

	"github.com/mitchellh/colorstring"
)

// escMarker is inserted into user text that looks like color markup so
// that Colorize leaves it alone; Colorize removes it again.
const escMarker = "\uE000"

// esc protects user text from being read as color markup.
func esc(s string) string {
	if !strings.Contains(s, "[") {
		return s
	}
	var b strings.Builder
	last := 0
	forEachCode(s, func(start, end int, _ string) {
		b.WriteString(s[last : start+1])
		b.WriteString(escMarker)
		last = start + 1
	})
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Colorize turns the markup in text rendered by this package into terminal
// colors, or removes it when disable is true. The markup is colorstring's
// ("[bold]", "[red]", "[reset]"); like colorstring with Reset set, a text
// that used any color ends with a reset.
//
// It gives the same result as colorstring.Colorize.Color without a
// regular expression: plans of thousands of resources are colorized line
// by line, and this is most of their rendering time otherwise.
func Colorize(s string, disable bool) string {
	return colorize(s, disable, true)
}

// ColorizeNoReset is Colorize without the reset at the end, as
// colorstring with Reset unset: for text that places its own resets, as
// Terraform's commands do when they colour a message themselves.
func ColorizeNoReset(s string, disable bool) string {
	return colorize(s, disable, false)
}

func colorize(s string, disable, reset bool) string {
	if strings.IndexByte(s, '[') < 0 {
		return strings.ReplaceAll(s, escMarker, "")
	}
	var b strings.Builder
	last, colored := 0, false
	forEachCode(s, func(start, end int, code string) {
		if !colored {
			b.Grow(len(s) + 16)
			colored = true
		}
		b.WriteString(s[last:start])
		if !disable {
			b.WriteString("\x1b[")
			b.WriteString(code)
			b.WriteByte('m')
		}
		last = end
	})
	if !colored {
		return strings.ReplaceAll(s, escMarker, "")
	}
	b.WriteString(s[last:])
	if reset && !disable {
		b.WriteString("\x1b[0m")
	}
	return strings.ReplaceAll(b.String(), escMarker, "")
}

// forEachCode calls fn, in order, for each color code in s: the markup
// s[start:end] and the terminal code it stands for. Markup is a name of
// colorstring.DefaultColors in brackets; a bracketed word that is not a
// color name is text.
func forEachCode(s string, fn func(start, end int, code string)) {
	for i := 0; i < len(s); i++ {
		if s[i] != '[' {
			continue
		}
		j := i + 1
		for j < len(s) && isMarkupByte(s[j]) {
			j++
		}
		if j == i+1 || j == len(s) || s[j] != ']' {
			continue
		}
		if code, ok := colorstring.DefaultColors[s[i+1:j]]; ok {
			fn(i, j+1, code)
		}
		i = j
	}
}

// isMarkupByte reports whether c may appear inside markup brackets.
func isMarkupByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
