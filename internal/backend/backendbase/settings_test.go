package backendbase

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

func TestSettingsEnvironmentFallback(t *testing.T) {
	env := map[string]string{"S": "from-env", "B": "true", "BAD_B": "maybe", "N": "7", "BAD_N": "-1"}
	s := &Settings{
		Values: map[string]cty.Value{"s": cty.StringVal("set"), "b": cty.False, "n": cty.NumberIntVal(3), "frac": cty.NumberFloatVal(1.5)},
		Getenv: func(k string) string { return env[k] },
	}
	tests := map[string]struct {
		get      func(*hcl.Diagnostics) any
		want     any
		wantDiag string
	}{
		"string set wins over env": {func(*hcl.Diagnostics) any { return s.String("s", "S") }, "set", ""},
		"string from env":          {func(*hcl.Diagnostics) any { return s.String("other", "S") }, "from-env", ""},
		"string with no env":       {func(*hcl.Diagnostics) any { return s.String("other", "") }, "", ""},
		"bool set wins over env":   {func(d *hcl.Diagnostics) any { return s.Bool("b", "B", d) }, false, ""},
		"bool from env":            {func(d *hcl.Diagnostics) any { return s.Bool("other", "B", d) }, true, ""},
		"bool unset":               {func(d *hcl.Diagnostics) any { return s.Bool("other", "NONE", d) }, false, ""},
		"bool env not a bool": {func(d *hcl.Diagnostics) any { return s.Bool("other", "BAD_B", d) }, false,
			`The environment variable BAD_B must be true or false, not "maybe".`},
		"int set":      {func(d *hcl.Diagnostics) any { return s.Int("n", "N", 5, d) }, 3, ""},
		"int from env": {func(d *hcl.Diagnostics) any { return s.Int("other", "N", 5, d) }, 7, ""},
		"int default":  {func(d *hcl.Diagnostics) any { return s.Int("other", "NONE", 5, d) }, 5, ""},
		"int env negative": {func(d *hcl.Diagnostics) any { return s.Int("other", "BAD_N", 5, d) }, -1,
			`The environment variable BAD_N must be a whole number, not "-1".`},
		"int set not whole": {func(d *hcl.Diagnostics) any { return s.Int("frac", "N", 5, d) }, 1,
			"frac must be a whole number of at least 0."},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var diags hcl.Diagnostics
			got := tc.get(&diags)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
			gotDiag := ""
			if len(diags) > 0 {
				gotDiag = diags[0].Detail
				if diags[0].Summary != "Invalid backend configuration" {
					t.Errorf("summary %q", diags[0].Summary)
				}
			}
			if gotDiag != tc.wantDiag {
				t.Errorf("diagnostic %q, want %q", gotDiag, tc.wantDiag)
			}
		})
	}
}

func TestWithDefault(t *testing.T) {
	tests := map[string]struct{ in, want []string }{
		"none":                {nil, []string{"default"}},
		"default listed last": {[]string{"b", "default", "a"}, []string{"default", "a", "b"}},
		"no default":          {[]string{"z", "m"}, []string{"default", "m", "z"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, WithDefault(tc.in)); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
		})
	}
}
