package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EOutputWithoutState: output in a directory with no state, in
// every form, has Terraform's exit code and warning: a warning and exit 0,
// except -json NAME, which is an error.
func TestE2EOutputWithoutState(t *testing.T) {
	t.Parallel()
	forms := [][]string{{}, {"x"}, {"-raw", "x"}, {"-json"}, {"-json", "x"}}
	type outcome struct {
		code    int
		warning bool
	}
	run := func(bin string) []outcome {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "output \"x\" {\n  value = \"a\"\n}\n")
		var outs []outcome
		for _, f := range forms {
			r := runIn(t, dir, "", bin, append([]string{"output", "-no-color"}, f...)...)
			outs = append(outs, outcome{r.code, strings.Contains(r.stdout, "Warning: No outputs found")})
		}
		return outs
	}
	got := run(strataBin)
	want := []outcome{{0, true}, {0, true}, {0, true}, {0, false}, {1, false}}
	for i := range forms {
		if got[i] != want[i] {
			t.Errorf("output %s: %+v, want %+v", strings.Join(forms[i], " "), got[i], want[i])
		}
	}
	if tf, err := referenceTerraform(); err == nil {
		tfOut := run(tf)
		for i := range forms {
			if got[i] != tfOut[i] {
				t.Errorf("output %s: strata %+v, terraform %+v", strings.Join(forms[i], " "), got[i], tfOut[i])
			}
		}
	}
}
