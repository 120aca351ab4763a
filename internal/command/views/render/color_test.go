package render

import (
	"strings"
	"testing"

	"github.com/mitchellh/colorstring"
)

var colorInputs = []string{
	"",
	"plain text",
	"[bold]x[reset]",
	"[reset][bold]terraform_data.r1: Refreshing state... [id=abc][reset]\n",
	"[BOLD]upper case is not a color name",
	"[[bold]nested",
	"[bold",
	"bold]",
	"[]",
	"[unknown] word",
	"a[red]b[green]c[yellow]d",
	"[dark_gray]x[light_blue]y",
	"tail [",
	"[" + escMarker + "bold] escaped",
	"each.key = \"[red]\"",
	"[-] [_] [0]",
	"ünïcode [bold]ok[reset] ✓",
}

// TestColorizeMatchesColorstring pins Colorize and ColorizeNoReset to
// colorstring's reading of the markup (with and without Reset), which
// they replace for speed.
func TestColorizeMatchesColorstring(t *testing.T) {
	for _, in := range colorInputs {
		for _, disable := range []bool{false, true} {
			c := colorstring.Colorize{Colors: colorstring.DefaultColors, Disable: disable, Reset: true}
			want := strings.ReplaceAll(c.Color(in), escMarker, "")
			if got := Colorize(in, disable); got != want {
				t.Errorf("Colorize(%q, %v) = %q, colorstring gives %q", in, disable, got, want)
			}
			c.Reset = false
			want = strings.ReplaceAll(c.Color(in), escMarker, "")
			if got := ColorizeNoReset(in, disable); got != want {
				t.Errorf("ColorizeNoReset(%q, %v) = %q, colorstring without Reset gives %q", in, disable, got, want)
			}
		}
	}
}

// TestEscKeepsUserTextLiteral checks that escaped user text comes out of
// Colorize unchanged, color names included.
func TestEscKeepsUserTextLiteral(t *testing.T) {
	for _, in := range colorInputs {
		if strings.Contains(in, escMarker) {
			continue
		}
		if got := Colorize(esc(in), false); got != in {
			t.Errorf("Colorize(esc(%q)) = %q", in, got)
		}
	}
}

func FuzzColorize(f *testing.F) {
	for _, in := range colorInputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c := colorstring.Colorize{Colors: colorstring.DefaultColors, Reset: true}
		want := strings.ReplaceAll(c.Color(in), escMarker, "")
		if got := Colorize(in, false); got != want {
			t.Errorf("Colorize(%q) = %q, colorstring gives %q", in, got, want)
		}
	})
}

func BenchmarkColorize(b *testing.B) {
	line := "[reset][bold]terraform_data.r1234: Refreshing state... [id=4b2f6c1e-9d0a-4c55-8e1f-0a7b3c2d1e0f][reset]\n"
	for i := 0; i < b.N; i++ {
		Colorize(line, false)
	}
}

func BenchmarkColorstring(b *testing.B) {
	line := "[reset][bold]terraform_data.r1234: Refreshing state... [id=4b2f6c1e-9d0a-4c55-8e1f-0a7b3c2d1e0f][reset]\n"
	c := colorstring.Colorize{Colors: colorstring.DefaultColors, Reset: true}
	for i := 0; i < b.N; i++ {
		strings.ReplaceAll(c.Color(line), escMarker, "")
	}
}
