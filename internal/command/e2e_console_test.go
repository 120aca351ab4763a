package command

import (
	"testing"
)

// TestE2EConsoleTypesMatchTerraform: the console's own type() function
// prints types as terraform console does, and the console works in a
// directory with no configuration.
func TestE2EConsoleTypesMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	dir := t.TempDir() // no configuration at all
	for _, expr := range []string{
		`type(1)`, `type("a")`, `type(true)`, `type(null)`,
		`type([1, "a"])`, `type({a = 1, b = ["x"]})`,
		`type(tolist([1]))`, `type(toset(["a"]))`, `type(tomap({a = 1}))`,
		`type([{a = 1}])`, `type(tolist([{a = 1}]))`, `type(tomap({a = tolist([{b = 1}])}))`,
		`upper("a")`,
	} {
		got := runIn(t, dir, expr+"\n", strataBin, "console")
		want := runIn(t, dir, expr+"\n", tf, "console")
		if got.code != 0 || got.stdout != want.stdout {
			t.Errorf("%s: strata (exit %d)\n%s%s\nterraform\n%s", expr, got.code, got.stdout, got.stderr, want.stdout)
		}
	}
}
